// libFuzzer harness of the embeddable drive's target socket (ip::BlockTarget): arbitrary
// payloads (command, trim/flush extension, placement identifier, address, length, data pointer,
// byte enables, streaming width) through b_transport and nb_transport_fw with arbitrary delays,
// END_RESP either way, and phases out of order. Every payload must end with a response status, a
// refused one without reaching the drive; nothing may crash or hang. One drive (small_gc, with
// flexible data placement) serves the whole session: the kernel runs on from one input to the next.
#define SC_INCLUDE_DYNAMIC_PROCESSES  // sc_spawn: one initiator thread per input
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/SanitizerStack.h"
#include "config/DriveConfig.h"
#include "ssdtlm/Ssd.h"

namespace {

// One transaction: 16 bytes of the input.
struct Tx : tlm::tlm_generic_payload {
  std::vector<unsigned char> data;
  unsigned char enables[4] = {0xff, 0, 0xff, 0};
  ssdtlm::BlockCommand ext;
  ssdtlm::WritePlacement placement;
  bool at = false, end_resp_forward = false, violate = false;
  bool ended = false;  // AT: BEGIN_RESP received and ended, or completed at BEGIN_REQ
  sc_core::sc_time delay;
};

uint64_t take(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= uint64_t(p[i]) << (8 * i);
  return v;
}

struct Platform : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Platform> socket{"socket"};
  std::deque<Tx>* txs = nullptr;
  std::size_t open = 0;  // AT transactions not ended
  sc_core::sc_event end_req, all_ended, end_resp_due;
  std::deque<Tx*> to_end;

  SC_HAS_PROCESS(Platform);
  explicit Platform(sc_core::sc_module_name n) : sc_module(n) {
    socket.register_nb_transport_bw(this, &Platform::bw);
    SC_METHOD(send_end_resp);
    sensitive << end_resp_due;
    dont_initialize();
  }

  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time&) {
    if (phase == tlm::END_REQ) {
      end_req.notify();
      return tlm::TLM_ACCEPTED;
    }
    if (phase != tlm::BEGIN_RESP) std::abort();
    Tx& tx = static_cast<Tx&>(gp);
    if (tx.end_resp_forward) {
      to_end.push_back(&tx);
      end_resp_due.notify(tx.delay);
      return tlm::TLM_ACCEPTED;
    }
    ended(tx);
    return tlm::TLM_COMPLETED;
  }

  void send_end_resp() {
    while (!to_end.empty()) {
      Tx& tx = *to_end.front();
      to_end.pop_front();
      tlm::tlm_phase phase = tlm::END_RESP;
      sc_core::sc_time delay = tx.delay;
      socket->nb_transport_fw(tx, phase, delay);
      ended(tx);
    }
  }

  void ended(Tx& tx) {
    tx.ended = true;
    if (--open == 0) all_ended.notify();
  }

  void play() {
    for (Tx& tx : *txs) {
      sc_core::sc_time delay = tx.delay;
      if (!tx.at) {
        socket->b_transport(tx, delay);
        continue;
      }
      if (tx.violate) {  // END_RESP for a transaction without a response: refused
        tlm::tlm_phase phase = tlm::END_RESP;
        socket->nb_transport_fw(tx, phase, delay);
      }
      ++open;
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      if (socket->nb_transport_fw(tx, phase, delay) == tlm::TLM_COMPLETED) {
        ended(tx);
        continue;
      }
      if (tx.violate) {  // a second BEGIN_REQ before END_REQ: refused at once
        tlm::tlm_generic_payload other;
        other.set_command(tlm::TLM_READ_COMMAND);
        other.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        tlm::tlm_phase p = tlm::BEGIN_REQ;
        sc_core::sc_time d;
        if (socket->nb_transport_fw(other, p, d) != tlm::TLM_COMPLETED ||
            other.get_response_status() != tlm::TLM_GENERIC_ERROR_RESPONSE)
          std::abort();
      }
      sc_core::wait(end_req);
    }
    if (open != 0) sc_core::wait(all_ended);
  }
};

struct Session {
  Session() {
    sc_core::sc_report_handler::set_actions(ssdtlm::msg::kProtocol, sc_core::SC_ERROR,
                                            sc_core::SC_DO_NOTHING);
    sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                            sc_core::SC_DO_NOTHING);
  }
  // The small drive with flexible data placement (two handles): writes may name one.
  static nlohmann::json drive() {
    nlohmann::json cfg = ssd::config::read_config_json(SSDTLM_SOURCE_DIR "/configs/small_gc.json");
    cfg["ftl"]["fdp"] = {{"enabled", true}, {"handles", 2}};
    return cfg;
  }
  ssdtlm::Ssd ssd{"ssd", drive()};
  Platform platform{"platform"};
  bool bound = (platform.socket.bind(ssd.socket()), true);
};

}  // namespace

// Once the SystemC kernel has run on its coroutine stacks, LeakSanitizer reports libFuzzer's
// own buffers as leaked; leaks in the model are make test-sanitize's to find.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Session s;
  const uint64_t capacity = s.ssd.capacity_bytes();
  std::deque<Tx> txs;
  for (std::size_t at = 0; at + 16 <= size; at += 16) {
    const uint8_t* p = data + at;
    Tx& tx = txs.emplace_back();
    const uint8_t flags = p[1];
    uint64_t address = take(p + 2, 8);
    address = flags & 0x40 ? capacity - (address % 8192) : address % (capacity + capacity / 8);
    const uint64_t length = take(p + 10, 2) % 20000;
    tx.data.resize(length);
    tx.set_address(address);
    tx.set_data_length(unsigned(length));
    tx.set_streaming_width(flags & 0x08 ? unsigned(length / 2) : unsigned(length));
    tx.set_data_ptr(flags & 0x02 ? nullptr : tx.data.data());
    if (flags & 0x04) {
      tx.set_byte_enable_ptr(tx.enables);
      tx.set_byte_enable_length(4);
    }
    switch (p[0] % 9) {
      case 0:
        tx.set_command(tlm::TLM_READ_COMMAND);
        break;
      case 1:
        tx.set_command(tlm::TLM_WRITE_COMMAND);
        break;
      case 2:
        tx.set_command(tlm::TLM_IGNORE_COMMAND);
        break;
      case 3:
      case 4:
      case 5:
      case 6:
        tx.set_command(tlm::TLM_IGNORE_COMMAND);
        tx.ext.op = static_cast<ssdtlm::BlockCommand::Op>(p[0] % 9 - 3);  // 3: not an op
        tx.set_extension(&tx.ext);
        break;
      // Not a command: 3 is the one value besides them the enum can hold.
      default:
        tx.set_command(static_cast<tlm::tlm_command>(3));
        break;
    }
    // A placement identifier (0 to 3: two past the drive's handles), on any command.
    if (p[14] & 0x80) {
      tx.placement.identifier = p[15] % 4;
      tx.set_extension(&tx.placement);
    }
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    tx.at = flags & 0x01;
    tx.end_resp_forward = flags & 0x10;
    tx.violate = flags & 0x20;
    tx.delay = sc_core::sc_time(double(take(p + 12, 2)), sc_core::SC_NS);
  }
  s.platform.txs = &txs;
  sc_core::sc_spawn([] { s.platform.play(); });
  sc_core::sc_start();
  ssd::sanitizer_on_thread_stack();
  for (Tx& tx : txs) {
    if (tx.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE) std::abort();
    if (tx.at && !tx.ended) std::abort();
    tx.clear_extension(&tx.ext);  // the payload must not delete it
    tx.clear_extension(&tx.placement);
  }
  return 0;
}
