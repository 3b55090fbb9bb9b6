#pragma once
// When a die losing blocks runs out of room, and when the drive turns read-only (flash.faults,
// docs/reliability.md#when-a-die-runs-out-of-room). GC works within a die: a die's room is its
// good blocks outside the SLC reserve less those its valid data fills, and every block it loses
// for good (an erase that failed, a program that failed) takes one. A die whose room falls to
// twice the free blocks GC keeps (ftl.gc_threshold_blocks: GC's own, and as many for the data in
// flight and the write buffer's flush, which GC must still place as its victims keep failing;
// more for a write buffer whose share of a die needs more), or whose GC finds nothing left to
// reclaim, is out of room: it cannot take host data for long.
// The firmware then turns the drive read-only at once (read_only), as drives do (NVMe's SMART
// critical warning, its read-only bit), or sends host data to the dies that still have room and
// turns read-only once none has at once (other_dies: the spare pooled, as firmware that remaps
// a die's bad blocks to other dies has it). A die out of room whose valid data the host has
// since overwritten on other dies takes host data again once its room has grown by
// gc_threshold_blocks since it ran out and is above the reserve (the margin keeps it from
// coming back for a page at a time). Writes and trims fail from then on; reads and flushes are
// served, and the write buffer still goes to flash. A die that stops answering (dead) takes no
// host data for good; it does not turn the drive read-only, but counts among the dies without room.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "config/Choices.h"
#include "firmware/Statistics.h"

namespace ssd::fw {

// Retired blocks over `dies` dies, and on the die with the most (`per_die(die)` each).
template <class PerDie>
std::pair<uint32_t, uint32_t> retired_total_and_most(uint32_t dies, PerDie per_die) {
  uint32_t total = 0, most = 0;
  for (uint32_t d = 0; d < dies; ++d) {
    const uint32_t n = per_die(d);
    total += n;
    most = std::max(most, n);
  }
  return {total, most};
}

class SpareReserve {
 public:
  // `in_flight_blocks`: what a die keeps for the data in flight (PageLevelFtl::register_faults).
  SpareReserve(uint32_t dies, uint32_t native_blocks_per_die, uint32_t gc_threshold_blocks,
               uint32_t in_flight_blocks, config::DieOutOfRoom policy)
      : native_(native_blocks_per_die),
        reserve_(int64_t(gc_threshold_blocks) + in_flight_blocks),
        margin_(gc_threshold_blocks),
        policy_(policy),
        lost_(dies, 0),
        out_(dies, false),
        dead_(dies, false),
        room_at_out_(dies, 0) {}
  // figures() points into it.
  SpareReserve(const SpareReserve&) = delete;
  SpareReserve& operator=(const SpareReserve&) = delete;

  // The die lost a block for good at `now_s`: `lost` blocks in all, its valid data filling
  // `filled` blocks.
  void lost(uint32_t die, double now_s, uint64_t lost, uint64_t filled) {
    lost_[die] = lost;
    if (room(die, filled) <= reserve_) out_of_room(die, now_s, filled);
  }
  // The die is out of room at `now_s`, its valid data filling `filled` blocks (its room down to
  // the reserve, or its GC found nothing left to reclaim).
  void out_of_room(uint32_t die, double now_s, uint64_t filled) {
    room_at_out_[die] = room(die, filled);
    if (out_[die]) return;
    out_[die] = true;
    ++dies_out_;
    if (times_out_++ == 0) first_out_at_s_ = now_s;
    if (!read_only_at_s_ && (policy_ == config::DieOutOfRoom::ReadOnly || none_with_room())) {
      read_only_at_s_ = now_s;
      die_ = die;
    }
  }
  // A die out of room, its valid data now filling `filled` blocks: whether it takes host data
  // again (never once the drive is read-only).
  bool back_in_room(uint32_t die, uint64_t filled) {
    if (!out_[die] || read_only()) return false;
    if (room(die, filled) < std::max(room_at_out_[die], reserve_) + margin_) return false;
    out_[die] = false;
    --dies_out_;
    ++times_back_;
    return true;
  }
  // Whether host data may go to the die: it has room, or no die has (the data still in flight
  // then goes where it would have).
  bool takes_writes(uint32_t die) const { return !dead_[die] && (!out_[die] || none_with_room()); }
  // The die stopped answering at `now_s`: it takes nothing for good. With no die left that has
  // room, the drive turns read-only.
  void dead(uint32_t die, double now_s) {
    if (out_[die]) --dies_out_;
    out_[die] = false;
    dead_[die] = true;
    ++dead_count_;
    if (!read_only_at_s_ && dies_out_ != 0 && none_with_room()) {
      read_only_at_s_ = now_s;
      die_ = die;
    }
  }
  bool dead(uint32_t die) const { return dead_[die]; }
  bool any_out() const { return dies_out_ != 0; }
  uint32_t dies_out() const { return dies_out_; }
  // Times a die ran out of room, and times one took host data again.
  uint32_t times_out() const { return times_out_; }
  uint32_t times_back() const { return times_back_; }
  bool read_only() const { return read_only_at_s_.has_value(); }
  // When the first die ran out of room, and when the drive turned read-only and the die whose
  // running out turned it (nullopt: it did not).
  std::optional<double> first_out_of_room_at_s() const { return first_out_at_s_; }
  std::optional<double> read_only_at_s() const { return read_only_at_s_; }
  std::optional<double> read_only_die() const {
    return read_only_at_s_ ? std::optional<double>(die_) : std::nullopt;
  }
  // Its figures in `g` (the FTL's faults group), after the FTL's own dies_out_of_room.
  void figures(StatGroup& g) const {
    g.derived("times_out_of_room", StatUnit::None,
              "Times a die ran out of room (a die may run out again after taking host data "
              "again).",
              [this] { return double(times_out_); })
        .derived("times_back_in_room", StatUnit::None,
                 "Times a die out of room took host data again (flash.faults.die_out_of_room "
                 "other_dies): its room grown by ftl.gc_threshold_blocks since it ran out, its "
                 "data overwritten on other dies.",
                 [this] { return double(times_back_); })
        .derived("first_out_of_room_at_s", StatUnit::Seconds,
                 "When the first die ran out of room; null: none did.",
                 [this] { return first_out_at_s_; })
        .derived("read_only_at_s", StatUnit::Seconds,
                 "When the drive turned read-only, failing writes and trims from then on: at the "
                 "first die out of room (flash.faults.die_out_of_room read_only), or the last "
                 "(other_dies); null (and read_only_die): it did not.",
                 [this] { return read_only_at_s_; })
        .derived("read_only_die", StatUnit::None,
                 "The die whose running out of room turned the drive read-only.",
                 [this] { return read_only_die(); });
  }

 private:
  // Its good blocks outside the SLC reserve less those lost and those its data fills.
  int64_t room(uint32_t die, uint64_t filled) const {
    return int64_t(native_) - int64_t(lost_[die]) - int64_t(filled);
  }
  bool none_with_room() const { return dies_out_ + dead_count_ == out_.size(); }

  uint64_t native_;
  int64_t reserve_;
  int64_t margin_;
  config::DieOutOfRoom policy_;
  std::vector<uint64_t> lost_;
  std::vector<bool> out_;
  std::vector<bool> dead_;
  std::vector<int64_t> room_at_out_;
  uint32_t dies_out_ = 0;
  uint32_t dead_count_ = 0;
  uint32_t times_out_ = 0;
  uint32_t times_back_ = 0;
  std::optional<double> first_out_at_s_;
  std::optional<double> read_only_at_s_;
  uint32_t die_ = 0;
};

}  // namespace ssd::fw
