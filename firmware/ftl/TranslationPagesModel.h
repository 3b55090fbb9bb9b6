#pragma once
// DFTL's translation pages in the bulk preconditioning model (firmware/ftl/SteadyStateModel.h,
// docs/ftl.md "Bulk: DFTL"): the translation pages are written as the FTL writes them, into
// blocks of their own on the mapping stream, and tracked page by page (there are few): each
// host write asks the FTL's cached mapping table (firmware/ftl/MappingInFlash.h) what a dirty
// eviction writes first (the random writes use the simulated path's addresses,
// firmware/PreconditionStream.h, though the data model does not need them); GC copies a
// translation block's live pages within the die and, after a data victim's copies, rewrites
// the translation page of each moved page whose entry is not cached (sorted, once each). The
// identity of a moved page is known for the sequential pass's survivors and the moved pages;
// a rewritten one is a uniformly drawn logical page (its translation page, and whether its
// entry is cached, are what matter).
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "firmware/Types.h"
#include "firmware/ftl/MappingInFlash.h"
#include "firmware/ftl/SteadyStateModel.h"
#include "firmware/ftl/Streams.h"

namespace ssd::fw {

class TranslationPagesModel final : public SteadyStateModel::Translation {
 public:
  // `streams` and `rotation`: the FTL's mapping stream and its rotation.
  TranslationPagesModel(SteadyStateModel& model, MappingInFlash& map, std::vector<Stream> streams,
                        uint32_t rotation);

  void host_write(Lpn lpn) override;
  void host_written(Lpn lpn) override { map_.wrote(lpn); }
  bool holds(size_t g) const override { return !copies_[g].empty(); }
  void evacuate(uint32_t die, size_t g, uint32_t live) override;
  void data_moved(Lpn lpn) override {
    if (!map_.moved_by_gc(lpn)) pending_.push_back(uint32_t(map_.translation_page_of(lpn)));
  }
  void data_copied() override;
  void lay_out(size_t g, uint64_t first_ppn, std::vector<Lpn>& owners,
               std::vector<PageToken>& tokens) override;
  // The mapping stream and its rotation as the writes leave them, back into the FTL.
  void lay_out_streams(std::vector<Stream>& streams, uint32_t& rotation) {
    streams = std::move(streams_);
    rotation = rotation_;
  }

 private:
  // A translation page written into a block, in page order: its number and write stamp.
  // The copy is live while the page's last write or move put that stamp in that block.
  struct Copy {
    uint32_t tvpn;
    uint64_t version;
  };
  // Where a translation page's live copy is (a block, or kNowhere) and its stamp, side by
  // side: each write of the page reads both, at random over the drive's translation pages.
  struct Home {
    static constexpr size_t kNowhere = ~size_t{0};
    size_t block = kNowhere;
    uint64_t version = 0;
  };

  bool live(size_t g, const Copy& t) const {
    return homes_[t.tvpn].block == g && homes_[t.tvpn].version == t.version;
  }
  // A translation page's copy written (or moved) into block g; its old copy, if any, dies.
  void put(size_t g, uint32_t t, uint64_t version);
  // A new write of translation page t, on the die's mapping stream.
  void write(uint32_t die, uint32_t t);
  // As place_mapping_for_gc: the next die in the mapping rotation that has room, no GC.
  void write_for_gc(uint32_t t);

  SteadyStateModel& model_;
  MappingInFlash& map_;
  std::vector<std::vector<Copy>> copies_;  // by block: the translation blocks' pages
  std::vector<uint32_t> live_;             // by block: live copies, kept while not full
  std::vector<Home> homes_;                // by translation page
  uint64_t writes_ = 0;
  std::vector<Stream> streams_;  // the mapping stream, by die
  uint32_t rotation_;
  uint32_t unit_ = 0;  // the streams' unit counter: DFTL's units are pages
  // A data victim's moved pages whose translation pages are rewritten after its copies.
  std::vector<uint32_t> pending_;
};

}  // namespace ssd::fw
