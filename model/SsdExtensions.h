#pragma once
// TLM-2.0 extensions carrying the SSD-specific fields of a generic payload.
#include <cstdint>
#include <vector>

#include <tlm>

#include "firmware/Firmware.h"
#include "firmware/Types.h"

namespace ssd::model {

// A host block command, from the host through the HostInterface to the Controller. The
// generic payload's command/address/length mirror it (address = byte offset).
struct HostCommandExt : tlm::tlm_extension<HostCommandExt> {
  fw::HostCommand cmd;
  std::vector<fw::PageToken> read_data;  // filled by the controller for reads
  bool ok = true;

  tlm::tlm_extension_base* clone() const override { return new HostCommandExt(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const HostCommandExt&>(other);
  }
};

// A flash command from the Controller to a FlashChannel, and the die operations the channel
// issues to a NandDie.
enum class FlashOp : uint8_t {
  // Controller -> channel.
  Read, Program, Erase, PowerOff, PowerOn,
  // Channel -> die: the array operations and the data phases that hold the bus.
  ArrayRead, DataOut, DataIn, ArrayProgram, ArrayErase, DiePowerOff, DiePowerOn
};

struct FlashCommandExt : tlm::tlm_extension<FlashCommandExt> {
  FlashOp op = FlashOp::Read;
  uint32_t die_in_channel = 0;  // way * dies_per_way + die_in_way
  fw::Ppa ppa;                  // ppa.die is the drive-wide die number (for messages)
  fw::PageToken data;           // program: in; read: out
  sc_core::sc_time bus_time;    // DataIn/DataOut: how long the transfer holds the bus

  tlm::tlm_extension_base* clone() const override { return new FlashCommandExt(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const FlashCommandExt&>(other);
  }
};

}  // namespace ssd::model
