#include "firmware/lifetime/LifetimeManager.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ssd::fw::lifetime {

LifetimeManager::LifetimeManager(const config::DriveConfig& cfg, Hal& hal, Ftl& ftl,
                                 WriteBuffer* packer)
    : hal_(hal),
      ftl_(ftl),
      packer_(packer),
      units_per_page_(cfg.units_per_page()),
      epochs_(cfg.lifetime.mode,
              cfg.lifetime.warranty_years * kSecondsPerYear / cfg.lifetime.epoch_s,
              double(cfg.lifetime.pe_cycles) * double(cfg.flash.total_pages())),
      epoch_len_(cfg.lifetime.epoch_s, sc_core::SC_SEC),
      epoch_end_(epoch_len_),
      chunk_pages_(cfg.lifetime.chunk_pages),
      t_hash_(cfg.lifetime.t_hash_us, sc_core::SC_US),
      t_compress_(cfg.lifetime.t_compress_us, sc_core::SC_US),
      t_decompress_(cfg.lifetime.t_decompress_us, sc_core::SC_US),
      hash_j_(cfg.lifetime.t_hash_us * 1e-6 * cfg.lifetime.p_hash_mw * 1e-3),
      compress_j_(cfg.lifetime.t_compress_us * 1e-6 * cfg.lifetime.p_compress_mw * 1e-3),
      write_j_(cfg.lifetime.t_write_us * 1e-6 * cfg.lifetime.p_write_mw * 1e-3),
      map_(cfg.logical_units(), kUnmapped),
      slots_(cfg.logical_units()) {
  chunk_.reserve(chunk_pages_);
  plan_ = epochs_.decide(0, dedup_effect_, compression_effect_);
}

double LifetimeManager::epoch_programmed() const {
  return double(ftl_.stats().pages_programmed) - epoch_start_programmed_;
}

double LifetimeManager::projected_years(double programmed, const sc_core::sc_time& elapsed) const {
  if (programmed <= 0 || elapsed == sc_core::SC_ZERO_TIME)
    return std::numeric_limits<double>::infinity();
  return endurance_pages() / (programmed / elapsed.to_seconds()) / kSecondsPerYear;
}

void LifetimeManager::tick() {
  while (hal_.now() >= epoch_end_) close_epoch();
}

void LifetimeManager::close_epoch() {
  const double programmed = epoch_programmed();
  // The demand: what the epoch would have programmed without dedup, compression and
  // throttling. A program throttling held back was asked for before the drive would take it:
  // it counts once more, so a throttled drive keeps seeing demand above C (with the demand
  // measured alone, throttling would hide itself and switch off every other epoch).
  const double demand =
      programmed + double(epoch_host_pages_ - epoch_host_programs_ + epoch_held_) / units_per_page_;
  log_.push_back(EpochRecord{plan_, programmed, demand});
  epochs_.close_epoch(demand);
  epoch_start_programmed_ += programmed;
  // What each technique did this epoch, if it ran on anything.
  if (epoch_hashed_ != 0)
    dedup_effect_ =
        effect_of(double(epoch_hashed_ - epoch_hits_) / double(epoch_hashed_), hash_j_, write_j_);
  if (epoch_compressed_ != 0)
    compression_effect_ =
        effect_of(double(epoch_packed_) / double(epoch_compressed_), compress_j_, write_j_);
  epoch_hashed_ = epoch_hits_ = epoch_compressed_ = epoch_packed_ = 0;
  epoch_host_pages_ = epoch_host_programs_ = epoch_held_ = 0;
  epoch_end_ += epoch_len_;
  plan_ = epochs_.decide(epoch_start_programmed_, dedup_effect_, compression_effect_);
}

void LifetimeManager::read_slot(uint32_t slot, PageToken& out, Completion& done) {
  if (packer_ != nullptr) {
    if (const auto at = packer_->read(slot, out)) {
      done.at = std::max(done.at, *at);
      return;
    }
  }
  const Ftl::ReadResult r = ftl_.read(slot, out);
  if (r.op != kNoOp) done.ops.push_back(r.op);
}

bool LifetimeManager::read(Lpn lpn, PageToken& out, Completion& done) {
  hal_.dram_access(1, false);  // host mapping
  const uint64_t m = map_[lpn];
  if (m == kUnmapped) {
    out = PageToken{lpn, 0};
    return false;
  }
  const uint32_t id = uint32_t((m - 1) >> 4), member = uint32_t((m - 1) & 15);
  const Extent& e = extents_.at(id);
  // The member's bytes, packed in member order, span these slots.
  const uint32_t first = member * e.pages / e.members;
  const uint32_t last = ((member + 1) * e.pages - 1) / e.members;
  PageToken stored;
  for (uint32_t s = first; s <= last; ++s) {
    PageToken t;
    read_slot(e.slots[s], t, done);
    if (s == first) stored = t;
  }
  if (e.pages < e.members) {
    hal_.unit_work(Unit::Compression, t_decompress_);
    stats_.compress_time += t_decompress_;
    ++stats_.decompressions;
  }
  out = PageToken{stored.lpn + member, stored.version};
  return true;
}

OpId LifetimeManager::read_old(Lpn lpn) {
  old_reads_.ops.clear();
  PageToken old;
  read(lpn, old, old_reads_);
  // A member spanning two pages: the program waits for the later-issued read (a slot in the
  // packing buffer is there at once).
  return old_reads_.ops.empty() ? kNoOp : old_reads_.ops.back();
}

void LifetimeManager::write(Lpn lpn, const PageToken& data, uint64_t content, uint8_t compressible,
                            const sc_core::sc_time& data_at, Completion& done) {
  ++epoch_host_pages_;
  if (plan_.dedup) {
    hal_.unit_work(Unit::Hash, t_hash_);
    stats_.hash_time += t_hash_;
    ++stats_.pages_hashed;
    ++epoch_hashed_;
    hal_.dram_access(1, false);  // hash-table look-up
    const auto hit = content == 0 ? table_.end() : table_.find(content);
    if (hit != table_.end()) {
      store_chunk(done);  // the chunk's pages must be consecutive
      const uint64_t ref = hit->second;
      ++extents_.at(uint32_t((ref - 1) >> 4)).refs;  // before unmap: it may be the same
      unmap(lpn);
      map_[lpn] = ref;
      hal_.dram_access(1, true);  // host mapping
      ++stats_.dedup_hits;
      ++epoch_hits_;
      return;
    }
  }
  const Pending p{lpn, data, content, data_at};
  if (!plan_.compression) {
    store_single(p, kNoOp, done);
    return;
  }
  if (!chunk_.empty() &&
      (chunk_.back().lpn + 1 != lpn || chunk_.back().data.version != data.version))
    store_chunk(done);
  chunk_.push_back(p);
  chunk_compressible_ = compressible;
  if (chunk_.size() == chunk_pages_) store_chunk(done);
}

void LifetimeManager::write_partial(Lpn lpn, const PageToken& data, OpId data_from,
                                    const sc_core::sc_time& data_at, Completion& done) {
  ++epoch_host_pages_;
  store_chunk(done);
  store_single(Pending{lpn, data, 0, data_at}, data_from, done);
}

void LifetimeManager::trim(Lpn lpn) {
  hal_.dram_access(1, true);  // host mapping
  unmap(lpn);
}

void LifetimeManager::store_chunk(Completion& done) {
  if (chunk_.empty()) return;
  const uint32_t n = uint32_t(chunk_.size());
  hal_.unit_work(Unit::Compression, t_compress_ * double(n));
  stats_.compress_time += t_compress_ * double(n);
  stats_.pages_compressed += n;
  epoch_compressed_ += n;
  // Whole pages after compression (the chunk's tail page is padded).
  const uint32_t kept = 100 - chunk_compressible_;
  const uint32_t pages = std::max<uint32_t>(1, (n * kept + 99) / 100);
  if (pages >= n) {
    epoch_packed_ += n;
    ++stats_.chunks_raw;
    for (const Pending& p : chunk_) store_single(p, kNoOp, done);
    chunk_.clear();
    return;
  }
  epoch_packed_ += pages;
  ++stats_.chunks_compressed;
  for (const Pending& p : chunk_) unmap(p.lpn);
  Extent e;
  e.refs = n;
  e.pages = uint8_t(pages);
  e.members = uint8_t(n);
  sc_core::sc_time data_at = sc_core::SC_ZERO_TIME;
  for (const Pending& p : chunk_) data_at = std::max(data_at, p.data_at);
  for (uint32_t s = 0; s < pages; ++s) e.slots[s] = new_slot();
  const uint32_t id = e.slots[0];
  extents_.emplace(id, e);
  for (uint32_t s = 0; s < pages; ++s) {
    program(e.slots[s], chunk_.front().data, kNoOp, data_at, done);
    ++stats_.compressed_programs;
  }
  hal_.dram_access(n, true);  // host mapping
  for (uint32_t i = 0; i < n; ++i) {
    map_[chunk_[i].lpn] = pack(id, i);
    insert_content(id, i, chunk_[i].content);
  }
  chunk_.clear();
}

void LifetimeManager::store_single(const Pending& p, OpId data_from, Completion& done) {
  const uint64_t m = map_[p.lpn];
  uint32_t slot;
  auto own = m == kUnmapped ? extents_.end() : extents_.find(uint32_t((m - 1) >> 4));
  if (own != extents_.end() && own->second.refs == 1 && own->second.members == 1) {
    // Its own page: overwritten in place, as the FTL alone would.
    slot = own->first;
    if (own->second.content[0] != 0) {
      table_.erase(own->second.content[0]);
      hal_.dram_access(1, true);  // hash-table removal
    }
    own->second.content[0] = 0;
  } else {
    unmap(p.lpn);
    slot = new_slot();
    Extent e;
    e.refs = 1;
    e.pages = 1;
    e.members = 1;
    e.slots[0] = slot;
    extents_.emplace(slot, e);
  }
  program(slot, p.data, data_from, p.data_at, done);
  hal_.dram_access(1, true);  // host mapping
  map_[p.lpn] = pack(slot, 0);
  insert_content(slot, 0, p.content);
}

void LifetimeManager::insert_content(uint32_t extent, uint32_t member, uint64_t content) {
  if (!plan_.dedup || content == 0) return;
  const auto [it, fresh] = table_.try_emplace(content, pack(extent, member));
  if (!fresh) return;  // held elsewhere already (written while dedup was off)
  extents_.at(extent).content[member] = content;
  hal_.dram_access(1, true);  // hash-table insert
}

void LifetimeManager::unmap(Lpn lpn) {
  const uint64_t m = map_[lpn];
  if (m == kUnmapped) return;
  map_[lpn] = kUnmapped;
  const auto it = extents_.find(uint32_t((m - 1) >> 4));
  Extent& e = it->second;
  if (--e.refs != 0) return;
  for (uint32_t i = 0; i < e.members; ++i) {
    if (e.content[i] == 0) continue;
    table_.erase(e.content[i]);
    hal_.dram_access(1, true);  // hash-table removal
  }
  for (uint32_t s = 0; s < e.pages; ++s) {
    if (packer_ != nullptr) packer_->trim(e.slots[s]);
    ftl_.trim(e.slots[s]);
    free_slots_.push_back(e.slots[s]);
  }
  extents_.erase(it);
}

uint32_t LifetimeManager::new_slot() {
  if (!free_slots_.empty()) {
    const uint32_t s = free_slots_.back();
    free_slots_.pop_back();
    return s;
  }
  if (fresh_slot_ == slots_)
    throw std::runtime_error(
        "lifetime manager: no free page in the FTL's logical space: compressed chunks whose "
        "pages were overwritten one by one keep their flash pages while any member lives "
        "(chunks are not recompacted); write whole chunks, or lower lifetime.chunk_pages");
  return uint32_t(fresh_slot_++);
}

void LifetimeManager::program(uint32_t slot, const PageToken& data, OpId data_from,
                              const sc_core::sc_time& data_at, Completion& done) {
  const sc_core::sc_time ready = std::max(data_at, hal_.now());
  sc_core::sc_time at = data_at;
  if (plan_.throttle && ready < pace_) {
    stats_.throttle_delay += pace_ - ready;
    ++stats_.throttled_programs;
    ++epoch_held_;
    at = pace_;
  }
  ++stats_.host_programs;
  ++epoch_host_programs_;
  hal_.program_held(at > ready ? at - ready : sc_core::SC_ZERO_TIME);
  if (packer_ != nullptr) {
    // Done once its data is in the packing buffer; the page's program starts when it is full.
    done.at = std::max(done.at, packer_->write(slot, data, at, data_from));
  } else {
    hal_.program_data_at(at);
    done.ops.push_back(ftl_.write(slot, data, data_from));
  }
  // Each program the write made (its own and the GC it ran) takes a turn of 1 / C of an
  // epoch: the drive programs no more than C an epoch, with no credit saved while idle.
  const uint64_t programmed = ftl_.stats().pages_programmed;
  if (plan_.throttle) {
    pace_ = std::max(at, hal_.now()) +
            epoch_len_ * (double(programmed - paced_programmed_) / std::max(plan_.capacity, 1.0));
  }
  paced_programmed_ = programmed;
}

}  // namespace ssd::fw::lifetime
