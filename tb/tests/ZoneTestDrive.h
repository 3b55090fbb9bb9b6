#pragma once
// The small drive the zoned namespace's flash-side tests run on: 2 dies (one a channel), 2
// planes x 8 blocks x 6 pages of 8 KiB; with 4 KiB units, 2 units a page.
#include "config/FlashConfig.h"

namespace ssd::test {

inline config::FlashConfig zone_test_flash() {
  config::FlashConfig f;
  f.channels = 2;
  f.ways_per_channel = 1;
  f.dies_per_way = 1;
  f.planes_per_die = 2;
  f.blocks_per_plane = 8;
  f.pages_per_block = 6;
  f.page_bytes = 8192;
  return f;
}

}  // namespace ssd::test
