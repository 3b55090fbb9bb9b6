#pragma once
// A flash channel in a SystemC kernel, driven as the controller drives it, for the module-level
// tests of the NAND rules and timing (NandTest.cpp, MultiPlaneTest.cpp).
#include <deque>
#include <functional>
#include <string>
#include <utility>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "model/flash/FlashChannel.h"
#include "model/power/EnergyMonitor.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"

namespace ssd::test {

using model::FlashCommandExt;
using model::FlashOp;

// Issues flash commands to a channel from a thread, as the controller would: non-blocking,
// each with its own payload, and notes when the channel answers.
struct Probe : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Probe> socket;
  std::function<void(Probe&)> script;
  struct Sent {
    tlm::tlm_generic_payload gp;
    FlashCommandExt* cmd = nullptr;  // owned by gp
    sc_core::sc_time end;
    bool ended = false;
  };
  std::deque<Sent> sent;
  sc_core::sc_event answered;

  SC_HAS_PROCESS(Probe);
  explicit Probe(sc_core::sc_module_name n) : sc_module(n), socket("socket") {
    socket.register_nb_transport_bw(this, &Probe::bw);
    SC_THREAD(run);
  }
  void run() { script(*this); }
  // Sends `op` to (die_in_channel, block, page), reaching the channel `after` from now;
  // returns its index in `sent`.
  // `background`: GC, wear levelling or merge work.
  // `units`: mapping units a page holds (a program carries them all: unit u's data is
  // {page * units + u, version}); `unit`: the unit a read reads.
  size_t send(FlashOp op, uint32_t die, uint32_t block, uint32_t page, uint64_t version = 0,
              sc_core::sc_time after = sc_core::SC_ZERO_TIME, bool slc = false,
              bool background = false, uint32_t units = 1, uint32_t unit = 0, bool spare = false) {
    Sent& s = sent.emplace_back();
    s.cmd = new FlashCommandExt;
    s.gp.set_extension(s.cmd);
    s.cmd->op = op;
    s.cmd->slc = slc;
    s.cmd->background = background;
    s.cmd->die_in_channel = die;
    s.cmd->ppa = fw::Ppa{die, block, page};
    s.cmd->data = fw::PageToken{page, version};
    s.cmd->unit = uint8_t(unit);
    s.cmd->spare = spare;
    if (op == FlashOp::Program) {
      s.cmd->units = uint8_t(units);
      for (uint32_t u = 0; u < units; ++u)
        s.cmd->unit_data[u] = fw::PageToken{page * units + u, version};
    }
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    if (socket->nb_transport_fw(s.gp, phase, after) == tlm::TLM_COMPLETED) {
      // Decided at once: the end is the annotated delay.
      s.end = sc_core::sc_time_stamp() + after;
      s.ended = true;
    }
    return sent.size() - 1;
  }
  // Tells the channel the host now waits for queued command i (the controller's PROMOTE).
  void promote(size_t i) {
    tlm::tlm_phase phase = model::PROMOTE;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->nb_transport_fw(sent[i].gp, phase, delay);
  }
  // Waits until command i has ended (the channel may answer ahead, with the end as delay);
  // returns when it did.
  sc_core::sc_time finish(size_t i) {
    while (!sent[i].ended) sc_core::wait(answered);
    if (sent[i].end > sc_core::sc_time_stamp())
      sc_core::wait(sent[i].end - sc_core::sc_time_stamp());
    return sent[i].end;
  }
  sc_core::sc_time end(size_t i) const { return sent.at(i).end; }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                        sc_core::sc_time& delay) {
    EXPECT_EQ(phase, tlm::BEGIN_RESP);
    for (Sent& s : sent) {
      if (&s.gp != &gp) continue;
      s.end = sc_core::sc_time_stamp() + delay;
      s.ended = true;
    }
    answered.notify();
    return tlm::TLM_COMPLETED;
  }
};

// The small GC drive on one channel; a test changes `drive`, then runs a script against it.
class NandRig : public ::testing::Test {
 protected:
  void SetUp() override {
    tb::reset_kernel();
    drive = test::shipped("small_gc");
    drive.flash.channels = 1;
    xfer = sc_core::sc_time(4096 * drive.flash.bus_ns_per_byte, sc_core::SC_NS);
    prog = sc_core::sc_time(drive.flash.t_prog_us, sc_core::SC_US);
    read = sc_core::sc_time(drive.flash.t_read_us, sc_core::SC_US);
  }
  // Builds the channel (after a test has changed `drive`), runs the script; returns the
  // model error's message, or "" if none.
  std::string run(std::function<void(Probe&)> script) {
    monitor = std::make_unique<model::EnergyMonitor>(monitor_options);
    channel = std::make_unique<model::FlashChannel>("ch0", 0, model::FlashChannel::params(drive),
                                                    *monitor);
    probe = std::make_unique<Probe>("probe");
    probe->socket.bind(channel->socket);
    probe->script = std::move(script);
    return simulate();
  }
  // Runs what is built to its end; returns the model error's message, or "" if none.
  std::string simulate() {
    try {
      sc_core::sc_start();
    } catch (const sc_core::sc_report& e) {
      return e.get_msg();
    }
    monitor->finish(sc_core::sc_time_stamp());
    return "";
  }
  // Seconds die `die` of the channel spent in `state`, and the joules it drew there.
  double time_in(uint32_t die, model::PowerState state) const {
    return in_state(die, state, &model::EnergyMonitor::ComponentEnergy::time_s);
  }
  double energy_in(uint32_t die, model::PowerState state) const {
    return in_state(die, state, &model::EnergyMonitor::ComponentEnergy::energy_j);
  }
  // Seconds the energy monitor's component `name` spent in `state`, and the joules it drew
  // there ({-1, -1}: no such component).
  std::pair<double, double> spent(const std::string& name, model::PowerState state) const {
    for (const auto& c : monitor->component_energy()) {
      if (c.name != name) continue;
      std::pair<double, double> out{0, 0};
      for (const auto& [s, v] : c.time_s)
        if (s == state) out.first = v;
      for (const auto& [s, v] : c.energy_j)
        if (s == state) out.second = v;
      return out;
    }
    return {-1, -1};
  }
  static sc_core::sc_time us(double v) { return sc_core::sc_time(v, sc_core::SC_US); }

  config::DriveConfig drive;
  sc_core::sc_time xfer, prog, read;
  model::EnergyMonitor::Options monitor_options;  // a test's thermal model, say
  std::unique_ptr<model::EnergyMonitor> monitor;
  std::unique_ptr<model::FlashChannel> channel;
  std::unique_ptr<Probe> probe;

 private:
  using PerState = std::vector<std::pair<model::PowerState, double>>;
  double in_state(uint32_t die, model::PowerState state,
                  PerState model::EnergyMonitor::ComponentEnergy::*figure) const {
    const std::string name = "ch0.w" + std::to_string(die) + "d0";
    for (const auto& c : monitor->component_energy())
      if (c.name == name)
        for (const auto& [s, value] : c.*figure)
          if (s == state) return value;
    return -1;
  }
};

}  // namespace ssd::test
