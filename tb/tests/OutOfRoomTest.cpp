// Injected faults when a die runs out of room (flash.faults.die_out_of_room,
// docs/reliability.md#when-a-die-runs-out-of-room): the drive turns read-only at once, or sends
// the host's data to the dies with room until none has; writes then fail with an error status,
// reads go on, and nothing is lost.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/FaultConfig.h"
#include "firmware/ftl/SpareReserve.h"
#include "tb/tests/FaultyRig.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using test::Faulty;
using test::run_faulty;

// A die out of room turns the drive read-only at once (read_only), or once every die is out
// (other_dies); only a die out of room takes no host data, and once all are out, each does again.
TEST(SpareReserve, ReadOnlyAtTheFirstDieOutOfRoomOrTheLast) {
  // 64 good blocks a die, GC keeps 4 free: a die is out at 56 blocks lost or filled.
  fw::SpareReserve first(2, 64, 4, 4, config::DieOutOfRoom::ReadOnly);
  first.lost(1, 0.5, 3, 52);
  EXPECT_FALSE(first.any_out());
  first.lost(1, 0.75, 4, 52);
  EXPECT_TRUE(first.read_only());
  EXPECT_EQ(first.read_only_at_s(), 0.75);
  EXPECT_EQ(first.read_only_die(), 1.0);
  EXPECT_EQ(first.first_out_of_room_at_s(), 0.75);
  EXPECT_TRUE(first.takes_writes(0));
  EXPECT_FALSE(first.takes_writes(1));

  fw::SpareReserve last(2, 64, 4, 4, config::DieOutOfRoom::OtherDies);
  last.lost(1, 0.75, 4, 52);
  EXPECT_FALSE(last.read_only());
  EXPECT_EQ(last.read_only_die(), std::nullopt);
  EXPECT_EQ(last.first_out_of_room_at_s(), 0.75);
  EXPECT_FALSE(last.takes_writes(1));
  // Its data overwritten on the other die: back once its room (8 when it ran out) has grown by
  // the 4 blocks GC keeps.
  EXPECT_FALSE(last.back_in_room(1, 49));  // room 11
  EXPECT_TRUE(last.back_in_room(1, 48));   // room 12
  EXPECT_TRUE(last.takes_writes(1));
  EXPECT_EQ(last.dies_out(), 0u);
  last.out_of_room(1, 0.8, 50);  // its GC found nothing to reclaim, with room 10
  last.out_of_room(1, 0.9, 50);  // out already: nothing changes
  EXPECT_EQ(last.dies_out(), 1u);
  EXPECT_EQ(last.times_out(), 2u);
  EXPECT_EQ(last.times_back(), 1u);
  EXPECT_FALSE(last.back_in_room(1, 48));  // room 12, not 10 + 4
  last.out_of_room(0, 1.25, 30);
  EXPECT_TRUE(last.read_only());
  EXPECT_EQ(last.read_only_at_s(), 1.25);
  EXPECT_EQ(last.read_only_die(), 0.0);
  EXPECT_EQ(last.first_out_of_room_at_s(), 0.75);
  EXPECT_EQ(last.dies_out(), 2u);
  EXPECT_TRUE(last.takes_writes(0));
  EXPECT_TRUE(last.takes_writes(1));
  EXPECT_FALSE(last.back_in_room(1, 0));  // read-only for good
}

void other_dies(config::DriveConfig& c) {
  c.flash.faults.die_out_of_room = config::DieOutOfRoom::OtherDies;
}

// other_dies: a die out of room takes no host page (a GC copy on it carries an older version)
// until its room has grown back, while the drive stays writable; every page still reads its last
// version.
TEST(FaultyFtl, ADieOutOfRoomTakesNoHostPageUntilItsRoomGrowsBack) {
  Faulty d(0.05, 0, &other_dies);
  for (uint64_t i = 0; i < 200000 && !d.spare().any_out(); ++i) d.write_next();
  ASSERT_TRUE(d.spare().any_out());
  ASSERT_FALSE(d.ftl.read_only());
  uint64_t steered = 0;
  for (; steered < 200000 && !d.ftl.read_only(); ++steered) {
    const std::size_t first_op = d.hal.ops().size();
    const fw::Lpn l = d.write_next();
    const fw::PageToken host{l, d.version[l] + 1};
    bool programmed = false;
    for (std::size_t i = first_op; i < d.hal.ops().size(); ++i) {
      const auto& op = d.hal.ops()[i];
      if (op.kind != test::FakeHal::OpKind::kProgram || op.token.lpn != host.lpn ||
          op.token.version != host.version)
        continue;
      programmed = true;
      EXPECT_TRUE(d.spare().takes_writes(op.ppa.die)) << "write " << steered;
    }
    EXPECT_TRUE(programmed) << "write " << steered;
  }
  // The other dies took a good share of the drive's pages before they ran out too, and dies
  // whose data moved to them came back.
  EXPECT_GT(steered, d.cfg.logical_pages() / 4);
  EXPECT_TRUE(d.ftl.read_only());
  EXPECT_EQ(d.spare().dies_out(), d.cfg.flash.dies());
  EXPECT_GT(d.spare().times_back(), 0u);
  EXPECT_EQ(d.spare().times_out(), d.cfg.flash.dies() + d.spare().times_back());
  d.expect_every_page();
  // The die's valid units, as counted where they change.
  const fw::BlockManager& bm = d.blocks();
  for (uint32_t die = 0; die < bm.dies(); ++die) {
    uint64_t valid = 0;
    for (uint32_t b = 0; b < bm.blocks_per_die(); ++b) valid += bm.valid_pages(die, b);
    EXPECT_EQ(bm.valid_on_die(die), valid) << "die " << die;
  }
}

// The drive turns read-only at the first lost block that leaves a die's room (its good blocks
// outside the SLC reserve, 64 on small_gc, less the retired ones and those its valid data fills)
// at its reserve, twice the free blocks GC keeps (2 x 4: no write buffer), not before.
TEST(FaultyFtl, ADieWhoseRoomFallsToTheReserveTurnsTheDriveReadOnly) {
  Faulty d(0.05);
  const fw::BlockManager& bm = d.blocks();
  const auto room = [&](uint32_t die) {
    uint64_t valid = 0;
    for (uint32_t b = 0; b < bm.blocks_per_die(); ++b) valid += bm.valid_pages(die, b);
    const uint64_t slots = d.cfg.flash.pages_per_block;  // 4 KiB pages and units
    return int64_t(bm.blocks_per_die()) - bm.retired_blocks(die, false) -
           int64_t((valid + slots - 1) / slots);
  };
  std::vector<uint32_t> lost(bm.dies(), 0);
  for (uint64_t i = 0; i < 200000 && !d.ftl.read_only(); ++i) {
    d.overwrite(1);
    // A loss: read-only when the die it struck has no more room than the reserve. The FTL
    // looks at the erase; the write's page placed after it may fill one more block.
    for (uint32_t die = 0; die < bm.dies(); ++die) {
      if (bm.retired_blocks(die, false) == lost[die]) continue;
      lost[die] = bm.retired_blocks(die, false);
      if (d.ftl.read_only())
        EXPECT_LE(room(die), 8) << "after " << i << " writes";
      else
        EXPECT_GE(room(die), 8) << "after " << i << " writes";
    }
  }
  ASSERT_TRUE(d.ftl.read_only());
  d.expect_every_page();
}

// DataNoDieHasRoomForIsLostAndReported below, with programs failing at `program_fails`.
void expect_lost_and_reported(double program_fails) {
  Faulty d(1.0, program_fails);
  d.overwrite(100000);
  ASSERT_TRUE(d.ftl.read_only());
  std::map<fw::Lpn, uint64_t> lost_at;  // page -> its version when its data was lost
  uint64_t hooked = 0;
  d.ftl.on_units_lost([&](const std::vector<fw::Lpn>& lost, fw::UnitLoss why) {
    EXPECT_EQ(why, fw::UnitLoss::NoRoom);
    for (const fw::Lpn l : lost) lost_at[l] = d.version[l];
    hooked += lost.size();
  });
  for (uint64_t i = 0; i < 3000; ++i) d.write_next();
  EXPECT_EQ(d.spare().dies_out(), d.cfg.flash.dies());
  ASSERT_GT(hooked, 100u);
  const StatGroup& faults = *d.ftl.statistics().find("faults");
  EXPECT_EQ(*std::get<uint64_t*>(faults.find("units_lost_no_room")->value), hooked);
  uint64_t still_lost = 0;
  for (fw::Lpn l = 0; l < d.cfg.logical_pages(); ++l) {
    fw::PageToken t;
    const fw::Ftl::ReadResult r = d.ftl.read(l, t);
    const auto at = lost_at.find(l);
    // Lost by its last write: no write came after (none can: there is no room).
    const bool lost = at != lost_at.end() && at->second == d.version[l];
    EXPECT_EQ(r.lost, lost) << "page " << l;
    if (!lost) {
      EXPECT_EQ(t, (fw::PageToken{l, d.version[l] + 1})) << "page " << l;
    }
    still_lost += lost;
  }
  EXPECT_EQ(still_lost, lost_at.size());
  // A lost page's older data is invalid: the blocks hold exactly the pages not lost.
  uint64_t valid = 0;
  for (uint32_t die = 0; die < d.cfg.flash.dies(); ++die) valid += d.blocks().valid_on_die(die);
  EXPECT_EQ(valid, d.cfg.logical_pages() - still_lost);
}

// Every erase failing, each victim costs its die a block for good: the drive turns read-only at
// the first die out of room, and the write that ran it out, passed to the other dies, runs them
// out too. Writes past that (the firmware refuses them; here the FTL is driven directly, as the
// data in flight at that moment is) find no die with a free block left: the page FTL loses their
// data, reported (the hook, faults.units_lost_no_room, reads failing as lost), and the run goes
// on; every other page reads as last written. With programs failing too, a failed program's data
// with no block left to write it again is lost the same way. DFTL cannot lose units: it stops
// the run naming the die's retired blocks.
TEST(FaultyFtl, DataNoDieHasRoomForIsLostAndReported) {
  for (const double program_fails : {0.0, 0.01}) {
    SCOPED_TRACE(program_fails);
    expect_lost_and_reported(program_fails);
  }
}

TEST(FaultyFtl, DftlWithNoRoomForItsDataStopsTheRunNamingTheRetiredBlocks) {
  Faulty d(1.0, 0, [](config::DriveConfig& c) { c.ftl.type = config::FtlType::Dftl; });
  d.overwrite(100000);
  ASSERT_TRUE(d.ftl.read_only());
  try {
    for (uint64_t i = 0; i < 100000; ++i) d.write_next();
    FAIL() << "the spare blocks never ran out";
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("has no free block for the data in flight, nor has any other die, and "
                       "every die is out of room"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("valid units against a mean of "), std::string::npos) << msg;
    EXPECT_NE(msg.find("of its blocks are retired (an erase or a program failed, flash.faults)"),
              std::string::npos)
        << msg;
  }
}

// Erases failing at 5 %: the first die whose room falls to its reserve (2 x 4 blocks) turns
// the drive read-only. Writes fail from then on (out of the latency figures), reads go on and
// find every page as last written before.
TEST(FaultyDrive, OutOfSpareTheDriveTurnsReadOnlyAndLosesNothing) {
  const std::string sets =
      "--set flash.faults.erase_fail_probability=0.05 "
      "--workload rw=randrw,mix=0.5,bs=4096,qd=8,count=30000,seed=5";
  const std::string dir = test::temp_dir("faults_read_only");
  const nlohmann::json r = run_faulty(dir, sets + " --request-log csv");
  const nlohmann::json& f = r["faults"];
  ASSERT_FALSE(f["read_only_at_s"].is_null()) << f.dump();
  EXPECT_GE(f["most_retired_on_a_die"].get<double>(), 1.0);
  const nlohmann::json& q = r["requests"];
  const uint64_t refused = q["failed_read_only"];
  EXPECT_GT(refused, 1000u);
  EXPECT_EQ(q["count"].get<uint64_t>() + refused, 30000u);
  EXPECT_EQ(q["write"].get<uint64_t>(), r["latency_us"]["write"]["count"].get<uint64_t>());
  EXPECT_EQ(r["scoreboard"]["refused_updates"], refused);  // one 4 KiB page each
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  EXPECT_EQ(r["scoreboard"]["pages_checked"], q["read"]);
  // The request log gives each request's status.
  const std::string log = test::slurp(dir + "/requests.csv");
  EXPECT_EQ(test::occurrences(log, ",host,read_only,"), refused);
  EXPECT_EQ(test::occurrences(log, ",host,ok,"), q["count"].get<uint64_t>());
  EXPECT_EQ(f["dies_out_of_room"], 1.0);
  EXPECT_EQ(f["first_out_of_room_at_s"], f["read_only_at_s"]);
  const std::string warnings = r["warnings"].dump();
  EXPECT_NE(warnings.find("the drive turned read-only at "), std::string::npos) << warnings;
  EXPECT_NE(warnings.find(" out of room (its room down to its reserve, the free blocks GC keeps, "
                          "ftl.gc_threshold_blocks 4, and as many again or its share of the write "
                          "buffer; or nothing left for its GC to reclaim)"),
            std::string::npos)
      << warnings;
  EXPECT_NE(warnings.find(std::to_string(refused) + " writes and trims failed"), std::string::npos)
      << warnings;
  // The same run again: the same figures.
  const nlohmann::json again = run_faulty(test::temp_dir("faults_read_only_b"), sets);
  EXPECT_EQ(again["faults"], f);
  EXPECT_EQ(again["requests"], q);
}

// The run above with other_dies: until the first die runs out it is the same run; then the
// host's data goes to the other dies, which run out in turn, and the drive turns read-only at
// the last, later, having refused fewer writes. Nothing is lost.
TEST(FaultyDrive, WritingToTheOtherDiesKeepsTheDriveWritableLongerAndLosesNothing) {
  const std::string workload = " --workload rw=randrw,mix=0.5,bs=4096,qd=8,count=30000,seed=5";
  const std::string sets = "--set flash.faults.erase_fail_probability=0.05" + workload;
  const nlohmann::json first = run_faulty(test::temp_dir("faults_first_die"), sets);
  const nlohmann::json r = run_faulty(test::temp_dir("faults_other_dies"),
                                      sets + " --set flash.faults.die_out_of_room=other_dies");
  const nlohmann::json& f = r["faults"];
  ASSERT_FALSE(f["read_only_at_s"].is_null()) << f.dump();
  EXPECT_EQ(f["first_out_of_room_at_s"], first["faults"]["read_only_at_s"]);
  EXPECT_GT(f["read_only_at_s"].get<double>(), f["first_out_of_room_at_s"].get<double>());
  EXPECT_EQ(f["dies_out_of_room"], 4.0);
  const uint64_t refused = r["requests"]["failed_read_only"];
  EXPECT_LT(refused, first["requests"]["failed_read_only"].get<uint64_t>());
  EXPECT_EQ(r["scoreboard"]["refused_updates"], refused);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  EXPECT_EQ(r["scoreboard"]["pages_checked"], r["requests"]["read"]);
  const std::string warnings = r["warnings"].dump();
  EXPECT_NE(warnings.find(" s, the last die out of room, die "), std::string::npos) << warnings;
}

// Two flows on a drive that turns read-only: each counts the writes and trims failed for it,
// out of its own figures; together they are the run's.
TEST(FaultyDrive, EachFlowCountsTheWritesFailedForIt) {
  const std::string jobs_file = test::temp_dir("faults_flows_jobs") + "/jobs.json";
  {
    std::ofstream jobs(jobs_file);
    jobs << R"({"seed": 5, "jobs": [
      {"name": "a", "rw": "randrw", "mix": 0.5, "bs": "4k", "qd": 4, "count": 15000},
      {"name": "b", "rw": "randwrite", "bs": "4k", "qd": 4, "count": 10000}]})";
  }
  const nlohmann::json r =
      run_faulty(test::temp_dir("faults_flows"),
                 "--set flash.faults.erase_fail_probability=0.05 --workload-file " + jobs_file);
  ASSERT_FALSE(r["faults"]["read_only_at_s"].is_null()) << r["faults"].dump();
  uint64_t failed = 0;
  for (const nlohmann::json& f : r["flows"]) {
    const uint64_t n = f["failed_read_only"];
    EXPECT_GT(n, 0u) << f["name"];
    EXPECT_EQ(f["requests"].get<uint64_t>() + n, f["name"] == "a" ? 15000u : 10000u) << f["name"];
    failed += n;
  }
  EXPECT_EQ(failed, r["requests"]["failed_read_only"].get<uint64_t>());
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
}

// The spare blocks run out under every page-level FTL and mapping unit, with a write buffer:
// the buffer's pages still reach flash after the drive turned read-only, and nothing is lost.
TEST(FaultyDrive, ReadOnlyWithAWriteBufferFlushesItAndLosesNothing) {
  for (const char* sets :
       {"--set ftl.type=page --set dram.write_buffer_mb=1",
        "--set ftl.type=dftl --set dram.write_buffer_mb=1 --set ftl.mapping_unit_bytes=2048"}) {
    const nlohmann::json r =
        run_faulty(test::temp_dir("faults_read_only_buffer"),
                   std::string(sets) +
                       " --set flash.faults.erase_fail_probability=0.05 --set "
                       "flash.faults.program_fail_probability=0.0005 "
                       "--workload rw=randrw,mix=0.5,bs=4096,qd=8,count=30000,seed=5");
    ASSERT_FALSE(r["faults"]["read_only_at_s"].is_null()) << sets << r["faults"].dump();
    EXPECT_EQ(r["write_buffer"]["dirty_at_end"], 0) << sets;
    EXPECT_EQ(r["scoreboard"]["mismatches"], 0) << sets;
    EXPECT_GT(r["requests"]["failed_read_only"].get<uint64_t>(), 0u) << sets;
  }
}

// Regression (combination soak, seed 43): with one-shot programming and lanes in lockstep
// (die_first over 2 planes), a die out of room had its open word line padded (the set ends
// there), but the set's first lane had opened its block and the die had none left for the
// second: the run stopped with "die 0: no free block left". The lanes with a block have their
// word line padded on their own and the block closed early; the run goes on and loses nothing.
TEST(FaultyDrive, AWordLineOfADieWithNoFreeBlockIsPaddedOnTheLanesThatHaveOne) {
  const nlohmann::json r = test::cli_report(
      "--config " + test::source_path("configs/small_gc.json") +
          " --set controller.block_order=nand --set dram.write_buffer_mb=1"
          " --set flash.planes_per_die=2 --set flash.blocks_per_plane=32"
          " --set flash.pages_per_block=16 --set flash.page_bytes=2048 --set flash.cell_type=mlc"
          " --set flash.program_unit=word_line --set flash.faults.erase_fail_probability=0.05"
          " --set ftl.allocation=die_first --set ftl.overprovisioning=0.15625"
          " --set ftl.gc_threshold_blocks=2"
          " --workload rw=randrw,mix=0.3,bs=4k,qd=16,count=5625,seed=43",
      test::temp_dir("faults_word_line_no_block"));
  const auto& q = r["requests"];
  EXPECT_EQ(q["count"].get<uint64_t>() + q["failed_read_only"].get<uint64_t>(), 5625u);
  EXPECT_FALSE(r["faults"]["read_only_at_s"].is_null()) << r["faults"].dump();
  EXPECT_EQ(r["write_buffer"]["dirty_at_end"], 0);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
}

// The small drive run with `sets` on 4 KiB random reads and writes (mix 0.3, queue depth 16,
// `count` of them, seed 43), losing data no die has a block left for: counted, each unit one the
// host was told it had written or was writing (the scoreboard's count), named in a warning, its
// reads failing with an error (`pages_per_read` pages each), every request served or failed.
// The run ends with its report; nothing is lost silently.
nlohmann::json expect_lost_for_no_room(const std::string& sets, uint64_t count,
                                       uint64_t pages_per_read, const std::string& dir) {
  const std::string out_dir = test::temp_dir(dir);
  std::string summary;
  const int rc = test::run_cli(
      "--config " + test::source_path("configs/small_gc.json") + " --reproducible " + sets +
          " --workload rw=randrw,mix=0.3,bs=4k,qd=16,count=" + std::to_string(count) +
          ",seed=43 --out " + out_dir,
      summary);
  if (rc != 0) {
    ADD_FAILURE() << summary;
    return nullptr;
  }
  nlohmann::json r = nlohmann::json::parse(test::slurp(out_dir + "/report.json"));
  if (!r.contains("faults")) {
    ADD_FAILURE() << r.dump();
    return nullptr;
  }
  const uint64_t lost = r["faults"]["units_lost_no_room"];
  EXPECT_GT(lost, 0u);
  EXPECT_FALSE(r["faults"]["read_only_at_s"].is_null());
  EXPECT_EQ(r["scoreboard"]["lost_by_no_room"], lost);
  EXPECT_EQ(r["scoreboard"]["mismatches"], 0);
  const auto& q = r["requests"];
  EXPECT_EQ(r["scoreboard"]["reported_errors"].get<uint64_t>(),
            pages_per_read * q["failed_lost"].get<uint64_t>());
  EXPECT_EQ(q["count"].get<uint64_t>() + q["failed_lost"].get<uint64_t>() +
                q["failed_read_only"].get<uint64_t>(),
            count);
  const std::string warnings = r["warnings"].dump();
  EXPECT_NE(warnings.find("data in flight lost: no die had a block left for " +
                          std::to_string(lost) + " units"),
            std::string::npos)
      << warnings;
  // The summary's verdict counts the units lost (the dead die's too), not "no data lost".
  const uint64_t counted = lost + r["scoreboard"].value("lost_by_dead_die", uint64_t{0});
  EXPECT_NE(summary.find("0 mismatches: " + std::to_string(counted) +
                         " units lost and counted (scoreboard.lost_by_*), none silently"),
            std::string::npos)
      << summary;
  return r;
}

// The combination soak's case: erases failing at 5 % under incremental GC, with a 1 MB write
// buffer and the spare pooled. Every die ends out of room with the buffer's data still to place.
TEST(FaultyDrive, DataInFlightNoDieHasRoomForIsLostAndReported) {
  expect_lost_for_no_room(
      "--set dram.write_buffer_mb=1 --set flash.faults.erase_fail_probability=0.05"
      " --set flash.faults.die_out_of_room=other_dies --set ftl.gc_threshold_blocks=2"
      " --set ftl.gc_mode=incremental",
      26317, 1, "faults_no_room");
}

// The soak's other case: one channel of two dies, one of which stops answering at 10 ms, so the
// other holds all the data; a program fails once every die is out of room, with no block left
// to write its data again: that unit is lost as data in flight is. 2 KiB pages.
TEST(FaultyDrive, AFailedProgramWithNoBlockLeftLosesItsDataReported) {
  const nlohmann::json r = expect_lost_for_no_room(
      "--set dram.write_buffer_mb=1 --set flash.channels=1 --set flash.blocks_per_plane=32"
      " --set flash.page_bytes=2048 --set flash.faults.seed=0"
      " --set flash.faults.erase_fail_probability=0.05"
      " --set flash.faults.program_fail_probability=0.0002 --set flash.faults.dead_die=1"
      " --set flash.faults.dead_die_at_ms=10 --set ftl.gc_threshold_blocks=2",
      1061, 2, "faults_program_no_room");
  ASSERT_FALSE(r.is_null());
  EXPECT_GT(r["faults"]["program_failures"].get<double>(), 0);
}

}  // namespace
}  // namespace ssd
