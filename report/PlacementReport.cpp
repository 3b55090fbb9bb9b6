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
  const auto handle_json = [&](const fw::Placement::HandleFigures& f, ordered_json j) {
    const double media = double(f.pages_programmed) * page_bytes;
    const double host = double(f.host_units) * unit_bytes;
    j.update(ordered_json{{"host_bytes", host},
                          {"media_bytes", media},
                          {"copied_units", f.copied_units},
                          {"blocks_erased", f.blocks_erased},
                          {"waf", ratio(media, host)}});
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
  return line + "\n";
}

}  // namespace ssd::report
