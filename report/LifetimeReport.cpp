#include "report/LifetimeReport.h"

#include <cmath>
#include <cstdio>

namespace ssd::report {
namespace {

nlohmann::ordered_json plan_json(const fw::lifetime::Decision& d) {
  const auto pages = [](double v) {
    return v < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v);
  };
  return {{"dedup", d.dedup},
          {"compression", d.compression},
          {"throttle", d.throttle},
          {"predicted_demand_pages", pages(d.demand)},
          {"capacity_pages", d.capacity},
          {"predicted_writes_pages", pages(d.after)}};
}

}  // namespace

nlohmann::ordered_json lifetime_json(const ReportInputs& in) {
  using nlohmann::ordered_json;
  const auto* lm = in.ssd.controller().firmware().lifetime();
  if (lm == nullptr) return nullptr;
  const auto& cfg = in.cfg.lifetime;
  const auto& s = lm->stats();
  const double programmed = double(in.ssd.controller().flash_counters().programs);
  const double years = lm->projected_years(programmed, in.host.last_completion);
  ordered_json unit_j = ordered_json::object();
  for (const auto& c : in.energy.component_energy()) {
    if (c.name != "dedup_unit" && c.name != "compression_unit") continue;
    double j = 0;
    for (const auto& [state, joules] : c.energy_j) j += joules;
    unit_j[c.name] = j;
  }
  // The wear of the most-erased block: with uneven wear it, not the average, ends the life.
  const auto erases = in.ssd.controller().firmware().ftl().erase_summary();
  const double max_erases = erases ? double(erases->max) : 0;
  const double elapsed_s = in.host.last_completion.to_seconds();
  const ordered_json worst_years =
      max_erases > 0 && elapsed_s > 0
          ? ordered_json(double(cfg.pe_cycles) / (max_erases / elapsed_s) /
                         fw::lifetime::kSecondsPerYear)
          : ordered_json(nullptr);
  ordered_json epochs = ordered_json::array();
  for (const auto& e : lm->epochs()) {
    ordered_json row = plan_json(e.plan);
    row["programmed_pages"] = e.programmed;
    row["demand_pages"] = e.demand;
    epochs.push_back(std::move(row));
  }
  return {
      {"mode", to_string(cfg.mode)},
      {"epoch_s", cfg.epoch_s},
      {"warranty_years", cfg.warranty_years},
      {"pe_cycles", cfg.pe_cycles},
      {"endurance_pages", lm->endurance_pages()},
      {"pages_programmed", programmed},
      {"projected_lifetime_years", std::isinf(years) ? ordered_json(nullptr) : ordered_json(years)},
      {"meets_warranty", years >= cfg.warranty_years},
      {"max_block_erases", max_erases},
      {"worst_block_lifetime_years", worst_years},
      {"blocks_past_pe_limit", max_erases > double(cfg.pe_cycles)},
      {"dedup", {{"pages_hashed", s.pages_hashed}, {"hits", s.dedup_hits}}},
      {"compression",
       {{"pages_compressed", s.pages_compressed},
        {"chunks_compressed", s.chunks_compressed},
        {"chunks_raw", s.chunks_raw},
        {"flash_pages", s.compressed_programs},
        {"decompressions", s.decompressions}}},
      {"host_programs", s.host_programs},
      {"throttling",
       {{"programs_held", s.throttled_programs}, {"delay_s", s.throttle_delay.to_seconds()}}},
      {"unit_busy_s",
       {{"hash", s.hash_time.to_seconds()}, {"compression", s.compress_time.to_seconds()}}},
      {"unit_energy_j", unit_j},
      {"plan", plan_json(lm->plan())},
      {"epochs", epochs}};
}

std::string lifetime_summary(const nlohmann::ordered_json& r) {
  if (!r.contains("lifetime")) return "";
  const auto& l = r["lifetime"];
  char buf[512];
  const auto& y = l["projected_lifetime_years"];
  std::snprintf(buf, sizeof buf,
                "  lifetime   %s: projected %s years (warranty %.6g), dedup hits %llu of %llu, "
                "compressed %llu pages into %llu, %llu programs throttled by %.6g s\n",
                l["mode"].get<std::string>().c_str(),
                y.is_null() ? "unbounded" : std::to_string(y.get<double>()).c_str(),
                l["warranty_years"].get<double>(), l["dedup"]["hits"].get<unsigned long long>(),
                l["dedup"]["pages_hashed"].get<unsigned long long>(),
                l["compression"]["pages_compressed"].get<unsigned long long>(),
                l["compression"]["flash_pages"].get<unsigned long long>(),
                l["throttling"]["programs_held"].get<unsigned long long>(),
                l["throttling"]["delay_s"].get<double>());
  return buf;
}

}  // namespace ssd::report
