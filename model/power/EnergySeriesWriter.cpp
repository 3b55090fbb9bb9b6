#include "model/power/EnergySeriesWriter.h"

#include "common/Format.h"

namespace ssd::model {

EnergySeriesWriter::EnergySeriesWriter(const std::string& path, uint64_t window_ps,
                                       double drive_voltage_v)
    : file_(path), window_ps_(window_ps), drive_voltage_v_(drive_voltage_v) {}

void EnergySeriesWriter::set_groups(const std::vector<std::string>& groups,
                                    const std::vector<std::string>& temperatures) {
  acc_.assign(groups.size(), 0);
  auto& out = file_.stream();
  out << "t_start_s,t_end_s,energy_j,avg_power_w,peak_power_w,avg_current_ma";
  for (const auto& g : groups) out << ',' << g << "_j";
  for (const auto& n : temperatures) out << ",temp_" << n << "_c";
  out << '\n';
}

void EnergySeriesWriter::close_window(uint64_t start_ps, uint64_t end_ps,
                                      const std::vector<double>& temps_c) {
  // nW x ps = 1e-21 J. Divide by powers of ten rather than multiply by their inverses, so
  // round values print round (0.01, not 0.009999999999999998).
  EnergyNwPs total = 0;
  for (EnergyNwPs a : acc_) total += a;
  const double energy_j = double(total) / 1e21;
  const double avg_nw = double(total) / double(end_ps - start_ps);
  auto& out = file_.stream();
  out << format_double(double(start_ps) / 1e12) << ',' << format_double(double(end_ps) / 1e12)
      << ',' << format_double(energy_j) << ',' << format_double(avg_nw / 1e9) << ','
      << format_double(double(window_peak_nw_) / 1e9) << ','
      << format_double(avg_nw / drive_voltage_v_ / 1e6);
  for (EnergyNwPs& a : acc_) {
    out << ',' << format_double(double(a) / 1e21);
    a = 0;
  }
  for (double t : temps_c) out << ',' << format_double(t);
  out << '\n';
  window_peak_nw_ = 0;
  closed_until_ps_ = end_ps;
}

}  // namespace ssd::model
