// A geometry the machine cannot hold is refused when the config is read (config/ModelMemory.h).
#include <gtest/gtest.h>

#include "common/Errors.h"
#include "config/ModelMemory.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

TEST(ModelMemory, UnwrittenModelIsPerDieAndPerBlock) {
  auto cfg = test::shipped("small_gc");
  cfg.flash.channels = 2;
  cfg.flash.ways_per_channel = 3;
  cfg.flash.dies_per_way = 1;
  cfg.flash.planes_per_die = 2;
  cfg.flash.blocks_per_plane = 100;
  EXPECT_EQ(config::model_bytes_unwritten(cfg.flash), 6 * (15 * 1024 + 200 * 105u));
}

TEST(ModelMemory, RefusesAGeometryBeyondTheMemoryNamingTheKeys) {
  auto cfg = test::shipped("small_gc");
  const uint64_t need = config::model_bytes_unwritten(cfg.flash);
  const auto check = [&](uint64_t memory) {
    config::Problems problems("drive.json");
    config::check_model_fits(cfg, problems, memory);
    problems.raise();
  };
  EXPECT_NO_THROW(check(need));
  EXPECT_NO_THROW(check(0)) << "unknown memory: no limit";
  try {
    check(need - 1);
    FAIL() << "accepted a model larger than the memory";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("drive.json: flash:"), std::string::npos) << what;
    EXPECT_NE(what.find("flash.dies_per_way"), std::string::npos) << what;
    EXPECT_NE(what.find("flash.blocks_per_plane"), std::string::npos) << what;
  }
}

// Every shipped drive fits in 1 GiB before it is written.
TEST(ModelMemory, ShippedDrivesAreSmall) {
  for (const char* name : {"default", "x25m", "case_4x4", "nvme_tlc_1tb", "small_gc"})
    EXPECT_LT(config::model_bytes_unwritten(test::shipped(name).flash), 1ull << 30) << name;
}

}  // namespace
}  // namespace ssd
