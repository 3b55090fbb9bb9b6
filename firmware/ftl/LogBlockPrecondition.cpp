// LogBlockFtl::precondition_bulk: bulk preconditioning of the block-mapped FTLs (block, bast,
// bast_star, fast, last; docs/ftl.md#preconditioning).
//
// The FTL replays the writes the simulated path makes (every logical page in order, then the
// random ones from PreconditionStream, each a one-page host write command) through its own
// write(), on a Hal that does nothing. What makes that fast is what a merge no longer does:
// every page written is version 0 data of its own logical page, so a data block's contents
// follow from its logical block and write pointer, and a merge changes only the tables: the
// log copies it takes in (LogIndex lists them), the block map, the pools and erase counts.
// No flash command, DRAM access or copy is issued; the victim searches find their answers
// from the simulator's orders (least recently written slot, BAST*'s oldest data block)
// without charging candidates. Then each block's NAND state is set by Hal::flash_preset.
// The decisions are the FTL's own on the same inputs, so the state is the simulated one,
// page for page.
#include <algorithm>

#include "common/Prefetch.h"
#include "firmware/PreconditionStream.h"
#include "firmware/ftl/LogBlockFtl.h"

namespace ssd::fw {

bool LogBlockFtl::precondition_bulk(uint64_t written, uint64_t random_writes) {
  if (!replay_holds_) return false;
  // The replay's merges are not the measured run's.
  const FtlStats counted = stats_;
  const LogBlockStats counted_log = log_stats_;
  const Statistics::Snapshot counted_own = statistics_.snapshot();  // the classes' own keys
  Hal* drive = hal_;
  hal_ = &none_;
  replaying_ = true;
  const auto write_one = [this](Lpn lpn) {
    const PageToken data{lpn, 0};
    begin_request();
    write(lpn, data, kNoOp);
    end_request();
  };
  try {
    for (Lpn lpn = 0; lpn < written; ++lpn) write_one(lpn);
    // The random writes touch the drive's tables at random, so they are fetched ahead, in
    // stages, each once the previous has brought in what it points to: the misses overlap.
    constexpr uint64_t kAhead = 16;
    PreconditionStream addresses(written);
    Lpn ahead[kAhead];
    for (uint64_t i = 0; i < kAhead && i < random_writes; ++i) ahead[i] = addresses.next();
    for (uint64_t i = 0; i < random_writes; ++i) {
      const Lpn lpn = ahead[i % kAhead];
      if (i + kAhead < random_writes) {
        ahead[i % kAhead] = addresses.next();
        prefetch_write(ahead[i % kAhead], 0);
      }
      for (uint32_t stage = 1; stage < 3; ++stage)
        if (i + (kAhead >> stage) < random_writes)
          prefetch_write(ahead[(i + (kAhead >> stage)) % kAhead], stage);
      write_one(lpn);
    }
  } catch (...) {
    hal_ = drive;
    replaying_ = false;
    throw;
  }
  hal_ = drive;
  replaying_ = false;
  stats_ = counted;
  log_stats_ = counted_log;
  statistics_.restore(counted_own);
  lay_out();
  return true;
}

void LogBlockFtl::prefetch_write(Lpn lpn, uint32_t stage) const {
  // What a random overwrite on an aged drive touches: its logical block, the die's least
  // recently written log blocks (BAST's victim, or the next if a write to the die comes
  // first) and their logical blocks, and the blocks the merge takes from the free pool and
  // erases.
  const Logical& l = lbn_[lbn_of(lpn)];
  const uint32_t die = die_of(lbn_of(lpn));
  const Die& d = dies_[die];
  const auto block_at = [&](uint32_t b) { return &block_[size_t(die) * blocks_per_die_ + b]; };
  if (stage == 0) {
    ssd::prefetch(&l);
    ssd::prefetch(pages_.word(lpn));
    for (size_t i = 0; i < 2 && i < d.free.size(); ++i) ssd::prefetch(block_at(d.free[i]));
  } else if (stage == 1) {
    if (l.data_block != kNone) ssd::prefetch(block_at(l.data_block));
  } else if (l.log_head != LogIndex::kNil) {
    index_.prefetch(l.log_head);  // its other log pages (FAST's and LAST's random logs)
  }
  uint32_t s = d.oldest;
  for (uint32_t i = 0; i < 2 && s != kNone; ++i, s = d.slots[s].newer) {
    const Slot& victim = d.slots[s];
    if (stage == 0) {
      ssd::prefetch(&victim);
      continue;
    }
    if (victim.lbn == kNoLbn) continue;
    const Logical& v = lbn_[victim.lbn];
    if (stage == 1) {
      ssd::prefetch(&v);
      ssd::prefetch(victim.lpns.data());
      if (victim.block != kNone) ssd::prefetch(block_at(victim.block));
    } else {
      ssd::prefetch(pages_.word(victim.lbn * ppb_ + ppb_ - 1));
      if (v.data_block != kNone) ssd::prefetch(block_at(v.data_block));
      if (v.log_head != LogIndex::kNil) index_.prefetch(v.log_head);
    }
  }
}

void LogBlockFtl::lay_out() {
  constexpr uint64_t kFree = ~uint64_t{0};
  constexpr uint64_t kSlot = uint64_t{1} << 63;  // role | slot number: a log block
  std::vector<uint64_t> role(blocks_per_die_);
  std::vector<PageToken> tokens;
  tokens.reserve(ppb_);
  for (uint32_t die = 0; die < dies(); ++die) {
    std::fill(role.begin(), role.end(), kFree);
    for (Lbn lbn = die; lbn < lbns_; lbn += dies())
      if (lbn_[lbn].data_block != kNone) role[lbn_[lbn].data_block] = lbn;
    const auto& slots = dies_[die].slots;
    for (uint32_t s = 0; s < slots.size(); ++s)
      if (slots[s].block != kNone) role[slots[s].block] = kSlot | s;
    for (uint32_t b = 0; b < blocks_per_die_; ++b) {
      tokens.clear();
      if (role[b] == kFree) {
        // Erased: nothing to write unless the erase count is not the NAND's fresh zero.
      } else if (role[b] & kSlot) {
        const Slot& s = slots[role[b] & ~kSlot];
        // Every page of a log block outside a merge was a host page (a partial merge's
        // copies go to a block that switches at once).
        for (uint32_t p = 0; p < s.next; ++p) tokens.push_back(PageToken{s.lpns[p], 0});
      } else {
        // Copies and padding carry the same version 0 token of their own logical page. Without
        // padding (replacement blocks) no offset below the write pointer is erased either: the
        // sequential pass writes every offset before any update, nothing is trimmed, so every
        // fold finds data for each offset up to its top.
        const Lbn lbn = role[b];
        for (uint32_t off = 0; off < lbn_[lbn].data_next; ++off)
          tokens.push_back(PageToken{lbn * ppb_ + off, 0});
      }
      const uint32_t erases = erase_count(die, b);
      if (!tokens.empty() || erases != 0) hal_->flash_preset(die, b, erases, tokens);
    }
  }
}

}  // namespace ssd::fw
