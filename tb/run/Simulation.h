#pragma once
// One simulation run: builds the drive and the host, runs the kernel, and produces the report
// (and, when asked, the energy series and the waveforms) in the output directory.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"
#include "report/RunPhases.h"
#include "tb/host/HostRequest.h"
#include "tb/run/Waveform.h"

namespace ssd::tb {

struct RunOptions {
  std::string out_dir;       // empty: write nothing
  WaveformOptions waveform;  // out_dir/current.vcd, current.fst
  bool series = true;        // out_dir/energy.csv
  // out_dir/timeline.csv, a row per interval of this length (tb/run/Timeline.h); zero: none.
  sc_core::sc_time timeline_interval;
  // out_dir/requests.csv (or requests.csv.gz): a line per request; "": none.
  std::string request_log;
  bool reproducible = false;  // leave wall-clock figures out of report.json
  bool progress = false;      // progress line on stderr
  // Fill the drive before measuring (docs/ftl.md#preconditioning): the first
  // precondition_fill of the logical pages in order, then precondition_random x those pages
  // at random among them.
  bool precondition = false;
  double precondition_fill = 1.0;
  double precondition_random = 1.0;
  // Run those writes through the firmware even where the FTL can compute their result in bulk
  // (model::Controller::PreconditionMode).
  bool precondition_simulate = false;
  // A saved aged drive (docs/state.md): written once preconditioning is done, or loaded
  // instead of preconditioning; "": none.
  std::string save_state;
  std::string load_state;
  // The aged-drive cache's folder (tb/run/StateCache.h): with `precondition` and no
  // save_state, the aged drive is loaded from it when there, else preconditioned and stored in
  // it; "": no cache. Beyond state_cache_max_bytes the least recently used files go.
  std::string state_cache;
  uint64_t state_cache_max_bytes = 0;
  // The simulator's build (build_identity()): part of the cache's key.
  std::string build;
  // false: the model is left allocated, for a process that exits after the run; the OS
  // reclaims it at once, where freeing it piece by piece takes a sixth of a long run.
  bool free_model = true;
  // report.json's `provenance` object, added last; null: none (runs built in a test).
  nlohmann::ordered_json provenance;
  // Each flow's figures when it ran alone (its `flows[0]` object of that run), in flow
  // order: the report gives each flow's slowdown and the fairness across them. Empty: none.
  std::vector<nlohmann::ordered_json> flows_alone;
};

struct RunResult {
  nlohmann::ordered_json report;
  std::string summary;       // a few human lines
  bool data_intact = true;   // the scoreboard found no mismatch
  report::RunPhases phases;  // what each phase took (report.json's `phases`)
  // Where the aged drive came from: "preconditioned" in the run, "stored" (preconditioned and
  // stored in the cache), "cache" (loaded from it), "file" (--load-state); "": not aged.
  // `aged_file`: the state file. Also report.json's provenance.aged_drive, when it has one.
  std::string aged_from;
  std::string aged_file;
  // Problems with the cache the run went on without (a damaged file rebuilt, a store failed).
  std::vector<std::string> cache_warnings;
  // The cache's least recently used files removed to keep it within its cap.
  std::vector<std::string> evicted;
};

// Replaces the SystemC kernel by a fresh one (time 0, no modules), so one process can build
// and run several simulations one after another.
void reset_kernel();

// Builds the drive of `cfg` in a fresh kernel and runs nothing: what --dump-config and a run
// check first, so a config the model refuses is refused with every rule it breaks, each
// naming `origin` (the config file) and the key. Throws ssd::ConfigError.
void check_drive(const config::DriveConfig& cfg, const std::string& origin);

// Each call starts a fresh SystemC kernel. Throws ssd::InputError / ssd::ConfigError for bad
// input and sc_core::sc_report for a model error (e.g. a NAND rule violation).
RunResult run_simulation(const config::DriveConfig& cfg, RequestSource& source,
                         const RunOptions& opts);

}  // namespace ssd::tb
