#pragma once
// ssdtlm::Ssd: the whole drive as one SystemC module for a virtual platform
// (docs/embedding.md). It builds the drive from a config (a file, or its JSON), its energy
// monitor, and a block-device target socket that takes plain TLM-2.0 generic payloads under
// the base protocol (b_transport and nb_transport; trim and flush through
// ssdtlm::BlockCommand). Bind an initiator socket to socket().
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>

#include "ssdtlm/BlockCommand.h"
#include "ssdtlm/Messages.h"
#include "ssdtlm/WritePlacement.h"

namespace ssd::config {
struct DriveConfig;
}  // namespace ssd::config
namespace ssd::model {
class EnergyMonitor;
class Ssd;
}  // namespace ssd::model

namespace ssdtlm {

struct SsdOptions {
  // Keep the bytes written and return them on reads: a sparse store, so memory follows the
  // data written. Off, the drive only times commands and reads leave the buffer as it is.
  bool backing_store = true;
  // "key=value" changes to the config before it is checked, as the CLI's --set
  // (docs/config.md#overrides-on-the-command-line).
  std::vector<std::string> overrides;
  // Files the drive writes as the simulation runs, as the CLI's --out does
  // (docs/embedding.md#waveforms-and-the-energy-series), into `out_dir` (created if missing;
  // empty: none of them):
  std::string out_dir;
  bool energy_series = false;  // energy.csv: the energy and power per window (power.window_us)
  bool vcd = false;            // current.vcd: the current of every component, rail and group
  bool fst = false;            // current.fst: the same in GTKWave's format (its vcd2fst)
  // Which of the waveforms' signals (fnmatch globs, as --vcd-signals; empty: all), and the
  // span of simulated time they cover (as --vcd-window; vcd_end zero: to the end).
  std::vector<std::string> vcd_signals;
  sc_core::sc_time vcd_start, vcd_end;
};

class Ssd : public sc_core::sc_module {
 public:
  // A config that cannot be read or simulated is SC_REPORT_FATAL(msg::kConfig).
  Ssd(sc_core::sc_module_name name, const std::string& config_path, const SsdOptions& opts = {});
  Ssd(sc_core::sc_module_name name, const char* config_path, const SsdOptions& opts = {})
      : Ssd(name, std::string(config_path), opts) {}
  // The config's JSON itself, as a config file holds it.
  Ssd(sc_core::sc_module_name name, const nlohmann::json& config, const SsdOptions& opts = {});
  ~Ssd() override;

  tlm::tlm_target_socket<>& socket();
  // Bytes addressable through the socket: [0, capacity_bytes()), the namespaces back to back.
  uint64_t capacity_bytes() const;

  // Ends the energy accounting at the current time, or at the drive's last background work
  // if later, and completes the waveform files; call once the simulation is over, before the
  // energy figures.
  void finish();
  double energy_j() const;  // drive energy, from time 0 to the end
  double average_power_w() const;
  double peak_power_w() const;

  // Writes DIR/report.json (DIR created if missing; docs/embedding.md#the-drives-report): the
  // CLI's report of the same drive, from the same code: the commands the socket served with
  // their latency percentiles and where the time went, the flash operations, the firmware's
  // figures, utilisation, energy and power. Calls finish() first, and completes the waveform
  // files. A file that cannot be written is SC_REPORT_ERROR(msg::kReport).
  void write_report(const std::string& dir);
  // The report's few lines, as the CLI prints them after a run (calls finish() first).
  std::string summary();
  // One of those figures by its group and name (figure("gc", "victims")); nullopt when the
  // drive has no such figure, or it is undefined for the run (a ratio of nothing).
  std::optional<double> figure(const std::string& group, const std::string& name) const;

  // The model inside, for the figures not above (internal headers: model/Ssd.h,
  // model/power/EnergyMonitor.h in the source tree).
  ssd::model::Ssd& model();
  ssd::model::EnergyMonitor& monitor();

 private:
  struct Parts;
  static std::unique_ptr<Parts> build(const ssd::config::DriveConfig& cfg, const SsdOptions& opts);
  nlohmann::ordered_json report();  // calls finish()
  Ssd(sc_core::sc_module_name name, const std::shared_ptr<const ssd::config::DriveConfig>& cfg,
      const SsdOptions& opts);
  std::unique_ptr<Parts> parts_;
};

}  // namespace ssdtlm
