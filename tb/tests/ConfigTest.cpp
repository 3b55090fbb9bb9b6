// The drive description: shipped configs, the JSON round trip, and that every error names
// its key path and says why.
#include <stdlib.h>
#include <sys/stat.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "common/DidYouMean.h"
#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "tb/tests/TestUtil.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ssd::config::DriveConfig;
using ssd::test::config_error;

const fs::path kConfigDir = fs::path(SSDTLM_SOURCE_DIR) / "configs";

DriveConfig load_shipped(const std::string& name) {
  return ssd::config::load_drive_config((kConfigDir / name).string());
}

// Writes files under a fresh directory of the test's own, removed afterwards.
class Config : public ::testing::Test {
 protected:
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  std::string write_file(const std::string& name, const std::string& text) {
    if (dir_.empty()) {
      std::string pattern = ::testing::TempDir() + "ssdtlm_config_XXXXXX";
      EXPECT_NE(mkdtemp(pattern.data()), nullptr);
      dir_ = pattern;
    }
    std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

 private:
  fs::path dir_;
};

TEST_F(Config, EveryShippedConfigParses) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(kConfigDir)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    DriveConfig cfg;
    EXPECT_NO_THROW(cfg = ssd::config::load_drive_config(entry.path().string()));
    EXPECT_FALSE(cfg.name.empty());
    EXPECT_FALSE(cfg.description.empty());
    EXPECT_FALSE(cfg.sources.empty());
    names.insert(entry.path().filename().string());
  }
  for (const char* shipped :
       {"default.json", "x25m.json", "small_gc.json", "case_2x8.json", "case_4x4.json",
        "case_8x2.json", "case_16x1.json", "nvme_tlc_1tb.json", "nvme_qlc_2tb.json",
        "pcie_many_resource.json"}) {
    EXPECT_EQ(names.count(shipped), 1u) << shipped;
  }
}

// A shipped config states every figure rather than leaning on the struct defaults.
TEST_F(Config, ShippedConfigsGiveEveryField) {
  for (const auto& entry : fs::directory_iterator(kConfigDir)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    std::ifstream in(entry.path());
    const json doc = json::parse(in);
    const auto effective = ssd::config::to_json(ssd::config::parse_drive_config(doc, "x"));
    for (const auto& [section, fields] : effective.items()) {
      ASSERT_TRUE(doc.contains(section)) << section;
      if (!fields.is_object()) continue;
      for (const auto& field : fields.items()) {
        EXPECT_TRUE(doc[section].contains(field.key())) << section << "." << field.key();
      }
    }
  }
}

TEST_F(Config, ToJsonRoundTrips) {
  std::vector<DriveConfig> configs = {DriveConfig{}};
  configs.back().name = "defaults";
  configs.back().flash.idle_policy = ssd::config::NandIdlePolicy::OffWhenIdle;
  for (const auto& entry : fs::directory_iterator(kConfigDir)) {
    if (entry.path().extension() == ".json") {
      configs.push_back(ssd::config::load_drive_config(entry.path().string()));
    }
  }
  for (const DriveConfig& cfg : configs) {
    SCOPED_TRACE(cfg.name);
    const auto first = ssd::config::to_json(cfg);
    const auto second = ssd::config::to_json(ssd::config::parse_drive_config(first, "x"));
    EXPECT_EQ(first.dump(), second.dump());
  }
}

TEST_F(Config, MissingFieldsTakeTheDefaults) {
  DriveConfig expected;
  expected.name = "d";
  const DriveConfig parsed = ssd::config::parse_drive_config(json::parse(R"({"name": "d"})"), "x");
  EXPECT_EQ(ssd::config::to_json(parsed).dump(), ssd::config::to_json(expected).dump());
}

TEST_F(Config, UnknownKeyNamesItsFullPathAndTheClosestKnownKey) {
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"t_raed_us": 50}})"),
            "t.json: flash.t_raed_us: unknown key; did you mean \"t_read_us\"?");
  EXPECT_EQ(config_error(R"({"name": "d", "flsh": {}})"),
            "t.json: flsh: unknown key; did you mean \"flash\"?");
  // Nothing close: no guess.
  EXPECT_EQ(config_error(R"({"name": "d", "zzzzzz": {}})"), "t.json: zzzzzz: unknown key");
}

TEST(DidYouMean, ClosestNameWithinAThirdOfTheWord) {
  const std::vector<std::string> known{"count", "seed", "queue_depth", "t_prog_us"};
  EXPECT_EQ(ssd::edit_distance("cuont", "count"), 1u) << "a swap is one edit";
  EXPECT_EQ(ssd::did_you_mean("cuont", known), "; did you mean \"count\"?");
  EXPECT_EQ(ssd::did_you_mean("queue_dpth", known), "; did you mean \"queue_depth\"?");
  EXPECT_EQ(ssd::did_you_mean("sed", known), "; did you mean \"seed\"?");
  EXPECT_EQ(ssd::did_you_mean("t_erase_us", known), "") << "4 edits in 10 letters";
  EXPECT_EQ(ssd::did_you_mean("xy", known), "");
}

TEST_F(Config, StringInsteadOfNumber) {
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"t_read_us": "50us"}})"),
            R"(t.json: flash.t_read_us: expected a number, got string "50us")");
}

TEST_F(Config, NegativeForUnsigned) {
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"channels": -1}})"),
            "t.json: flash.channels: expected a non-negative integer, got number -1");
}

TEST_F(Config, FractionForInteger) {
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"pages_per_block": 2.5}})"),
            "t.json: flash.pages_per_block: expected an integer, got number 2.5");
}

TEST_F(Config, IntegerBeyondUint32) {
  EXPECT_EQ(config_error(R"({"name": "d", "host": {"queue_depth": 4294967296}})"),
            "t.json: host.queue_depth: must be at most 4294967295, got number 4294967296");
}

TEST_F(Config, WrongTypesForOtherFields) {
  EXPECT_EQ(config_error(R"({"name": "d", "host": {"full_duplex": "yes"}})"),
            R"(t.json: host.full_duplex: expected a boolean, got string "yes")");
  EXPECT_EQ(config_error(R"({"name": "d", "sources": ["a", 1]})"),
            "t.json: sources[1]: expected a string, got number 1");
  EXPECT_EQ(config_error(R"({"name": "d", "notes": {}})"),
            "t.json: notes: expected a string or an array of strings, got object");
  EXPECT_EQ(config_error(R"({"name": "d", "flash": []})"),
            "t.json: flash: expected an object, got array");
  EXPECT_EQ(config_error("[]"), "t.json: (top level): expected an object, got array");
}

TEST_F(Config, MissingName) {
  EXPECT_EQ(config_error(R"({"flash": {}})"), "t.json: name: required key is missing");
}

TEST_F(Config, ZeroChannels) {
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"channels": 0}})"),
            "t.json: flash.channels: must be at least 1");
}

TEST_F(Config, RangeRules) {
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"t_read_us": 0}})"),
            "t.json: flash.t_read_us: must be in (0, 1000000]");
  EXPECT_EQ(config_error(R"({"name": "d", "controller": {"t_fw_per_cmd_us": -0.5}})"),
            "t.json: controller.t_fw_per_cmd_us: must be in [0, 1000000]");
  EXPECT_EQ(config_error(R"({"name": "d", "host": {"queue_depth": 65536}})"),
            "t.json: host.queue_depth: must be in [1, 65535]");
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"overprovisioning": 0.9}})"),
            "t.json: ftl.overprovisioning: must be in [0, 0.9)");
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"pages_per_block": 1}})"),
            "t.json: flash.pages_per_block: must be at least 2");
}

TEST_F(Config, PageBytesNotAMultipleOf512) {
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"page_bytes": 1000}})"),
            "t.json: flash.page_bytes: must be a multiple of 512 and at least 512");
}

TEST_F(Config, TooManyPagesForThe32BitAddressSpace) {
  // 2^20 blocks x 2^12 pages = 2^32 pages, one more than fits.
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"channels": 1, "ways_per_channel": 1,
                        "planes_per_die": 1, "blocks_per_plane": 1048576,
                        "pages_per_block": 4096}})"),
            "t.json: flash: 4294967296 pages exceed the 32-bit page address space "
            "(at most 4294967294)");
}

TEST_F(Config, OverprovisioningTooSmallForGcThreshold) {
  // 4096 blocks per die x 0.001 = 4 spare blocks; GC needs 4 + 3.
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"overprovisioning": 0.001}})"),
            "t.json: ftl.overprovisioning: 0.001 leaves 4 spare blocks per die "
            "(floor(4096 x 0.001)); garbage collection needs at least gc_threshold_blocks + 3 = 7 "
            "(one block of room for GC to reclaim)");
  // 4096 x 0.0019 = 7: enough for the page FTL, one short for dftl's open translation block.
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"type": "dftl", "overprovisioning": 0.0019}})"),
            "t.json: ftl.overprovisioning: 0.0019 leaves 7 spare blocks per die "
            "(floor(4096 x 0.0019)); garbage collection needs at least gc_threshold_blocks + 4 = 8 "
            "(dftl keeps a translation block open too; one block of room for GC to reclaim)");
  EXPECT_NO_THROW(ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "ftl": {"overprovisioning": 0.0019}})"), "t.json"));
}

// A choice's unknown name lists the known ones and suggests the nearest.
TEST_F(Config, ChoiceSuggestsTheNearestName) {
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"type": "bast-star"}})"),
            "t.json: ftl.type: unknown FTL type \"bast-star\" (known: page, dftl, block, bast, "
            "bast_star, fast, last); did you mean \"bast_star\"?");
}

TEST_F(Config, BadIdlePolicy) {
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"idle_policy": "sometimes"}})"),
            "t.json: flash.idle_policy: unknown NAND idle policy \"sometimes\" (known: always_on, "
            "off_when_idle)");
  const DriveConfig cfg = ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "flash": {"idle_policy": "off_when_idle"}})"), "x");
  EXPECT_EQ(cfg.flash.idle_policy, ssd::config::NandIdlePolicy::OffWhenIdle);
  EXPECT_EQ(ssd::config::to_string(cfg.flash.idle_policy), "off_when_idle");
}

TEST_F(Config, BlockUpdate) {
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"type": "block", "block_update": "in_place"}})"),
            "t.json: ftl.block_update: unknown block update \"in_place\" (known: replacement, "
            "copy_on_update)");
  EXPECT_EQ(
      config_error(R"({"name": "d", "ftl": {"type": "bast", "block_update": "copy_on_update"}})"),
      "t.json: ftl.block_update: only the block FTL (ftl.type block) takes it");
  const DriveConfig cfg = ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "ftl": {"type": "block", "block_update": "copy_on_update"}})"),
      "x");
  EXPECT_EQ(cfg.ftl.block_update, ssd::config::BlockUpdate::CopyOnUpdate);
  EXPECT_EQ(ssd::config::to_string(cfg.ftl.block_update), "copy_on_update");
  EXPECT_FALSE(cfg.reads_spare_areas());
  EXPECT_EQ(DriveConfig{}.ftl.block_update, ssd::config::BlockUpdate::Replacement);
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"t_oob_read_us": 0}})")
                .rfind("t.json: flash.t_oob_read_us:", 0),
            0u);
}

// ftl.block_read_lookup: sram (the default, every FTL) or scan, which only the block FTL's
// replacement blocks take; the SRAM's time and currents are never negative.
TEST_F(Config, BlockReadLookup) {
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"type": "block", "block_read_lookup": "dram"}})"),
            "t.json: ftl.block_read_lookup: unknown block read look-up \"dram\" (known: scan, "
            "sram); did you mean \"sram\"?");
  const std::string refused =
      "t.json: ftl.block_read_lookup: only the block FTL with replacement blocks (ftl.type block, "
      "ftl.block_update replacement) takes it";
  for (const char* ftl : {"page", "dftl", "bast", "bast_star", "fast", "last"})
    EXPECT_EQ(config_error(std::string(R"({"name": "d", "ftl": {"type": ")") + ftl +
                           R"(", "block_read_lookup": "scan"}})"),
              refused)
        << ftl;
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"type": "block", "block_update": )"
                         R"("copy_on_update", "block_read_lookup": "scan"}})"),
            refused);
  const DriveConfig scan = ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "ftl": {"type": "block", "block_read_lookup": "scan"}})"), "x");
  EXPECT_EQ(scan.ftl.block_read_lookup, ssd::config::BlockReadLookup::Scan);
  EXPECT_STREQ(ssd::config::to_string(scan.ftl.block_read_lookup), "scan");
  EXPECT_EQ(DriveConfig{}.ftl.block_read_lookup, ssd::config::BlockReadLookup::Sram);
  for (const char* ftl : {"page", "block"}) {
    const DriveConfig sram = ssd::config::parse_drive_config(
        json::parse(std::string(R"({"name": "d", "ftl": {"type": ")") + ftl +
                    R"(", "block_update": "replacement", "block_read_lookup": "sram"}})"),
        "x");
    EXPECT_EQ(sram.ftl.block_read_lookup, ssd::config::BlockReadLookup::Sram) << ftl;
  }
  for (const char* key : {"t_sram_access_ns", "i_sram_active_ma", "i_sram_standby_ma"})
    EXPECT_EQ(config_error(std::string(R"({"name": "d", "ftl": {")") + key + R"(": -1}})")
                  .rfind(std::string("t.json: ftl.") + key + ":", 0),
              0u)
        << key;
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"t_sram_access_ns": "10ns"}})")
                .rfind("t.json: ftl.t_sram_access_ns:", 0),
            0u);
}

TEST_F(Config, UnknownFtlType) {
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"type": "superblock"}})"),
            "t.json: ftl.type: unknown FTL type \"superblock\" (known: page, dftl, block, bast, "
            "bast_star, fast, last)");
}

TEST_F(Config, MissingFileNamesThePath) {
  const std::string path = write_file("present.json", "{}") + ".absent";
  try {
    ssd::config::load_drive_config(path);
    FAIL() << "loaded a missing file";
  } catch (const ssd::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: No such file or directory");
  }
}

TEST_F(Config, InvalidJsonReportsLineAndColumn) {
  // The second comma on line 3 is at column 27.
  const std::string path = write_file("bad.json",
                                      "{\n"
                                      "  \"name\": \"x\",\n"
                                      "  \"flash\": {\"channels\": 1,, }\n"
                                      "}\n");
  try {
    ssd::config::load_drive_config(path);
    FAIL() << "loaded invalid JSON";
  } catch (const ssd::ConfigError& e) {
    const std::string prefix = path + ":3:27: invalid JSON: ";
    EXPECT_EQ(std::string(e.what()).substr(0, prefix.size()), prefix) << e.what();
  }
}

TEST_F(Config, LoadErrorsStartWithThePath) {
  const std::string path = write_file("zero.json", R"({"name": "z", "flash": {"channels": 0}})");
  try {
    ssd::config::load_drive_config(path);
    FAIL() << "accepted zero channels";
  } catch (const ssd::ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": flash.channels: must be at least 1");
  }
}

TEST_F(Config, X25mLogicalPages) {
  const DriveConfig cfg = load_shipped("x25m.json");
  // 20 dies x 2 planes x 2048 blocks x 128 pages = 10,485,760 pages of 4 KiB = 40 GiB.
  EXPECT_EQ(cfg.flash.dies(), 20u);
  EXPECT_EQ(cfg.flash.total_pages(), 10485760u);
  EXPECT_EQ(cfg.flash.raw_bytes(), 40ull << 30);
  // 10 % hidden: 10,485,760 x 0.9 = 9,437,184 exactly (36 GiB), with no rounding loss.
  EXPECT_EQ(cfg.logical_pages(), 9437184u);
  EXPECT_EQ(cfg.logical_bytes(), 36ull << 30);
}

TEST_F(Config, DerivedGeometry) {
  for (const char* name : {"case_2x8.json", "case_4x4.json", "case_8x2.json", "case_16x1.json"}) {
    SCOPED_TRACE(name);
    const DriveConfig cfg = load_shipped(name);
    EXPECT_EQ(cfg.flash.channels * cfg.flash.ways_per_channel, 16u);
    EXPECT_EQ(cfg.flash.dies(), 16u);
    EXPECT_EQ(cfg.flash.blocks_per_die(), 65536u);
    EXPECT_EQ(cfg.flash.raw_bytes(), 512ull << 30);
    // floor(2^27 x 0.9) = floor(120,795,955.2).
    EXPECT_EQ(cfg.logical_pages(), 120795955u);
  }

  const DriveConfig small = load_shipped("small_gc.json");
  EXPECT_EQ(small.flash.dies(), 4u);
  EXPECT_EQ(small.flash.total_pages(), 8192u);  // 4 dies x 64 blocks x 32 pages
  EXPECT_EQ(small.logical_pages(), 6144u);      // x 0.75

  const DriveConfig nvme = load_shipped("nvme_tlc_1tb.json");
  EXPECT_EQ(nvme.flash.dies(), 32u);
  EXPECT_EQ(nvme.flash.total_pages(), 67141632u);  // 32 x 2 x 1366 x 768
  EXPECT_EQ(nvme.logical_pages(), 61098885u);      // floor(x 0.91)
  EXPECT_GE(nvme.logical_bytes(), 1000000000000u);

  // Rounding down to whole pages: 60 pages x 0.73 = 43.8 -> 43.
  const DriveConfig tiny = ssd::config::parse_drive_config(
      json::parse(R"({"name": "t", "flash": {"channels": 1, "ways_per_channel": 1,
                     "planes_per_die": 1, "blocks_per_plane": 20, "pages_per_block": 3},
                     "ftl": {"overprovisioning": 0.27, "gc_threshold_blocks": 2}})"),
      "x");
  EXPECT_EQ(tiny.logical_pages(), 43u);
}

}  // namespace

namespace {

// Values that used to be accepted and then crashed, hung or overflowed the model (issue 9):
// each is now refused with its bound in the message.
TEST(ConfigBounds, PhysicalLimitsAreEnforced) {
  // A window below the 1 ps resolution made "energy window is zero" abort the run.
  EXPECT_EQ(config_error(R"({"name": "d", "power": {"window_us": 1e-7}})"),
            "t.json: power.window_us: must be in [0.001, 3600000000]");
  // 1e12 V overflowed the integer nanowatts.
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"voltage_v": 1e12}})"),
            "t.json: flash.voltage_v: must be in (0, 10000]");
  EXPECT_EQ(config_error(R"({"name": "d", "dram": {"i_active_ma": 1e9}})"),
            "t.json: dram.i_active_ma: must be in [0, 100000]");
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"t_erase_us": 1e300}})"),
            "t.json: flash.t_erase_us: must be in (0, 1000000]");
  EXPECT_EQ(config_error(R"({"name": "d", "dram": {"size_mb": 18446744073709551615}})"),
            "t.json: dram.size_mb: must be in [1, 1048576]");
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"page_bytes": 4294966784}})"),
            "t.json: flash.page_bytes: must be in [512, 1048576]");
}

// dram.parts: every key of a part is required and bounded; names are unique; sizing from the
// table needs a catalogue.
TEST(ConfigBounds, DramPartsAreChecked) {
  const std::string part =
      R"("name": "8MB", "i_active_ma": 77, "i_idle_ma": 3, "t_access_ns": 60, "source": "s")";
  EXPECT_EQ(config_error(R"({"name": "d", "dram": {"parts": [{)" + part + "}]}}"),
            "t.json: dram.parts[0].size_mb: required key is missing");
  EXPECT_EQ(config_error(R"({"name": "d", "dram": {"parts": [{"size_mb": 0, )" + part + "}]}}"),
            "t.json: dram.parts[0].size_mb: must be in [1, 1048576]");
  EXPECT_EQ(config_error(R"({"name": "d", "dram": {"parts": [{"size_mb": 8, "i_peak_ma": 1, )" +
                         part + "}]}}"),
            "t.json: dram.parts[0].i_peak_ma: unknown key");
  EXPECT_EQ(config_error(R"({"name": "d", "dram": {"parts": [{"size_mb": 8, )" + part +
                         R"(}, {"size_mb": 16, )" + part + "}]}}"),
            "t.json: dram.parts[1].name: \"8MB\" names two parts");
  EXPECT_EQ(config_error(R"({"name": "d", "dram": {"parts": {}}})"),
            "t.json: dram.parts: expected an array of objects, got object");
  EXPECT_EQ(config_error(R"({"name": "d", "ftl": {"size_dram_from_table": true}})"),
            "t.json: ftl.size_dram_from_table: needs at least one part in dram.parts");
}

TEST(ConfigBounds, DrivePowerIsBounded) {
  // Every field in range, but 20 dies at 10 kV and 100 A each: 20 MW.
  EXPECT_EQ(config_error(R"({"name": "d", "flash": {"voltage_v": 10000, "i_read_ma": 100000}})"),
            "t.json: (voltages and currents): with every component at its highest current the "
            "drive would draw 20000000.429 W; at most 1000000 W can be modelled (the power sums "
            "are integer nanowatts)");
}

TEST(ConfigBounds, LastSequentialLogBlocksFitTheDie) {
  // 4294967295 wrapped a uint32 sum and allocated billions of slots.
  EXPECT_EQ(
      config_error(R"({"name": "d", "ftl": {"type": "last", "last_seq_log_blocks": 4294967295}})"),
      "t.json: ftl.last_seq_log_blocks: must be less than the 4096 blocks per die, got "
      "4294967295");
}

TEST(ConfigBounds, DeeplyNestedJsonIsRefused) {
  const std::string dir = ssd::test::temp_dir("nest");
  const std::string path = dir + "/deep.json";
  std::ofstream(path) << R"({"name": "d", "notes": )" << std::string(100000, '[')
                      << std::string(100000, ']') << "}";
  try {
    ssd::config::load_drive_config(path);
    ADD_FAILURE() << "accepted";
  } catch (const ssd::ConfigError& e) {
    EXPECT_STREQ(e.what(), (path + ": JSON nested more than 64 levels deep (no config or "
                                   "workload file needs more than a few)")
                               .c_str());
  }
}

// Found by fuzz_config's sibling fuzz_workload_file: a number beyond a double is no
// parse_error but an out_of_range, which escaped as an unnamed std::exception.
TEST(ConfigBounds, NumberBeyondADoubleNamesTheFile) {
  const std::string path = ssd::test::temp_dir("big") + "/big.json";
  std::ofstream(path) << R"({"name": "d", "power": {"window_us": 1e400}})";
  try {
    ssd::config::load_drive_config(path);
    ADD_FAILURE() << "accepted";
  } catch (const ssd::ConfigError& e) {
    EXPECT_STREQ(e.what(), (path + ": invalid JSON: [json.exception.out_of_range.406] number "
                                   "overflow parsing '1e400'")
                               .c_str());
  }
}

TEST(ConfigBounds, FifoIsRefusedNotWaitedOn) {
  const std::string path = ssd::test::temp_dir("fifo") + "/cfg.json";
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  try {
    ssd::config::load_drive_config(path);  // used to block forever waiting for a writer
    ADD_FAILURE() << "accepted";
  } catch (const ssd::ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 (path + ": not a regular file (a FIFO, socket or device); give a file").c_str());
  }
}

}  // namespace
