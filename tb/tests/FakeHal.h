#pragma once
// A fw::Hal for firmware unit tests, with no simulation kernel running: time is a cursor that
// compute() and DRAM accesses advance, and every flash command costs fixed, distinct amounts,
// so a test can work out any completion time by hand.
//
// It keeps its own NAND array and enforces the NAND rules itself rather than trusting the
// firmware's bookkeeping: program only erased pages, in ascending page order within a block;
// read only programmed pages; erase whole blocks. A breach records a test failure and throws
// NandViolation, so the firmware cannot carry on with data the NAND would not have held.
//
// It counts what the firmware asked for (DRAM entries, flash commands per die, the order of
// the dies programmed) and logs every flash command, so tests can check allocation order,
// read-before-program ordering and which blocks GC erased.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>

#include "config/DriveConfig.h"
#include "firmware/Firmware.h"
#include "firmware/Hal.h"
#include "firmware/Types.h"

namespace ssd::test {

class NandViolation : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

class FakeHal final : public fw::Hal {
 public:
  // Fixed costs. Distinct values, so a hand-computed time shows which costs were paid.
  static constexpr double kDramAccessNs = 50;  // per mapping-table entry
  static constexpr double kIssueUs = 30;       // each flash command leaving the controller
  static constexpr double kReadUs = 50;
  static constexpr double kSpareReadUs = 45;  // a page's spare area
  static constexpr double kProgramUs = 500;
  static constexpr double kEraseUs = 2000;
  static constexpr double kBurstNsPerByte = 1;  // 1 GB/s: a 4 KiB page in 4.096 us

  static sc_core::sc_time us(double v) { return sc_core::sc_time(v, sc_core::SC_US); }
  static sc_core::sc_time dram_time(uint32_t entries) {
    return sc_core::sc_time(entries * kDramAccessNs, sc_core::SC_NS);
  }

  enum class OpKind { kRead, kProgram, kErase, kSpareRead };

  // One flash command as the firmware issued it.
  struct FlashOp {
    OpKind kind;
    fw::Ppa ppa;                  // erase: page 0
    fw::PageToken token;          // read: returned; program: stored
    sc_core::sc_time issued;      // cursor once the command left (after the issue time)
    sc_core::sc_time data_ready;  // program only
    sc_core::sc_time done;        // what the call returned
    bool urgent = false;          // issued under Hal::Urgent
    uint32_t unit = 0;            // read: the unit read
  };

  // `units_per_page`: mapping units a page holds (DriveConfig::units_per_page).
  explicit FakeHal(const config::FlashConfig& flash, uint32_t units_per_page = 1)
      : dies_(flash.dies()),
        blocks_per_die_(flash.blocks_per_die()),
        pages_per_block_(flash.pages_per_block),
        units_(units_per_page),
        blocks_(size_t(dies_) * blocks_per_die_, Block{pages_per_block_, units_}),
        reads_(dies_, 0),
        programs_(dies_, 0),
        erases_(dies_, 0) {}

  // --- fw::Hal ---

  sc_core::sc_time now() const override { return cursor_; }
  // Each die at a constant temperature whose Arrhenius factor is `retention_factor`.
  double die_retention_s(uint32_t) override { return cursor_.to_seconds() * retention_factor; }
  double retention_factor = 1;
  void compute(const sc_core::sc_time& duration) override { cursor_ += duration; }
  void unit_work(fw::Unit unit, const sc_core::sc_time& duration) override {
    cursor_ += duration;
    unit_time_[static_cast<std::size_t>(unit)] += duration;
  }

  void dram_access(uint32_t entries, bool write) override {
    (write ? dram_written_ : dram_read_) += entries;
    cursor_ += dram_time(entries);
  }

  fw::OpId flash_read(const fw::Ppa& ppa, fw::PageToken& out, uint32_t unit = 0) override {
    Block& b = block(ppa.die, ppa.block, "read");
    check_page(ppa, "read");
    if (!b.programmed[ppa.page]) violation("read of an unprogrammed page", ppa);
    if (unit >= units_) violation("read of a unit the page does not have", ppa);
    cursor_ += us(kIssueUs);
    out = b.tokens[size_t(ppa.page) * units_ + unit];
    ++unit_reads_;
    ++reads_[ppa.die];
    const fw::OpId op =
        log({OpKind::kRead, ppa, out, cursor_, sc_core::SC_ZERO_TIME, cursor_ + us(kReadUs)});
    ops_.back().unit = unit;
    return op;
  }

  // Not counted in reads(): spare_reads() counts them.
  fw::OpId flash_read_spare(const fw::Ppa& ppa, fw::PageToken& out) override {
    Block& b = block(ppa.die, ppa.block, "spare read");
    check_page(ppa, "spare read");
    if (!b.programmed[ppa.page]) violation("spare read of an unprogrammed page", ppa);
    cursor_ += us(kIssueUs);
    out = b.tokens[size_t(ppa.page) * units_];
    ++spare_reads_;
    return log(
        {OpKind::kSpareRead, ppa, out, cursor_, sc_core::SC_ZERO_TIME, cursor_ + us(kSpareReadUs)});
  }

  fw::OpId flash_program(const fw::Ppa& ppa, const fw::PageToken& data, fw::OpId data_from,
                         fw::OpId after = fw::kNoOp) override {
    return flash_program_units(ppa, &data, &data_from, 1, after);
  }

  fw::OpId flash_program_units(const fw::Ppa& ppa, const fw::PageToken* data,
                               const fw::OpId* data_from, uint32_t units, fw::OpId after) override {
    if (units != units_)
      violation(
          "program of " + std::to_string(units) + " units; pages hold " + std::to_string(units_),
          ppa);
    sc_core::sc_time data_ready = end_of(after);
    for (uint32_t u = 0; u < units; ++u) data_ready = std::max(data_ready, end_of(data_from[u]));
    Block& b = block(ppa.die, ppa.block, "program");
    check_page(ppa, "program");
    if (b.programmed[ppa.page])
      violation("program of a page not erased since its last program", ppa);
    if (b.last_programmed >= 0 && ppa.page <= uint32_t(b.last_programmed))
      violation("program out of page order (last programmed page " +
                    std::to_string(b.last_programmed) + ")",
                ppa);
    cursor_ += us(kIssueUs);
    b.programmed[ppa.page] = true;
    std::copy(data, data + units, b.tokens.begin() + std::ptrdiff_t(size_t(ppa.page) * units_));
    b.last_programmed = int32_t(ppa.page);
    ++programs_[ppa.die];
    programmed_dies_.push_back(ppa.die);
    const sc_core::sc_time start = std::max({data_ready, data_at_, cursor_});
    return log({OpKind::kProgram, ppa, data[0], cursor_, data_ready, start + us(kProgramUs)});
  }

  fw::OpId flash_erase(uint32_t die, uint32_t block_index) override {
    // The command names a block, so an erase always covers whole blocks.
    Block& b = block(die, block_index, "erase");
    cursor_ += us(kIssueUs);
    b = Block{pages_per_block_, units_};
    ++erases_[die];
    return log({OpKind::kErase, fw::Ppa{die, block_index, 0}, fw::PageToken{}, cursor_,
                sc_core::SC_ZERO_TIME, cursor_ + us(kEraseUs)});
  }

  // The block as erased and then programmed with `pages` (not logged: no command).
  void flash_preset(uint32_t die, uint32_t block_index, uint32_t /*erases*/,
                    const std::vector<fw::PageToken>& pages) override {
    Block& b = block(die, block_index, "preset");
    b = Block{pages_per_block_, units_};
    std::copy(pages.begin(), pages.end(), b.tokens.begin());
    std::fill_n(b.programmed.begin(), pages.size() / units_, true);
    b.last_programmed = int32_t(pages.size() / units_) - 1;
  }

  void wait_for(fw::OpId op) override { cursor_ = std::max(cursor_, end_of(op)); }
  // Host data is always there: the fake has no host link.
  sc_core::sc_time host_data_at(uint64_t) override { return sc_core::SC_ZERO_TIME; }
  void program_data_at(const sc_core::sc_time& t) override { data_at_ = t; }
  // A burst takes kBurstNsPerByte per byte from the later of now and not_before, one at a
  // time; the core does not wait.
  sc_core::sc_time dram_burst(uint64_t bytes, bool write,
                              const sc_core::sc_time& not_before) override {
    (write ? burst_written_ : burst_read_) += bytes;
    burst_free_ = std::max({burst_free_, cursor_, not_before}) +
                  sc_core::sc_time(double(bytes) * kBurstNsPerByte, sc_core::SC_NS);
    return burst_free_;
  }
  bool ended_by_now(fw::OpId op) override { return end_of(op) <= cursor_; }
  void pace_background(fw::OpId op) override { paced_by = op; }
  fw::OpId paced_by = fw::kNoOp;  // the last pace_background
  uint64_t burst_bytes_written() const { return burst_written_; }
  uint64_t burst_bytes_read() const { return burst_read_; }

  // When a flash command ends (zero for kNoOp).
  sc_core::sc_time end_of(fw::OpId op) const {
    return op == fw::kNoOp ? sc_core::SC_ZERO_TIME : ops_.at(op - 1).done;
  }
  // When a host command that waits for `c` is done: the latest of its flash commands, its
  // time and now().
  sc_core::sc_time done(const fw::Completion& c) const {
    sc_core::sc_time t = std::max(cursor_, c.at);
    for (fw::OpId op : c.ops) t = std::max(t, end_of(op));
    return t;
  }

  // --- What the firmware did ---

  uint64_t dram_entries_read() const { return dram_read_; }
  uint64_t dram_entries_written() const { return dram_written_; }
  // How long a lifetime-manager data unit has worked.
  sc_core::sc_time unit_time(fw::Unit unit) const {
    return unit_time_[static_cast<std::size_t>(unit)];
  }
  uint64_t reads(uint32_t die) const { return reads_.at(die); }
  uint64_t programs(uint32_t die) const { return programs_.at(die); }
  uint64_t erases(uint32_t die) const { return erases_.at(die); }
  uint64_t total_reads() const { return sum(reads_); }
  uint64_t total_programs() const { return sum(programs_); }
  uint64_t total_erases() const { return sum(erases_); }
  // Die of every program, in issue order (host and GC alike).
  const std::vector<uint32_t>& programmed_dies() const { return programmed_dies_; }
  const std::vector<FlashOp>& ops() const { return ops_; }
  const std::vector<std::string>& violations() const { return violations_; }

  // The NAND contents, for tests that look behind the firmware's back.
  bool programmed(const fw::Ppa& ppa) const {
    return blocks_.at(index(ppa.die, ppa.block)).programmed.at(ppa.page);
  }
  fw::PageToken token(const fw::Ppa& ppa, uint32_t unit = 0) const {
    return blocks_.at(index(ppa.die, ppa.block)).tokens.at(size_t(ppa.page) * units_ + unit);
  }
  uint64_t unit_reads() const { return unit_reads_; }
  uint64_t spare_reads() const { return spare_reads_; }

 private:
  struct Block {
    Block(uint32_t pages, uint32_t units)
        : tokens(size_t(pages) * units), programmed(pages, false) {}
    std::vector<fw::PageToken> tokens;
    std::vector<bool> programmed;
    int32_t last_programmed = -1;  // pages must be programmed above this one
  };

  static uint64_t sum(const std::vector<uint64_t>& v) {
    uint64_t s = 0;
    for (uint64_t x : v) s += x;
    return s;
  }

  size_t index(uint32_t die, uint32_t block) const { return size_t(die) * blocks_per_die_ + block; }

  Block& block(uint32_t die, uint32_t block_index, const char* what) {
    if (die >= dies_ || block_index >= blocks_per_die_)
      violation(std::string(what) + " outside the array", fw::Ppa{die, block_index, 0});
    return blocks_[index(die, block_index)];
  }

  void check_page(const fw::Ppa& ppa, const char* what) {
    if (ppa.page >= pages_per_block_) violation(std::string(what) + " outside the block", ppa);
  }

  [[noreturn]] void violation(const std::string& what, const fw::Ppa& ppa) {
    const std::string msg = "NAND rule broken: " + what + " at die " + std::to_string(ppa.die) +
                            " block " + std::to_string(ppa.block) + " page " +
                            std::to_string(ppa.page);
    violations_.push_back(msg);
    ADD_FAILURE() << msg;
    throw NandViolation(msg);
  }

  // Ids are positions in the log, from 1.
  fw::OpId log(const FlashOp& op) {
    ops_.push_back(op);
    ops_.back().urgent = urgent();
    return ops_.size();
  }

  uint32_t dies_;
  uint32_t blocks_per_die_;
  uint32_t pages_per_block_;
  uint32_t units_;
  uint64_t unit_reads_ = 0;
  uint64_t spare_reads_ = 0;
  std::vector<Block> blocks_;
  sc_core::sc_time cursor_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time data_at_ = sc_core::SC_ZERO_TIME;  // program_data_at()
  sc_core::sc_time burst_free_ = sc_core::SC_ZERO_TIME;
  uint64_t burst_written_ = 0;
  uint64_t burst_read_ = 0;
  uint64_t dram_read_ = 0;
  uint64_t dram_written_ = 0;
  std::array<sc_core::sc_time, 3> unit_time_{};
  std::vector<uint64_t> reads_, programs_, erases_;
  std::vector<uint32_t> programmed_dies_;
  std::vector<FlashOp> ops_;
  std::vector<std::string> violations_;
};

}  // namespace ssd::test
