#pragma once
// The block commands a generic payload cannot express: trim, flush and placement update
// (docs/embedding.md).
// Set it on a payload whose command is TLM_IGNORE_COMMAND. A payload with TLM_IGNORE_COMMAND
// and no BlockCommand is a no-op, as the TLM-2.0 base protocol has it (TLM_OK_RESPONSE);
// a target other than ssdtlm ignores the extension.
//   Trim:  the bytes [address, address + data_length) are discarded (read as zero with the
//          backing store); data_length > 0, in range, or TLM_ADDRESS_ERROR_RESPONSE.
//   Flush: every write completed before it is made durable; address and length are ignored.
//   PlacementUpdate: NVMe FDP's Reclaim Unit Handle Update (I/O Management Send) in the
//          namespace holding `address` (length ignored): the handle its placement identifier
//          names (the payload's ssdtlm::WritePlacement, 0 without one) moves to a new reclaim
//          unit. A drive without FDP, or a zoned namespace: TLM_COMMAND_ERROR_RESPONSE; an
//          identifier naming no handle of the namespace: TLM_GENERIC_ERROR_RESPONSE (NVMe
//          Invalid Placement Handle List).
#include <cstdint>

#include <tlm>

namespace ssdtlm {

struct BlockCommand : tlm::tlm_extension<BlockCommand> {
  enum class Op : uint8_t { Trim, Flush, PlacementUpdate };
  Op op = Op::Flush;

  BlockCommand() = default;
  explicit BlockCommand(Op o) : op(o) {}
  tlm::tlm_extension_base* clone() const override { return new BlockCommand(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    op = static_cast<const BlockCommand&>(other).op;
  }
};

}  // namespace ssdtlm
