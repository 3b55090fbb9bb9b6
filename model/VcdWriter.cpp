#include "model/VcdWriter.h"

#include <algorithm>
#include <utility>

#include "common/Format.h"

namespace ssd::model {
namespace {

// VCD identifiers: printable ASCII 33..126, shortest first.
std::string vcd_id(std::size_t n) {
  std::string id;
  do {
    id.push_back(char(33 + n % 94));
    n /= 94;
  } while (n != 0);
  return id;
}

}  // namespace

VcdWriter::VcdWriter(const std::string& path) : file_(path) {}

void VcdWriter::declare(const std::vector<std::string>& names, const std::vector<double>& initial_ma,
                        const std::vector<std::pair<std::string, double>>& rails,
                        double initial_drive_ma) {
  auto& out = file_.stream();
  out << "$comment ssdtlm supply currents in mA $end\n$timescale 1 ps $end\n";
  out << "$scope module ssd $end\n";
  // Group signals by their dotted prefix (one level: "ch3.w1d0" is w1d0 in scope ch3) so
  // GTKWave shows the hardware hierarchy; scopes keep the order components registered in.
  std::vector<std::pair<std::string, std::vector<std::size_t>>> scopes;
  for (std::size_t i = 0; i < names.size(); ++i) {
    ids_.push_back(vcd_id(i));
    auto dot = names[i].rfind('.');
    const std::string scope = dot == std::string::npos ? "" : names[i].substr(0, dot);
    auto it = std::find_if(scopes.begin(), scopes.end(), [&](const auto& s) { return s.first == scope; });
    if (it == scopes.end()) it = scopes.insert(scopes.end(), {scope, {}});
    it->second.push_back(i);
  }
  for (const auto& [scope, members] : scopes) {
    if (!scope.empty()) out << "$scope module " << scope << " $end\n";
    for (std::size_t i : members) {
      auto dot = names[i].rfind('.');
      const std::string leaf = dot == std::string::npos ? names[i] : names[i].substr(dot + 1);
      out << "$var real 64 " << ids_[i] << ' ' << leaf << "_ma $end\n";
    }
    if (!scope.empty()) out << "$upscope $end\n";
  }
  for (std::size_t r = 0; r < rails.size(); ++r) {
    rail_ids_.push_back(vcd_id(names.size() + r));
    out << "$var real 64 " << rail_ids_[r] << " rail_" << rails[r].first << "_ma $end\n";
  }
  drive_id_ = vcd_id(names.size() + rails.size());
  out << "$var real 64 " << drive_id_ << " drive_total_ma $end\n";
  out << "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n";
  for (std::size_t i = 0; i < names.size(); ++i) value(ids_[i], initial_ma[i]);
  for (std::size_t r = 0; r < rails.size(); ++r) value(rail_ids_[r], rails[r].second);
  value(drive_id_, initial_drive_ma);
  out << "$end\n";
  last_stamp_ = 0;
}

void VcdWriter::stamp(uint64_t t_ps) {
  if (t_ps != last_stamp_) {
    file_.stream() << '#' << t_ps << '\n';
    last_stamp_ = t_ps;
  }
}

void VcdWriter::value(const std::string& id, double v) {
  file_.stream() << 'r' << format_double(v) << ' ' << id << '\n';
}

void VcdWriter::change(uint64_t t_ps, uint32_t component, double current_ma) {
  stamp(t_ps);
  value(ids_[component], current_ma);
}

void VcdWriter::change_rail(uint64_t t_ps, uint32_t rail, double current_ma) {
  stamp(t_ps);
  value(rail_ids_[rail], current_ma);
}

void VcdWriter::change_drive(uint64_t t_ps, double current_ma) {
  stamp(t_ps);
  value(drive_id_, current_ma);
}

void VcdWriter::finish(uint64_t end_ps) {
  stamp(end_ps);
  file_.commit();
}

}  // namespace ssd::model
