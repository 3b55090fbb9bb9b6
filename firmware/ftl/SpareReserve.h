#pragma once
// When a die losing blocks runs out of room, and when the drive turns read-only (flash.faults,
// docs/reliability.md#when-a-die-runs-out-of-room). GC works within a die: a die's room is its
// good blocks outside the SLC reserve less those its valid data fills, and every block it loses
// for good (an erase that failed, a program that failed) takes one. A die whose room falls to
// twice the free blocks GC keeps (ftl.gc_threshold_blocks: GC's own, and as many for the data in
// flight and the write buffer's flush, which GC must still place as its victims keep failing),
// or whose GC finds nothing left to reclaim, is out of room: it cannot take host data for long.
// The firmware then turns the drive read-only at once (read_only), as drives do (NVMe's SMART
// critical warning, its read-only bit), or sends host data to the dies that still have room and
// turns read-only once none has (other_dies). Writes and trims fail from then on; reads and
// flushes are served, and the write buffer still goes to flash.
#include <cstdint>
#include <optional>
#include <vector>

#include "config/Choices.h"

namespace ssd::fw {

class SpareReserve {
 public:
  SpareReserve(uint32_t dies, uint32_t native_blocks_per_die, uint32_t gc_threshold_blocks,
               config::DieOutOfRoom policy)
      : native_(native_blocks_per_die),
        reserve_(2 * uint64_t(gc_threshold_blocks)),
        policy_(policy),
        out_(dies, false) {}

  // The die lost a block for good at `now_s`: `lost` blocks in all, its valid data filling
  // `filled` blocks.
  void lost(uint32_t die, double now_s, uint64_t lost, uint64_t filled) {
    const uint64_t used = lost + filled;
    if (used >= native_ || native_ - used <= reserve_) out_of_room(die, now_s);
  }
  // The die is out of room at `now_s` (its room down to the reserve, or its GC found nothing
  // left to reclaim).
  void out_of_room(uint32_t die, double now_s) {
    if (out_[die]) return;
    out_[die] = true;
    if (dies_out_++ == 0) first_out_at_s_ = now_s;
    if (!read_only_at_s_ &&
        (policy_ == config::DieOutOfRoom::ReadOnly || dies_out_ == out_.size())) {
      read_only_at_s_ = now_s;
      die_ = die;
    }
  }
  // Whether host data may go to the die: it has room, or no die has (the data still in flight
  // then goes where it would have).
  bool takes_writes(uint32_t die) const { return !out_[die] || dies_out_ == out_.size(); }
  bool any_out() const { return dies_out_ != 0; }
  uint32_t dies_out() const { return dies_out_; }
  bool read_only() const { return read_only_at_s_.has_value(); }
  // When the first die ran out of room, and when the drive turned read-only and the die whose
  // running out turned it (nullopt: it did not).
  std::optional<double> first_out_of_room_at_s() const { return first_out_at_s_; }
  std::optional<double> read_only_at_s() const { return read_only_at_s_; }
  std::optional<double> read_only_die() const {
    return read_only_at_s_ ? std::optional<double>(die_) : std::nullopt;
  }

 private:
  uint64_t native_;
  uint64_t reserve_;
  config::DieOutOfRoom policy_;
  std::vector<bool> out_;
  uint32_t dies_out_ = 0;
  std::optional<double> first_out_at_s_;
  std::optional<double> read_only_at_s_;
  uint32_t die_ = 0;
};

}  // namespace ssd::fw
