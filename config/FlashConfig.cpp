#include "config/FlashConfig.h"

#include <cstdio>
#include <utility>

namespace ssd::config {

uint32_t FlashConfig::bits_per_cell() const {
  return uint32_t(cell_type) + 1;  // CellType lists slc, mlc, tlc, qlc in order
}

// The geometry and its address space, per-page-type times, multi-plane, die power-down.
void validate(const FlashConfig& f, Problems& problems) {
  if (f.page_bytes < 512 || f.page_bytes % 512 != 0) {
    problems.add("flash.page_bytes", "must be a multiple of 512 and at least 512");
  }
  // In double so no factor can overflow; exact while it matters (below 2^53), and every
  // factor is at least 1, so a product within the limit also keeps dies() and
  // blocks_per_die() within uint32.
  const double pages = double(f.channels) * f.ways_per_channel * f.dies_per_way * f.planes_per_die *
                       f.blocks_per_plane * f.pages_per_block;
  if (pages > double(kMaxPages)) {
    char count[32];
    std::snprintf(count, sizeof count, "%.0f", pages);
    problems.add("flash", std::string(count) +
                              " pages exceed the 32-bit page address space (at most " +
                              std::to_string(kMaxPages) + ")");
  }
  for (const auto& [key, times] :
       {std::pair{"flash.t_read_by_page_type_us", &f.t_read_by_page_type_us},
        std::pair{"flash.t_prog_by_page_type_us", &f.t_prog_by_page_type_us}}) {
    if (!times->empty() && times->size() != f.bits_per_cell())
      problems.add(key, "has " + std::to_string(times->size()) + " entries; a " +
                            std::string(to_string(f.cell_type)) + " cell has " +
                            std::to_string(f.bits_per_cell()) + " page types (or leave it out)");
  }
  if (f.program_unit == ProgramUnit::WordLine) {
    if (f.bits_per_cell() == 1)
      problems.add("flash.program_unit", "word_line needs cell_type mlc, tlc or qlc");
    else if (f.pages_per_block % f.bits_per_cell() != 0)
      problems.add("flash.program_unit",
                   "word_line needs pages_per_block (" + std::to_string(f.pages_per_block) +
                       ") a whole number of " + to_string(f.cell_type) + " word lines (" +
                       std::to_string(f.bits_per_cell()) + " pages each)");
  }
  if (f.multiplane && f.planes_per_die < 2)
    problems.add("flash.multiplane", "needs planes_per_die of at least 2");
  // A die keeps its busy planes in a 64-bit mask.
  if (f.independent_plane_reads && (f.planes_per_die < 2 || f.planes_per_die > 64))
    problems.add("flash.independent_plane_reads", "needs planes_per_die between 2 and 64");
  if (f.independent_reads_max != 0 &&
      (f.independent_reads_max < 2 || f.independent_reads_max > f.planes_per_die))
    problems.add("flash.independent_reads_max",
                 "must be 0 (every plane) or between 2 and planes_per_die (" +
                     std::to_string(f.planes_per_die) + ")");
  const ReliabilityConfig& rel = f.reliability;
  validate(rel, problems);
  if (rel.enabled && !rel.rber_by_page_type.empty() &&
      rel.rber_by_page_type.size() != f.bits_per_cell())
    problems.add("flash.reliability.rber_by_page_type",
                 "has " + std::to_string(rel.rber_by_page_type.size()) + " entries; a " +
                     std::string(to_string(f.cell_type)) + " cell has " +
                     std::to_string(f.bits_per_cell()) + " page types (or leave it out)");
  const DiePowerDownConfig& down = f.die_power_down;
  if (down.enabled && !(down.idle_us > 0))
    problems.add("flash.die_power_down.idle_us", "must be positive when power-down is enabled");
  if (down.enabled && f.idle_policy == NandIdlePolicy::OffWhenIdle)
    problems.add(
        "flash.die_power_down.enabled",
        "is a policy of its own: it cannot be combined with flash.idle_policy off_when_idle");
}

}  // namespace ssd::config
