#include "ip/Scoreboard.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::ip {
namespace {
constexpr std::size_t kMaxMessages = 10;
}

Scoreboard::Scoreboard(uint64_t pages)
    : pages_(0, pages), page_count_(pages), busy_bit_((pages_.value_limit() >> 1) + 1) {}

// A quiet page has no updates in flight, so its last update is also its latest completed.
Scoreboard::Busy& Scoreboard::busy(fw::Lpn lpn) {
  const uint64_t next = free_busy_.empty() ? busy_.size() : free_busy_.back();
  const uint64_t slot =
      pages_.update(lpn, [&](uint64_t v) { return v & busy_bit_ ? v : busy_bit_ | next; });
  if (slot & busy_bit_) return busy_[slot & ~busy_bit_];
  if (free_busy_.empty()) {
    busy_.emplace_back();
  } else {
    free_busy_.pop_back();
  }
  Busy& b = busy_[next];
  b.last = b.committed = slot;
  b.epoch = b.committed_epoch = 0;
  return b;
}

// Values are kept only while a page is busy (updates or reads in flight): from the update
// that was latest when it became busy onwards.
void Scoreboard::remember_latest(Busy& b) {
  if (b.recent.empty()) b.recent.emplace_back(b.epoch, b.last);
}

void Scoreboard::power_lost(const std::vector<fw::PageToken>& never_on_flash) {
  std::vector<fw::Lpn> lost;
  for (const fw::PageToken& t : never_on_flash) {
    if (t.version == 0 || t.lpn >= page_count_) continue;
    // The latest completed update is what the host was told; later ones never completed.
    const uint64_t slot = pages_.get(t.lpn);
    const uint64_t told = slot & busy_bit_ ? busy_[slot & ~busy_bit_].committed : slot;
    if (told == t.version) lost.push_back(t.lpn);
  }
  // A unit programmed twice (a failed program written again) is lost once.
  std::sort(lost.begin(), lost.end());
  lost_by_power_loss_ += uint64_t(std::unique(lost.begin(), lost.end()) - lost.begin());
}

void Scoreboard::units_lost(const std::vector<fw::Lpn>& lost, fw::UnitLoss why) {
  // Data with no room lost is the latest sent: a write in flight (no write buffer) is lost too.
  const bool no_room = why == fw::UnitLoss::NoRoom;
  uint64_t& count = no_room ? lost_by_no_room_ : lost_by_dead_die_;
  for (const fw::Lpn lpn : lost) {
    if (lpn >= page_count_) continue;
    const uint64_t slot = pages_.get(lpn);
    const bool busy = (slot & busy_bit_) != 0;
    const uint64_t told = busy ? busy_[slot & ~busy_bit_].committed : slot;
    if (told != 0 || (no_room && busy && busy_[slot & ~busy_bit_].in_flight > 0)) ++count;
  }
}

uint32_t Scoreboard::update_issued(fw::Lpn lpn, uint64_t version) {
  if (version >= busy_bit_)
    throw std::overflow_error("scoreboard: write version " + std::to_string(version) +
                              " beyond the " + std::to_string(busy_bit_) +
                              " page writes a run on this drive can check");
  Busy& b = busy(lpn);
  const bool was_busy = b.in_flight > 0 || b.readers > 0;
  if (was_busy) remember_latest(b);
  b.last = version;
  ++b.epoch;
  ++b.in_flight;
  if (was_busy) b.recent.emplace_back(b.epoch, version);
  return b.epoch;
}

void Scoreboard::update_completed(fw::Lpn lpn, uint64_t version, uint32_t epoch) {
  pages_.update(lpn, [&](uint64_t slot) {
    Busy& b = busy_[slot & ~busy_bit_];
    --b.in_flight;
    if (epoch > b.committed_epoch) {
      b.committed = version;
      b.committed_epoch = epoch;
    }
    return settled(slot, b);
  });
}

void Scoreboard::update_failed(fw::Lpn lpn, uint64_t version, uint32_t epoch) {
  ++refused_;
  withdraw(lpn, version, epoch);
}

void Scoreboard::updates_issued(fw::Lpn first, fw::Lpn stop, uint64_t version,
                                std::vector<Watch>& out) {
  for (fw::Lpn lpn = first; lpn < stop; ++lpn)
    out.push_back(Watch{lpn, update_issued(lpn, version), version, false, 0});
}

void Scoreboard::updates_settled(const std::vector<Watch>& watches, uint64_t version,
                                 fw::Lpn done_first, fw::Lpn done_stop) {
  for (const Watch& w : watches) {
    if (done_first <= w.lpn && w.lpn < done_stop)
      update_completed(w.lpn, version, w.epoch);
    else
      withdraw(w.lpn, version, w.epoch);
  }
}

void Scoreboard::withdraw(fw::Lpn lpn, uint64_t version, uint32_t epoch) {
  pages_.update(lpn, [&](uint64_t slot) {
    Busy& b = busy_[slot & ~busy_bit_];
    --b.in_flight;
    // No read may return it; the last issued is now the latest other update, or, with none
    // issued after the latest completed one, that one.
    b.recent.erase(std::remove_if(b.recent.begin(), b.recent.end(),
                                  [&](const auto& u) { return u.first == epoch; }),
                   b.recent.end());
    if (b.last == version) {
      b.last = b.committed;
      for (const auto& u : b.recent)
        if (u.first > b.committed_epoch) b.last = u.second;  // in issue order: the latest
    }
    return settled(slot, b);
  });
}

Scoreboard::Watch Scoreboard::watch(fw::Lpn lpn) {
  Busy& b = busy(lpn);
  if (b.in_flight > 0) remember_latest(b);
  ++b.readers;
  return Watch{lpn, b.epoch, b.committed, b.in_flight == 0, b.committed_epoch};
}

void Scoreboard::release(const Watch& w) {
  pages_.update(w.lpn, [&](uint64_t slot) {
    Busy& b = busy_[slot & ~busy_bit_];
    --b.readers;
    return settled(slot, b);
  });
}

uint64_t Scoreboard::settled(uint64_t slot, Busy& b) {
  if (b.in_flight != 0 || b.readers != 0) return slot;
  b.recent.clear();
  free_busy_.push_back(slot & ~busy_bit_);
  return b.last;
}

void Scoreboard::record_content(uint64_t version, fw::Lpn first, fw::Lpn whole_begin,
                                fw::Lpn whole_end, uint64_t content) {
  if (content != 0 && whole_begin < whole_end)
    contents_.emplace(version, Content{first, whole_begin, whole_end, content});
}

uint64_t Scoreboard::content_of(const fw::PageToken& t) const {
  if (contents_.empty()) return 0;
  const auto it = contents_.find(t.version);
  if (it == contents_.end()) return 0;
  const Content& c = it->second;
  if (t.lpn < c.whole_begin || t.lpn >= c.whole_end) return 0;
  return fw::page_content(c.content, t.lpn - c.first);
}

void Scoreboard::check(const Watch& w, const fw::PageToken& got, const std::string* flow) {
  ++checked_;
  const Busy& b = record(w.lpn);
  // The data read is right if it is the version expected or, deduplicated, a page of another
  // write with the same content.
  const uint64_t got_content = content_of(got);
  auto holds = [&](uint64_t version) {
    return (got.lpn == w.lpn && got.version == version) ||
           (got_content != 0 && got_content == content_of(fw::PageToken{w.lpn, version}));
  };
  if (got.lpn != w.lpn && got_content == 0) {
    fail("read of page " + std::to_string(w.lpn) + " returned the data of page " +
             std::to_string(got.lpn) + " (version " + std::to_string(got.version) + ")",
         flow);
    return;
  }
  if (w.quiet && b.epoch == w.epoch) {
    if (!holds(b.last))
      fail("read of page " + std::to_string(w.lpn) + " returned version " +
               std::to_string(got.version) + " of page " + std::to_string(got.lpn) +
               ", last written was version " + std::to_string(b.last),
           flow);
    return;
  }
  const bool ok =
      holds(w.committed) || std::any_of(b.recent.begin(), b.recent.end(), [&](const auto& u) {
        return u.first > w.committed_epoch && holds(u.second);
      });
  if (!ok)
    fail("read of page " + std::to_string(w.lpn) + " overlapping updates returned version " +
             std::to_string(got.version) + ", which was neither committed at issue (that was " +
             std::to_string(w.committed) + ") nor written since",
         flow);
}

void Scoreboard::fail(const std::string& msg, const std::string* flow) {
  ++mismatches_;
  if (messages_.size() < kMaxMessages)
    messages_.push_back(flow ? msg + " (flow " + *flow + ")" : msg);
}

void Scoreboard::command_issued(const fw::HostCommand& cmd, uint64_t page_bytes,
                                std::vector<Watch>& out) {
  if (cmd.length_bytes == 0) return;
  const uint64_t end = cmd.offset_bytes + cmd.length_bytes;
  const fw::Lpn stop = (end - 1) / page_bytes + 1;
  for (fw::Lpn lpn = cmd.offset_bytes / page_bytes; lpn < stop; ++lpn) {
    if (cmd.op == fw::CommandOp::Read) {
      out.push_back(watch(lpn));
      continue;
    }
    // A trim changes only the pages it covers whole; a write changes every page it touches.
    const bool whole = cmd.offset_bytes <= lpn * page_bytes && (lpn + 1) * page_bytes <= end;
    if (cmd.op == fw::CommandOp::Trim && !whole) continue;
    out.push_back(Watch{lpn, update_issued(lpn, cmd.version), cmd.version, false, 0});
  }
}

void Scoreboard::command_completed(const fw::HostCommand& cmd, const std::vector<Watch>& watches,
                                   const std::vector<fw::PageToken>& read_data, bool failed,
                                   const std::string* flow) {
  if (cmd.op == fw::CommandOp::Read) {
    for (std::size_t i = 0; i < watches.size(); ++i) {
      if (failed)
        ++reported_;
      else
        check(watches[i], read_data.at(i), flow);
      release(watches[i]);
    }
    return;
  }
  for (const Watch& w : watches) {
    if (failed)
      update_failed(w.lpn, cmd.version, w.epoch);
    else
      update_completed(w.lpn, cmd.version, w.epoch);
  }
}

}  // namespace ssd::ip
