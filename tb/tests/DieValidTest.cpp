// The block manager's valid pages per die (what a die's data fills, for injected faults' room,
// docs/reliability.md#when-a-die-runs-out-of-room): counted where a page turns valid or
// invalid, set by bulk preconditioning's preset blocks, and recounted from a saved state.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "firmware/BlockManager.h"
#include "firmware/StateArchive.h"

namespace ssd {
namespace {

using fw::BlockManager;
using fw::BlockMode;
using fw::Lpn;
using fw::Ppa;

// 2 dies of 1 plane of 8 blocks of 4 pages, none reserved.
BlockManager two_dies() { return BlockManager(2, 8, 4, 8, 0); }

TEST(DieValid, CountedWherePagesTurnValidOrInvalid) {
  BlockManager bm = two_dies();
  const uint32_t block = bm.open_block(1, false, BlockManager::kAnyPlane);
  for (uint32_t p = 0; p < 3; ++p) bm.set_valid(Ppa{1, block, p}, Lpn(p));
  bm.invalidate(Ppa{1, block, 1});
  EXPECT_EQ(bm.valid_on_die(0), 0u);
  EXPECT_EQ(bm.valid_on_die(1), 2u);
  // A preset block replaces its count.
  const std::vector<Lpn> owners = {7, BlockManager::kNoLpn, 8, 9};
  bm.preset_block(0, 2, 1, &owners, true, BlockMode::Native);
  bm.preset_block(1, block, 1, &owners, true, BlockMode::Native);
  EXPECT_EQ(bm.valid_on_die(0), 3u);
  EXPECT_EQ(bm.valid_on_die(1), 3u);

  std::stringstream bytes;
  fw::StateArchive saving(bytes, 0);
  bm.state(saving, 64);  // logical pages: the owners' bound
  const std::string saved = bytes.str();
  BlockManager loaded = two_dies();
  fw::StateArchive loading(reinterpret_cast<const uint8_t*>(saved.data()), saved.size(), 0, -1);
  loaded.state(loading, 64);
  EXPECT_EQ(loaded.valid_on_die(0), 3u);
  EXPECT_EQ(loaded.valid_on_die(1), 3u);
}

}  // namespace
}  // namespace ssd
