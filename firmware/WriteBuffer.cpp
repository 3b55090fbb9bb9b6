#include "firmware/WriteBuffer.h"

#include <algorithm>
#include <stdexcept>

namespace ssd::fw {

WriteBuffer::WriteBuffer(uint64_t capacity_pages, uint32_t page_bytes, uint32_t stripe_pages,
                         Hal& hal, Ftl& ftl)
    : capacity_(capacity_pages),
      page_bytes_(page_bytes),
      stripe_(std::max<uint32_t>(1, stripe_pages)),
      hal_(hal),
      ftl_(ftl) {}

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
  if (e.dirty) --dirty_count_;
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
    const sc_core::sc_time before = hal_.now();
    hal_.wait_for(slots_[destaging_.front()].program);
    ++stats_.full_stalls;
    stats_.stall_s += (hal_.now() - before).to_seconds();
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

sc_core::sc_time WriteBuffer::write(Lpn lpn, const PageToken& data,
                                    const sc_core::sc_time& data_at, OpId old_from) {
  ++stats_.pages_written;
  if (auto it = index_.find(lpn); it != index_.end()) {
    Entry& e = slots_[it->second];
    if (e.dirty) {  // not on its way to flash yet: the new data replaces it in DRAM
      e.data = data;
      ++stats_.absorbed;
      return hal_.dram_burst(page_bytes_, true, data_at);
    }
    e.indexed = false;  // its destage goes on; the new copy is the page's data now
    index_.erase(it);
  }
  // A slot first (a full buffer stalls the core), then the data moves into it.
  const uint32_t slot = take_slot();
  const sc_core::sc_time in_dram = hal_.dram_burst(page_bytes_, true, data_at);
  Entry& e = slots_[slot];
  e.lpn = lpn;
  e.data = data;
  e.old_from = old_from;
  e.used = e.dirty = e.indexed = true;
  e.seq = ++seq_;
  index_[lpn] = slot;
  dirty_fifo_.emplace_back(slot, e.seq);
  ++dirty_count_;
  return in_dram;
}

std::optional<sc_core::sc_time> WriteBuffer::read(Lpn lpn, PageToken& out) {
  const auto it = index_.find(lpn);
  if (it == index_.end()) return std::nullopt;
  ++stats_.read_hits;
  out = slots_[it->second].data;
  return hal_.dram_burst(page_bytes_, false, hal_.now());
}

void WriteBuffer::trim(Lpn lpn) {
  const auto it = index_.find(lpn);
  if (it == index_.end()) return;
  const uint32_t slot = it->second;
  if (slots_[slot].dirty) {
    drop(slot);
  } else {
    slots_[slot].indexed = false;
    index_.erase(it);
  }
}

void WriteBuffer::destage(uint32_t slot, std::vector<OpId>* ops) {
  Entry& e = slots_[slot];
  // Out of DRAM into the controller buffer, then programmed through the FTL.
  hal_.program_data_at(hal_.dram_burst(page_bytes_, false, hal_.now()));
  e.program = ftl_.write(e.lpn, e.data, e.old_from);
  e.dirty = false;
  --dirty_count_;
  ++stats_.destaged;
  destaging_.push_back(slot);
  if (ops && e.program != kNoOp) ops->push_back(e.program);
}

bool WriteBuffer::destage_stripe() {
  uint32_t n = 0;
  while (n < stripe_ && !dirty_fifo_.empty()) {
    const auto [slot, seq] = dirty_fifo_.front();
    dirty_fifo_.pop_front();
    const Entry& e = slots_[slot];
    if (!e.used || !e.dirty || e.seq != seq) continue;  // dropped or destaged since
    destage(slot, nullptr);
    ++n;
  }
  return n > 0;
}

void WriteBuffer::flush(std::vector<OpId>& ops) {
  ++stats_.flushes;
  while (destage_stripe()) {
  }
  // Everything on its way to flash, older destages included, must end.
  for (uint32_t s : destaging_)
    if (slots_[s].program != kNoOp) ops.push_back(slots_[s].program);
}

void WriteBuffer::write_through(Lpn lpn, std::vector<OpId>& ops) {
  const auto it = index_.find(lpn);
  if (it == index_.end()) return;
  if (slots_[it->second].dirty)
    destage(it->second, &ops);
  else
    ops.push_back(slots_[it->second].program);
}

}  // namespace ssd::fw
