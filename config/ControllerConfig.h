#pragma once
// The controller (controller): its flash command issue, firmware costs, currents and the flash back
// end's ordering rules. The struct, its field table (keys, members, ranges: read, written and
// listed by config/json/) and its own rules; rules across sections are DriveConfig's.
// docs/config.md documents each key.
#include <cstdint>
#include <string>
#include <vector>

#include "config/Choices.h"
#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

// Firmware work counted in core cycles, charged at controller.clock_mhz on top of the
// microsecond costs, which stand for what does not scale with the clock (a channel switch, a
// hardware latency): a clock change scales the work. All 0 without a clock.
struct FirmwareCycles {
  double host_command = 0;   // per host command (parse, dispatch), beside t_fw_per_cmd_us
  double ftl_step = 0;       // per FTL step (a page's look-up or update, a GC copy), beside
                             // t_fw_per_page_us
  double flash_command = 0;  // per flash command issued, beside t_cmd_issue_us
};

// Clock gating of the core (controller.clock_gating): after idle_us without work its clock
// stops and it draws i_gated_ma until its next work, which starts at once (a gated clock
// restarts in a few cycles: nanoseconds, against a firmware step's microseconds).
struct ClockGatingConfig {
  bool enabled = false;
  double idle_us = 100;
  double i_gated_ma = 0;
};

// The hardware read path (controller.hw_read_path): host reads are parsed, looked up in the
// DRAM mapping table and sent to the channels by hardware, not the firmware core, as modern
// controllers automate reads. The engine takes one read at a time on its own timeline: t_command_ns
// per host read, the DRAM look-ups at the DRAM's timing, t_issue_ns per flash read it sends; it
// draws i_active_ma while it works and i_idle_ma otherwise (its own power-state machine).
struct HwReadPathConfig {
  bool enabled = false;
  double t_command_ns = 0;
  double t_issue_ns = 0;
  double i_active_ma = 0;
  double i_idle_ma = 0;
};

// The command-issue engine (controller.issue_engine): flash commands leave without a core step,
// as controllers with a flash command sequencer send them. A core posts each command to the
// engine's queue for t_post_ns (in place of t_cmd_issue_us and cycles.flash_command); the engine
// takes them one at a time in the order posted, t_issue_ns each (the channel switch it does in
// hardware), and sends them to their channels; it draws i_active_ma while it works and i_idle_ma
// otherwise (its own power-state machine). The read engine (hw_read_path) sends its own reads.
struct IssueEngineConfig {
  bool enabled = false;
  double t_post_ns = 0;
  double t_issue_ns = 0;
  double i_active_ma = 0;
  double i_idle_ma = 0;
};

// A firmware core of the controller (controller.cores[]) and the work it takes: host command
// processing (parse, dispatch: t_fw_per_cmd_us and cycles.host_command), the FTL's work of host
// commands (per unit look-ups and updates, their DRAM accesses and flash commands), background
// work (destaging, GC, wear levelling, SLC folding). Each core draws the controller's currents.
struct CoreConfig {
  std::string name;  // its power-state machine's and report figures' name
  bool host = true;
  bool ftl = true;
  bool background = true;
};

// Beyond any controller built (they have up to a few tens of cores), and each core is a trace
// of its own in the VCD.
inline constexpr std::size_t kMaxCores = 64;

struct ControllerConfig {
  double t_cmd_issue_us = 30.0;   // channel switch delay: cost to issue one flash command
  double t_fw_per_cmd_us = 0.0;   // firmware compute per host command
  double t_fw_per_page_us = 0.0;  // firmware compute per FTL step (one page operation)
  double voltage_v = 3.3;
  double i_active_ma = 30.0;
  double i_idle_ma = 15.0;
  // Flash back end (docs/architecture.md#flash-scheduling-channels-and-dies): which ready command a
  // free die starts and which ready die gets its channel's bus. "oldest_ready": the oldest in issue
  // order; "read_first": reads (and their data-out) before programs and erases.
  SchedulerPolicy scheduler_policy = SchedulerPolicy::OldestReady;
  // Host work (host data and its mapping) before background work (GC, wear levelling,
  // merges) when a die or a bus chooses.
  bool host_first = false;
  // A host read to a die that is programming or erasing another block suspends that
  // operation (flash.t_suspend_us / t_resume_us).
  bool suspend_for_reads = false;
  // Which queued commands to one block may pass each other. "in_order": none (the founding
  // study's drives); "nand": the NAND part's rules: programs in page order, an erase after
  // every earlier command to its block, a read passes anything but its own page's program.
  BlockOrder block_order = BlockOrder::InOrder;
  IssueOrder issue_order = IssueOrder::PerDieQueues;
  double clock_mhz = 0;  // the core's clock; 0: firmware costs in microseconds only
  FirmwareCycles cycles;
  ClockGatingConfig clock_gating;
  HwReadPathConfig hw_read_path;
  IssueEngineConfig issue_engine;
  // Several firmware cores (none: one core, named "controller", that does all the work).
  std::vector<CoreConfig> cores;
  FtlPlacement ftl_placement = FtlPlacement::Shared;
  uint32_t stripe_units = 1;  // ftl_placement stripes: logical units per stripe
  double t_message_ns = 0;    // work passed from one core to another arrives this much later

  // What the core spends on each kind of step: its microsecond cost, plus its cycles at the
  // clock.
  double cmd_issue_us() const { return step_us(t_cmd_issue_us, cycles.flash_command); }
  double fw_per_cmd_us() const { return step_us(t_fw_per_cmd_us, cycles.host_command); }
  double fw_per_page_us() const { return step_us(t_fw_per_page_us, cycles.ftl_step); }

 private:
  double step_us(double us, double n) const { return clock_mhz > 0 ? us + n / clock_mhz : us; }
};

// The section's own rules: cycles need a clock; a gated core waits a while and draws less; the
// read engine draws less idle than active; the cores have names of their own and every kind of
// work a core to run on.
void validate(const ControllerConfig& c, Problems& problems);

// The field table: the visitor (config/json/) is called once per key, in the order configs
// write them.
template <class Controller, class V>
void visit_controller(Controller& c, V& v) {
  v("t_cmd_issue_us", c.t_cmd_issue_us, kStepTime);
  v("t_fw_per_cmd_us", c.t_fw_per_cmd_us, kStepTime);
  v("t_fw_per_page_us", c.t_fw_per_page_us, kStepTime);
  v("voltage_v", c.voltage_v, kVoltage);
  v("i_active_ma", c.i_active_ma, kCurrent);
  v("i_idle_ma", c.i_idle_ma, kCurrent);
  v("scheduler_policy", c.scheduler_policy);
  v("host_first", c.host_first);
  v("suspend_for_reads", c.suspend_for_reads);
  v("block_order", c.block_order);
  v("issue_order", c.issue_order);
  v("clock_mhz", c.clock_mhz, kClock);
  v.section("cycles", c.cycles, [](auto& s, auto& sv) {
    sv("host_command", s.host_command, kCycles);
    sv("ftl_step", s.ftl_step, kCycles);
    sv("flash_command", s.flash_command, kCycles);
  });
  v.section("clock_gating", c.clock_gating, [](auto& s, auto& sv) {
    sv("enabled", s.enabled);
    sv("idle_us", s.idle_us, kIdleTime);  // positive when enabled: validate()
    sv("i_gated_ma", s.i_gated_ma, kCurrent);
  });
  v.section("hw_read_path", c.hw_read_path, [](auto& s, auto& sv) {
    sv("enabled", s.enabled);
    sv("t_command_ns", s.t_command_ns, kHardwareTime);
    sv("t_issue_ns", s.t_issue_ns, kHardwareTime);
    sv("i_active_ma", s.i_active_ma, kCurrent);
    sv("i_idle_ma", s.i_idle_ma, kCurrent);
  });
  v.section("issue_engine", c.issue_engine, [](auto& s, auto& sv) {
    sv("enabled", s.enabled);
    sv("t_post_ns", s.t_post_ns, kHardwareTime);
    sv("t_issue_ns", s.t_issue_ns, kHardwareTime);
    sv("i_active_ma", s.i_active_ma, kCurrent);
    sv("i_idle_ma", s.i_idle_ma, kCurrent);
  });
  v.list("cores", c.cores, 0, [](auto& s, auto& sv) {
    sv("name", s.name, Presence::kRequired);
    sv("host", s.host);
    sv("ftl", s.ftl);
    sv("background", s.background);
  });
  v("ftl_placement", c.ftl_placement);
  v("stripe_units", c.stripe_units, between(1, 1 << 20));
  v("t_message_ns", c.t_message_ns, kHardwareTime);
}

}  // namespace ssd::config
