#include "firmware/ftl/TranslationPagesModel.h"

#include <algorithm>
#include <utility>

#include "common/Prefetch.h"

namespace ssd::fw {
namespace {

constexpr size_t kFetchAhead = 16;  // translation page writes: enough misses in flight

}  // namespace

TranslationPagesModel::TranslationPagesModel(SteadyStateModel& model, MappingInFlash& map,
                                             std::vector<Stream> streams, uint32_t rotation)
    : model_(model),
      map_(map),
      copies_(model.blocks()),
      live_(model.blocks(), 0),
      homes_(map.translation_pages()),
      streams_(std::move(streams)),
      rotation_(rotation) {}

// As place_mapping_page: a dirty eviction's translation page, on the next die of the mapping
// rotation, made room on first.
void TranslationPagesModel::host_write(Lpn lpn) {
  if (const uint64_t t = map_.look_up(lpn); t != MappingInFlash::kNoPage) {
    const uint32_t die = rotation_;
    rotation_ = (rotation_ + 1) % model_.dies();
    model_.collect(die);
    write(die, uint32_t(t));
  }
  map_.enter(lpn);
}

void TranslationPagesModel::put(size_t g, uint32_t t, uint64_t version) {
  Home& home = homes_[t];
  if (const size_t old = home.block; old != Home::kNowhere) {
    // A full block's live copies are its key: the count apart is kept while the block is
    // open, or a victim out of the index (not a random touch of a second array per write).
    if (!model_.full(old))
      --live_[old];
    else
      model_.decrement_key(old);
  }
  home = Home{g, version};
  std::vector<Copy>& copies = copies_[g];
  if (copies.empty()) copies.reserve(model_.pages_per_block());  // filled in one go: no regrowth
  copies.push_back(Copy{t, version});
  model_.translation_written(g, ++live_[g]);
}

void TranslationPagesModel::write(uint32_t die, uint32_t t) {
  put(model_.take(die, streams_[die], unit_), t, ++writes_);
  map_.written(t);
}

void TranslationPagesModel::write_for_gc(uint32_t t) {
  for (uint32_t tries = 0; tries < model_.dies(); ++tries) {
    const uint32_t die = rotation_;
    rotation_ = (rotation_ + 1) % model_.dies();
    if (streams_[die].open() || model_.has_free_block(die)) {
      write(die, t);
      return;
    }
  }
  model_.fail("no die has a free block for a translation page");
}

void TranslationPagesModel::evacuate(uint32_t die, size_t g, uint32_t left) {
  // The victim's key counts its live copies: the scan stops once they are moved, the pages'
  // homes fetched ahead of it.
  const std::vector<Copy>& copies = copies_[g];
  for (size_t i = 0; i < copies.size() && left != 0; ++i) {
    if (i + 2 * kFetchAhead < copies.size()) ssd::prefetch(&copies[i + 2 * kFetchAhead]);
    if (i + kFetchAhead < copies.size()) ssd::prefetch(&homes_[copies[i + kFetchAhead].tvpn]);
    if (!live(g, copies[i])) continue;
    put(model_.take(die, streams_[die], unit_), copies[i].tvpn, copies[i].version);
    --left;
  }
  copies_[g] = std::vector<Copy>();  // most blocks hold data next
  live_[g] = 0;
}

void TranslationPagesModel::data_copied() {
  std::sort(pending_.begin(), pending_.end());
  pending_.erase(std::unique(pending_.begin(), pending_.end()), pending_.end());
  // Each write kills a copy anywhere on the drive: the page's home, then its old block's
  // counts are fetched a few writes ahead, the second once the first has brought in where
  // it points, so the misses overlap.
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (i + kFetchAhead < pending_.size()) ssd::prefetch(&homes_[pending_[i + kFetchAhead]]);
    if (i + kFetchAhead / 2 < pending_.size())
      if (const size_t old = homes_[pending_[i + kFetchAhead / 2]].block; old != Home::kNowhere)
        model_.prefetch_counts(old);
    write_for_gc(pending_[i]);
  }
  pending_.clear();
}

void TranslationPagesModel::lay_out(size_t g, uint64_t first_ppn, std::vector<Lpn>& owners,
                                    std::vector<PageToken>& tokens) {
  // The block's pages in write order, the live ones.
  const std::vector<Copy>& copies = copies_[g];
  for (uint32_t p = 0; p < copies.size(); ++p) {
    if (!live(g, copies[p])) continue;
    owners[p] = map_.translation_lpn(copies[p].tvpn);
    tokens[p] = PageToken{owners[p], copies[p].version};
    map_.place(copies[p].tvpn, first_ppn + p, copies[p].version);
  }
}

}  // namespace ssd::fw
