// timeline.csv (--timeline, docs/report.md#timelinecsv): its rows add up to report.json's
// totals exactly and cover the run (and timeline_dies.csv's, die by die), whole idle intervals are
// one row, it changes nothing else a run writes, reruns are byte-identical, every column is
// documented, its figures are the VCD's probes, and a bad interval is a usage error that names the
// option.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tb/run/Simulation.h"
#include "tb/run/Timeline.h"
#include "tb/tests/TestUtil.h"
#include "tb/tests/TraceTestUtil.h"
#include "tb/workload/VectorSource.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::size_t col(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
  double number(std::size_t row, const std::string& name) const {
    return std::stod(rows[row][col(name)]);
  }
  uint64_t sum(const std::string& name) const {
    uint64_t s = 0;
    for (const auto& r : rows) s += std::stoull(r[col(name)]);
    return s;
  }
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

Csv read_csv(const std::string& path) {
  std::ifstream in(path);
  Csv csv;
  std::string line;
  if (std::getline(in, line)) csv.header = split(line);
  while (std::getline(in, line)) csv.rows.push_back(split(line));
  return csv;
}

struct Output {
  nlohmann::ordered_json report;
  std::string dir;
};

Output run(const config::DriveConfig& cfg, tb::RequestSource& src, const std::string& name,
           double interval_us, const tb::WaveformOptions& waveform = {}) {
  tb::RunOptions o;
  o.waveform = waveform;
  o.out_dir = test::temp_dir(name);
  o.reproducible = true;
  if (interval_us > 0) o.timeline_interval = sc_core::sc_time(interval_us, sc_core::SC_US);
  Output r{tb::run_simulation(cfg, src, o).report, o.out_dir};
  EXPECT_EQ(r.report["scoreboard"]["mismatches"], 0u);
  return r;
}

// Random 4 KiB writes, a quarter reads, over twice the small drive's capacity: foreground GC
// many times, requests waiting for it.
Output gc_run(const std::string& name, double interval_us,
              const tb::WaveformOptions& waveform = {}) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  auto src = tb::make_workload(
      "rw=randrw,mix=0.25,bs=4k,qd=16,seed=5,count=" + std::to_string(cfg.logical_pages() * 8 / 3),
      cfg.logical_bytes());
  return run(cfg, *src, name, interval_us, waveform);
}

TEST(Timeline, RowsAddUpToTheReportAndCoverTheRun) {
  const Output r = gc_run("gc", 2000);
  const Csv t = read_csv(r.dir + "/timeline.csv");
  const auto& rep = r.report;
  ASSERT_GT(t.rows.size(), 20u);
  EXPECT_EQ(t.sum("reads"), rep["requests"]["read"].get<uint64_t>());
  EXPECT_EQ(t.sum("writes"), rep["requests"]["write"].get<uint64_t>());
  EXPECT_EQ(t.sum("trims"), rep["requests"]["trim"].get<uint64_t>());
  EXPECT_EQ(t.sum("flushes"), rep["requests"]["flush"].get<uint64_t>());
  EXPECT_EQ(t.sum("read_bytes"), rep["requests"]["read_bytes"].get<uint64_t>());
  EXPECT_EQ(t.sum("write_bytes"), rep["requests"]["write_bytes"].get<uint64_t>());
  ASSERT_GT(rep["gc"]["victims"].get<uint64_t>(), 10u);
  EXPECT_EQ(t.sum("gc_victims"), rep["gc"]["victims"].get<uint64_t>());
  EXPECT_EQ(t.sum("gc_pages_copied"), rep["gc"]["pages_copied"].get<uint64_t>());
  const uint64_t waited = rep["gc"]["host_wait"]["read"]["waited"].get<uint64_t>() +
                          rep["gc"]["host_wait"]["write"]["waited"].get<uint64_t>();
  ASSERT_GT(waited, 0u);
  EXPECT_EQ(t.sum("gc_waited"), waited);
  EXPECT_EQ(t.sum("slc_pages_folded"), rep["slc_cache"]["pages_folded"].get<uint64_t>());
  double energy_j = 0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) energy_j += t.number(i, "energy_j");
  const double report_j = rep["energy_total_j"].get<double>();
  EXPECT_NEAR(energy_j, report_j, 1e-9 * report_j);
  // Contiguous from 0 to the end of the energy span, on the interval's grid.
  EXPECT_EQ(t.rows.front()[t.col("t_start_s")], "0");
  for (std::size_t i = 1; i < t.rows.size(); ++i) {
    EXPECT_EQ(t.rows[i][t.col("t_start_s")], t.rows[i - 1][t.col("t_end_s")]) << i;
    const double start_us = t.number(i, "t_start_s") * 1e6;
    EXPECT_NEAR(start_us, 2000 * std::round(start_us / 2000), 1e-6) << i;
  }
  EXPECT_DOUBLE_EQ(t.number(t.rows.size() - 1, "t_end_s"), rep["energy_span_s"].get<double>());
  // The figures that say why: the free pool drains, GC runs, the dies work.
  bool gc_row = false, busy = false, low_free = false;
  const double first_free = t.number(0, "free_blocks");
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    gc_row |= t.number(i, "gc_victims") > 0;
    busy |= t.number(i, "dies_busy") > 0.5;
    low_free |= t.number(i, "free_blocks") < first_free;
    EXPECT_LE(t.number(i, "dies_busy"), 1.0) << i;
    EXPECT_LE(t.number(i, "controller_busy"), 1.0) << i;
    EXPECT_GT(t.number(i, "power_w"), 0.0) << i;
  }
  EXPECT_TRUE(gc_row && busy && low_free);
}

// The dynamic SLC cache's size over time: bursts of writes take blocks into it, the idle gaps
// between them fold them back; its blocks at each row's end, the report's range over the rows
// and its end figure in the last row.
TEST(Timeline, FollowsTheDynamicSlcCache) {
  config::DriveConfig c = test::shipped("small_gc");
  c.flash.cell_type = config::CellType::Tlc;
  c.flash.pages_per_block = 30;
  c.ftl.slc_dynamic = {{0.2, 0.0}, {0.5, 0.1}, {1.0, 0.1}};
  c.ftl.slc_fold_idle_us = 50;
  const config::DriveConfig cfg = config::parse_drive_config(config::to_json(c), "test");
  tb::VectorSource src(test::hot_mix(2000, 7, 4096, 400, 100000));
  const Output r = run(cfg, src, "dynamic_slc", 1000);
  const Csv t = read_csv(r.dir + "/timeline.csv");
  const auto& d = r.report["slc_cache"]["dynamic_blocks"];
  ASSERT_GT(d["max"].get<uint64_t>(), d["min"].get<uint64_t>());
  uint64_t least = ~0ull, most = 0;
  bool fell = false;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const auto blocks = uint64_t(t.number(i, "slc_dynamic_blocks"));
    least = std::min(least, blocks);
    most = std::max(most, blocks);
    fell |= i > 0 && blocks < uint64_t(t.number(i - 1, "slc_dynamic_blocks"));
  }
  EXPECT_TRUE(fell) << "folding in the gaps gives blocks back";
  EXPECT_GT(most, 0u);
  EXPECT_LE(most, d["max"].get<uint64_t>());  // a row's end may miss a peak within it
  EXPECT_GE(least, d["min"].get<uint64_t>());
  EXPECT_EQ(uint64_t(t.number(t.rows.size() - 1, "slc_dynamic_blocks")), d["end"].get<uint64_t>());
  // Without a curve the column is there, 0 throughout.
  const Csv plain = read_csv(gc_run("no_dynamic_slc", 2000).dir + "/timeline.csv");
  for (std::size_t i = 0; i < plain.rows.size(); ++i)
    EXPECT_EQ(plain.number(i, "slc_dynamic_blocks"), 0.0) << i;
}

// timeline_dies.csv: the rows of timeline.csv, a column per die in the report's order; a die's
// busy time over the rows is the report's, and the mean over the dies each row's dies_busy.
TEST(Timeline, EachDiesRowsAddUpToTheReport) {
  const Output r = gc_run("dies", 2000);
  const Csv t = read_csv(r.dir + "/timeline.csv");
  const Csv d = read_csv(r.dir + "/timeline_dies.csv");
  const auto& dies = r.report["utilisation"]["dies"];
  const double span_s = r.report["utilisation"]["span_s"].get<double>();
  ASSERT_EQ(d.rows.size(), t.rows.size());
  ASSERT_EQ(d.header.size(), 2 + dies.size());
  EXPECT_EQ(d.header[0], "t_start_s");
  EXPECT_EQ(d.header[1], "t_end_s");
  std::vector<double> busy_s(dies.size(), 0);
  for (std::size_t i = 0; i < d.rows.size(); ++i) {
    EXPECT_EQ(d.rows[i][0], t.rows[i][t.col("t_start_s")]) << i;
    EXPECT_EQ(d.rows[i][1], t.rows[i][t.col("t_end_s")]) << i;
    const double row_s = t.number(i, "t_end_s") - t.number(i, "t_start_s");
    double mean = 0;
    for (std::size_t k = 0; k < dies.size(); ++k) {
      const double f = std::stod(d.rows[i][2 + k]);
      EXPECT_GE(f, 0.0);
      EXPECT_LE(f, 1.0);
      busy_s[k] += f * row_s;
      mean += f / double(dies.size());
    }
    EXPECT_NEAR(mean, t.number(i, "dies_busy"), 1e-12) << i;
  }
  for (std::size_t k = 0; k < dies.size(); ++k) {
    EXPECT_EQ(d.header[2 + k], dies[k]["name"].get<std::string>());
    const double report_s = dies[k]["busy"].get<double>() * span_s;
    ASSERT_GT(report_s, 0.0);
    EXPECT_NEAR(busy_s[k], report_s, 1e-9 * report_s) << d.header[2 + k];
  }
}

// Latency of a row: the requests completed in it, nearest rank as in the report; the whole
// run as one row gives the report's figures.
TEST(Timeline, OneRowHasTheReportsLatency) {
  const Output r = gc_run("one_row", 1e9);
  const Csv t = read_csv(r.dir + "/timeline.csv");
  ASSERT_EQ(t.rows.size(), 1u);
  for (const char* op : {"read", "write"}) {
    const auto& lat = r.report["latency_us"][op];
    EXPECT_NEAR(t.number(0, std::string(op) + "_mean_us"), lat["mean"].get<double>(), 1e-9) << op;
    EXPECT_NEAR(t.number(0, std::string(op) + "_p99_us"), lat["p99"].get<double>(), 1e-9) << op;
  }
}

// With --timeline the run is the same run: report.json and energy.csv do not change by a byte,
// and a rerun writes the same timeline. Also on a drive that throttles on its temperature.
TEST(Timeline, ChangesNothingElseAndRerunsAlike) {
  const Output off = gc_run("off", 0), on = gc_run("on", 500), again = gc_run("again", 500);
  EXPECT_FALSE(std::filesystem::exists(off.dir + "/timeline.csv"));
  EXPECT_EQ(test::slurp(on.dir + "/report.json"), test::slurp(off.dir + "/report.json"));
  EXPECT_EQ(test::slurp(on.dir + "/energy.csv"), test::slurp(off.dir + "/energy.csv"));
  EXPECT_EQ(test::slurp(on.dir + "/timeline.csv"), test::slurp(again.dir + "/timeline.csv"));
  EXPECT_EQ(test::slurp(on.dir + "/timeline_dies.csv"),
            test::slurp(again.dir + "/timeline_dies.csv"));
  const config::DriveConfig hot = test::shipped("pcie_many_resource");
  ASSERT_TRUE(hot.thermal.enabled);
  std::string reports[2];
  for (int with = 0; with < 2; ++with) {
    auto src = tb::make_workload("rw=randwrite,bs=4k,qd=32,seed=2,count=3000", hot.logical_bytes());
    reports[with] = run(hot, *src, with ? "hot_on" : "hot_off", with ? 100 : 0).report.dump();
  }
  EXPECT_EQ(reports[1], reports[0]);
}

// Two bursts a second apart: the idle second between them is one row of whole intervals, not
// a thousand.
TEST(Timeline, IdleIntervalsAreOneRow) {
  std::vector<tb::HostRequest> reqs;
  for (int i = 0; i < 20; ++i) {
    reqs.push_back(test::request(10.0 * i, tb::IoOp::Write, 4096 * uint64_t(i), 4096));
    reqs.push_back(test::request(1e6 + 10.0 * i, tb::IoOp::Read, 4096 * uint64_t(i), 4096));
  }
  tb::VectorSource src(std::move(reqs));
  const Output r = run(test::shipped("small_gc"), src, "idle", 1000);
  const Csv t = read_csv(r.dir + "/timeline.csv");
  ASSERT_LT(t.rows.size(), 20u);
  double longest_s = 0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    const double len_s = t.number(i, "t_end_s") - t.number(i, "t_start_s");
    longest_s = std::max(longest_s, len_s);
  }
  EXPECT_GT(longest_s, 0.99);
  EXPECT_EQ(t.sum("reads"), 20u);
  EXPECT_EQ(t.sum("writes"), 20u);
}

// A VCD's changes by signal (its dotted name below the top scope): (time in ps, value).
using Changes = std::map<std::string, std::vector<std::pair<uint64_t, double>>>;

Changes read_vcd(const std::string& path) {
  std::ifstream in(path);
  std::map<std::string, std::string> name_of;  // by identifier
  std::vector<std::string> scopes;
  Changes changes;
  std::string word;
  uint64_t t = 0;
  while (in >> word) {
    if (word == "$scope") {
      std::string kind, scope;
      in >> kind >> scope;
      scopes.push_back(scope);
    } else if (word == "$upscope") {
      scopes.pop_back();
    } else if (word == "$var") {
      std::string type, size, id, leaf;
      in >> type >> size >> id >> leaf;
      std::string name;
      for (std::size_t i = 1; i < scopes.size(); ++i) name += scopes[i] + ".";
      name_of[id] = name + leaf;
    } else if (word[0] == '#') {
      t = std::stoull(word.substr(1));
    } else if (word[0] == 'r') {
      std::string id;
      in >> id;
      changes[name_of.at(id)].emplace_back(t, std::stod(word.substr(1)));
    }
  }
  return changes;
}

// With a VCD, each row's figures are the timeline's probes there, stepping at the row's end
// (empty cells as 0; the last row in the CSV only); the currents are those of a run without
// the timeline, and a selection keeps the probes alone.
TEST(Timeline, RowsAreTheVcdsProbes) {
  tb::WaveformOptions vcd;
  vcd.vcd = true;
  const Output on = gc_run("vcd_on", 2000, vcd), off = gc_run("vcd_off", 0, vcd);
  const Csv t = read_csv(on.dir + "/timeline.csv");
  Changes probes = read_vcd(on.dir + "/current.vcd");
  Changes currents = read_vcd(off.dir + "/current.vcd");
  EXPECT_EQ(test::slurp(on.dir + "/report.json"), test::slurp(off.dir + "/report.json"));
  const std::vector<std::string> names = tb::Timeline::vcd_probes();
  ASSERT_EQ(names.size(), 20u);
  for (const std::string& name : names) {
    const std::string column = name.substr(std::string("timeline.").size());
    ASSERT_EQ(probes.count(name), 1u) << name;
    const auto& steps = probes[name];
    std::size_t k = 0;
    double value = 0;  // as $dumpvars has it
    for (std::size_t row = 0; row + 1 < t.rows.size(); ++row) {
      const auto end_ps = uint64_t(std::llround(t.number(row, "t_end_s") * 1e12));
      for (; k < steps.size() && steps[k].first <= end_ps; ++k) {
        if (steps[k].first > 0) {  // not $dumpvars
          EXPECT_EQ(steps[k].first, end_ps) << name << " row " << row;
        }
        value = steps[k].second;
      }
      const std::string& cell = t.rows[row][t.col(column)];
      const double expected = cell.empty() ? 0.0 : std::stod(cell);
      EXPECT_NEAR(value, expected, 5e-7 + 1e-15 * std::abs(expected)) << name << " row " << row;
    }
    EXPECT_EQ(k, steps.size()) << name << ": a change after the last boundary";
    probes.erase(name);
  }
  EXPECT_EQ(probes, currents);
  ASSERT_GT(t.sum("gc_victims"), 0u);

  vcd.selection.patterns = {"timeline.*"};
  const Changes alone = read_vcd(gc_run("vcd_alone", 2000, vcd).dir + "/current.vcd");
  ASSERT_EQ(alone.size(), names.size());
  for (const auto& [name, steps] : alone) EXPECT_EQ(name.rfind("timeline.", 0), 0u) << name;
}

// docs/report.md's timeline.csv table: each column it documents, `temp_<node>_c` as a pattern.
std::vector<std::string> documented_columns() {
  std::ifstream in(test::source_path("docs/report.md"));
  std::vector<std::string> out;
  const std::regex row("^\\| (`[^|]*`) \\|");
  const std::regex name("`([a-z_0-9<>]+)`");
  std::string line;
  bool in_section = false;
  std::smatch m;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## timeline.csv";
    if (!in_section || !std::regex_search(line, m, row)) continue;
    const std::string cell = m[1];
    for (auto it = std::sregex_iterator(cell.begin(), cell.end(), name);
         it != std::sregex_iterator(); ++it)
      out.push_back((*it)[1]);
  }
  return out;
}

// A drive with a thermal model has every column. Its idle stretches between rows do not make
// the kernel warn that an sc_start had nothing to do (W571).
// Aging NAND whose reads need retries now and then, and fail past the table's two steps: the
// rows' retries and failures add up to the report's, and the mean shows where they were.
TEST(Timeline, FollowsAgingNandsRetries) {
  config::DriveConfig c = test::shipped("small_gc");
  config::ReliabilityConfig& rel = c.flash.reliability;
  rel.enabled = true;
  rel.rber_base = 0.0045;  // 36.9 errors per 1 KiB codeword on average; 40 corrected at once
  rel.retry_steps = {{60, 2, 44}, {120, 8, 48}};
  const config::DriveConfig cfg = config::parse_drive_config(config::to_json(c), "test");
  auto src =
      tb::make_workload("rw=randrw,mix=0.5,bs=4k,qd=8,seed=3,count=3000", cfg.logical_bytes());
  const Output r = run(cfg, *src, "aging", 2000);
  const Csv t = read_csv(r.dir + "/timeline.csv");
  const auto& a = r.report["reliability"];
  ASSERT_GT(a["retry_reads"].get<uint64_t>(), 0u) << a.dump();
  ASSERT_GT(a["uncorrectable_reads"].get<uint64_t>(), 0u) << a.dump();
  EXPECT_EQ(t.sum("retry_reads"), a["retry_reads"].get<uint64_t>());
  EXPECT_EQ(t.sum("uncorrectable_reads"), a["uncorrectable_reads"].get<uint64_t>());
  double most = 0;
  std::size_t defined = 0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) {
    if (t.rows[i][t.col("retry_steps_mean")].empty()) continue;
    ++defined;
    most = std::max(most, t.number(i, "retry_steps_mean"));
  }
  EXPECT_GT(defined, 0u);
  EXPECT_GE(most, a["retry_steps_mean"].get<double>());
  EXPECT_GT(most, 0.0);
  // Without aging NAND the columns are not there.
  const Csv plain = read_csv(gc_run("no_aging", 2000).dir + "/timeline.csv");
  EXPECT_EQ(std::count(plain.header.begin(), plain.header.end(), "retry_steps_mean"), 0);
}

// Zone appends wrapping a zoned namespace's log: the open zones at each row's end, the resets
// adding up to the report's.
TEST(Timeline, FollowsTheZones) {
  config::DriveConfig c = test::shipped("small_gc");
  nlohmann::json doc = config::to_json(c);
  doc["namespaces"] = {{{"name", "z"}, {"kind", "zoned"}, {"zones", {{"count", 8}}}}};
  const config::DriveConfig cfg = config::parse_drive_config(doc, "test");
  auto src = tb::make_workload("rw=zoneappend,namespace=z,zones=3,bs=16k,qd=8,seed=3,count=3000",
                               tb::AddressSpace(cfg.namespace_layout()));
  const Output r = run(cfg, *src, "zones", 20000);
  const Csv t = read_csv(r.dir + "/timeline.csv");
  const auto& z = r.report["zoned"];
  ASSERT_GT(z["zones_reset"].get<double>(), 10.0) << z.dump();
  EXPECT_EQ(double(t.sum("zones_reset")), z["zones_reset"].get<double>());
  EXPECT_EQ(t.number(t.rows.size() - 1, "open_zones"), z["open_zones"].get<double>());
  double most = 0;
  for (std::size_t i = 0; i < t.rows.size(); ++i) most = std::max(most, t.number(i, "open_zones"));
  EXPECT_EQ(most, 3.0);  // the job writes three side by side
  // Without zoned namespaces the columns are not there.
  const Csv plain = read_csv(gc_run("no_zones", 2000).dir + "/timeline.csv");
  EXPECT_EQ(std::count(plain.header.begin(), plain.header.end(), "open_zones"), 0);
}

TEST(Timeline, DocsDescribeEveryColumn) {
  config::DriveConfig c = test::shipped("pcie_many_resource");
  c.flash.reliability.enabled = true;  // its columns too, and a zoned namespace's
  nlohmann::json doc = config::to_json(c);
  doc["namespaces"] = {{{"name", "a"}, {"size_bytes", 64 << 20}},
                       {{"name", "z"}, {"kind", "zoned"}, {"zones", {{"count", 4}}}}};
  const config::DriveConfig cfg = config::parse_drive_config(doc, "test");
  auto src = tb::make_workload("rw=randwrite,bs=4k,qd=8,seed=1,count=300", cfg.logical_bytes());
  const int warned = sc_core::sc_report_handler::get_count(sc_core::SC_ID_NO_SC_START_ACTIVITY_);
  const Output r = run(cfg, *src, "docs", 100);
  EXPECT_EQ(sc_core::sc_report_handler::get_count(sc_core::SC_ID_NO_SC_START_ACTIVITY_), warned);
  const std::vector<std::string> header = read_csv(r.dir + "/timeline.csv").header;
  const std::vector<std::string> documented = documented_columns();
  const std::regex temp("temp_.+_c");
  std::set<std::string> seen;
  for (const std::string& column : header) {
    const std::string key = std::regex_match(column, temp) ? "temp_<node>_c" : column;
    EXPECT_NE(std::find(documented.begin(), documented.end(), key), documented.end())
        << column << " not in docs/report.md's timeline.csv table";
    seen.insert(key);
  }
  for (const std::string& d : documented)
    EXPECT_EQ(seen.count(d), 1u) << d << " documented, not in timeline.csv";
}

TEST(Timeline, BadIntervalIsAUsageError) {
  const std::string run = "--config " + test::source_path("configs/small_gc.json") +
                          " --workload rw=read,count=1 --out " + test::temp_dir("out") + " ";
  for (const char* value : {"0", "-5", "x", "nan", "1e13", "0.0001"}) {
    std::string out;
    EXPECT_EQ(test::run_ssdtlm(run + "--timeline " + value, out), 2) << value << "\n" << out;
    EXPECT_NE(out.find("ssdtlm: error: --timeline: "), std::string::npos) << value << "\n" << out;
  }
  std::string out;
  EXPECT_EQ(test::run_ssdtlm(run + "--timeline 10 --quiet", out), 0) << out;
}

}  // namespace
}  // namespace ssd
