// Every FTL (the block FTL with either read look-up) on every shipped trace excerpt, on an aged
// drive (--precondition: every logical page, then as many again at random, in bulk where the
// FTL computes it): the scoreboard finds no data lost. The aged drive is where the log-block FTLs'
// other paths run: BAST's log blocks are all taken, so new logical blocks replace; BAST* has none
// free, writes to its data blocks and levels wear.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "tb/tests/TestUtil.h"

namespace ssd {
namespace {

// With `summary`, the run prints its summary there. `ftl` may carry more --set options.
nlohmann::ordered_json aged_run(const std::string& ftl, const std::string& trace,
                                std::string* summary = nullptr) {
  const std::string dir = test::temp_dir(ftl.substr(0, ftl.find(' ')));
  std::string out;
  const int rc = test::run_cli("--config " + test::source_path("configs/small_gc.json") +
                                   " --set ftl.type=" + ftl + " --trace " +
                                   test::source_path("traces/" + trace) +
                                   " --max-requests 1500 --precondition --reproducible"
                                   " --no-series " +
                                   (summary ? "" : "--quiet ") + "--out " + dir,
                               out);
  if (summary) *summary = out;
  EXPECT_EQ(rc, 0) << ftl << " " << trace << ": " << out;
  return nlohmann::ordered_json::parse(test::slurp(dir + "/report.json"));
}

TEST(AgedTraces, EveryFtlKeepsEveryShippedTraceIntact) {
  const std::vector<std::string> traces = {"fiu_mail.head10k.txt",
                                           "fiu_mail.head2k.blkparse.txt",
                                           "ms_msnfs.disk5.head20k.ascii",
                                           "msr_hm_0.slice.csv",
                                           "umass_financial1.head10k.disksim.ascii",
                                           "umass_financial1.head10k.spc",
                                           "umass_financial1.head1k.csv"};
  for (const std::string ftl : {"page", "dftl", "block", "block --set ftl.block_read_lookup=scan",
                                "bast", "bast_star", "fast", "last"}) {
    for (const std::string& trace : traces) {
      const auto r = aged_run(ftl, trace);
      EXPECT_TRUE(r["precondition"]["done"].get<bool>()) << ftl << " " << trace;
      EXPECT_GT(r["scoreboard"]["pages_checked"].get<uint64_t>(), 0u) << ftl << " " << trace;
      EXPECT_EQ(r["scoreboard"]["mismatches"].get<uint64_t>(), 0u) << ftl << " " << trace;
    }
  }
}

TEST(AgedTraces, BastReplacesAndBastStarLevelsOnTheFinancial1Excerpt) {
  const auto bast = aged_run("bast", "umass_financial1.head10k.spc");
  std::string summary;
  const auto star = aged_run("bast_star", "umass_financial1.head10k.spc", &summary);
  // The summary lists every merge figure BAST* registered, in the report's order.
  std::string merges = "  merges     ";
  for (const auto& [name, value] : star["merges"].items()) {
    std::string label = name;
    std::replace(label.begin(), label.end(), '_', ' ');
    merges += (merges.size() > 13 ? ", " : "") + label + " " + value.dump();
  }
  EXPECT_NE(summary.find(merges + "\n"), std::string::npos) << merges << "\n" << summary;
  EXPECT_NE(merges.find(", fallbacks "), std::string::npos) << merges;
  EXPECT_GT(bast["merges"]["replacements"].get<uint64_t>(), 0u);
  EXPECT_EQ(star["merges"]["replacements"].get<uint64_t>(), 0u);
  EXPECT_GT(star["merges"]["wl_swaps"].get<uint64_t>(), 0u);
  EXPECT_GT(star["merges"]["fallbacks"].get<uint64_t>(), 0u);  // no free log block: data block
  EXPECT_FALSE(bast["merges"].contains("fallbacks"));
  EXPECT_NE(bast["waf"], star["waf"]);
}

}  // namespace
}  // namespace ssd
