#pragma once
// One NAND die: planes of blocks of pages, a page register, tR/tPROG/tBERS, per-block erase
// counts and write pointers, and the data token of every programmed page. It enforces the
// rules of NAND (program only erased pages, in ascending order within a block; erase whole
// blocks; read only programmed pages) and reports a violation as a model error. The debug
// transport applies the same rules and contents without time or energy.
//
// Timing is reserved in order: an operation starts when it arrives (the annotated delay) or
// when the die finishes its previous one, whichever is later.
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "config/DriveConfig.h"
#include "firmware/Types.h"
#include "model/PowerStateMachine.h"
#include "model/SsdExtensions.h"

namespace ssd::model {

class NandDie : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<NandDie> socket;

  NandDie(sc_core::sc_module_name name, const config::FlashConfig& cfg, EnergyMonitor& monitor,
          const std::string& power_name);

  uint32_t erase_count(uint32_t block) const { return blocks_.at(block).erase_count; }

 private:
  struct Block {
    uint32_t erase_count = 0;
    uint32_t next_page = 0;              // pages below it are programmed
    std::vector<fw::PageToken> data;     // allocated on first program
  };

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  // Debug transport (preconditioning): the array operation's effect and NAND rules, no time,
  // no energy. Returns 1 (one page or block handled).
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp);
  // The effect of an array read, program or erase on the contents, after the NAND rules.
  void apply(tlm::tlm_generic_payload& gp, FlashCommandExt& cmd);
  Block& block_of(tlm::tlm_generic_payload& gp, const FlashCommandExt& cmd);
  [[noreturn]] void violation(tlm::tlm_generic_payload& gp, const FlashCommandExt& cmd,
                              const std::string& what);
  // Busy in `s` for `d` from max(at, free); returns the end.
  sc_core::sc_time run(PowerState s, const sc_core::sc_time& at, const sc_core::sc_time& d);

  uint32_t pages_per_block_;
  sc_core::sc_time t_read_, t_prog_, t_erase_;
  std::vector<Block> blocks_;
  sc_core::sc_time free_;  // end of the last reserved operation
  PowerStateMachine psm_;
};

}  // namespace ssd::model
