// The controller's part in a loss of the supply (power.hold_up, controller::PowerLoss).
#include "model/controller/Controller.h"

namespace ssd::model {

void Controller::power_loss_thread() {
  sc_core::wait(power_loss_.at() - sim_now());
  lost_ = true;
  // The threads wake on their queues' events (no command is taken from them any more): an
  // event list to wait on instead would cost every wait of the run.
  commands_.get_event().notify(sc_core::SC_ZERO_TIME);
  engine_reads_.get_event().notify(sc_core::SC_ZERO_TIME);
}

void Controller::hold_up() {
  // On the first core, after the step it had in hand: the write buffer's pages and the open
  // word lines go to flash as a host flush would send them.
  controller::Core& core = cores_.at(0);
  run_on(core);
  die_power_.wake();
  core.reach(sim_now());
  power_loss_.flush_started(core.now());
  const uint64_t pages = firmware_.write_buffer().dirty_pages();
  core.begin_work();
  firmware_running_ = true;
  {
    const fw::Hal::Scope host_data(static_cast<fw::Hal&>(*this), fw::Work::HostData);
    firmware_.hold_up();
  }
  firmware_running_ = false;
  core.end_work();
  horizon_ = std::max(horizon_, core.now());
  check_idle();
  // Everything started before, GC's copies among it, runs to its end on the same energy.
  while (ops_.in_flight() != 0) sc_core::wait(flash_ended_);
  if (horizon_ > sim_now()) sc_core::wait(horizon_ - sim_now());
  power_loss_.flush_ended(sim_now(), pages);
  monitor_.hold_up()->flush_ended(sim_now().value());
}

}  // namespace ssd::model
