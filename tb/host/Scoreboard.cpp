#include "tb/host/Scoreboard.h"

#include <algorithm>

namespace ssd::tb {
namespace {
constexpr std::size_t kMaxMessages = 10;
}

// Values are kept only while a page is busy (updates or reads in flight): from the update
// that was latest when it became busy onwards. A quiet page keeps nothing, so the common case
// costs no extra look-up.
void Scoreboard::remember_latest(fw::Lpn lpn, const Page& p) {
  auto& r = recent_[lpn];
  if (r.empty()) r.emplace_back(p.epoch, p.last);
}

void Scoreboard::update_issued(fw::Lpn lpn, uint64_t version) {
  Page& p = pages_[lpn];
  const bool busy = p.in_flight > 0 || p.readers > 0;
  if (busy) remember_latest(lpn, p);
  p.last = version;
  ++p.epoch;
  ++p.in_flight;
  if (busy) recent_[lpn].emplace_back(p.epoch, version);
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
  }
  settle(lpn, p);
}

Scoreboard::Watch Scoreboard::watch(fw::Lpn lpn) {
  Page& p = pages_[lpn];
  if (p.in_flight > 0) remember_latest(lpn, p);
  ++p.readers;
  return Watch{lpn, p.epoch, p.committed, p.in_flight == 0, p.committed_epoch};
}

void Scoreboard::release(const Watch& w) {
  Page& p = pages_[w.lpn];
  --p.readers;
  settle(w.lpn, p);
}

void Scoreboard::settle(fw::Lpn lpn, const Page& p) {
  if (p.in_flight == 0 && p.readers == 0 && !recent_.empty()) recent_.erase(lpn);
}

void Scoreboard::check(const Watch& w, const fw::PageToken& got) {
  ++checked_;
  const Page& p = pages_[w.lpn];
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
  bool ok = got.version == w.committed;
  if (!ok) {
    auto it = recent_.find(w.lpn);
    if (it != recent_.end())
      ok = std::any_of(it->second.begin(), it->second.end(), [&](const auto& u) {
        return u.first > w.committed_epoch && u.second == got.version;
      });
  }
  if (!ok)
    fail("read of page " + std::to_string(w.lpn) + " overlapping updates returned version " +
         std::to_string(got.version) + ", which was neither committed at issue (that was " +
         std::to_string(w.committed) + ") nor written since");
}

void Scoreboard::fail(const std::string& msg) {
  ++mismatches_;
  if (messages_.size() < kMaxMessages) messages_.push_back(msg);
}

}  // namespace ssd::tb
