// NVMe FDP's Reclaim Unit Handle Update (I/O Management Send) and FDP's events: a handle's reclaim
// unit closed where its data end, the pages it gives up counted exactly, refusals with their NVMe
// status, media reallocated and implicit reclaim unit changes under failing programs, the jobs'
// placement_update_bytes and a whole run's report.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "firmware/Firmware.h"
#include "firmware/ftl/PageFtl.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/PlacementConfigs.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/JsonWorkload.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

using fw::Lpn;
using fw::PageToken;
using test::FakeHal;

// small_gc (4 dies, one plane, 32 pages a block, no write buffer) with two handles.
config::DriveConfig fdp_drive() { return test::fdp_config("initially_isolated"); }

struct Drive {
  explicit Drive(const config::DriveConfig& c) : cfg(c), hal(cfg.flash), firmware(cfg, hal) {}
  // Writes `pages` pages from `first` through identifier `id`.
  void write(Lpn first, uint64_t pages, uint16_t id) {
    fw::HostCommand cmd{fw::CommandOp::Write, first * 4096, pages * 4096, ++version};
    cmd.placement = id;
    hal.done(firmware.execute(cmd, nullptr));
  }
  fw::Completion update(uint16_t id, uint64_t offset = 0) {
    fw::HostCommand cmd{fw::CommandOp::PlacementUpdate, offset, 0, 0};
    cmd.placement = id;
    fw::Completion done = firmware.execute(cmd, nullptr);
    hal.done(done);
    return done;
  }
  const fw::PageLevelFtl& ftl() const {
    return dynamic_cast<const fw::PageLevelFtl&>(firmware.ftl());
  }
  const fw::Placement::HandleFigures& handle(uint8_t h) const {
    return ftl().placement().figures()[h];
  }
  // The blocks programs went to from op `from` on.
  std::set<std::pair<uint32_t, uint32_t>> programmed_blocks(std::size_t from) const {
    std::set<std::pair<uint32_t, uint32_t>> out;
    for (std::size_t i = from; i < hal.ops().size(); ++i)
      if (hal.ops()[i].kind == FakeHal::OpKind::kProgram)
        out.insert({hal.ops()[i].ppa.die, hal.ops()[i].ppa.block});
    return out;
  }
  config::DriveConfig cfg;
  FakeHal hal;
  fw::Firmware firmware;
  uint64_t version = 0;
};

// A reclaim unit is a block on each of the 4 dies, each opened at its first page: 128 pages. Five
// pages written through handle 1 leave it 123 pages short; an update right after another finds no
// block open (no event); the handle's next 3 pages go to new blocks on 3 dies, and the next update
// gives up 3 x 32 - 3 pages more (the fourth die's block was never opened).
TEST(PlacementUpdate, ClosesTheHandlesReclaimUnitWhereItsDataEnd) {
  Drive d(fdp_drive());
  d.write(0, 5, 1);
  d.write(100, 2, 0);  // handle 0's reclaim unit is not touched
  const auto first_blocks = d.programmed_blocks(0);
  EXPECT_EQ(d.update(1).status, 0);
  EXPECT_EQ(d.handle(1).ruh_updates, 1u);
  EXPECT_EQ(d.handle(1).ru_not_fully_written, 1u);
  EXPECT_EQ(d.handle(1).pages_unwritten, 123u);
  EXPECT_EQ(d.handle(0).ruh_updates, 0u);
  // Closed: every block handle 1 opened is full for GC now; handle 0's stays open.
  const fw::BlockManager& bm = d.ftl().blocks();
  for (const auto& [die, block] : first_blocks)
    EXPECT_EQ(bm.full(die, block), d.ftl().placement().tag(die, block) == 1) << die << "/" << block;
  EXPECT_EQ(d.update(1).status, 0);
  EXPECT_EQ(d.handle(1).ruh_updates, 2u);
  EXPECT_EQ(d.handle(1).ru_not_fully_written, 1u);
  EXPECT_EQ(d.handle(1).pages_unwritten, 123u);
  const std::size_t before = d.hal.ops().size();
  d.write(200, 3, 1);
  for (const auto& b : d.programmed_blocks(before)) EXPECT_EQ(first_blocks.count(b), 0u);
  d.update(1);
  EXPECT_EQ(d.handle(1).ru_not_fully_written, 2u);
  EXPECT_EQ(d.handle(1).pages_unwritten, 123u + 93);
  EXPECT_EQ(d.firmware.stats().placement_updates, 3u);
  EXPECT_EQ(d.ftl().stats().pages_programmed, 10u);  // no padding: one page a program
}

// One-shot programming (three pages a word line): the open word line is padded before its block
// closes, and those pads are not among the pages given up.
TEST(PlacementUpdate, PadsTheOpenWordLineFirst) {
  config::DriveConfig cfg = fdp_drive();
  cfg.flash.cell_type = config::CellType::Tlc;
  cfg.flash.program_unit = config::ProgramUnit::WordLine;
  cfg.flash.pages_per_block = 30;
  cfg.dram.write_buffer_mb = 1;  // one-shot programming gathers a word line's pages there
  cfg.controller.block_order = config::BlockOrder::Nand;
  cfg = config::parse_drive_config(config::to_json(cfg), "test");
  Drive d(cfg);
  d.write(0, 4, 1);  // a word line on die 0, one page of die 1's
  d.update(1);
  // Die 1's word line padded with 2 pages; 27 pages left on each of dies 0 and 1, nothing opened
  // on dies 2 and 3.
  EXPECT_EQ(d.ftl().stats().pages_programmed, 6u);
  EXPECT_EQ(d.handle(1).pages_unwritten, 27u + 27);
}

TEST(PlacementUpdate, RefusedWithoutFdpOrForAnIdentifierPastTheList) {
  Drive plain(test::shipped("small_gc"));
  fw::Completion done = plain.update(0);
  EXPECT_TRUE(done.failed);
  EXPECT_EQ(done.status, uint16_t(fw::PlacementStatus::FdpDisabled));
  EXPECT_EQ(done.status, 0x29);
  // Namespace a lists handle 2 alone, b handles 3 and 1.
  Drive d(test::tenant_config());
  done = d.update(1);
  EXPECT_EQ(done.status, uint16_t(fw::PlacementStatus::InvalidPlacementHandleList));
  EXPECT_EQ(done.status, 0x2A);
  EXPECT_EQ(d.update(1, 1 << 20).status, 0);  // b's identifier 1: handle 1
  EXPECT_EQ(d.handle(1).ruh_updates, 1u);
  EXPECT_EQ(d.handle(2).ruh_updates + d.handle(3).ruh_updates, 0u);
  EXPECT_EQ(d.firmware.stats().placement_updates, 1u);
}

// Programs failing by their draw on a fresh drive (no erase yet): each failure in a block of a
// handle is a Media Reallocated event of that handle (GC's shared blocks, where the data goes
// again, have theirs), with its unit; one that closed a handle's open host block (not its last
// page) changed the handle's reclaim unit.
TEST(PlacementUpdate, FailedProgramsAreMediaReallocatedEvents) {
  config::DriveConfig cfg = fdp_drive();
  cfg.flash.faults.program_fail_probability = 0.01;
  cfg = config::parse_drive_config(config::to_json(cfg), "test");
  FakeHal hal(cfg.flash);
  fw::PageFtl ftl(cfg, hal);
  for (Lpn lpn = 0; lpn < 1200; ++lpn) {
    ftl.place_by(uint8_t(lpn % 2));
    ftl.write(lpn, PageToken{lpn, lpn + 1}, fw::kNoOp);
  }
  const fw::Placement& p = ftl.placement();
  uint64_t reallocated[3] = {}, implicit[3] = {};
  for (const FakeHal::FlashOp& op : hal.ops()) {
    if (op.kind != FakeHal::OpKind::kProgram ||
        !config::program_fails(cfg.flash.faults, op.ppa.die, op.ppa.block, op.ppa.page, 0))
      continue;
    const uint8_t tag = p.tag(op.ppa.die, op.ppa.block);
    ASSERT_LT(tag, 3);
    ++reallocated[tag];
    if (tag < 2 && op.ppa.page + 1 < cfg.flash.pages_per_block) ++implicit[tag];
  }
  EXPECT_GT(reallocated[0] + reallocated[1], 5u);  // the draws fail some of 1200 programs
  for (uint8_t t = 0; t < 3; ++t) {
    EXPECT_EQ(p.figures()[t].media_reallocated, reallocated[t]) << int(t);
    EXPECT_EQ(p.figures()[t].units_reallocated, reallocated[t]) << int(t);
    EXPECT_EQ(p.figures()[t].implicit_ru_changes, implicit[t]) << int(t);
  }
  for (Lpn lpn = 0; lpn < 1200; ++lpn) {
    PageToken t;
    ftl.read(lpn, t);
    ASSERT_EQ(t.version, lpn + 1) << lpn;
  }
}

std::string job_error(const tb::AddressSpace& space, const std::string& spec) {
  try {
    tb::make_workload(spec, space);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// After every placement_update_bytes written, one update of the job's identifier, not counted in
// count; the key's errors.
TEST(PlacementUpdate, JobsUpdateTheirHandleAfterEverySpanTheyWrite) {
  const tb::AddressSpace space(fdp_drive().namespace_layout());
  auto source =
      tb::make_workload("rw=write,bs=4k,count=10,placement=1,placement_update_bytes=12k", space);
  std::string ops;
  tb::HostRequest r;
  while (source->next(r)) {
    ops += r.op == tb::IoOp::PlacementUpdate ? 'U' : 'W';
    EXPECT_EQ(r.placement, 1u);
  }
  EXPECT_EQ(ops, "WWWUWWWUWWWUW");
  EXPECT_NE(job_error(space, "rw=randread,count=1,placement_update_bytes=4k")
                .find("placement_update_bytes: applies to jobs that write"),
            std::string::npos);
  EXPECT_NE(job_error(space, "rw=write,count=1,placement_update_bytes=0")
                .find("placement_update_bytes: expected at least 1 byte, got \"0\""),
            std::string::npos)
      << job_error(space, "rw=write,count=1,placement_update_bytes=0");
  const tb::AddressSpace plain(test::shipped("small_gc").namespace_layout());
  EXPECT_NE(job_error(plain, "rw=write,count=1,placement_update_bytes=4k")
                .find("placement_update_bytes: the drive has no placement handles"),
            std::string::npos);
}

// A whole run: a job whose 64 KiB spans each start a reclaim unit of their own beside a reader
// (the die rotation is the writer's alone: each span 4 pages a die); the report counts the
// updates as the host sent them and each handle's events, and the scoreboard finds every page.
TEST(PlacementUpdate, ARunReportsUpdatesAndEvents) {
  const config::DriveConfig cfg = fdp_drive();
  const std::string dir = test::temp_dir("fdp-update");
  {
    std::ofstream f(dir + "/w.json");
    f << R"({"seed": 3, "jobs": [
      {"name": "log", "rw": "write", "qd": 4, "count": 1000, "size": "4m", "placement": 1,
       "placement_update_bytes": "64k"},
      {"name": "reader", "rw": "randread", "qd": 4, "count": 1500, "size": "4m"}]})";
  }
  tb::JsonWorkload source(dir + "/w.json", tb::AddressSpace(cfg.namespace_layout()));
  tb::RunOptions o;
  o.out_dir = dir + "/out";
  tb::run_simulation(cfg, source, o);
  const nlohmann::json r = nlohmann::json::parse(test::slurp(dir + "/out/report.json"));
  // 1000 writes of 4 KiB: an update after every 16th but the last.
  EXPECT_EQ(r["requests"]["placement_update"], 62);
  EXPECT_EQ(r["requests"]["failed_status"], 0);
  EXPECT_EQ(r["latency_us"]["placement_update"]["count"], 62);
  const nlohmann::json& f = r.at("fdp");
  EXPECT_EQ(f["placement_updates"], 62);
  const nlohmann::json& h1 = f["per_handle"][1];
  EXPECT_EQ(h1["ruh_updates"], 62);
  // 16 pages a span, a reclaim unit of 128 pages: each update gives up 112 of them.
  EXPECT_EQ(h1["events"]["ru_not_written_to_capacity"], 62);
  EXPECT_EQ(h1["unwritten_bytes"].get<double>(), 62.0 * 112 * 4096);
  EXPECT_EQ(f["per_handle"][0]["ruh_updates"], 0);
  EXPECT_EQ(f["gc_shared"]["events"]["media_reallocated"], 0);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  EXPECT_GT(r["scoreboard"]["pages_checked"].get<double>(), 0);
}

}  // namespace
}  // namespace ssd
