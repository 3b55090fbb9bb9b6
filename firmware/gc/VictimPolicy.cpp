#include "firmware/gc/VictimPolicy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ssd::fw {
namespace {

class Greedy final : public VictimPolicy {
 public:
  Choice choose(const BlockManager& blocks, uint32_t die, uint64_t) override {
    uint32_t b = 0;
    if (!blocks.greedy_victim(die, b)) return {std::nullopt, 0};
    if (blocks.valid_pages(die, b) == blocks.pages_per_block()) return {std::nullopt, 1};
    return {b, 1};
  }
  const char* name() const override { return "greedy"; }
};

class CostBenefit final : public VictimPolicy {
 public:
  Choice choose(const BlockManager& blocks, uint32_t die, uint64_t now) override {
    const auto& full = blocks.full_blocks(die);
    const uint32_t ppb = blocks.pages_per_block();
    Choice c{std::nullopt, uint32_t(full.size())};
    double best = -1;
    uint32_t best_valid = ppb;
    for (uint32_t b : full) {
      const uint32_t valid = blocks.valid_pages(die, b);
      if (valid == ppb) continue;
      const uint64_t stamp = blocks.last_change(die, b);
      const double age = double(now > stamp ? now - stamp : 0);
      // age x (1 - u) / 2u with u = valid / ppb; an empty block costs nothing to reclaim.
      const double score = valid == 0 ? std::numeric_limits<double>::infinity()
                                      : age * double(ppb - valid) / (2.0 * valid);
      // Equal scores (blocks of one age, as all are at age 0 while preconditioning fills the
      // drive) go to the fewer valid pages: otherwise the first candidate, however full, is
      // taken, and GC may free no more than it copies.
      if (score > best || (score == best && valid < best_valid)) {
        best = score;
        best_valid = valid;
        c.block = b;
      }
    }
    return c;
  }
  const char* name() const override { return "cost_benefit"; }
};

// Greedy over `window` consecutive candidates from a rotating start, looking on while every
// block seen is fully valid. Random is the window of one at a random start.
VictimPolicy::Choice scan(const BlockManager& blocks, uint32_t die, size_t start, size_t window,
                          size_t& examined_to) {
  const auto& full = blocks.full_blocks(die);
  const uint32_t ppb = blocks.pages_per_block();
  VictimPolicy::Choice c;
  uint32_t best = ppb;
  size_t i = 0;
  for (; i < full.size() && (i < window || !c.block); ++i) {
    const uint32_t b = full[(start + i) % full.size()];
    const uint32_t valid = blocks.valid_pages(die, b);
    if (valid < best) {
      best = valid;
      c.block = b;
    }
  }
  c.examined = uint32_t(i);
  examined_to = start + i;
  return c;
}

class Window final : public VictimPolicy {
 public:
  Window(double fraction, uint32_t dies) : fraction_(fraction), cursor_(dies, 0) {}
  Choice choose(const BlockManager& blocks, uint32_t die, uint64_t) override {
    const size_t n = blocks.full_blocks(die).size();
    if (n == 0) return {std::nullopt, 0};
    const size_t window = std::max<size_t>(1, size_t(std::ceil(fraction_ * double(n))));
    size_t end = 0;
    const Choice c = scan(blocks, die, cursor_[die] % n, window, end);
    cursor_[die] = end;
    return c;
  }
  const char* name() const override { return "window"; }
  void state(StateArchive& a) override { a.array(cursor_, cursor_.size(), "GC window cursors"); }

 private:
  double fraction_;
  std::vector<size_t> cursor_;
};

class Random final : public VictimPolicy {
 public:
  Choice choose(const BlockManager& blocks, uint32_t die, uint64_t) override {
    const size_t n = blocks.full_blocks(die).size();
    if (n == 0) return {std::nullopt, 0};
    size_t end = 0;
    return scan(blocks, die, size_t(next() % n), 1, end);
  }
  const char* name() const override { return "random"; }
  void state(StateArchive& a) override { a.value(state_); }

 private:
  // splitmix64: tiny, fast, and the same sequence on every platform (std:: distributions
  // are not specified bit for bit).
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t state_ = 0x5eedULL;
};

}  // namespace

VictimPolicy::Choice fewest_valid(const BlockManager& blocks, uint32_t die,
                                  const std::function<bool(uint32_t)>& fits) {
  const auto& full = blocks.full_blocks(die);
  VictimPolicy::Choice c{std::nullopt, uint32_t(full.size())};
  uint32_t best = blocks.pages_per_block();
  for (uint32_t b : full) {
    const uint32_t valid = blocks.valid_pages(die, b);
    if (valid < best && fits(b)) {
      best = valid;
      c.block = b;
    }
  }
  return c;
}

std::unique_ptr<VictimPolicy> make_victim_policy(const config::FtlConfig& cfg, uint32_t dies) {
  switch (cfg.gc_policy) {
    case config::GcPolicy::Greedy:
      return std::make_unique<Greedy>();
    case config::GcPolicy::CostBenefit:
      return std::make_unique<CostBenefit>();
    case config::GcPolicy::Random:
      return std::make_unique<Random>();
    case config::GcPolicy::Window:
      return std::make_unique<Window>(cfg.gc_window_fraction, dies);
  }
  throw std::invalid_argument("invalid GC policy");
}

}  // namespace ssd::fw
