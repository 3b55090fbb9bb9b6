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

const fs::path kConfigDir = fs::path(SSDTLM_SOURCE_DIR) / "configs";

DriveConfig load_shipped(const std::string& name) {
  return ssd::config::load_drive_config((kConfigDir / name).string());
}

// The ConfigError message parse_drive_config gives for `text`, origin "t.json".
std::string error_of(const std::string& text) {
  try {
    ssd::config::parse_drive_config(json::parse(text), "t.json");
  } catch (const ssd::ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
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
        "case_8x2.json", "case_16x1.json", "nvme_tlc_1tb.json", "pcie_many_resource.json"}) {
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
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"t_raed_us": 50}})"),
            "t.json: flash.t_raed_us: unknown key; did you mean \"t_read_us\"?");
  EXPECT_EQ(error_of(R"({"name": "d", "flsh": {}})"),
            "t.json: flsh: unknown key; did you mean \"flash\"?");
  // Nothing close: no guess.
  EXPECT_EQ(error_of(R"({"name": "d", "zzzzzz": {}})"), "t.json: zzzzzz: unknown key");
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
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"t_read_us": "50us"}})"),
            R"(t.json: flash.t_read_us: expected a number, got string "50us")");
}

TEST_F(Config, NegativeForUnsigned) {
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"channels": -1}})"),
            "t.json: flash.channels: expected a non-negative integer, got number -1");
}

TEST_F(Config, FractionForInteger) {
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"pages_per_block": 2.5}})"),
            "t.json: flash.pages_per_block: expected an integer, got number 2.5");
}

TEST_F(Config, IntegerBeyondUint32) {
  EXPECT_EQ(error_of(R"({"name": "d", "host": {"queue_depth": 4294967296}})"),
            "t.json: host.queue_depth: must be at most 4294967295, got number 4294967296");
}

TEST_F(Config, WrongTypesForOtherFields) {
  EXPECT_EQ(error_of(R"({"name": "d", "host": {"full_duplex": "yes"}})"),
            R"(t.json: host.full_duplex: expected a boolean, got string "yes")");
  EXPECT_EQ(error_of(R"({"name": "d", "sources": ["a", 1]})"),
            "t.json: sources[1]: expected a string, got number 1");
  EXPECT_EQ(error_of(R"({"name": "d", "notes": {}})"),
            "t.json: notes: expected a string or an array of strings, got object");
  EXPECT_EQ(error_of(R"({"name": "d", "flash": []})"),
            "t.json: flash: expected an object, got array");
  EXPECT_EQ(error_of("[]"), "t.json: (top level): expected an object, got array");
}

TEST_F(Config, MissingName) {
  EXPECT_EQ(error_of(R"({"flash": {}})"), "t.json: name: required key is missing");
}

TEST_F(Config, ZeroChannels) {
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"channels": 0}})"),
            "t.json: flash.channels: must be at least 1");
}

TEST_F(Config, RangeRules) {
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"t_read_us": 0}})"),
            "t.json: flash.t_read_us: must be in (0, 1000000]");
  EXPECT_EQ(error_of(R"({"name": "d", "controller": {"t_fw_per_cmd_us": -0.5}})"),
            "t.json: controller.t_fw_per_cmd_us: must be in [0, 1000000]");
  EXPECT_EQ(error_of(R"({"name": "d", "host": {"queue_depth": 65536}})"),
            "t.json: host.queue_depth: must be in [1, 65535]");
  EXPECT_EQ(error_of(R"({"name": "d", "ftl": {"overprovisioning": 0.9}})"),
            "t.json: ftl.overprovisioning: must be in [0, 0.9)");
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"pages_per_block": 1}})"),
            "t.json: flash.pages_per_block: must be at least 2");
}

TEST_F(Config, PageBytesNotAMultipleOf512) {
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"page_bytes": 1000}})"),
            "t.json: flash.page_bytes: must be a multiple of 512 and at least 512");
}

TEST_F(Config, TooManyPagesForThe32BitAddressSpace) {
  // 2^20 blocks x 2^12 pages = 2^32 pages, one more than fits.
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"channels": 1, "ways_per_channel": 1,
                        "planes_per_die": 1, "blocks_per_plane": 1048576,
                        "pages_per_block": 4096}})"),
            "t.json: flash: 4294967296 pages exceed the 32-bit page address space "
            "(at most 4294967294)");
}

TEST_F(Config, OverprovisioningTooSmallForGcThreshold) {
  // 4096 blocks per die x 0.001 = 4 spare blocks; GC needs 4 + 2.
  EXPECT_EQ(error_of(R"({"name": "d", "ftl": {"overprovisioning": 0.001}})"),
            "t.json: ftl.overprovisioning: 0.001 leaves 4 spare blocks per die "
            "(floor(4096 x 0.001)); garbage collection needs at least gc_threshold_blocks + 2 = 6");
  // 4096 x 0.0017 = 6: enough for the page FTL, one short for dftl's open translation block.
  EXPECT_EQ(error_of(R"({"name": "d", "ftl": {"type": "dftl", "overprovisioning": 0.0017}})"),
            "t.json: ftl.overprovisioning: 0.0017 leaves 6 spare blocks per die "
            "(floor(4096 x 0.0017)); garbage collection needs at least gc_threshold_blocks + 3 = 7 "
            "(dftl keeps a translation block open too)");
  EXPECT_NO_THROW(ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "ftl": {"overprovisioning": 0.0017}})"), "t.json"));
}

// A choice's unknown name lists the known ones and suggests the nearest.
TEST_F(Config, ChoiceSuggestsTheNearestName) {
  EXPECT_EQ(error_of(R"({"name": "d", "ftl": {"type": "bast-star"}})"),
            "t.json: ftl.type: unknown FTL type \"bast-star\" (known: page, dftl, block, bast, "
            "bast_star, fast, last); did you mean \"bast_star\"?");
}

TEST_F(Config, BadIdlePolicy) {
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"idle_policy": "sometimes"}})"),
            "t.json: flash.idle_policy: unknown NAND idle policy \"sometimes\" (known: always_on, "
            "off_when_idle)");
  const DriveConfig cfg = ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "flash": {"idle_policy": "off_when_idle"}})"), "x");
  EXPECT_EQ(cfg.flash.idle_policy, ssd::config::NandIdlePolicy::OffWhenIdle);
  EXPECT_EQ(ssd::config::to_string(cfg.flash.idle_policy), "off_when_idle");
}

TEST_F(Config, BlockUpdate) {
  EXPECT_EQ(error_of(R"({"name": "d", "ftl": {"type": "block", "block_update": "in_place"}})"),
            "t.json: ftl.block_update: unknown block update \"in_place\" (known: replacement, "
            "copy_on_update)");
  EXPECT_EQ(error_of(R"({"name": "d", "ftl": {"type": "bast", "block_update": "copy_on_update"}})"),
            "t.json: ftl.block_update: only the block FTL (ftl.type block) takes it");
  const DriveConfig cfg = ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "ftl": {"type": "block", "block_update": "copy_on_update"}})"),
      "x");
  EXPECT_EQ(cfg.ftl.block_update, ssd::config::BlockUpdate::CopyOnUpdate);
  EXPECT_EQ(ssd::config::to_string(cfg.ftl.block_update), "copy_on_update");
  EXPECT_FALSE(cfg.reads_spare_areas());
  EXPECT_EQ(DriveConfig{}.ftl.block_update, ssd::config::BlockUpdate::Replacement);
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"t_oob_read_us": 0}})")
                .rfind("t.json: flash.t_oob_read_us:", 0),
            0u);
}

TEST_F(Config, UnknownFtlType) {
  EXPECT_EQ(error_of(R"({"name": "d", "ftl": {"type": "superblock"}})"),
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

  // Rounding down to whole pages: 60 pages x 0.77 = 46.2 -> 46.
  const DriveConfig tiny = ssd::config::parse_drive_config(
      json::parse(R"({"name": "t", "flash": {"channels": 1, "ways_per_channel": 1,
                     "planes_per_die": 1, "blocks_per_plane": 20, "pages_per_block": 3},
                     "ftl": {"overprovisioning": 0.23, "gc_threshold_blocks": 2}})"),
      "x");
  EXPECT_EQ(tiny.logical_pages(), 46u);
}

}  // namespace

namespace {

// Values that used to be accepted and then crashed, hung or overflowed the model (issue 9):
// each is now refused with its bound in the message.
TEST(ConfigBounds, PhysicalLimitsAreEnforced) {
  // A window below the 1 ps resolution made "energy window is zero" abort the run.
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"window_us": 1e-7}})"),
            "t.json: power.window_us: must be in [0.001, 3600000000]");
  // 1e12 V overflowed the integer nanowatts.
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"voltage_v": 1e12}})"),
            "t.json: flash.voltage_v: must be in (0, 10000]");
  EXPECT_EQ(error_of(R"({"name": "d", "dram": {"i_active_ma": 1e9}})"),
            "t.json: dram.i_active_ma: must be in [0, 100000]");
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"t_erase_us": 1e300}})"),
            "t.json: flash.t_erase_us: must be in (0, 1000000]");
  EXPECT_EQ(error_of(R"({"name": "d", "dram": {"size_mb": 18446744073709551615}})"),
            "t.json: dram.size_mb: must be in [1, 1048576]");
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"page_bytes": 4294966784}})"),
            "t.json: flash.page_bytes: must be in [512, 1048576]");
}

// dram.parts: every key of a part is required and bounded; names are unique; sizing from the
// table needs a catalogue.
TEST(ConfigBounds, DramPartsAreChecked) {
  const std::string part =
      R"("name": "8MB", "i_active_ma": 77, "i_idle_ma": 3, "t_access_ns": 60, "source": "s")";
  EXPECT_EQ(error_of(R"({"name": "d", "dram": {"parts": [{)" + part + "}]}}"),
            "t.json: dram.parts[0].size_mb: required key is missing");
  EXPECT_EQ(error_of(R"({"name": "d", "dram": {"parts": [{"size_mb": 0, )" + part + "}]}}"),
            "t.json: dram.parts[0].size_mb: must be in [1, 1048576]");
  EXPECT_EQ(error_of(R"({"name": "d", "dram": {"parts": [{"size_mb": 8, "i_peak_ma": 1, )" + part +
                     "}]}}"),
            "t.json: dram.parts[0].i_peak_ma: unknown key");
  EXPECT_EQ(error_of(R"({"name": "d", "dram": {"parts": [{"size_mb": 8, )" + part +
                     R"(}, {"size_mb": 16, )" + part + "}]}}"),
            "t.json: dram.parts[1].name: \"8MB\" names two parts");
  EXPECT_EQ(error_of(R"({"name": "d", "dram": {"parts": {}}})"),
            "t.json: dram.parts: expected an array of objects, got object");
  EXPECT_EQ(error_of(R"({"name": "d", "ftl": {"size_dram_from_table": true}})"),
            "t.json: ftl.size_dram_from_table: needs at least one part in dram.parts");
}

TEST(ConfigBounds, DrivePowerIsBounded) {
  // Every field in range, but 20 dies at 10 kV and 100 A each: 20 MW.
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"voltage_v": 10000, "i_read_ma": 100000}})"),
            "t.json: (voltages and currents): with every component at its highest current the "
            "drive would draw 20000000.429 W; at most 1000000 W can be modelled (the power sums "
            "are integer nanowatts)");
}

TEST(ConfigBounds, LastSequentialLogBlocksFitTheDie) {
  // 4294967295 wrapped a uint32 sum and allocated billions of slots.
  EXPECT_EQ(
      error_of(R"({"name": "d", "ftl": {"type": "last", "last_seq_log_blocks": 4294967295}})"),
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

TEST(ConfigSlcCache, RulesNameTheKey) {
  EXPECT_EQ(error_of(R"({"name": "d", "ftl": {"slc_cache_blocks_per_plane": 4}})"),
            "t.json: ftl.slc_cache_blocks_per_plane: an SLC cache needs flash.cell_type mlc, tlc "
            "or qlc");
  EXPECT_EQ(error_of(R"({"name": "d", "flash": {"cell_type": "tlc"},
                         "ftl": {"slc_cache_blocks_per_plane": 4}})"),
            "t.json: ftl.slc_cache_blocks_per_plane: flash.pages_per_block 128 is not a whole "
            "number of tlc word lines (3 pages each)");
  EXPECT_EQ(
      error_of(R"({"name": "d", "flash": {"cell_type": "tlc", "pages_per_block": 96},
                         "ftl": {"type": "fast", "slc_cache_blocks_per_plane": 4}})"),
      "t.json: ftl.slc_cache_blocks_per_plane: only the page and dftl FTLs keep an SLC cache");
  EXPECT_EQ(error_of(R"({"name": "d", "ftl": {"slc_fold": "sometimes"}})"),
            "t.json: ftl.slc_fold: unknown SLC fold policy \"sometimes\" (known: idle, on_full)");
  // 300 blocks on each of 2 planes leave too few of the 409 spare blocks per die.
  const std::string big =
      error_of(R"({"name": "d", "flash": {"cell_type": "tlc", "pages_per_block": 96},
                                       "ftl": {"slc_cache_blocks_per_plane": 300}})");
  EXPECT_NE(big.find("t.json: ftl.overprovisioning: 0.1 leaves 409 spare blocks per die"),
            std::string::npos)
      << big;
  EXPECT_NE(big.find("the SLC cache takes 600 blocks per die"), std::string::npos) << big;
}

namespace {

// Supply rails and regulators (docs/config.md#power): each mistake named with its rule.
TEST(ConfigPower, RailsAndRegulatorsAreChecked) {
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"rails": []}})"),
            "t.json: power.rails: needs at least 1 entry");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"rails": [{"voltage_v": 5}]}})"),
            "t.json: power.rails[0].name: required key is missing");
  EXPECT_EQ(
      error_of(R"({"name": "d", "power": {"rails": [{"name": "5 V"}]}})"),
      "t.json: power.rails[0].name: must be 1 to 16 characters of a-z, 0-9 and _, got \"5 V\"");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"rails": [{"name": "a"}, {"name": "a"}]}})"),
            "t.json: power.rails[1].name: \"a\" names two rails");
  // A host link state's name is a report key, under the same rule.
  EXPECT_EQ(error_of(R"({"name": "d", "host": {"link_states": [{"name": "L1_with_a_long_name",
            "p_mw": 1, "idle_us": 1, "t_entry_us": 1, "t_exit_us": 1, "source": "s"}]}})"),
            "t.json: host.link_states[0].name: must be 1 to 16 characters of a-z, 0-9 and _, "
            "got \"L1_with_a_long_name\"");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"rails": [{"name": "a", "i_baseline_ma": -1}]}})"),
            "t.json: power.rails[0].i_baseline_ma: must be in [0, 100000]");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"rails": [{"name": "12v", "voltage_v": 12}]}})"),
            "t.json: power.regulators.host_interface.rail: no rail named \"5v\" (rails: 12v)");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"regulators": {"nand": {"efficiency": 0}}}})"),
            "t.json: power.regulators.nand.efficiency: must be in (0, 1]");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"regulators": {"disk": {}}}})"),
            "t.json: power.regulators.disk: unknown key");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"regulators": {"nand": {"currents_at": "die"}}}})"),
            "t.json: power.regulators.nand.currents_at: unknown current reference \"die\" (known: "
            "supply, rail)");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"regulators": {"nand": {"currents_at": "rail",
                                                                     "efficiency": 0.9}}}})"),
            "t.json: power.regulators.nand.efficiency: must be 1 with currents_at \"rail\": a "
            "current measured at the rail already includes the regulator's loss (got 0.9)");
}

// controller.issue_order: an enum of two spellings, the key named for anything else; the
// founding study's configs issue in order, the modern ones queue per die.
TEST(ConfigController, IssueOrder) {
  EXPECT_EQ(error_of(R"({"name": "d", "controller": {"issue_order": "fifo"}})"),
            "t.json: controller.issue_order: unknown issue order \"fifo\" (known: per_die_queues, "
            "in_order)");
  const auto parsed = ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "controller": {"issue_order": "in_order"}})"), "x");
  EXPECT_EQ(parsed.controller.issue_order, ssd::config::IssueOrder::InOrder);
  using ssd::config::IssueOrder;
  for (const char* name :
       {"x25m", "default", "x25m_lowpower", "case_2x8", "case_4x4", "case_8x2", "case_16x1"})
    EXPECT_EQ(ssd::test::shipped(name).controller.issue_order, IssueOrder::InOrder) << name;
  for (const char* name :
       {"nvme_tlc_1tb", "nvme_tlc_1tb_apst", "pcie_many_resource", "small_gc", "lifetime_small"})
    EXPECT_EQ(ssd::test::shipped(name).controller.issue_order, IssueOrder::PerDieQueues) << name;
}

// currents_at rail: the group's components are built at the rail's voltage (the other groups
// and the configured voltages are left as they are).
TEST(ConfigPower, CurrentsAtTheRailTakeItsVoltage) {
  auto c = ssd::config::parse_drive_config(
      json::parse(R"({"name": "d", "power": {"rails": [{"name": "5v", "voltage_v": 5}],
                       "regulators": {"nand": {"currents_at": "rail"}}}})"),
      "x");
  const auto at = ssd::config::referred_to_rails(c);
  EXPECT_EQ(at.flash.voltage_v, 5.0);
  EXPECT_EQ(at.flash.bus_voltage_v, c.flash.bus_voltage_v);
  EXPECT_EQ(at.controller.voltage_v, c.controller.voltage_v);
  EXPECT_EQ(c.flash.voltage_v, 3.3);
}

TEST(ConfigPower, AnalyserSettingsAreChecked) {
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"peak_windows_us": [100, 1]}})"),
            "t.json: power.peak_windows_us[1]: must be greater than the entry before (100)");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"peak_windows_us": [0]}})"),
            "t.json: power.peak_windows_us[0]: must be in [0.001, 3600000000]");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"current_levels_ma": [0]}})"),
            "t.json: power.current_levels_ma[0]: must be in (0, 1000000000]");
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"peak_windows_us": [1, 2, 3, 4, 5, 6, 7, 8, 9]}})"),
            "t.json: power.peak_windows_us: has 9 entries; at most 8");
}

// A config that still gives the single supply voltage of before is told where it went.
TEST(ConfigPower, DriveVoltageIsNowTheFirstRail) {
  EXPECT_EQ(error_of(R"({"name": "d", "power": {"drive_voltage_v": 5}})"),
            "t.json: power.drive_voltage_v: replaced by power.rails[0].voltage_v (the main rail)");
}

}  // namespace

namespace {
// Host queues and arbitration (docs/config.md#host): each mistake named with its rule.
TEST(ConfigHostQueues, MistakesAreNamed) {
  const std::string nvme = R"({"name": "d", "host": {"interface": "nvme", )";
  EXPECT_EQ(error_of(nvme + R"("arbitration": "fifo"}})"),
            "t.json: host.arbitration: unknown arbitration \"fifo\" (known: round_robin, "
            "weighted_round_robin)");
  EXPECT_EQ(error_of(nvme + R"("queues": [{"depth": 8, "priority": "top"}]}})"),
            "t.json: host.queues[0].priority: unknown queue priority \"top\" (known: urgent, "
            "high, medium, low)");
  EXPECT_EQ(error_of(nvme + R"("queues": [{"depth": 0}]}})"),
            "t.json: host.queues[0].depth: must be in [1, 65536]");
  EXPECT_EQ(error_of(nvme + R"("arbitration_burst": 3}})"),
            "t.json: host.arbitration_burst: must be a power of two up to 128, or 0 for no "
            "limit, got 3");
  EXPECT_EQ(error_of(nvme + R"("wrr_weights": {"high": 0}}})"),
            "t.json: host.wrr_weights.high: must be in [1, 256]");
  EXPECT_EQ(error_of(R"({"name": "d", "host": {"interface": "usb"}})"),
            "t.json: host.interface: unknown host interface \"usb\" (known: sata, nvme)");
  EXPECT_EQ(error_of(R"({"name": "d", "host": {"interface": "sata", "queue_depth": 64}})"),
            "t.json: host.queue_depth: SATA NCQ holds at most 32 commands, got 64");
  EXPECT_EQ(error_of(R"({"name": "d", "host": {"interface": "sata", "queues": [{"depth": 8},
                         {"depth": 8}]}})"),
            "t.json: host.queues: SATA has one command queue, got 2");
}
}  // namespace
