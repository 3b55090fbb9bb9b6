#pragma once
// Shared by the block FTL's suites on FakeHal (BlockFtlTest, BlockReadLookupTest): its drives,
// the SRAM's time per offset, and random overwrites checked page by page.
#include <cstdint>
#include <random>

#include <systemc>

#include "config/DriveConfig.h"
#include "tb/tests/LogFtlRig.h"

namespace ssd::test {

// The SRAM's time per offset in these tests: distinct from every FakeHal cost.
inline constexpr double kSramNs = 7;

// A block FTL drive of `dies` dies of `blocks` blocks of `pages` pages.
inline config::DriveConfig block_drive(
    config::BlockUpdate update, uint32_t dies, uint32_t blocks, uint32_t pages,
    double overprovisioning, config::BlockReadLookup lookup = config::BlockReadLookup::Sram) {
  config::DriveConfig c = log_drive("block", dies, blocks, pages, overprovisioning, 0.03);
  c.ftl.block_update = update;
  c.ftl.block_read_lookup = lookup;
  c.ftl.t_sram_access_ns = kSramNs;
  return c;
}

// One die of 16 blocks of 4 pages, 75 % hidden: 16 logical pages = 4 logical blocks; with
// replacement blocks, ceil(0.03 x 4) = 1 of them.
inline config::DriveConfig one_die(config::BlockUpdate update = config::BlockUpdate::CopyOnUpdate,
                                   config::BlockReadLookup lookup = config::BlockReadLookup::Sram) {
  return block_drive(update, 1, 16, 4, 0.75, lookup);
}

inline sc_core::sc_time sram_time(uint32_t entries) {
  return sc_core::sc_time(entries * kSramNs, sc_core::SC_NS);
}

// Random overwrites and trims of three times the capacity across two dies, reads checked on
// the way and every page at the end; every program carried its page's identity.
inline void overwrite_three_times(LogFtlRig& rig) {
  const uint64_t pages = rig.cfg().logical_pages();
  std::mt19937_64 rng(11);
  for (uint64_t i = 0; i < 3 * pages; ++i) {
    const fw::Lpn lpn = rng() % pages;
    if (rng() % 10 == 0)
      rig.trim(lpn);
    else
      rig.write(lpn);
    if (i % 50 == 0) rig.check(rng() % pages);
  }
  rig.check_all();
  rig.expect_program_identity();
}

}  // namespace ssd::test
