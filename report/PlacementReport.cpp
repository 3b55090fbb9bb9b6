#include "report/PlacementReport.h"

#include <cstdio>

#include "firmware/StatisticsJson.h"
#include "firmware/ftl/PageLevelFtl.h"

namespace ssd::report {
namespace {

using nlohmann::ordered_json;

}  // namespace

ordered_json placement_json(const ReportInputs& in) {
  const config::DriveConfig& cfg = in.cfg;
  if (!cfg.ftl.fdp.enabled) return nullptr;
  const auto& fw = in.ssd.controller().firmware();
  const auto& ftl = dynamic_cast<const fw::PageLevelFtl&>(fw.ftl());
  const fw::Placement& p = ftl.placement();
  const double unit_bytes = double(cfg.unit_bytes());
  const double page_bytes = double(cfg.flash.page_bytes);
  const double block_bytes = page_bytes * cfg.flash.pages_per_block;
  const uint32_t lanes =
      cfg.ftl.allocation == config::Allocation::ChannelFirst ? 1 : cfg.flash.planes_per_die;
  ordered_json r = {{"handles", p.handles()},
                    {"isolation", to_string(cfg.ftl.fdp.isolation)},
                    {"reclaim_groups", 1},
                    {"reclaim_unit_bytes", uint64_t(block_bytes) * lanes * cfg.flash.dies()}};
  ordered_json figures = ordered_json::object();
  add_figures(figures, in.ssd.controller().statistics(), "fdp");
  for (auto& [key, value] : figures["fdp"].items()) r[key] = value;
  // NVMe FDP's statistics log page, in bytes: what the host wrote (its units), what the media
  // took (every page programmed: host, copies, padding, mapping pages) and what it erased.
  const fw::FtlStats& s = ftl.stats();
  const double host_bytes = double(fw.stats().page_writes) * unit_bytes;
  const double media_bytes = double(s.pages_programmed) * page_bytes;
  r["host_bytes_written"] = host_bytes;
  r["media_bytes_written"] = media_bytes;
  r["media_bytes_erased"] = double(s.blocks_erased) * block_bytes;
  r["waf"] = ratio(media_bytes, host_bytes);
  // A handle's figures and NVMe FDP's events on it; GC's shared blocks have no reclaim unit a
  // host updates or the drive changes, only media reallocated.
  const auto handle_json = [&](const fw::Placement::HandleFigures& f, ordered_json j) {
    const double media = double(f.pages_programmed) * page_bytes;
    const double host = double(f.host_units) * unit_bytes;
    const bool handle = j.contains("handle");
    j.update(ordered_json{{"host_bytes", host},
                          {"media_bytes", media},
                          {"copied_units", f.copied_units},
                          {"blocks_erased", f.blocks_erased},
                          {"waf", ratio(media, host)}});
    if (handle)
      j.update(ordered_json{{"ruh_updates", f.ruh_updates},
                            {"unwritten_bytes", double(f.pages_unwritten) * page_bytes}});
    j["units_reallocated"] = f.units_reallocated;
    ordered_json events = {{"media_reallocated", f.media_reallocated}};
    if (handle)
      events = {{"ru_not_written_to_capacity", f.ru_not_fully_written},
                {"media_reallocated", f.media_reallocated},
                {"implicitly_modified_ruh", f.implicit_ru_changes}};
    j["events"] = std::move(events);
    return j;
  };
  ordered_json handles = ordered_json::array();
  for (uint32_t h = 0; h < p.handles(); ++h)
    handles.push_back(handle_json(p.figures()[h], ordered_json{{"handle", h}}));
  r["per_handle"] = std::move(handles);
  // Initially isolated: the blocks GC's copies of every handle share.
  if (!p.persistent())
    r["gc_shared"] = handle_json(p.figures()[p.handles()], ordered_json::object());
  return r;
}

std::string placement_summary(const ordered_json& report) {
  if (!report.contains("fdp")) return "";
  const ordered_json& f = report["fdp"];
  const auto waf = [](const ordered_json& w) {
    if (w.is_null()) return std::string("-");
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", w.get<double>());
    return std::string(text);
  };
  std::string line = "  fdp        " + std::to_string(f["handles"].get<unsigned>()) + " handles (" +
                     f["isolation"].get<std::string>() + "): WAF " + waf(f["waf"]) + "; per handle";
  for (const ordered_json& h : f["per_handle"]) line += " " + waf(h["waf"]);
  // FDP's events, when there were any.
  uint64_t short_units = 0, reallocated = 0;
  double unwritten = 0;
  for (const ordered_json& h : f["per_handle"]) {
    short_units += h["events"]["ru_not_written_to_capacity"].get<uint64_t>();
    reallocated += h["events"]["media_reallocated"].get<uint64_t>();
    unwritten += h["unwritten_bytes"].get<double>();
  }
  if (f.contains("gc_shared"))
    reallocated += f["gc_shared"]["events"]["media_reallocated"].get<uint64_t>();
  if (f["placement_updates"].get<uint64_t>() != 0) {
    char text[96];
    std::snprintf(text, sizeof text, "; RUH updates %llu (%llu reclaim units left short: %.4g MB)",
                  static_cast<unsigned long long>(f["placement_updates"].get<uint64_t>()),
                  static_cast<unsigned long long>(short_units), unwritten / 1e6);
    line += text;
  }
  if (reallocated != 0) line += "; media reallocated " + std::to_string(reallocated);
  return line + "\n";
}

}  // namespace ssd::report
