#pragma once
// The drive as a block device on a virtual platform's bus: a TLM-2.0 target socket taking
// plain generic payloads under the base protocol (docs/embedding.md), in front of the
// HostInterface, which wants ssdtlm's own HostCommandExt, BEGIN_REQ at zero delay and one
// request at a time until END_REQ.
//
// A payload's command, address and length are checked first; one the drive cannot take gets
// its response status at once (TLM_COMMAND_ERROR_RESPONSE, TLM_ADDRESS_ERROR_RESPONSE,
// TLM_BURST_ERROR_RESPONSE for a streaming width below the length,
// TLM_BYTE_ENABLE_ERROR_RESPONSE, TLM_GENERIC_ERROR_RESPONSE for no data pointer) and never
// reaches the drive. The rest become drive commands in the order they start:
//   b_transport (LT): the command starts at now + the annotated delay (the caller waits that
//     long), and returns at its completion with a zero delay;
//   nb_transport_fw (AT): BEGIN_REQ starts it at now + delay; END_REQ goes back once the
//     drive has taken it (its queue may hold it back), BEGIN_RESP at completion, one response
//     open at a time; the initiator ends it by returning TLM_COMPLETED or END_RESP, or later
//     through END_RESP on the forward path.
// Phases out of order are reported (ssdtlm::msg::kProtocol) and refused.
//
// Its addresses are the drive's namespaces (namespaces) back to back, in config order: one
// namespace, the whole logical capacity, unless the config lists several. A payload lies in one
// of them (else TLM_ADDRESS_ERROR_RESPONSE) and becomes a command of that namespace.
//
// With a backing store the data moves when the command starts: writes into the store, reads
// out of it (the drive keeps the host's order for overlapping commands, so what a read sees
// is what the commands before it left).
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_get.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "config/NamespaceConfig.h"
#include "firmware/Types.h"
#include "ip/BackingStore.h"
#include "ip/Scoreboard.h"
#include "model/SsdExtensions.h"
#include "report/HostStats.h"

namespace ssd::ip {

class BlockTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<BlockTarget> socket;           // from the platform
  tlm_utils::simple_initiator_socket<BlockTarget> drive_socket;  // to the HostInterface

  SC_HAS_PROCESS(BlockTarget);
  // `store`: the drive's bytes; null: the drive times commands and keeps no data. With a store,
  // a scoreboard checks that the drive's data (its page versions) is what the store's bytes
  // are: a read returns the version of the last write before it of each page it touches
  // (`page_bytes`: the drive's mapping unit); a mismatch is SC_REPORT_ERROR(msg::kData).
  // `placement`: the drive has flexible data placement (writes may carry WritePlacement).
  BlockTarget(sc_core::sc_module_name name, std::vector<config::NamespaceRange> namespaces,
              uint64_t page_bytes, BackingStore* store, bool placement = false);

  // The commands the drive ran, as the testbench host records its requests: counts, bytes,
  // latency samples from their start to their completion and where the time went.
  const report::HostStats& stats() const { return stats_; }
  // Payloads answered with an error status without reaching the drive.
  uint64_t refused() const { return refused_; }
  const Scoreboard* scoreboard() const { return scoreboard_.get(); }  // null: no store
  // The firmware lost these units, `why` (Ftl::on_units_lost): the scoreboard counts them
  // (Scoreboard::units_lost).
  void units_lost(const std::vector<fw::Lpn>& lost, fw::UnitLoss why) {
    if (scoreboard_) scoreboard_->units_lost(lost, why);
  }

 private:
  // One platform transaction as the drive's command.
  struct Command : tlm::tlm_generic_payload {
    model::HostCommandExt* ext = nullptr;  // owned by the payload
    tlm::tlm_generic_payload* platform = nullptr;
    sc_core::sc_event* done = nullptr;  // b_transport: its caller waits on it; AT: null
    sc_core::sc_time started, sent;     // its start; sent to the drive
    std::vector<Scoreboard::Watch> watches;
  };
  // The drive completed it: its figures into stats_.
  void count(Command& c);

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  tlm::tlm_sync_enum drive_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                              sc_core::sc_time& delay);
  // TLM_INCOMPLETE_RESPONSE and `op` set: the drive has work to do; else the status the
  // payload gets without the drive (OK for a no-op).
  tlm::tlm_response_status classify(const tlm::tlm_generic_payload& gp, fw::CommandOp& op) const;
  void start(tlm::tlm_generic_payload& gp, fw::CommandOp op, sc_core::sc_event* done);
  void on_request();  // AT requests at their start time
  void submit();      // pending commands into the drive while it takes them
  void accepted(Command& c);
  void send_responses();
  void report_protocol(const tlm::tlm_generic_payload& gp, const char* what);
  Command& acquire();
  // The namespace holding byte `address` (below capacity_, or at it).
  uint32_t namespace_of(uint64_t address) const;
  void release(Command& c);

  std::vector<config::NamespaceRange> namespaces_;
  uint64_t capacity_;  // the namespaces'
  uint64_t page_bytes_;
  BackingStore* store_;
  bool placement_ = false;  // the drive has flexible data placement (ssdtlm::WritePlacement)
  std::unique_ptr<Scoreboard> scoreboard_;
  uint64_t next_version_ = 1;  // a write's data version, as the testbench host numbers them
  report::HostStats stats_;
  uint64_t refused_ = 0;
  std::vector<std::unique_ptr<Command>> commands_;
  std::vector<Command*> free_;
  std::deque<Command*> pending_;  // started, not yet taken by the drive
  Command* held_ = nullptr;       // sent to the drive, END_REQ held back
  sc_core::sc_event submit_event_;
  tlm_utils::peq_with_get<tlm::tlm_generic_payload> requests_;
  tlm::tlm_generic_payload* open_request_ = nullptr;  // AT: END_REQ not sent yet
  std::deque<Command*> responses_;                    // AT: done, BEGIN_RESP not sent yet
  Command* open_response_ = nullptr;                  // AT: BEGIN_RESP sent, END_RESP not received
  sc_core::sc_time respond_after_;                    // the initiator's END_RESP delay
  sc_core::sc_event respond_event_;
};

}  // namespace ssd::ip
