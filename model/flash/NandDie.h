#pragma once
// One NAND die: planes of blocks of pages, tR/tPROG/tBERS by page type, per-block erase
// counts and write pointers, and the data token of every programmed page. It enforces the
// rules of NAND (program only erased pages, in ascending order within a block; erase whole
// blocks; read only programmed pages) and reports a violation as a model error. A page may be
// skipped: it stays erased, unreadable, and can no longer be programmed until the block is
// erased (assumed of the parts modelled; Ban 1999's replacement blocks leave never-written
// offsets of a data block erased, docs/ftl.md#block-mapping).
//
// Contents and timing arrive separately. The debug transport applies a command's effect on
// the contents: the channel calls it when it accepts the command, in issue order, and never
// reorders commands to the same block, so that is the content the command meets when it
// runs (preconditioning uses the same path). b_transport runs a timed phase that starts now
// (the channel's scheduler decides when): the die enters the phase's power state and
// returns its duration; it stays in that state until the next phase or Rest.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/HugePages.h"
#include "config/FaultConfig.h"
#include "config/FlashConfig.h"
#include "firmware/StateArchive.h"
#include "firmware/Types.h"
#include "model/BlockingTarget.h"
#include "model/SsdExtensions.h"
#include "model/flash/BitErrors.h"
#include "model/power/PowerStateMachine.h"

namespace ssd::model {

class NandDie : public sc_core::sc_module, private BlockingTarget {
 public:
  tlm::tlm_target_socket<> socket;

  // Each page holds `units_per_page` mapping units' data (DriveConfig::units_per_page).
  // `spare_reads`: the firmware reads spare areas (DriveConfig::reads_spare_areas), so the die
  // has that state; other drives' reports list no state their dies never enter.
  NandDie(sc_core::sc_module_name name, const config::FlashConfig& cfg, uint32_t units_per_page,
          bool spare_reads, EnergyMonitor& monitor, const std::string& power_name);

  uint32_t erase_count(uint32_t block) const { return blocks_.at(block).erase_count; }
  // Saves or loads every block's erase count, write pointer, mode and page tokens (a saved
  // aged drive, docs/state.md); the tokens as one table, mapped from the file on load.
  void state(fw::StateArchive& a);
  // What the die draws in each state (W at its supply; 0 for a state it lacks), by
  // PowerState: its channel charges each command the energy of the phases it ran.
  const std::array<double, kPowerStateCount>& powers_w() const { return power_w_; }

 private:
  struct Block {
    uint32_t erase_count = 0;
    uint32_t next_page = 0;       // pages below it are programmed
    bool slc = false;             // programmed in SLC mode since its erase
    bool stored = false;          // its tokens written: programmed (or preset) once at least
    bool bad = false;             // its erase failed (flash.faults): no command may reach it
    bool program_failed = false;  // a program failed (flash.faults): reads only
  };
  // Aging NAND: a block's first program since its erase (its oldest data; with run_temperature
  // "die", the retention meter then too) and its reads since; data written before the run
  // (preconditioned, preset, loaded) is retention_days old at its start instead.
  struct Age {
    sc_core::sc_time programmed_at;
    double meter_s = 0;
    uint64_t reads = 0;
    bool before_run = true;
  };
  // Aging NAND: the age of the block's oldest data now, in days at the reference temperature.
  double reference_days(const Age& a);
  // Aging NAND: the retry steps the read needs, from its page's bit errors now.
  void draw_errors(const Block& b, FlashCommandExt& cmd);
  // Aging NAND: the block erased, or its first page programmed (at `at`; `before_run`: by
  // preconditioning).
  void age_from(uint32_t block, const sc_core::sc_time& at, bool before_run) {
    if (ages_.empty()) return;
    const double meter_s = meter_ && !before_run ? meter_->retention_s(thermal_node_, at) : 0;
    ages_[block] = Age{at, meter_s, 0, before_run};
  }

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  // Debug transport (preconditioning): the array operation's effect and NAND rules, no time,
  // no energy. Returns 1 (one page or block handled); Contents, the units it gave.
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override;
  // FlashOp::Contents: the block's programmed units into the payload; returns how many.
  unsigned int contents(tlm::tlm_generic_payload& gp, const FlashCommandExt& cmd);
  // The effect of an array read, program or erase on the contents, after the NAND rules.
  void apply(tlm::tlm_generic_payload& gp, FlashCommandExt& cmd);
  static std::string mode_mismatch(const Block& b);
  Block& block_of(tlm::tlm_generic_payload& gp, const FlashCommandExt& cmd);
  [[noreturn]] void violation(tlm::tlm_generic_payload& gp, const FlashCommandExt& cmd,
                              const std::string& what);

  // A page's token packed in 8 bytes: the logical page (below twice the drive's page count)
  // in the top bits, the version below (36 bits on a 1 TB drive).
  uint64_t pack(tlm::tlm_generic_payload& gp, const FlashCommandExt& cmd, const fw::PageToken& t);
  // The block's packed tokens, a page's units in a row.
  uint64_t* block_tokens(uint32_t block) {
    return &tokens_[std::size_t(block) * pages_per_block_ * units_];
  }
  fw::PageToken unpack(uint64_t packed) const {
    return fw::PageToken{packed >> version_bits_, packed & ((uint64_t{1} << version_bits_) - 1)};
  }

  uint32_t pages_per_block_;
  uint32_t units_;       // mapping units per page
  uint32_t page_types_;  // bits per cell
  unsigned version_bits_;
  // By page type, then SLC mode at index page_types_.
  std::vector<sc_core::sc_time> t_read_, t_prog_;
  std::vector<sc_core::sc_time> t_retry_;     // array time of each retry step
  std::unique_ptr<flash::BitErrors> errors_;  // flash.reliability (null: off)
  uint32_t extra_pe_;                         // flash.reliability.pe_cycles
  double age_days_;                           // flash.reliability.retention_days
  // run_temperature "die": the monitor whose thermal model meters retention, and the die's node.
  EnergyMonitor* meter_ = nullptr;
  uint32_t thermal_node_ = 0;
  sc_core::sc_time t_erase_, t_suspend_, t_resume_, t_oob_read_;
  uint32_t word_line_pages_;  // pages of a native-mode program (one-shot: its word line)
  config::FaultConfig faults_;
  std::vector<Block> blocks_;
  std::vector<Age> ages_;  // by block; empty without aging NAND
  // Every block's tokens, in block order: a read looks one up at random across the die.
  // Huge pages once the die is known to fill (preset or loaded: an aged drive).
  LazyTable<uint64_t> tokens_;
  std::array<double, kPowerStateCount> power_w_{};
  PowerStateMachine psm_;
};

}  // namespace ssd::model
