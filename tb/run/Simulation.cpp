#include "tb/run/Simulation.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "common/AtomicFile.h"
#include "common/CpuTime.h"
#include "common/Errors.h"
#include "common/SanitizerStack.h"
#include "ip/Drive.h"
#include "ip/Scoreboard.h"
#include "report/Report.h"
#include "report/Summary.h"
#include "tb/host/Host.h"
#include "tb/run/OutputSet.h"
#include "tb/run/PhaseProgress.h"
#include "tb/run/StateCache.h"
#include "tb/run/StateFile.h"
#include "tb/run/Timeline.h"

namespace ssd::tb {

void reset_kernel() {
  // The previous context is kept, never freed: SystemC 2.3 cannot tear one down safely. Kept
  // reachable, so that LeakSanitizer does not report it (a run that checks its drive first
  // builds two).
  static auto* const retired = new std::vector<sc_core::sc_simcontext*>;
  if (sc_core::sc_curr_simcontext) retired->push_back(sc_core::sc_curr_simcontext);
  sc_core::sc_curr_simcontext = new sc_core::sc_simcontext();
  sc_core::sc_default_global_context = sc_core::sc_curr_simcontext;
  sc_core::sc_report_handler::set_actions(sc_core::SC_ERROR, sc_core::SC_THROW);
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  sanitizer_on_thread_stack();  // after a kernel run not through run_simulation (tests)
}

namespace {

std::vector<uint32_t> queue_depths(const config::HostConfig& h) {
  std::vector<uint32_t> out;
  for (const config::HostQueueConfig& q : config::submission_queues(h)) out.push_back(q.depth);
  return out;
}

// The drive and the host side of one run.
struct Model {
  Model(const config::DriveConfig& cfg, RequestSource& source, const ip::DriveOutputs& outputs,
        bool progress)
      : drive("ssd", cfg, outputs),
        scoreboard(cfg.addressed_units()),
        host("host", source, queue_depths(cfg.host), scoreboard, cfg.unit_bytes(),
             cfg.namespace_layout(), progress) {
    host.socket.bind(drive.ssd().host_socket());
    host.set_content_checks(cfg.lifetime.enabled());
  }
  ip::Drive drive;
  ip::Scoreboard scoreboard;
  Host host;
};

}  // namespace

void check_drive(const config::DriveConfig& cfg, const std::string& origin) {
  reset_kernel();
  const ip::Drive drive("ssd", cfg, {}, origin);
}

namespace {

// The state files of one run: loaded instead of preconditioning, saved once preconditioning is
// done (stopping the run if that fails), stored in the cache (a warning if that fails).
struct StateFiles {
  std::string load, save, store;
};

RunResult run_once(const config::DriveConfig& cfg, RequestSource& source, const RunOptions& opts,
                   const StateFiles& files) {
  reset_kernel();
  std::optional<OutputSet> outputs;
  ip::DriveOutputs drive_outputs;
  if (!opts.out_dir.empty()) {
    outputs.emplace(opts.out_dir);
    drive_outputs.dir = outputs->staging();
    drive_outputs.series = opts.series;
    drive_outputs.waveform = opts.waveform;
    drive_outputs.group_busy = opts.timeline_interval != sc_core::SC_ZERO_TIME;
    if (drive_outputs.group_busy) drive_outputs.vcd_probes = Timeline::vcd_probes();
  }

  report::RunPhases phases;
  const Stopwatch whole;
  auto sim = std::make_unique<Model>(cfg, source, drive_outputs, opts.progress);
  phases.build = whole.elapsed();
  auto& [drive, scoreboard, host] = *sim;
  model::EnergyMonitor& monitor = drive.monitor();
  model::Ssd& ssd = drive.ssd();
  std::optional<RequestLog> request_log;
  if (outputs && !opts.request_log.empty()) {
    request_log.emplace(
        outputs->staging() + "/" + opts.request_log,
        model::StagesShown{cfg.controller.cores.size() > 1, cfg.flash.reliability.enabled});
    host.set_request_log(&*request_log);
  }
  host.on_done([&monitor = monitor, &ssd = ssd] {
    monitor.mark_host_phase_end(sc_core::sc_time_stamp());
    ssd.mark_host_phase_end();
  });
  if (ssd.controller().power_loss().armed()) host.lose_power_at(ssd.controller().power_loss().at());
  ssd.controller().firmware().on_units_lost(
      [&scoreboard = scoreboard](const std::vector<fw::Lpn>& lost, fw::UnitLoss why) {
        scoreboard.units_lost(lost, why);
      });
  if (opts.precondition && cfg.lifetime.enabled())
    throw UsageError(std::string("--precondition: not with lifetime.mode ") +
                     to_string(cfg.lifetime.mode) +
                     " (the lifetime manager's mapping starts empty)");
  PhaseProgress aging(opts.progress, "preconditioning");
  if (opts.precondition && files.load.empty()) {
    ssd.controller().precondition(opts.precondition_fill, opts.precondition_random,
                                  opts.precondition_simulate
                                      ? model::Controller::PreconditionMode::Simulate
                                      : model::Controller::PreconditionMode::Bulk,
                                  [&aging](uint64_t done, uint64_t total) {
                                    if (done < total)
                                      aging.update(done, total, "page writes");
                                    else
                                      aging.finish();
                                  });
  }
  std::optional<Timeline> timeline;
  if (drive_outputs.group_busy)
    timeline.emplace(outputs->staging(), opts.timeline_interval, host, ssd, monitor);
  std::optional<StateSaver> saver;  // built after the drive: starts after its preconditioning
  if (!files.save.empty() || !files.store.empty())
    saver.emplace("state_saver", files.save.empty() ? files.store : files.save, cfg, ssd,
                  files.save.empty(), opts.progress);
  if (!files.load.empty()) {
    const Stopwatch clock;
    PhaseProgress loading(opts.progress, "loading the aged drive from " + files.load);
    loading.begin();
    load_state(files.load, cfg, ssd);
    loading.finish();
    phases.load = clock.elapsed();
  }
  // Preconditioning and saving the aged drive happen in the kernel's first steps: the run is
  // the rest.
  const Stopwatch running;
  if (timeline)
    timeline->run();
  else
    sc_core::sc_start();
  sanitizer_on_thread_stack();  // before an error below is thrown
  if (saver && saver->error()) std::rethrow_exception(saver->error());
  phases.run = running.elapsed();
  const auto less = [&phases](const PhaseTime& t) {
    phases.run.wall_s -= t.wall_s;
    phases.run.cpu_s -= t.cpu_s;
  };
  if (const auto& pre = ssd.controller().precondition_stats(); pre.done && files.load.empty()) {
    phases.precondition = PhaseTime{pre.wall_s, pre.cpu_s};
    less(*phases.precondition);
  }
  if (saver) {
    phases.save = saver->took();
    less(*phases.save);
  }
  if (host.error()) std::rethrow_exception(host.error());
  // The kernel ran out of events before the workload ended: a command the drive never
  // answered (a lost wake-up). Its figures would describe a shortened run, silently.
  if (!host.done() && !host.power_lost())
    SC_REPORT_ERROR("/ssdtlm/host",
                    ("the simulation stalled at " + sc_core::sc_time_stamp().to_string() +
                     ": no event is left, " + std::to_string(host.outstanding()) +
                     " requests are outstanding and the workload has not ended (" +
                     std::to_string(host.completed()) + " completed)")
                        .c_str());
  const Stopwatch closing;
  const sc_core::sc_time end = drive.finish();
  if (timeline) timeline->finish(end);
  phases.outputs = closing.elapsed();
  phases.total_wall_s = whole.elapsed().wall_s;

  RunResult result;
  result.phases = phases;
  const std::vector<report::FlowStats> flows = host.flow_results();
  const std::vector<report::FlowStats> namespaces = host.namespace_results();
  // A loss of the supply: what was programmed after the hold-up energy ran out never was.
  if (const model::HoldUpMeter* meter = monitor.hold_up())
    scoreboard.power_lost(ssd.controller().power_loss().ended_after(
        meter->runs_out_ps() ? sc_core::sc_time::from_value(*meter->runs_out_ps())
                             : sc_core::sc_max_time()));
  const report::ScoreboardFigures checked = scoreboard.figures();
  report::SourceFacts facts;
  source.add_to_report(facts.objects);
  source.add_warnings(facts.warnings);
  for (std::string& w : host.warnings()) facts.warnings.push_back(std::move(w));
  result.report = report::build_report(report::ReportInputs{
      cfg, source.describe(), facts, host.stats(), flows, opts.flows_alone, &namespaces, ssd,
      monitor, &checked, opts.reproducible ? nullptr : &result.phases});
  if (ssd.controller().precondition_stats().done) {
    if (!files.load.empty()) {
      result.aged_from = files.load == opts.load_state ? "file" : "cache";
      result.aged_file = files.load;
    } else if (!files.store.empty() && saver->warning().empty()) {
      result.aged_from = "stored";
      result.aged_file = files.store;
    } else {
      result.aged_from = "preconditioned";
    }
  }
  if (saver && !saver->warning().empty()) result.cache_warnings.push_back(saver->warning());
  if (!opts.provenance.is_null()) {
    result.report["provenance"] = opts.provenance;
    if (!result.aged_from.empty()) {
      auto& aged = result.report["provenance"]["aged_drive"];
      aged["from"] = result.aged_from;
      if (!result.aged_file.empty()) aged["file"] = result.aged_file;
    }
  }
  result.summary = report::summarize(result.report);
  result.data_intact = scoreboard.mismatches() == 0;
  if (outputs) {
    if (request_log) request_log->close();
    drive.close_waveforms();
    AtomicFile f(outputs->staging() + "/report.json");
    f.stream() << result.report.dump(2) << '\n';
    f.commit();
    outputs->commit();
  }
  if (!opts.free_model) static_cast<void>(sim.release());  // left to the OS (free_model)
  return result;
}

}  // namespace

RunResult run_simulation(const config::DriveConfig& cfg, RequestSource& source,
                         const RunOptions& opts) {
  if (!opts.precondition || opts.state_cache.empty() || !opts.save_state.empty())
    return run_once(cfg, source, opts, {opts.load_state, opts.save_state, ""});
  const StateCache cache(opts.state_cache, opts.state_cache_max_bytes);
  const std::string path = cache.path(state_key(
      cfg,
      AgingOptions{opts.precondition_fill, opts.precondition_random, opts.precondition_simulate},
      opts.build));
  std::vector<std::string> warnings;
  if (std::filesystem::exists(path)) {
    try {
      RunResult r = run_once(cfg, source, opts, {path, "", ""});
      StateCache::touch(path);
      return r;
    } catch (const StateFileError& e) {
      // Damaged (or cut short by a full disk): made again. The run built nothing yet.
      warnings.push_back(std::string(e.what()) + ": removed from the cache, preconditioning again");
      std::remove(path.c_str());
    }
  }
  std::string store = path;
  try {
    cache.create();
  } catch (const std::exception& e) {
    warnings.push_back(std::string(e.what()) + ": the aged drive is not stored");
    store.clear();
  }
  RunResult r = run_once(cfg, source, opts, {"", "", store});
  if (r.aged_from == "stored") r.evicted = cache.evict(path);
  r.cache_warnings.insert(r.cache_warnings.begin(), warnings.begin(), warnings.end());
  return r;
}

}  // namespace ssd::tb
