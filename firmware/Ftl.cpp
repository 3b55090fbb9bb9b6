#include "firmware/Ftl.h"

namespace ssd::fw {

// Figures of drive-wide mechanisms the report has for every FTL (0 where an FTL has no such
// mechanism). Some appear in two objects, each read from the one counter. A figure of one FTL
// only is that FTL's: its counter a member of that class, registered in its constructor
// (reset_stats() zeroes it through the registry), and a row in docs/report.md.
Ftl::Ftl() {
  FtlStats& s = stats_;
  statistics_.group("flash_ops")
      .counter("gc_copy", StatUnit::Pages, "Valid pages GC moved.", s.gc_pages_copied)
      .counter("units_padded", StatUnit::Units,
               "Unit slots programmed without data to finish a page.", s.units_padded);
  statistics_.group("firmware")
      .counter("gc_runs", StatUnit::None, "Times garbage collection was entered.", s.gc_runs)
      .counter("gc_blocks_reclaimed", StatUnit::Blocks, "Blocks GC erased and freed.",
               s.gc_blocks_reclaimed);
  statistics_.group("gc")
      .counter("runs", StatUnit::None, "Times foreground GC was entered.", s.gc_runs)
      .counter("victims", StatUnit::Blocks, "Blocks GC reclaimed, foreground and background.",
               s.gc_blocks_reclaimed)
      .counter("background_victims", StatUnit::Blocks, "Of the victims, background GC's.",
               s.gc_background_blocks)
      .counter("pages_copied", StatUnit::Pages, "Valid pages GC moved.", s.gc_pages_copied)
      .counter("candidates_examined", StatUnit::Blocks, "Full blocks the victim policy looked at.",
               s.gc_candidates_examined)
      .counter("incremental_steps", StatUnit::Pages, "Pages placed below the soft watermark.",
               s.gc_incremental_steps)
      .counter("hard_watermark_hits", StatUnit::Pages, "Pages placed below the hard watermark.",
               s.gc_hard_hits);
  statistics_.group("wear_leveling")
      .counter("moves", StatUnit::Blocks, "Cold blocks wear levelling emptied and erased.",
               s.wl_blocks_moved)
      .counter("pages_copied", StatUnit::Pages, "Pages wear levelling copied.", s.wl_pages_copied);
  statistics_.group("slc_cache")
      .counter("host_pages", StatUnit::Pages, "Host pages written into the SLC cache.",
               s.slc_host_pages)
      .counter("blocks_folded", StatUnit::Blocks, "SLC blocks folded into the main region.",
               s.slc_blocks_folded)
      .counter("pages_folded", StatUnit::Pages, "Valid pages those folds copied.",
               s.slc_pages_folded)
      .counter("foreground_folds", StatUnit::Blocks, "Of the folds, those before a host page.",
               s.slc_foreground_folds);
}

}  // namespace ssd::fw
