#pragma once
// Page-mapping FTL: one mapping entry per logical page, the whole table in DRAM.
// Writes go to dies in channel-major round-robin order (page i to channel i mod C, then the
// next way), each die appending to its open block. Greedy garbage collection runs on a die
// when its free blocks fall below ftl.gc_threshold_blocks, copying the victim's valid pages
// into the die's own GC block and erasing it.
//
// DRAM traffic per operation (each entry one access): read = 1 (L2P look-up); write = 3
// (L2P look-up of the old location, L2P update, reverse-map update); trim = 2 (1 when
// the page is not mapped); GC = 1 per
// victim selection (valid-count index), and per copied page 1 reverse-map read + 2 updates.
#include <unordered_map>
#include <vector>

#include "firmware/BlockManager.h"
#include "firmware/Ftl.h"

namespace ssd::fw {

class PageFtl final : public Ftl {
 public:
  PageFtl(const config::DriveConfig& cfg, Hal& hal);

  ReadResult read(Lpn lpn, PageToken& out) override;
  sc_core::sc_time write(Lpn lpn, const PageToken& data,
                         const sc_core::sc_time& data_ready) override;
  void trim(Lpn lpn) override;
  const FtlStats& stats() const override { return stats_; }
  std::string name() const override { return "page"; }
  // One entry of dram.access_bytes per logical page.
  uint64_t mapping_table_bytes() const override { return table_bytes_; }

 private:
  // An append point: the block being filled and its next page.
  struct Stream {
    uint32_t block = 0;
    uint32_t next_page = 0;
    bool open = false;
  };

  Ppa allocate(uint32_t die, Stream& s);
  void collect_garbage(uint32_t die);
  void relocate(const Ppa& from, Lpn lpn);
  Ppa to_ppa(uint64_t ppn) const;
  uint64_t to_ppn(const Ppa& p) const;

  Hal& hal_;
  sc_core::sc_time t_step_;
  uint32_t dies_;
  uint32_t pages_per_block_;
  uint64_t pages_per_die_;
  uint32_t gc_threshold_;
  uint64_t table_bytes_;
  BlockManager blocks_;
  std::vector<Stream> host_streams_, gc_streams_;
  uint32_t next_die_ = 0;
  std::unordered_map<Lpn, uint64_t> l2p_;  // sparse: grows with the pages a run writes
  FtlStats stats_;
};

}  // namespace ssd::fw
