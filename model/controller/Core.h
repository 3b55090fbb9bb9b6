#pragma once
// The controller core the firmware runs on: its own timeline, which runs ahead of simulated
// time while the firmware computes (compute and DRAM accesses advance it), and its power state:
// active while it works, idle while it waits (for a command, for flash, for a channel). While
// it works on a host command it keeps what held that command back (the latency breakdown), and
// the spans it was blocked on flash tell a later command's wait for the core apart from the
// core's work. With clock gating (controller.clock_gating) an idle core's clock stops once it
// has rested idle_us: its gate timer (the controller's clock_gate method) or its next work,
// whichever comes first, records the state from then.
#include <algorithm>
#include <string>

#include <systemc>

#include "common/SimNow.h"

#include "config/ControllerConfig.h"
#include "model/SsdExtensions.h"
#include "model/controller/CriticalPath.h"
#include "model/flash/BackgroundTime.h"
#include "model/power/PowerStateMachine.h"

namespace ssd::model::controller {

// What a core is: its name (its power-state machine's, in the controller's group), supply and
// currents, and its clock gating.
struct CoreSpec {
  std::string name;
  double voltage_v, i_idle_ma, i_active_ma;
  config::ClockGatingConfig gating;
  uint32_t index = 0;  // among the controller's cores (and the read engine, after them): its
                       // DRAM port
  // The core the firmware runs on (controller.*), and the hardware read path's engine
  // (controller.hw_read_path), which works as a core does but runs no firmware.
  static CoreSpec firmware_core(const config::ControllerConfig& cfg);
  static CoreSpec read_engine(const config::ControllerConfig& cfg);
  // The command-issue engine (controller.issue_engine): flash commands, no firmware, no DRAM.
  static CoreSpec issue_engine(const config::ControllerConfig& cfg);
};

class Core {
 public:
  Core(EnergyMonitor& monitor, const CoreSpec& spec);

  const std::string& name() const { return name_; }
  uint32_t index() const { return index_; }

  const sc_core::sc_time& now() const { return cursor_; }
  // The timeline catches up with `t` if it is behind.
  void reach(const sc_core::sc_time& t) { cursor_ = std::max(cursor_, t); }
  // Busy for `d` (firmware compute); returns the core's active energy for it.
  double advance(const sc_core::sc_time& d) {
    cursor_ += d;
    return active_w_ * to_seconds(d);
  }
  double active_w() const { return active_w_; }
  // The core starts / stops working at now(). Reported as it happens, in time order with the
  // DRAM's and the flash's reports of the work in between, which keeps the energy monitor's
  // queue in order.
  void begin_work() {
    if (gating_) gate_by(cursor_);
    psm_.enter(PowerState::Active, cursor_);
  }
  void end_work() {
    if (psm_.state() != PowerState::Active) return;
    psm_.enter(psm_.rest_state(), cursor_);
    if (!gating_) return;
    rest_since_ = cursor_;
    gate_timer_.notify(rest_since_ + gate_idle_ - sim_now());
  }
  // Clock gating: the timer the controller's clock_gate method runs on, and what it does there
  // (a wake-up before the due time, an earlier notification's, waits again).
  const sc_core::sc_event& gate_timer() const { return gate_timer_; }
  void gate_timer_fired();
  uint64_t gate_entries() const { return gate_entries_; }

  // The host command the firmware works on (its waits start at none), until done().
  void take(const HostCommandExt& command) {
    command_ = &command;
    waits_ = CoreWaits{};
  }
  // Several cores: the host core handed the command's FTL work to this core (taken up at now()).
  void handed(const sc_core::sc_time& at, const sc_core::sc_time& arrived) {
    waits_.handover = Handover{true, at, arrived, cursor_, cursor_};
  }
  void done() {
    command_ = nullptr;
    program_data_at_ = sc_core::SC_ZERO_TIME;
    program_held_ = sc_core::SC_ZERO_TIME;
  }
  const HostCommandExt* command() const { return command_; }
  const CoreWaits& waits() const { return waits_; }
  // What the host command it works on has waited for so far (nothing outside one): a flash
  // command issued now carries it.
  CoreWaits waits_now() const { return command_ ? waits_ : CoreWaits{}; }

  // The programs issued from now on find their data in the buffer at `t`; throttling held them
  // `length` of that (fw::Hal::program_data_at, program_held).
  void programs_data_at(const sc_core::sc_time& t) { program_data_at_ = t; }
  void programs_held(const sc_core::sc_time& length) {
    program_held_ = length;
    if (command_) waits_.throttle = std::max(waits_.throttle, length);
  }
  const sc_core::sc_time& program_data_at() const { return program_data_at_; }
  const sc_core::sc_time& program_held() const { return program_held_; }

  // The core was blocked on flash from `from` to now(), for garbage collection if `gc`.
  void blocked(const sc_core::sc_time& from, bool gc);
  // How long the core was blocked on flash (and for GC) within [arrived, start): what a host
  // command that reached the controller at `arrived` waited behind until the core took it up.
  CoreWaits blocked_between(const sc_core::sc_time& arrived, const sc_core::sc_time& start) const {
    CoreWaits w;
    w.flash = blocked_flash_.between(arrived, start);
    w.gc = blocked_gc_.between(arrived, start);
    return w;
  }
  // Commands are taken up in the order they reach the controller: none asks about before
  // `arrived` again.
  void forget_before(const sc_core::sc_time& arrived);

  // A host command waited `wait` for the core (their total gives its mean queue length).
  void queued(const sc_core::sc_time& wait) { command_wait_ += wait; }
  const sc_core::sc_time& command_wait() const { return command_wait_; }

 private:
  std::string name_;
  uint32_t index_;
  sc_core::sc_time cursor_;
  double active_w_;
  const HostCommandExt* command_ = nullptr;
  CoreWaits waits_;
  sc_core::sc_time program_data_at_;  // programs' data is in the buffer from then
  sc_core::sc_time program_held_;     // of which throttling held it that long
  flash::BackgroundTime blocked_flash_, blocked_gc_;
  sc_core::sc_time command_wait_;
  bool gating_;
  sc_core::sc_time gate_idle_;
  sc_core::sc_time rest_since_;  // idle from then (the start: idle from time 0)
  uint64_t gate_entries_ = 0;
  sc_core::sc_event gate_timer_;
  // The clock stops if the core has rested idle_us by `now`.
  void gate_by(const sc_core::sc_time& now);
  PowerStateMachine psm_;
};

}  // namespace ssd::model::controller
