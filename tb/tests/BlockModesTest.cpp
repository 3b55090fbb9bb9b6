// A block's mode belongs to the block (docs/ftl.md#slc-cache): the block manager records the
// mode the firmware opens it in, keeps it until the block is opened again, and saves it.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "firmware/BlockManager.h"
#include "firmware/StateArchive.h"

namespace ssd {
namespace {

using fw::BlockManager;
using fw::BlockMode;

// 2 dies of 2 planes of 4 blocks, the first block of every plane reserved (the SLC cache).
BlockManager two_dies() { return BlockManager(2, 8, 4, 4, 1); }

TEST(BlockModes, TheBlockIsInTheModeItWasOpenedIn) {
  BlockManager bm = two_dies();
  bm.open_reserved(1, 4);
  const uint32_t native = bm.open_block(1);
  EXPECT_TRUE(bm.modes().slc(1, 4));
  EXPECT_FALSE(bm.modes().slc(1, native));
  EXPECT_FALSE(bm.modes().slc(0, 4)) << "the same block of the other die was never opened";
  // Erased, the block keeps its mode (the erase command carries it) until it is opened again.
  bm.release_block(1, 4);
  EXPECT_TRUE(bm.modes().slc(1, 4));
  bm.preset_block(1, 4, 3, nullptr, false, BlockMode::Native);
  EXPECT_FALSE(bm.modes().slc(1, 4));
}

TEST(BlockModes, ASavedStateKeepsEveryBlocksMode) {
  BlockManager bm = two_dies();
  bm.open_reserved(0, 0);
  bm.open_reserved(1, 4);
  std::stringstream bytes;
  fw::StateArchive saving(bytes, 0);
  bm.state(saving, 1);
  const std::string saved = bytes.str();
  BlockManager loaded = two_dies();
  fw::StateArchive loading(reinterpret_cast<const uint8_t*>(saved.data()), saved.size(), 0, -1);
  loaded.state(loading, 1);
  for (uint32_t die = 0; die < 2; ++die)
    for (uint32_t b = 0; b < 8; ++b)
      EXPECT_EQ(loaded.modes().slc(die, b), (die == 0 && b == 0) || (die == 1 && b == 4))
          << "die " << die << " block " << b;
}

}  // namespace
}  // namespace ssd
