#pragma once
// What the embedding tests share (tb/tests/EmbedTest.cpp, EmbedCommandsTest.cpp): an initiator
// thread on the drive's socket, a payload set up for a command, the drive's report.json.
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "ssdtlm/Ssd.h"
#include "tb/tests/TestUtil.h"

namespace ssd::test {

// Drives the socket from one thread: `body` gets the initiator to call through.
struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  std::function<void(Initiator&)> body;
  tlm::tlm_phase last_phase;
  sc_core::sc_event got_end_req, got_begin_resp;
  tlm::tlm_sync_enum bw_reply = tlm::TLM_COMPLETED;

  SC_HAS_PROCESS(Initiator);
  Initiator(sc_core::sc_module_name n, std::function<void(Initiator&)> b)
      : sc_module(n), socket("socket"), body(std::move(b)) {
    socket.register_nb_transport_bw(this, &Initiator::bw);
    SC_THREAD(run);
  }
  void run() { body(*this); }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_core::sc_time&) {
    last_phase = phase;
    if (phase == tlm::END_REQ) {
      got_end_req.notify();
      return tlm::TLM_ACCEPTED;
    }
    got_begin_resp.notify();
    return bw_reply;
  }
};

// The drive's report.json, written to a fresh folder `name`.
inline nlohmann::json report_of(ssdtlm::Ssd& ssd, const std::string& name) {
  const std::string dir = test::temp_dir(name);
  ssd.write_report(dir);
  std::ifstream in(dir + "/report.json");
  return nlohmann::json::parse(in);
}

inline void set(tlm::tlm_generic_payload& gp, tlm::tlm_command cmd, uint64_t address,
                std::vector<unsigned char>& data) {
  gp.set_command(cmd);
  gp.set_address(address);
  gp.set_data_ptr(data.data());
  gp.set_data_length(unsigned(data.size()));
  gp.set_streaming_width(unsigned(data.size()));
  gp.set_byte_enable_ptr(nullptr);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace ssd::test
