// Flexible data placement (ftl.fdp, firmware/ftl/Placement.h): its config rules, a handle's data
// kept in its own blocks by the host streams, the write buffer's pages and (persistently
// isolated) GC, and the handles' figures adding up to the drive's exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "firmware/Firmware.h"
#include "firmware/ftl/Dftl.h"
#include "firmware/ftl/PageFtl.h"
#include "model/controller/Preconditioning.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/PlacementConfigs.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/JsonWorkload.h"
#include "tb/workload/WorkloadGenerator.h"
#include "tb/workload/WorkloadJob.h"

namespace ssd {
namespace {

using fw::Lpn;
using fw::PageToken;
using fw::Ppa;
using test::FakeHal;
using test::fdp_config;
using test::tenant_config;

std::string problem(const config::DriveConfig& cfg) {
  try {
    config::parse_drive_config(config::to_json(cfg), "t.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Placement, ConfigRulesNameTheirKeys) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.ftl.fdp.enabled = true;
  cfg.ftl.type = config::FtlType::Fast;
  EXPECT_NE(problem(cfg).find("ftl.fdp.enabled: only the page and dftl FTLs place data by handle"),
            std::string::npos)
      << problem(cfg);
  cfg = test::shipped("nvme_tlc_1tb");
  cfg.ftl.fdp.enabled = true;
  cfg.ftl.slc_cache_blocks_per_plane = 4;
  EXPECT_NE(problem(cfg).find("ftl.fdp.enabled: not with an SLC cache"), std::string::npos)
      << problem(cfg);
  cfg = test::shipped("lifetime_small");
  cfg.ftl.fdp.enabled = true;
  EXPECT_NE(problem(cfg).find("ftl.fdp.enabled: not with the lifetime manager"), std::string::npos)
      << problem(cfg);
  // small_gc: 64 blocks a die, 25 % hidden: 16 spare; GC keeps 4, and 1 for room. 8 handles
  // keep 8 host blocks open (11 with GC's and the room: fits); persistently isolated 8 GC blocks
  // more (21: does not).
  cfg = test::shipped("small_gc");
  cfg.ftl.fdp.enabled = true;
  EXPECT_EQ(problem(cfg), "");
  cfg.ftl.fdp.isolation = config::FdpIsolation::Persistently;
  EXPECT_NE(problem(cfg).find("garbage collection needs at least gc_threshold_blocks + 17 = 21 "
                              "(ftl.fdp.handles 8 keep host blocks open for each handle and GC's "
                              "(persistently_isolated); one block of room for GC to reclaim)"),
            std::string::npos)
      << problem(cfg);
  EXPECT_EQ(test::config_error(R"({"name": "d", "ftl": {"fdp": {"handles": 65}}})"),
            "t.json: ftl.fdp.handles: must be in [1, 64]");
}

// Random writes over the logical units, each through a handle drawn at random (a unit changes
// handle as it is rewritten), with the FTL's GC running: every valid unit lies in a block of the
// handle that wrote it last (persistently isolated: GC's blocks too; initially isolated: but
// GC's shared blocks), every read returns the last data, and the handles' figures add up.
void check_isolation(const std::string& isolation, bool dftl) {
  const config::DriveConfig cfg = fdp_config(isolation, 3);
  FakeHal hal(cfg.flash);
  std::unique_ptr<fw::PageLevelFtl> ftl;
  if (dftl)
    ftl = std::make_unique<fw::Dftl>(cfg, hal);
  else
    ftl = std::make_unique<fw::PageFtl>(cfg, hal);
  const uint64_t logical = cfg.logical_pages();
  std::vector<uint64_t> version(logical, 0);
  std::vector<uint8_t> handle(logical, 0);
  std::vector<uint64_t> host_by_handle(3, 0);
  uint64_t x = 7, v = 0;
  for (uint64_t i = 0; i < 4 * logical; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const Lpn lpn = (x >> 33) % logical;
    const auto h = uint8_t((x >> 20) % 3);
    ftl->place_by(h);
    ftl->write(lpn, PageToken{lpn, version[lpn] = ++v}, fw::kNoOp);
    handle[lpn] = h;
    ++host_by_handle[h];
  }
  const fw::Placement& p = ftl->placement();
  const fw::BlockManager& bm = ftl->blocks();
  uint64_t checked = 0;
  for (uint32_t die = 0; die < cfg.flash.dies(); ++die)
    for (uint32_t b = 0; b < bm.blocks_per_die(); ++b) {
      const uint8_t tag = p.tag(die, b);
      if (tag >= p.handles()) continue;  // GC's shared blocks, mapping pages
      for (uint32_t s = 0; s < cfg.flash.pages_per_block; ++s) {
        const Lpn owner = bm.owner(Ppa{die, b, s});
        if (owner == fw::BlockManager::kNoLpn || owner >= logical) continue;
        ASSERT_EQ(handle[owner], tag)
            << isolation << ": unit " << owner << " in die " << die << " block " << b;
        ++checked;
      }
    }
  const auto written =
      uint64_t(std::count_if(version.begin(), version.end(), [](uint64_t w) { return w != 0; }));
  if (isolation == "persistently_isolated" && !dftl)
    EXPECT_EQ(checked, written) << "every unit written is in a block of a handle";
  else
    EXPECT_GT(checked, logical / 4);
  for (Lpn lpn = 0; lpn < logical; ++lpn) {
    PageToken got;
    ftl->read(lpn, got);
    ASSERT_EQ(got, (PageToken{lpn, version[lpn]})) << lpn;
  }
  // The handles' figures: host units as written, and with GC's shared blocks, every page
  // programmed, copied and block erased of the drive's (DFTL's mapping blocks apart).
  const fw::FtlStats& s = ftl->stats();
  uint64_t pages = 0, copied = 0, erased = 0;
  for (uint32_t h = 0; h <= p.handles(); ++h) {
    const auto& f = p.figures()[h];
    if (h < p.handles()) {
      EXPECT_EQ(f.host_units, host_by_handle[h]) << h;
    }
    pages += f.pages_programmed;
    copied += f.copied_units;
    erased += f.blocks_erased;
  }
  EXPECT_GT(s.gc_pages_copied, logical);
  if (dftl) {
    EXPECT_LE(pages, s.pages_programmed);  // and DFTL's translation pages
  } else {
    EXPECT_EQ(pages, s.pages_programmed);
    EXPECT_EQ(copied, s.gc_pages_copied);
    EXPECT_EQ(erased, s.blocks_erased);
    EXPECT_EQ(s.pages_programmed, s.host_pages_written + s.gc_pages_copied);
  }
  if (isolation == "persistently_isolated") {
    EXPECT_EQ(p.figures()[p.handles()].pages_programmed, 0u) << "no shared GC blocks";
  } else {
    EXPECT_GT(p.figures()[p.handles()].pages_programmed, 0u);
    EXPECT_EQ(p.figures()[p.handles()].host_units, 0u);
  }
}

TEST(Placement, PersistentlyIsolatedGcNeverMixesHandles) {
  check_isolation("persistently_isolated", false);
}
TEST(Placement, InitiallyIsolatedHostBlocksHoldOneHandle) {
  check_isolation("initially_isolated", false);
}
TEST(Placement, DftlKeepsHandlesApartToo) { check_isolation("persistently_isolated", true); }

// Separating a hot range from a cold one pays where GC keeps them apart: the same writes cost
// fewer copies persistently isolated than with one handle.
TEST(Placement, SeparatingHotFromColdSavesCopies) {
  std::map<std::string, uint64_t> copies;
  for (const std::string mode : {"none", "initially_isolated", "persistently_isolated"}) {
    config::DriveConfig cfg = mode == "none" ? test::shipped("small_gc") : fdp_config(mode);
    FakeHal hal(cfg.flash);
    fw::PageFtl ftl(cfg, hal);
    const uint64_t logical = cfg.logical_pages();
    const uint64_t hot = logical / 8;
    uint64_t x = 3, v = 0;
    for (Lpn lpn = 0; lpn < logical; ++lpn) ftl.write(lpn, PageToken{lpn, ++v}, fw::kNoOp);
    for (uint64_t i = 0; i < 4 * logical; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const bool is_hot = (x >> 40) % 10 < 8;  // 80 % of the writes to 1/8 of the units
      const Lpn lpn = is_hot ? (x >> 33) % hot : hot + (x >> 33) % (logical - hot);
      ftl.place_by(is_hot ? 1 : 0);
      ftl.write(lpn, PageToken{lpn, ++v}, fw::kNoOp);
    }
    copies[mode] = ftl.stats().gc_pages_copied;
  }
  // Measured: 38,454 copies with one handle, 34,440 initially isolated (GC's shared blocks mix
  // the handles again), 30,443 persistently isolated.
  EXPECT_LT(copies["persistently_isolated"], copies["none"] * 17 / 20)
      << copies["persistently_isolated"] << " vs " << copies["none"];
  EXPECT_LT(copies["persistently_isolated"], copies["initially_isolated"]);
  EXPECT_LT(copies["initially_isolated"], copies["none"]);
}

// Units smaller than the page: the packing buffer (no DRAM buffer) fills a page from one handle's
// units, and a write naming no handle goes to handle 0, counted.
TEST(Placement, PagesHoldOneHandlesUnitsAndBadIdentifiersAreCounted) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.ftl.mapping_unit_bytes = 1024;
  cfg.ftl.fdp.enabled = true;
  cfg.ftl.fdp.handles = 2;
  cfg = config::parse_drive_config(config::to_json(cfg), "test");
  FakeHal hal(cfg.flash, cfg.units_per_page());
  fw::Firmware firmware(cfg, hal);
  // Units 0..15 alternate handles 0 and 1; then one write with identifier 7.
  for (uint64_t u = 0; u < 16; ++u) {
    fw::HostCommand cmd{fw::CommandOp::Write, u * 1024, 1024, u + 1};
    cmd.placement = uint16_t(u % 2);
    hal.done(firmware.execute(cmd, nullptr));
  }
  fw::HostCommand bad{fw::CommandOp::Write, 16 * 1024, 4 * 1024, 99};
  bad.placement = 7;
  hal.done(firmware.execute(bad, nullptr));
  EXPECT_EQ(firmware.stats().invalid_placement_ids, 1u);
  const auto& ftl = dynamic_cast<const fw::PageLevelFtl&>(firmware.ftl());
  // Five full pages of four units: two of handle 0's units and the bad write's, two of handle 1's.
  std::map<std::pair<uint32_t, uint32_t>, std::vector<Lpn>> pages;  // (die, block): units
  for (const auto& op : hal.ops())
    if (op.kind == FakeHal::OpKind::kProgram)
      for (uint32_t u = 0; u < 4; ++u) {
        const Lpn owner = ftl.blocks().owner(Ppa{op.ppa.die, op.ppa.block, op.ppa.page * 4 + u});
        ASSERT_NE(owner, fw::BlockManager::kNoLpn);
        const uint8_t expected = owner >= 16 ? 0 : uint8_t(owner % 2);
        EXPECT_EQ(ftl.placement().tag(op.ppa.die, op.ppa.block), expected) << owner;
      }
  EXPECT_EQ(ftl.placement().figures()[0].host_units, 8u + 4);
  EXPECT_EQ(ftl.placement().figures()[1].host_units, 8u);
  EXPECT_EQ(ftl.placement().figures()[0].pages_programmed, 3u);
  EXPECT_EQ(ftl.placement().figures()[1].pages_programmed, 2u);
  EXPECT_EQ(ftl.stats().pages_programmed, 5u);
  EXPECT_EQ(ftl.stats().units_padded, 0u);
}

TEST(Placement, JobsNameAHandleOfTheDrive) {
  const config::DriveConfig cfg = fdp_config("initially_isolated", 4);
  const tb::AddressSpace space(cfg.namespace_layout());
  const auto error = [&](const tb::AddressSpace& s, const std::string& spec) {
    try {
      tb::make_workload(spec, s);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error(space, "rw=randwrite,count=1,placement=3"), "");
  EXPECT_NE(error(space, "rw=randwrite,count=1,placement=4")
                .find("placement: handle 4: expected 0 to 3 (namespace ns1's 4 placement handles)"),
            std::string::npos);
  const tb::AddressSpace plain(test::shipped("small_gc").namespace_layout());
  EXPECT_NE(error(plain, "rw=randwrite,count=1,placement=0")
                .find("placement: the drive has no placement handles (ftl.fdp.enabled is false)"),
            std::string::npos);
  tb::HostRequest r;
  auto source = tb::make_workload("rw=randwrite,count=1,placement=2", space);
  ASSERT_TRUE(source->next(r));
  EXPECT_EQ(r.placement, 2u);
}

TEST(Placement, NamespaceListRulesNameTheirKeys) {
  config::DriveConfig cfg = tenant_config();
  EXPECT_EQ(problem(cfg), "");
  cfg.namespaces[1].placement_handles = {3, 4, 3};
  EXPECT_NE(problem(cfg).find("namespaces[1].placement_handles[1]: handle 4: expected 0 to 3 "
                              "(ftl.fdp.handles 4)"),
            std::string::npos)
      << problem(cfg);
  EXPECT_NE(problem(cfg).find("namespaces[1].placement_handles[2]: handle 3 listed twice"),
            std::string::npos)
      << problem(cfg);
  cfg = tenant_config();
  cfg.ftl.fdp.enabled = false;
  EXPECT_NE(problem(cfg).find("namespaces[0].placement_handles: needs ftl.fdp.enabled"),
            std::string::npos)
      << problem(cfg);
  // The parser's own message for a value that is no list of integers.
  auto j = config::to_json(tenant_config());
  j["namespaces"][0]["placement_handles"] = {1, -1};
  try {
    config::parse_drive_config(j, "t.json");
    ADD_FAILURE() << "accepted a negative handle";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("namespaces[0].placement_handles[1]: expected a "
                                         "non-negative integer, got number -1"),
              std::string::npos)
        << e.what();
  }
}

// Each write's identifier indexes its namespace's list: units by handle, exactly.
TEST(Placement, NamespacesListTheHandlesTheirWritesGoTo) {
  const config::DriveConfig cfg = tenant_config();
  FakeHal hal(cfg.flash, cfg.units_per_page());
  fw::Firmware firmware(cfg, hal);
  const uint64_t b = 1 << 20;  // namespace b's first byte
  const auto write = [&](uint64_t offset, uint64_t pages, uint16_t id) {
    fw::HostCommand cmd{fw::CommandOp::Write, offset, pages * 4096, offset + 1};
    cmd.placement = id;
    hal.done(firmware.execute(cmd, nullptr));
  };
  write(0, 3, 0);              // a, identifier 0: handle 2
  write(3 * 4096, 2, 1);       // a has one entry: identifier 1 is invalid, handle 2, counted
  write(b, 5, 0);              // b, identifier 0: handle 3
  write(b + 5 * 4096, 7, 1);   // b, identifier 1: handle 1
  write(b + 12 * 4096, 1, 2);  // past b's two entries: its first, handle 3, counted
  const auto& figures = dynamic_cast<const fw::PageLevelFtl&>(firmware.ftl()).placement().figures();
  EXPECT_EQ(figures[0].host_units, 0u);
  EXPECT_EQ(figures[1].host_units, 7u);
  EXPECT_EQ(figures[2].host_units, 5u);
  EXPECT_EQ(figures[3].host_units, 6u);
  EXPECT_EQ(firmware.stats().invalid_placement_ids, 2u);
}

// Preconditioning writes each namespace's pages through its list's first handle: a's (handle 2)
// and b's (handle 3) age in their handles' blocks, simulated, since the bulk state is of one host
// stream; with every namespace on handle 0 it is computed in bulk.
TEST(Placement, PreconditioningAgesEachNamespaceInItsHandlesBlocks) {
  using model::controller::Preconditioning;
  const config::DriveConfig cfg = tenant_config();
  FakeHal hal(cfg.flash, cfg.units_per_page());
  fw::Firmware firmware(cfg, hal);
  Preconditioning p;
  p.request(1.0, 1.0, Preconditioning::Mode::Bulk);
  const uint64_t pages = 2 * (1 << 20) / 4096;  // the two namespaces' pages
  p.run(firmware, pages);
  ASSERT_TRUE(p.stats().done);
  EXPECT_FALSE(p.stats().bulk);
  const auto& ftl = dynamic_cast<const fw::PageLevelFtl&>(firmware.ftl());
  uint64_t host_blocks_units = 0;
  for (uint32_t die = 0; die < cfg.flash.dies(); ++die)
    for (uint32_t b = 0; b < ftl.blocks().blocks_per_die(); ++b) {
      const uint8_t tag = ftl.placement().tag(die, b);
      if (tag >= ftl.placement().handles()) continue;  // GC's shared copies
      for (uint32_t s = 0; s < cfg.flash.pages_per_block; ++s) {
        const Lpn owner = ftl.blocks().owner(Ppa{die, b, s});
        if (owner == fw::BlockManager::kNoLpn) continue;
        ASSERT_EQ(tag, owner < pages / 2 ? 2 : 3) << "unit " << owner;
        ++host_blocks_units;
      }
    }
  EXPECT_GT(host_blocks_units, 0u);
  const config::DriveConfig one_stream = fdp_config("initially_isolated");
  FakeHal plain_hal(one_stream.flash, one_stream.units_per_page());
  fw::Firmware plain(one_stream, plain_hal);
  Preconditioning q;
  q.request(1.0, 1.0, Preconditioning::Mode::Bulk);
  q.run(plain, pages);
  EXPECT_TRUE(q.stats().bulk);
}

TEST(Placement, JobsIndexTheirNamespacesList) {
  const tb::AddressSpace space(tenant_config().namespace_layout());
  EXPECT_EQ(space.namespaces[0].placement_handles, std::vector<uint8_t>({2}));
  EXPECT_EQ(space.namespaces[1].placement_handles, std::vector<uint8_t>({3, 1}));
  tb::HostRequest r;
  auto source = tb::make_workload("rw=randwrite,count=1,namespace=b,placement=1", space);
  ASSERT_TRUE(source->next(r));
  EXPECT_EQ(r.placement, 1u);
  try {
    tb::make_workload("rw=randwrite,count=1,namespace=a,placement=1", space);
    ADD_FAILURE() << "accepted identifier 1 of a one-entry list";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "placement: handle 1: expected 0 to 0 (namespace a's 1 placement handles)"),
              std::string::npos)
        << e.what();
  }
}

// A whole run, two jobs through two handles on an aged drive: the report's figures add up (host
// bytes by handle as the jobs wrote them, the media's as the flash programmed), the scoreboard
// finds every page, and the summary has its line.
TEST(Placement, ARunReportsEachHandle) {
  const config::DriveConfig cfg = fdp_config("persistently_isolated", 2);
  const std::string dir = test::temp_dir("fdp-run");
  {
    std::ofstream f(dir + "/w.json");
    f << R"({"seed": 5, "jobs": [
      {"name": "hot", "rw": "randwrite", "qd": 8, "count": 3000, "size": "2m", "placement": 1},
      {"name": "cold", "rw": "randrw", "mix": 0.3, "qd": 8, "count": 2000, "placement": 0}]})";
  }
  tb::JsonWorkload source(dir + "/w.json", tb::AddressSpace(cfg.namespace_layout()));
  tb::RunOptions o;
  o.out_dir = dir + "/out";
  o.precondition = true;
  tb::run_simulation(cfg, source, o);
  const nlohmann::json r = nlohmann::json::parse(test::slurp(dir + "/out/report.json"));
  const nlohmann::json& f = r.at("fdp");
  EXPECT_EQ(f["handles"], 2);
  EXPECT_EQ(f["isolation"], "persistently_isolated");
  EXPECT_EQ(f["reclaim_unit_bytes"], 4 * 32 * 4096);
  EXPECT_EQ(f["invalid_placement_ids"], 0);
  const double writes = r["requests"]["write_bytes"].get<double>();
  EXPECT_EQ(f["host_bytes_written"].get<double>(), writes);
  EXPECT_EQ(f["per_handle"][1]["host_bytes"].get<double>(), 3000.0 * 4096);
  EXPECT_EQ(f["per_handle"][0]["host_bytes"].get<double>() + 3000.0 * 4096, writes);
  EXPECT_EQ(f["media_bytes_written"].get<double>(), r["flash_ops"]["program"].get<double>() * 4096);
  EXPECT_EQ(f["per_handle"][0]["media_bytes"].get<double>() +
                f["per_handle"][1]["media_bytes"].get<double>(),
            f["media_bytes_written"].get<double>());
  EXPECT_FALSE(f.contains("gc_shared"));
  EXPECT_GT(f["per_handle"][0]["copied_units"].get<double>(), 0);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  EXPECT_GT(r["scoreboard"]["pages_checked"].get<double>(), 0);
}

}  // namespace
}  // namespace ssd
