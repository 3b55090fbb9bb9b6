#include "tb/Scoreboard.h"

namespace ssd::tb {
namespace {
constexpr std::size_t kMaxMessages = 10;
}

void Scoreboard::update_issued(fw::Lpn lpn, uint64_t version) {
  Page& p = pages_[lpn];
  p.last = version;
  ++p.epoch;
  ++p.in_flight;
  if (version == 0) p.trim_since_commit = true;
  if (version > p.max_version) p.max_version = version;
}

uint32_t Scoreboard::epoch(fw::Lpn lpn) const {
  auto it = pages_.find(lpn);
  return it == pages_.end() ? 0 : it->second.epoch;
}

void Scoreboard::update_completed(fw::Lpn lpn, uint64_t version, uint32_t epoch) {
  Page& p = pages_[lpn];
  --p.in_flight;
  if (epoch > p.committed_epoch) {
    p.committed = version;
    p.committed_epoch = epoch;
    if (p.in_flight == 0) p.trim_since_commit = false;
  }
}

Scoreboard::Watch Scoreboard::watch(fw::Lpn lpn) const {
  auto it = pages_.find(lpn);
  if (it == pages_.end()) return Watch{lpn, 0, 0, true};
  const Page& p = it->second;
  return Watch{lpn, p.epoch, p.committed, p.in_flight == 0};
}

void Scoreboard::check(const Watch& w, const fw::PageToken& got) {
  ++checked_;
  auto it = pages_.find(w.lpn);
  const Page none;
  const Page& p = it == pages_.end() ? none : it->second;
  if (got.lpn != w.lpn) {
    fail("read of page " + std::to_string(w.lpn) + " returned the data of page " +
         std::to_string(got.lpn) + " (version " + std::to_string(got.version) + ")");
    return;
  }
  if (w.quiet && p.epoch == w.epoch) {
    if (got.version != p.last)
      fail("read of page " + std::to_string(w.lpn) + " returned version " +
           std::to_string(got.version) + ", last written was version " + std::to_string(p.last));
    return;
  }
  const bool ok = got.version == w.committed ||
                  (got.version > w.committed && got.version <= p.max_version) ||
                  (got.version == 0 && p.trim_since_commit);
  if (!ok)
    fail("read of page " + std::to_string(w.lpn) + " overlapping writes returned version " +
         std::to_string(got.version) + ", committed at issue was " +
         std::to_string(w.committed));
}

void Scoreboard::fail(const std::string& msg) {
  ++mismatches_;
  if (messages_.size() < kMaxMessages) messages_.push_back(msg);
}

}  // namespace ssd::tb
