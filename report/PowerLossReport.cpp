// report.json's `power_loss` (docs/report.md#power-loss).
#include "model/Ssd.h"
#include "report/PowerReport.h"

namespace ssd::report {

using nlohmann::ordered_json;

nlohmann::ordered_json power_loss_json(const ReportInputs& in) {
  const model::HoldUpMeter* meter = in.energy.hold_up();
  const model::controller::PowerLoss& loss = in.ssd.controller().power_loss();
  if (!meter || !loss.flushed()) return nullptr;  // the run ended before the supply failed
  const double at_s = loss.at().to_seconds();
  const double end_s = loss.flush_end().to_seconds();
  const double held_j = double(meter->held_nwps()) * 1e-21;
  const double needed_j = double(meter->used_nwps()) * 1e-21;
  const double flush_s = end_s - at_s;
  const double mean_w = per_second(needed_j, flush_s);
  ordered_json out = {{"at_s", at_s},
                      {"unacknowledged_requests", in.host.unacknowledged},
                      {"flush_started_s", loss.flush_start().to_seconds()},
                      {"flush_ended_s", end_s},
                      {"flush_s", flush_s},
                      {"pages_flushed", loss.flushed_pages()},
                      {"energy_held_j", held_j},
                      {"energy_needed_j", needed_j},
                      {"energy_margin_j", held_j - needed_j},
                      {"mean_power_w", mean_w}};
  // Out before the flush ended: by how long; else how much longer the energy left would last
  // at the flush's mean power.
  if (meter->runs_out_ps()) {
    const double out_s = double(*meter->runs_out_ps()) / 1e12;
    out["runs_out_s"] = out_s;
    out["time_margin_s"] = out_s - end_s;
  } else {
    out["runs_out_s"] = nullptr;
    // A flush of no time (nothing to put on flash) leaves no power to reckon with.
    out["time_margin_s"] =
        mean_w > 0 ? ordered_json((held_j - needed_j) / mean_w) : ordered_json(nullptr);
  }
  if (in.scoreboard) out["acknowledged_units_lost"] = in.scoreboard->lost_by_power_loss;
  return out;
}

}  // namespace ssd::report
