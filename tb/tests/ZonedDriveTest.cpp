// Zoned namespaces on the drive (namespaces[].kind zoned): the config's rules and layout (a band
// of blocks at the end of every plane, out of the FTL's reach; the namespace's bytes past the
// FTL's), the flash window the FTL sees, and whole runs in which a zoned and a conventional
// namespace share the drive with every read checked by the scoreboard.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <ssdtlm/Ssd.h>

#include "common/Errors.h"
#include "config/DriveConfig.h"
#include "firmware/FlashWindow.h"
#include "tb/run/Simulation.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/VectorSource.h"

namespace ssd {
namespace {

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kPage = 4096;

// small_gc: 4 dies of 1 plane x 64 blocks x 32 pages of 4 KiB, 25 % over-provisioning.
// db 8 MiB, then z: 8 zones over all 4 dies (a zone: 4 blocks, 128 pages, 512 KiB).
nlohmann::json small_with(const nlohmann::json& namespaces) {
  nlohmann::json doc = config::to_json(test::shipped("small_gc"));
  doc["namespaces"] = namespaces;
  return doc;
}

const nlohmann::json kZone = {{"name", "z"}, {"kind", "zoned"}, {"zones", {{"count", 8}}}};
const nlohmann::json kMixed = {{{"name", "db"}, {"size_bytes", 8 * kMiB}}, kZone};

config::DriveConfig mixed() { return config::parse_drive_config(small_with(kMixed), "t.json"); }

std::string error(const nlohmann::json& namespaces, const nlohmann::json& patch = {}) {
  nlohmann::json doc = small_with(namespaces);
  if (!patch.is_null()) doc.merge_patch(patch);
  try {
    config::parse_drive_config(doc, "t.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "accepted";
}

// The band: 8 zones dealt to 1 lane group take 8 blocks of every plane; the FTL keeps 56, and
// the logical capacity is floor(4 x 56 x 32 x 0.75) = 5376 pages. z lies past twice the FTL's
// 7168 pages.
TEST(ZonedDrive, ZonesTakeTheEndOfEveryPlaneAndLiePastTheFtlsUnits) {
  const config::DriveConfig cfg = mixed();
  EXPECT_TRUE(cfg.has_zoned());
  EXPECT_EQ(cfg.ftl_flash().blocks_per_plane, 56u);
  EXPECT_EQ(cfg.flash.blocks_per_plane, 64u);
  EXPECT_EQ(cfg.logical_pages(), 5376u);
  EXPECT_EQ(cfg.ftl_view().flash.blocks_per_plane, 56u);
  EXPECT_FALSE(cfg.ftl_view().has_zoned());
  const std::vector<config::NamespaceRange> layout = cfg.namespace_layout();
  ASSERT_EQ(layout.size(), 2u);
  EXPECT_EQ(layout[0].first_byte, 0u);
  EXPECT_EQ(layout[0].size_bytes, 8 * kMiB);
  EXPECT_EQ(layout[1].kind, config::NamespaceKind::Zoned);
  EXPECT_EQ(layout[1].first_byte, 2 * 7168 * kPage);
  EXPECT_EQ(layout[1].size_bytes, 8 * 512 * 1024u);
  EXPECT_EQ(cfg.allocated_bytes(), 8 * kMiB);  // what preconditioning fills
  EXPECT_EQ(config::to_json(config::parse_drive_config(config::to_json(cfg), "t.json")),
            config::to_json(cfg));
  // die_group of 2 with capacity-sized zones: 2 lane groups, so 5 zones take 3 blocks a plane,
  // with one spare 4; a zone of 2 blocks is 256 KiB.
  nlohmann::json grouped = kZone;
  grouped["zones"] = {{"count", 5},
                      {"stripe", "die_group"},
                      {"group_dies", 2},
                      {"size", "capacity"},
                      {"spare_blocks_per_plane", 1}};
  const config::DriveConfig g =
      config::parse_drive_config(small_with(nlohmann::json::array({grouped})), "t.json");
  EXPECT_EQ(g.ftl_flash().blocks_per_plane, 60u);
  EXPECT_EQ(g.namespace_layout()[0].size_bytes, 5 * 256 * 1024u);
  EXPECT_EQ(g.allocated_bytes(), 0u);
}

TEST(ZonedDrive, BrokenRulesNameTheKey) {
  nlohmann::json sized = kZone;
  sized["size_bytes"] = kMiB;
  EXPECT_EQ(error(nlohmann::json::array({sized})),
            "t.json: namespaces[0].size_bytes: not given for a zoned namespace: its size is "
            "zones.count zones");
  EXPECT_EQ(error({{{"name", "z"}, {"kind", "zoned"}}}),
            "t.json: namespaces[0].zones.count: a zoned namespace needs at least one zone");
  EXPECT_EQ(error({{{"name", "a"}, {"size_bytes", kMiB}, {"zones", {{"max_open", 2}}}}}),
            "t.json: namespaces[0].zones: only a zoned namespace (kind zoned) has zones");
  EXPECT_EQ(error({{{"name", "a"}}}),
            "t.json: namespaces[0].size_bytes: a conventional namespace needs its size (> 0)");
  nlohmann::json grouped = kZone;
  grouped["zones"]["stripe"] = "die_group";
  grouped["zones"]["group_dies"] = 3;
  EXPECT_EQ(error(nlohmann::json::array({grouped})),
            "t.json: namespaces[0].zones.group_dies: must divide the drive's 4 dies (stripe "
            "die_group)");
  nlohmann::json many = kZone;
  many["zones"]["count"] = 64;  // 64 blocks of every plane
  EXPECT_EQ(error(nlohmann::json::array({many})),
            "t.json: namespaces: the zoned namespaces take 64 blocks of every plane (a block for "
            "each zone dealt to the plane, and the spares); of flash.blocks_per_plane 64 the FTL "
            "needs at least 1");
  nlohmann::json small_lba = kZone;
  small_lba["zones"]["lba_bytes"] = 8192;
  EXPECT_EQ(error(nlohmann::json::array({small_lba})),
            "t.json: namespaces[0].zones.lba_bytes: must be a power of two dividing "
            "flash.page_bytes (4096), got 8192");
  EXPECT_EQ(error(nlohmann::json::array({kZone}),
                  {{"flash", {{"faults", {{"erase_fail_probability", 0.001}}}}}}),
            "t.json: namespaces[0].kind: zoned namespaces do not take injected faults "
            "(flash.faults) yet: their zones have no replacement of failed blocks");
  EXPECT_EQ(error(nlohmann::json::array({kZone}),
                  {{"flash", {{"cell_type", "mlc"}, {"program_unit", "word_line"}}},
                   {"controller", {{"block_order", "nand"}}},
                   {"dram", {{"write_buffer_mb", 1}}}}),
            "t.json: namespaces[0].kind: zoned namespaces do not run with flash.program_unit "
            "word_line yet: a zone programs its pages one at a time");
  // The FTL's rules judge the blocks the zones leave it: 48 blocks a die hold too few spares
  // for a conventional namespace's garbage collection; with every namespace zoned the FTL holds
  // no host data and never collects.
  many["zones"]["count"] = 16;
  const nlohmann::json small_db = {{"name", "db"}, {"size_bytes", 4 * kMiB}};
  const std::string gc =
      error(nlohmann::json::array({small_db, many}), {{"ftl", {{"overprovisioning", 0.1}}}});
  EXPECT_NE(gc.find("ftl.overprovisioning: 0.1 leaves 4 spare blocks per die (floor(48 x 0.1))"),
            std::string::npos)
      << gc;
  EXPECT_EQ(error(nlohmann::json::array({many}), {{"ftl", {{"overprovisioning", 0.1}}}}),
            "accepted");
}

// The FTL's blocks are the first of every plane, the zones' the rest.
TEST(ZonedDrive, TheFlashWindowNumbersTheFtlsBlocksPlaneByPlane) {
  struct Nothing : fw::Hal {
    sc_core::sc_time now() const override { return sc_core::SC_ZERO_TIME; }
    double die_retention_s(uint32_t) override { return 0; }
    void compute(const sc_core::sc_time&) override {}
    void unit_work(fw::Unit, const sc_core::sc_time&) override {}
    void dram_access(uint32_t, bool) override {}
    fw::OpId flash_read(const fw::Ppa&, fw::PageToken&, uint32_t) override { return 0; }
    fw::OpId flash_read_spare(const fw::Ppa&, fw::PageToken&) override { return 0; }
    fw::OpId flash_program(const fw::Ppa& p, const fw::PageToken&, fw::OpId, fw::OpId) override {
      blocks.push_back(p.block);
      kinds.push_back(work());
      return 0;
    }
    fw::OpId flash_program_units(const fw::Ppa&, const fw::PageToken*, const fw::OpId*, uint32_t,
                                 fw::OpId) override {
      return 0;
    }
    fw::OpId flash_erase(uint32_t, uint32_t b) override {
      blocks.push_back(b);
      kinds.push_back(work());
      return 0;
    }
    void flash_preset(uint32_t, uint32_t, uint32_t, const std::vector<fw::PageToken>&) override {}
    void wait_for(fw::OpId) override {}
    sc_core::sc_time host_data_at(uint64_t) override { return sc_core::SC_ZERO_TIME; }
    void program_data_at(const sc_core::sc_time&) override {}
    sc_core::sc_time dram_burst(uint64_t, bool, const sc_core::sc_time&) override {
      return sc_core::SC_ZERO_TIME;
    }
    bool ended_by_now(fw::OpId) override { return true; }
    void pace_background(fw::OpId) override {}
    std::vector<uint32_t> blocks;
    std::vector<fw::Work> kinds;
  } flash;
  fw::FlashWindow w(flash, 64, 56);  // 2 planes of 64 blocks, 56 the FTL's
  EXPECT_EQ(w.to_flash(0), 0u);
  EXPECT_EQ(w.to_flash(55), 55u);
  EXPECT_EQ(w.to_flash(56), 64u);
  EXPECT_EQ(w.to_flash(111), 119u);
  EXPECT_EQ(w.to_ftl(119), 111u);
  EXPECT_EQ(w.to_ftl(56), fw::FlashWindow::kNotFtl);
  EXPECT_EQ(w.to_ftl(127), fw::FlashWindow::kNotFtl);
  {
    const fw::Hal::Scope gc(w, fw::Work::Gc);
    w.flash_program(fw::Ppa{1, 57, 3}, fw::PageToken{}, fw::kNoOp, fw::kNoOp);
  }
  w.flash_erase(0, 100);
  EXPECT_EQ(flash.blocks, (std::vector<uint32_t>{65, 108}));
  EXPECT_EQ(flash.kinds, (std::vector<fw::Work>{fw::Work::Gc, fw::Work::HostData}));
}

tb::HostRequest in(uint32_t ns, double at_us, tb::IoOp op, uint64_t offset,
                   uint64_t length = kPage) {
  tb::HostRequest r = test::request(at_us, op, offset, length);
  r.ns = ns;
  return r;
}

// Zones 0 and 1 written at their write pointers (64 and 32 pages, interleaved, so both are
// open) while db takes random writes; then a write away from zone 0's write pointer and a trim
// of zone 1, both refused; then every written page of both zones and 16 past zone 0's write
// pointer (never written: zeroes) read back, and db's. The scoreboard checks every page.
std::vector<tb::HostRequest> zoned_run(uint64_t zone_bytes) {
  constexpr uint64_t kDbPages = 8 * kMiB / kPage;
  std::mt19937_64 rng(5);
  std::vector<tb::HostRequest> reqs;
  double t = 0;
  for (uint64_t p = 0; p < 64; ++p) {
    reqs.push_back(in(1, t += 30, tb::IoOp::Write, p * kPage));
    if (p < 32) reqs.push_back(in(1, t += 30, tb::IoOp::Write, zone_bytes + p * kPage));
    reqs.push_back(in(0, t += 30, tb::IoOp::Write, rng() % kDbPages * kPage));
  }
  reqs.push_back(in(1, t += 30, tb::IoOp::Write, 10 * kPage));
  reqs.push_back(in(1, t += 30, tb::IoOp::Trim, zone_bytes));
  t += 5000;
  for (uint64_t p = 0; p < 80; ++p) reqs.push_back(in(1, t += 30, tb::IoOp::Read, p * kPage));
  for (uint64_t p = 0; p < 32; ++p)
    reqs.push_back(in(1, t += 30, tb::IoOp::Read, zone_bytes + p * kPage));
  for (uint64_t p = 0; p < 64; ++p) reqs.push_back(in(0, t += 30, tb::IoOp::Read, p * kPage));
  return reqs;
}

TEST(ZonedDrive, ZonedAndConventionalDataBothReadBack) {
  tb::VectorSource src(zoned_run(512 * 1024));
  const tb::RunResult r = tb::run_simulation(mixed(), src, tb::RunOptions{});
  const auto& rep = r.report;
  EXPECT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  EXPECT_EQ(rep["scoreboard"]["pages_checked"].get<uint64_t>(), 80u + 32 + 64);
  EXPECT_EQ(rep["scoreboard"]["refused_updates"].get<uint64_t>(), 2u);  // the stray write, the trim
  const auto& z = rep["namespaces"][1];
  EXPECT_EQ(z["name"], "z");
  EXPECT_EQ(z["write"].get<uint64_t>(), 64u + 32);  // served: the refused one is not
  // A zone's pages are programmed as they fill (units are pages): 96, and nothing else of z's.
  EXPECT_EQ(z["flash_bytes_programmed"].get<uint64_t>(), 96 * kPage);
  EXPECT_EQ(rep["namespaces"][0]["write"].get<uint64_t>(), 64u);
  const auto& zoned = rep["zoned"];
  EXPECT_EQ(zoned["writes"].get<uint64_t>(), 96u);
  EXPECT_EQ(zoned["reads"].get<uint64_t>(), 80u + 32);
  EXPECT_EQ(zoned["refused"].get<uint64_t>(), 2u);
  EXPECT_EQ(zoned["units_written"].get<double>(), 96.0);
  EXPECT_EQ(zoned["pages_programmed"].get<double>(), 96.0);
  EXPECT_EQ(zoned["units_padded"].get<double>(), 0.0);
  EXPECT_EQ(zoned["blocks_erased"].get<double>(), 0.0);
  EXPECT_EQ(zoned["zones_filled"].get<double>(), 0.0);
  EXPECT_EQ(zoned["open_zones"].get<double>(), 2.0);
}

// A zone written whole in 16 KiB writes becomes full (and no longer open); a write into it is
// refused; all its pages read back.
TEST(ZonedDrive, AFullZoneRefusesWritesAndReadsBack) {
  std::vector<tb::HostRequest> reqs;
  double t = 0;
  for (uint64_t p = 0; p < 128; p += 4)
    reqs.push_back(in(1, t += 50, tb::IoOp::Write, p * kPage, 4 * kPage));
  reqs.push_back(in(1, t += 50, tb::IoOp::Write, 0));
  for (uint64_t p = 0; p < 128; ++p) reqs.push_back(in(1, t += 30, tb::IoOp::Read, p * kPage));
  tb::VectorSource src(reqs);
  const tb::RunResult r = tb::run_simulation(mixed(), src, tb::RunOptions{});
  const auto& rep = r.report;
  EXPECT_TRUE(r.data_intact) << rep["scoreboard"].dump();
  EXPECT_EQ(rep["scoreboard"]["pages_checked"].get<uint64_t>(), 128u);
  EXPECT_EQ(rep["zoned"]["writes"].get<uint64_t>(), 32u);
  EXPECT_EQ(rep["zoned"]["refused"].get<uint64_t>(), 1u);
  EXPECT_EQ(rep["zoned"]["pages_programmed"].get<double>(), 128.0);
  EXPECT_EQ(rep["zoned"]["zones_filled"].get<double>(), 1.0);
  EXPECT_EQ(rep["zoned"]["open_zones"].get<double>(), 0.0);
}

// On a preconditioned drive whose FTL collects garbage while the zones fill: the FTL's blocks
// and the zones' never meet (a page programmed twice, or a zone's data overwritten, would fail
// the NAND's rules or the scoreboard); under DFTL with units of half a page, and on two planes
// of 32 blocks (the FTL's 24 of each: its blocks renumbered around the zones' band).
TEST(ZonedDrive, TheFtlCollectsGarbageBesideTheZones) {
  for (const char* variant : {"page", "dftl", "planes"}) {
    const std::string v = variant;
    nlohmann::json doc = small_with(kMixed);
    if (v == "dftl") {
      doc["ftl"]["type"] = "dftl";
      doc["ftl"]["mapping_unit_bytes"] = 2048;
      doc["namespaces"][1]["zones"]["lba_bytes"] = 512;
    } else if (v == "planes") {
      doc["flash"]["planes_per_die"] = 2;
      doc["flash"]["blocks_per_plane"] = 32;
    }
    const config::DriveConfig cfg = config::parse_drive_config(doc, "t.json");
    const bool dftl = v == "dftl";
    std::vector<tb::HostRequest> reqs = zoned_run(cfg.namespace_layout()[1].size_bytes / 8);
    std::mt19937_64 rng(9);
    double t = reqs.back().arrival.to_seconds() * 1e6;
    for (int i = 0; i < 3000; ++i)
      reqs.push_back(in(0, t += 20, tb::IoOp::Write, rng() % (8 * kMiB / kPage) * kPage));
    for (uint64_t p = 0; p < 64; ++p) reqs.push_back(in(1, t += 30, tb::IoOp::Read, p * kPage));
    tb::VectorSource src(reqs);
    tb::RunOptions o;
    o.precondition = true;
    const tb::RunResult r = tb::run_simulation(cfg, src, o);
    EXPECT_TRUE(r.data_intact) << v << r.report["scoreboard"].dump();
    EXPECT_GT(r.report["gc"]["victims"].get<uint64_t>(), 0u) << v;
    EXPECT_EQ(r.report["scoreboard"]["pages_checked"].get<uint64_t>(),
              (80u + 32 + 64 + 64) * (dftl ? 2 : 1))
        << v;
  }
}

// The embedded drive's socket addresses namespaces back to back and has no zone commands yet.
TEST(ZonedDrive, TheEmbeddedDriveRefusesThemForNow) {
  tb::reset_kernel();
  sc_core::sc_report_handler::set_actions(ssdtlm::msg::kConfig, sc_core::SC_FATAL,
                                          sc_core::SC_THROW);
  try {
    ssdtlm::Ssd ssd("ssd", small_with(kMixed));
    ADD_FAILURE() << "accepted";
  } catch (const sc_core::sc_report& e) {
    EXPECT_NE(std::string(e.what()).find("namespaces: the embedded drive does not address zoned"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ssd
