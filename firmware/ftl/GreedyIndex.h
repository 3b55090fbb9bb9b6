#pragma once
// The bulk preconditioning model's greedy victim choice (firmware/ftl/SteadyStateModel.h): per
// die, the full blocks by key (valid pages), the victim being the block with the smallest key
// and, among those, the lowest block number. A bitset per key and die, with a summary of its
// non-zero words, so a choice costs a scan of the keys up to the smallest and two word scans,
// not a look at every block of the die (65,536 on the case-study drive, per victim). The
// words are laid out key innermost: a page dying moves its block from key k to k - 1, which
// then touches one cache line, not two far apart (a random overwrite's main cost).
#include <cstdint>
#include <vector>

#include "common/Prefetch.h"

namespace ssd::fw {

class GreedyIndex {
 public:
  static constexpr uint32_t kNone = ~0u;

  // Keys 0 .. max_key.
  GreedyIndex(uint32_t dies, uint32_t blocks_per_die, uint32_t max_key)
      : keys_(max_key + 1),
        words_((blocks_per_die + 63) / 64),
        summary_words_((words_ + 63) / 64),
        bits_(size_t(dies) * keys_ * words_, 0),
        summary_(size_t(dies) * keys_ * summary_words_, 0),
        counts_(size_t(dies) * keys_, 0) {}

  void insert(uint32_t die, uint32_t block, uint32_t key) { set(die, block, key); }
  // A page of the block died: its key goes from `key` to key - 1. Deferred, and applied in
  // order before the next erase() or min(), a batch at a time with each change's words
  // fetched a few changes ahead: the changes touch blocks all over the drive, and their
  // cache misses then overlap (a page's death is the bulk model's commonest event).
  void decrement(uint32_t die, uint32_t block, uint32_t key) {
    pending_.push_back(Change{die, block, key});
    if (pending_.size() == kBatch) apply();
  }
  void erase(uint32_t die, uint32_t block, uint32_t key) {
    apply();
    clear(die, block, key);
  }
  // The full block of the die with the smallest key, the lowest numbered among equals; kNone
  // if the die has no full block. `key` receives its key.
  uint32_t min(uint32_t die, uint32_t& key) {
    apply();
    for (uint32_t k = 0; k < keys_; ++k) {
      if (counts_[size_t(die) * keys_ + k] == 0) continue;
      for (uint32_t s = 0; s < summary_words_; ++s) {
        const uint64_t sw = summary_[summary_at(die, s, k)];
        if (sw == 0) continue;
        const uint32_t word = s * 64 + uint32_t(__builtin_ctzll(sw));
        key = k;
        return word * 64 + uint32_t(__builtin_ctzll(bits_[word_at(die, word, k)]));
      }
    }
    return kNone;
  }

 private:
  static constexpr size_t kBatch = 1024, kAhead = 8;
  struct Change {
    uint32_t die, block, key;
  };

  void set(uint32_t die, uint32_t block, uint32_t key) {
    uint64_t& w = bits_[word_at(die, block / 64, key)];
    if (w == 0) summary_[summary_at(die, block / 4096, key)] |= uint64_t{1} << (block / 64 % 64);
    w |= uint64_t{1} << (block % 64);
    ++counts_[size_t(die) * keys_ + key];
  }
  void clear(uint32_t die, uint32_t block, uint32_t key) {
    uint64_t& w = bits_[word_at(die, block / 64, key)];
    w &= ~(uint64_t{1} << (block % 64));
    if (w == 0) summary_[summary_at(die, block / 4096, key)] &= ~(uint64_t{1} << (block / 64 % 64));
    --counts_[size_t(die) * keys_ + key];
  }
  void apply() {
    for (size_t i = 0; i < pending_.size(); ++i) {
      if (i + kAhead < pending_.size()) {
        const Change& a = pending_[i + kAhead];
        ssd::prefetch(&bits_[word_at(a.die, a.block / 64, a.key)]);
        ssd::prefetch(&summary_[summary_at(a.die, a.block / 4096, a.key)]);
      }
      const Change& c = pending_[i];
      clear(c.die, c.block, c.key);
      set(c.die, c.block, c.key - 1);
    }
    pending_.clear();
  }
  size_t word_at(uint32_t die, uint32_t word, uint32_t key) const {
    return (size_t(die) * words_ + word) * keys_ + key;
  }
  size_t summary_at(uint32_t die, uint32_t word, uint32_t key) const {
    return (size_t(die) * summary_words_ + word) * keys_ + key;
  }

  uint32_t keys_;
  uint32_t words_, summary_words_;
  std::vector<uint64_t> bits_;     // per die, word and key: a bit per block
  std::vector<uint64_t> summary_;  // per die, summary word and key: a bit per non-zero word
  std::vector<uint32_t> counts_;   // per die and key: blocks
  std::vector<Change> pending_;    // decrements not yet applied, in order
};

}  // namespace ssd::fw
