#include "firmware/WriteBuffer.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace ssd::fw {

WriteBuffer::WriteBuffer(uint64_t capacity_pages, uint32_t page_bytes, uint32_t stripe_pages,
                         uint32_t units_per_page, uint64_t logical_units, bool in_sram, Hal& hal,
                         Ftl& ftl, uint32_t handles)
    : capacity_(capacity_pages),
      logical_units_(logical_units),
      page_bytes_(page_bytes),
      stripe_(std::max<uint32_t>(1, stripe_pages)),
      units_(units_per_page),
      in_sram_(in_sram),
      hal_(hal),
      ftl_(ftl),
      index_(kNoSlot, logical_units, capacity_pages),
      dirty_fifos_(handles),
      dirty_of_(handles, 0) {
  WriteBufferStats& s = stats_;
  statistics_.group("write_buffer")
      .counter("pages_written", StatUnit::Pages, "Host pages written into the buffer.",
               s.pages_written)
      .counter("read_hits", StatUnit::Pages, "Host page reads served from it.", s.read_hits)
      .counter("absorbed", StatUnit::Pages, "Rewrites of a page not yet destaged.", s.absorbed)
      .counter("destaged", StatUnit::Pages, "Pages programmed out of it.", s.destaged)
      .counter("full_stalls", StatUnit::Writes, "Writes that found it full and waited.",
               s.full_stalls)
      .total("stall_s", StatUnit::Seconds, "The controller's time in those waits.", s.stall_s)
      .counter("flushes", StatUnit::Commands, "Host flushes.", s.flushes)
      .counter("peak_pages", StatUnit::Pages, "Most pages held at once.", s.peak_pages);
}

void WriteBuffer::reclaim() {
  while (!destaging_.empty() && hal_.ended_by_now(slots_[destaging_.front()].program)) {
    const uint32_t s = destaging_.front();
    destaging_.pop_front();
    drop(s);
  }
}

void WriteBuffer::drop(uint32_t slot) {
  Entry& e = slots_[slot];
  if (e.indexed) index_.erase(e.lpn);
  if (e.dirty) cleaned(e);
  e = Entry{};
  free_.push_back(slot);
  --used_;
}

uint32_t WriteBuffer::take_slot() {
  reclaim();
  if (used_ == capacity_) {
    // Full: keep two stripes on their way to flash (so the dies stay busy while the core
    // waits), then wait for the oldest program to end.
    while (destaging_.size() < 2 * std::size_t(stripe_) && destage_stripe()) {
    }
    ftl_.seal_word_lines(false);  // one-shot programming: the oldest program's must run
    const sc_core::sc_time before = hal_.now();
    hal_.wait_for(slots_[destaging_.front()].program);
    // A stall if it cost the core time: issuing the stripes may have taken it past the
    // program's end, or the core ran ahead of the kernel and only learns of the end now.
    if (hal_.now() > before) {
      ++stats_.full_stalls;
      stats_.stall_s += (hal_.now() - before).to_seconds();
    }
    reclaim();
    if (used_ == capacity_)
      throw std::logic_error("write buffer: no slot free after waiting for the oldest destage");
  }
  uint32_t slot;
  if (free_.empty()) {
    slot = uint32_t(slots_.size());
    slots_.emplace_back();
  } else {
    slot = free_.back();
    free_.pop_back();
  }
  ++used_;
  stats_.peak_pages = std::max(stats_.peak_pages, used_);
  return slot;
}

void WriteBuffer::dirtied(uint32_t slot) {
  Entry& e = slots_[slot];
  e.dirty = true;
  e.seq = ++seq_;
  dirty_fifos_[e.handle].emplace_back(slot, e.seq);
  ++dirty_count_;
  ++dirty_of_[e.handle];
}

void WriteBuffer::cleaned(Entry& e) {
  e.dirty = false;
  --dirty_count_;
  --dirty_of_[e.handle];
}

sc_core::sc_time WriteBuffer::write(Lpn lpn, const PageToken& data, const sc_core::sc_time& data_at,
                                    OpId old_from, uint8_t handle) {
  ++stats_.pages_written;
  if (const uint64_t slot = index_.get(lpn); slot != kNoSlot) {
    Entry& e = slots_[slot];
    if (e.dirty) {  // not on its way to flash yet: the new data replaces it in DRAM
      e.data = data;
      ++stats_.absorbed;
      e.in_buffer = burst(true, data_at);
      if (e.handle != handle) {  // queued again, under the new write's handle
        cleaned(e);
        e.handle = handle;
        dirtied(uint32_t(slot));
      }
      return e.in_buffer;
    }
    e.indexed = false;  // its destage goes on; the new copy is the page's data now
    index_.erase(lpn);
  }
  // A slot first (a full buffer stalls the core), then the data moves into it.
  const uint32_t slot = take_slot();
  const sc_core::sc_time in_dram = burst(true, data_at);
  Entry& e = slots_[slot];
  e.lpn = lpn;
  e.data = data;
  e.old_from = old_from;
  e.in_buffer = in_dram;
  e.used = e.indexed = true;
  e.handle = handle;
  index_.set(lpn, slot);
  dirtied(slot);
  // Packing in SRAM: a page goes to flash as soon as it has its units.
  if (in_sram_)
    while (dirty_of_[handle] >= units_) {
      oldest_dirty(units_, batch_, handle);
      destage_units(batch_.data(), batch_.size(), nullptr);
    }
  return in_dram;
}

std::optional<sc_core::sc_time> WriteBuffer::read(Lpn lpn, PageToken& out) {
  const uint64_t slot = index_.get(lpn);
  if (slot == kNoSlot) return std::nullopt;
  ++stats_.read_hits;
  out = slots_[slot].data;
  return burst(false, hal_.now());
}

void WriteBuffer::trim(Lpn lpn) {
  const uint64_t slot = index_.get(lpn);
  if (slot == kNoSlot) return;
  if (slots_[slot].dirty) {
    drop(uint32_t(slot));
  } else {
    slots_[slot].indexed = false;
    index_.erase(lpn);
  }
}

void WriteBuffer::destage(uint32_t slot, std::vector<OpId>* ops) {
  Entry& e = slots_[slot];
  // Out of DRAM into the controller buffer, then programmed through the FTL.
  hal_.program_data_at(hal_.dram_burst(page_bytes_, false, hal_.now()));
  ftl_.place_by(e.handle);
  e.program = ftl_.write(e.lpn, e.data, e.old_from);
  cleaned(e);
  ++stats_.destaged;
  destaging_.push_back(slot);
  if (ops && e.program != kNoOp) ops->push_back(e.program);
}

void WriteBuffer::oldest_dirty(std::size_t n, std::vector<uint32_t>& out, int handle) {
  out.clear();
  // Dropped or destaged since, or queued again under another handle.
  const auto stale = [&](const std::pair<uint32_t, uint64_t>& q) {
    const Entry& e = slots_[q.first];
    return !e.used || !e.dirty || e.seq != q.second;
  };
  if (handle < 0) {
    handle = 0;
    uint64_t oldest = ~uint64_t{0};
    for (std::size_t h = 0; h < dirty_fifos_.size(); ++h) {
      auto& fifo = dirty_fifos_[h];
      while (!fifo.empty() && stale(fifo.front())) fifo.pop_front();
      if (!fifo.empty() && fifo.front().second < oldest) {
        oldest = fifo.front().second;
        handle = int(h);
      }
    }
  }
  auto& fifo = dirty_fifos_[std::size_t(handle)];
  while (out.size() < n && !fifo.empty()) {
    const auto q = fifo.front();
    fifo.pop_front();
    if (!stale(q)) out.push_back(q.first);
  }
}

void WriteBuffer::destage_units(const uint32_t* slots, std::size_t n, std::vector<OpId>* ops) {
  std::array<Ftl::UnitWrite, config::kMaxUnitsPerPage> page;
  std::array<OpId, config::kMaxUnitsPerPage> programs;
  for (std::size_t i = 0; i < n;) {
    const std::size_t m = std::min<std::size_t>(units_, n - i);
    // Out of DRAM into the controller buffer, unit by unit; the page's program waits for all.
    sc_core::sc_time ready = sc_core::SC_ZERO_TIME;
    for (std::size_t u = 0; u < m; ++u) {
      const Entry& e = slots_[slots[i + u]];
      ready = std::max(ready, burst(false, in_sram_ ? e.in_buffer : hal_.now()));
      page[u] = Ftl::UnitWrite{e.lpn, e.data, e.old_from};
    }
    hal_.program_data_at(ready);
    ftl_.place_by(slots_[slots[i]].handle);  // the slots are of one handle (oldest_dirty)
    ftl_.write_units(page.data(), m, programs.data());
    for (std::size_t u = 0; u < m; ++u) {
      Entry& e = slots_[slots[i + u]];
      e.program = programs[u];
      cleaned(e);
      ++stats_.destaged;
      destaging_.push_back(slots[i + u]);
    }
    if (ops && programs[0] != kNoOp) ops->push_back(programs[0]);
    i += m;
  }
}

bool WriteBuffer::destage_stripe() {
  // A die's set at a time (Ftl::pages_on_die), so the stripe ends at a die.
  std::size_t n = 0;
  while (n < stripe_) {
    const std::size_t set = std::size_t(ftl_.pages_on_die()) * units_;
    oldest_dirty(set, batch_);
    if (batch_.empty()) break;
    if (units_ != 1)
      destage_units(batch_.data(), batch_.size(), nullptr);
    else
      for (const uint32_t slot : batch_) destage(slot, nullptr);
    n += batch_.size();
    // The last dirty pages, fewer than the set (one-shot programming: its word line padded).
    if (batch_.size() < set) {
      ftl_.seal_word_lines(false);
      break;
    }
  }
  return n > 0;
}

void WriteBuffer::flush(std::vector<OpId>& ops) {
  ++stats_.flushes;
  while (destage_stripe()) {
  }
  ftl_.seal_word_lines(false);
  // Everything on its way to flash, older destages included, must end (a page's units share
  // one program: listed once).
  for (uint32_t s : destaging_) {
    const OpId program = slots_[s].program;
    if (program != kNoOp && (ops.empty() || ops.back() != program)) ops.push_back(program);
  }
}

void WriteBuffer::write_through(Lpn lpn, std::vector<OpId>& ops) {
  const uint64_t found = index_.get(lpn);
  if (found == kNoSlot) return;
  const auto slot = uint32_t(found);
  if (!slots_[slot].dirty)
    ops.push_back(slots_[slot].program);
  else if (units_ != 1)
    destage_units(&slot, 1, &ops);  // a page of its own, padded
  else
    destage(slot, &ops);
  ftl_.seal_word_lines(false);
}

void WriteBuffer::state(StateArchive& a) {
  a.section("write buffer");
  uint64_t n = slots_.size();
  a.count(n, capacity_, "write buffer slots");
  if (a.loading()) slots_.assign(n, Entry{});
  for (Entry& e : slots_) {
    a.index(e.lpn, logical_units_, "buffered page");
    a.index(e.data.lpn, logical_units_, "buffered page's data");
    a.value(e.data.version);
    a.value(e.old_from);
    a.value(e.program);
    uint64_t at = e.in_buffer.value();
    a.value(at);
    e.in_buffer = sc_core::sc_time::from_value(at);
    a.flag(e.used);
    a.flag(e.dirty);
    a.flag(e.indexed);
    a.value(e.seq);
  }
  a.indexes(free_, n, n, "free write buffer slot");
  const std::size_t handles = dirty_fifos_.size();
  for (std::size_t h = 0; h < handles; ++h) {
    std::vector<std::pair<uint32_t, uint64_t>> fifo(dirty_fifos_[h].begin(), dirty_fifos_[h].end());
    a.pairs(fifo, 2 * capacity_ + 1, "dirty pages");
    for (const auto& [slot, seq] : fifo)
      if (slot >= n) StateArchive::out_of_range("dirty page", slot, n);
    dirty_fifos_[h].assign(fifo.begin(), fifo.end());
  }
  if (handles > 1)  // flexible data placement: the entries' handles (absent without)
    for (Entry& e : slots_) a.index(e.handle, handles, "buffered page's placement handle");
  a.indexes(destaging_, n, n, "destaging page");
  a.value(dirty_count_);
  a.value(used_);
  a.value(seq_);
  if (!a.loading()) return;
  dirty_of_.assign(handles, 0);
  for (const Entry& e : slots_)
    if (e.used && e.dirty) ++dirty_of_[e.handle];
  if (used_ > capacity_ || dirty_count_ > used_ || used_ + free_.size() != n)
    StateArchive::invalid("write buffer: slot counts that do not add up");
  index_ = PageMap(kNoSlot, logical_units_, capacity_);
  for (uint32_t slot = 0; slot < n; ++slot)
    if (slots_[slot].indexed && index_.set(slots_[slot].lpn, slot) != kNoSlot)
      StateArchive::invalid("write buffer: a page buffered twice");
}

}  // namespace ssd::fw
