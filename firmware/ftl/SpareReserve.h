#pragma once
// When a drive losing blocks turns read-only (flash.faults,
// docs/reliability.md#read-only-once-the-spare-runs-out). GC works within a die: a die's room
// is its good blocks outside the SLC reserve less those its valid data fills, and every block it
// loses for good (an erase that failed, a program that failed) takes one. A die whose room falls
// to twice the free blocks GC keeps (ftl.gc_threshold_blocks: GC's own, and as many for the data
// in flight and the write buffer's flush, which GC must still place as its victims keep failing)
// cannot take host data for long: the firmware turns the drive read-only, as drives do (NVMe's
// SMART critical warning, its read-only bit). Writes and trims fail from then on; reads and
// flushes are served, and the write buffer still goes to flash.
#include <cstdint>
#include <optional>

namespace ssd::fw {

class SpareReserve {
 public:
  SpareReserve(uint32_t native_blocks_per_die, uint32_t gc_threshold_blocks)
      : native_(native_blocks_per_die), reserve_(2 * uint64_t(gc_threshold_blocks)) {}

  // The die lost a block for good at `now_s`: `lost` blocks in all, its valid data filling
  // `filled` blocks.
  void lost(uint32_t die, double now_s, uint64_t lost, uint64_t filled) {
    const uint64_t used = lost + filled;
    if (!read_only_at_s_ && (used >= native_ || native_ - used <= reserve_)) {
      read_only_at_s_ = now_s;
      die_ = die;
    }
  }
  bool read_only() const { return read_only_at_s_.has_value(); }
  // When the drive turned read-only, and the die that ran out (nullopt: it did not).
  std::optional<double> read_only_at_s() const { return read_only_at_s_; }
  std::optional<double> read_only_die() const {
    return read_only_at_s_ ? std::optional<double>(die_) : std::nullopt;
  }

 private:
  uint64_t native_;
  uint64_t reserve_;
  std::optional<double> read_only_at_s_;
  uint32_t die_ = 0;
};

}  // namespace ssd::fw
