// ftl.block_read_lookup through the whole model (docs/ftl.md#read-look-up), the block FTL with
// replacement blocks on an aged small drive replaying the Financial1 excerpt. A trace replay is
// open loop, so both look-ups take the same decisions: the SRAM search reads the offsets the
// spare-area scan reads spare areas for, the spare reads left are the folds', every other flash
// command is the same. The SRAM's energy is its own component's: t_sram_access_ns at
// i_sram_active_ma per access, its standby current the rest of the span. The scoreboard finds no
// page lost either way.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tb/tests/ExactEnergy.h"
#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

using Report = nlohmann::ordered_json;

Report run(const std::string& lookup) {
  const std::string dir = test::temp_dir("lookup_" + lookup);
  std::string out;
  const int rc = test::run_cli(
      "--config " + test::source_path("configs/small_gc.json") +
          " --set ftl.type=block --set ftl.block_read_lookup=" + lookup +
          " --set ftl.t_sram_access_ns=40 --set ftl.i_sram_active_ma=25 --set "
          "ftl.i_sram_standby_ma=0.5 --trace " +
          test::source_path("traces/umass_financial1.head10k.spc") +
          " --max-requests 3000 --precondition --reproducible --no-series --quiet --out " + dir,
      out);
  EXPECT_EQ(rc, 0) << out;
  return Report::parse(test::slurp(dir + "/report.json"));
}

uint64_t count(const Report& r, const char* group, const char* name) {
  return r[group].value(name, uint64_t{0});
}

TEST(BlockReadLookup, SramSearchesWhatTheScanReadsAtTheSramsOwnEnergy) {
  const Report scan = run("scan");
  const Report sram = run("sram");
  for (const Report* r : {&scan, &sram}) {
    EXPECT_GT((*r)["scoreboard"]["pages_checked"].get<uint64_t>(), 0u);
    EXPECT_EQ((*r)["scoreboard"]["mismatches"].get<uint64_t>(), 0u);
  }
  // The same firmware but for where a read looks.
  for (const char* op : {"read", "program", "erase"})
    EXPECT_EQ(count(sram, "flash_ops", op), count(scan, "flash_ops", op)) << op;
  EXPECT_EQ(sram["merges"]["folds"], scan["merges"]["folds"]);
  EXPECT_FALSE(scan["merges"].contains("sram_reads"));
  EXPECT_FALSE(scan["energy_j"].contains("offset_sram")) << "no SRAM, no standby current";
  const uint64_t searched = count(sram, "merges", "sram_reads");
  const uint64_t written = count(sram, "merges", "sram_writes");
  EXPECT_GT(searched, 0u);
  EXPECT_GT(written, 0u);
  // Spare reads: the folds' alone with the offsets in SRAM; the scan adds one per offset searched.
  EXPECT_EQ(count(sram, "flash_ops", "spare_read"), count(sram, "merges", "oob_reads"));
  EXPECT_EQ(count(scan, "merges", "oob_reads"), count(sram, "merges", "oob_reads") + searched);
  EXPECT_LT(sram["latency_us"]["read"]["mean"].get<double>(),
            scan["latency_us"]["read"]["mean"].get<double>());
  // The SRAM: 40 ns at 25 mA per access, 0.5 mA standby the rest of the span, at the
  // controller's voltage.
  const double v = test::shipped("small_gc").controller.voltage_v;
  const double active_s = double(searched + written) * 40e-9;
  test::expect_rel(test::state_j(sram, "offset_sram", "active"), active_s * 25e-3 * v);
  test::expect_rel(test::state_j(sram, "offset_sram", "idle"),
                   (sram["energy_span_s"].get<double>() - active_s) * 0.5e-3 * v);
}

}  // namespace
}  // namespace ssd
