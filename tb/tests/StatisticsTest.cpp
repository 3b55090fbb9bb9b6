// The statistics facility (firmware/Statistics.h): a group lists its figures with their units
// in order, reads its owner's counters when walked and zeroes them; each FTL registers the
// figures that apply to it; report.json walks them (the controller's, the firmware's, the
// FTL's, the write buffer's); docs/report.md documents every one with its unit.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "firmware/Ftl.h"
#include "firmware/Statistics.h"
#include "firmware/ftl/Dftl.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"
#include "tb/run/Simulation.h"
#include "tb/tests/FakeHal.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

uint64_t count(const Figure& f) { return *std::get<uint64_t*>(f.value); }
std::optional<double> derived(const Figure& f) { return std::get<2>(f.value)(); }

std::vector<std::string> names(const StatGroup& g) {
  std::vector<std::string> out;
  for (const Figure& f : g.figures()) out.push_back(f.name);
  return out;
}

TEST(Statistics, GroupListsItsFiguresInOrderWithUnits) {
  uint64_t copied = 0, erased = 0;
  Statistics s;
  s.group("merges")
      .counter("pages_copied", StatUnit::Pages, "Pages merges copied.", copied)
      .counter("log_blocks_erased", StatUnit::Blocks, "Log blocks erased.", erased);
  s.group("dftl");
  ASSERT_EQ(s.groups().size(), 2u);
  EXPECT_EQ(s.groups()[0].name(), "merges");
  EXPECT_EQ(s.groups()[1].name(), "dftl");
  const StatGroup* m = s.find("merges");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(names(*m), (std::vector<std::string>{"pages_copied", "log_blocks_erased"}));
  EXPECT_STREQ(to_string(m->figures()[0].unit), "pages");
  EXPECT_STREQ(to_string(m->figures()[1].unit), "blocks");
  EXPECT_EQ(m->figures()[0].description, "Pages merges copied.");
  EXPECT_EQ(&s.group("merges"), m);  // named again: the same group
  EXPECT_EQ(s.find("gc"), nullptr);
}

TEST(Statistics, ReadsTheOwnersCounterAndResetsIt) {
  uint64_t hits = 0, misses = 0;
  StatGroup g("dftl");
  g.counter("cmt_hits", StatUnit::Lookups, "Hits.", hits)
      .counter("cmt_misses", StatUnit::Lookups, "Misses.", misses)
      .derived("hit_ratio", StatUnit::None, "Hits over look-ups.", [&]() -> std::optional<double> {
        if (hits + misses == 0) return std::nullopt;
        return double(hits) / double(hits + misses);
      });
  double wait_s = 0;
  g.total("wait_s", StatUnit::Seconds, "Waits.", wait_s);
  hits = 3;
  misses = 1;
  wait_s = 0.25;
  EXPECT_EQ(count(*g.find("cmt_hits")), 3u);  // not a copy taken at registration
  EXPECT_EQ(derived(*g.find("hit_ratio")), 0.75);
  EXPECT_EQ(*std::get<double*>(g.find("wait_s")->value), 0.25);
  EXPECT_STREQ(to_string(g.find("wait_s")->unit), "s");
  g.reset();
  EXPECT_EQ(hits, 0u);
  EXPECT_EQ(misses, 0u);
  EXPECT_EQ(wait_s, 0.0);
  EXPECT_FALSE(derived(*g.find("hit_ratio")).has_value());
}

TEST(Statistics, AFigureRegisteredTwiceIsAnError) {
  uint64_t a = 0, b = 0;
  StatGroup g("gc");
  g.counter("runs", StatUnit::None, "Runs.", a);
  EXPECT_THROW(g.counter("runs", StatUnit::None, "Again.", b), std::logic_error);
  EXPECT_THROW(g.derived("runs", StatUnit::None, "Again.", [] { return std::optional<double>(); }),
               std::logic_error);
}

// A figure declared where it is counted: the key names it, the owner's Statistics holds the
// counter, in the key's group after the figures registered before it.
const StatKey kTestSwaps("merges", "swaps", StatUnit::Blocks, "Swaps.");
const StatKey kTestNeverAdded("merges", "never", StatUnit::None, "Not added.");

TEST(Statistics, AKeyedCounterIsHeldByItsOwner) {
  uint64_t copied = 0;
  Statistics s, other;
  s.group("merges").counter("pages_copied", StatUnit::Pages, "Copied.", copied);
  s.add(kTestSwaps);
  other.add(kTestSwaps);
  ++s[kTestSwaps];
  ++s[kTestSwaps];
  ++other[kTestSwaps];
  const StatGroup* m = s.find("merges");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(names(*m), (std::vector<std::string>{"pages_copied", "swaps"}));
  EXPECT_STREQ(to_string(m->figures()[1].unit), "blocks");
  EXPECT_EQ(m->figures()[1].description, "Swaps.");
  EXPECT_EQ(count(m->figures()[1]), 2u);  // each owner its own counter
  EXPECT_EQ(other[kTestSwaps], 1u);
  const Statistics::Snapshot before = s.snapshot();  // a replay's counts are put back
  copied = 7;
  s[kTestSwaps] = 9;
  s.restore(before);
  EXPECT_EQ(copied, 0u);
  EXPECT_EQ(s[kTestSwaps], 2u);
  s.reset();
  EXPECT_EQ(s[kTestSwaps], 0u);
  EXPECT_THROW(s.add(kTestSwaps), std::logic_error);     // a figure registered twice
  EXPECT_THROW(++s[kTestNeverAdded], std::logic_error);  // counted but never registered
  EXPECT_NE(kTestSwaps.id, kTestNeverAdded.id);
}

config::DriveConfig small_gc(const std::string& type,
                             config::BlockUpdate update = config::BlockUpdate::Replacement) {
  config::DriveConfig cfg = test::shipped("small_gc");
  cfg.ftl.type = test::choice<config::FtlType>(type);
  cfg.ftl.block_update = update;
  return cfg;
}

// The FTL's registered figures, by group; built on FakeHal (no simulation).
std::map<std::string, std::vector<std::string>> figures_of(const config::DriveConfig& cfg) {
  test::FakeHal hal(cfg.flash, cfg.units_per_page());
  const auto ftl = fw::make_ftl(cfg, hal);
  std::map<std::string, std::vector<std::string>> out;
  for (const StatGroup& g : ftl->statistics().groups()) out[g.name()] = names(g);
  return out;
}

const std::vector<std::string> kMerges = {"switch",       "partial",      "full",
                                          "pages_copied", "pages_padded", "log_blocks_erased"};

std::vector<std::string> plus(std::vector<std::string> v, const std::vector<std::string>& more) {
  v.insert(v.end(), more.begin(), more.end());
  return v;
}

TEST(Statistics, EachFtlRegistersTheFiguresThatApplyToIt) {
  const auto page = figures_of(small_gc("page"));
  EXPECT_EQ(page.count("merges"), 0u);  // a page FTL has no merges
  EXPECT_EQ(page.count("dftl"), 0u);
  EXPECT_EQ(page.at("gc").size(), 7u);
  const auto dftl = figures_of(small_gc("dftl"));
  EXPECT_EQ(dftl.count("merges"), 0u);
  EXPECT_EQ(dftl.at("dftl"),
            (std::vector<std::string>{"cmt_hits", "cmt_misses", "hit_ratio", "translation_reads",
                                      "translation_writes", "translation_moves"}));
  EXPECT_EQ(figures_of(small_gc("block", config::BlockUpdate::CopyOnUpdate)).at("merges"), kMerges);
  EXPECT_EQ(figures_of(small_gc("block")).at("merges"),
            plus(kMerges, {"replacements", "folds", "oob_reads", "sram_reads", "sram_writes"}));
  config::DriveConfig scan = small_gc("block");
  scan.ftl.block_read_lookup = config::BlockReadLookup::Scan;
  EXPECT_EQ(figures_of(scan).at("merges"), plus(kMerges, {"replacements", "folds", "oob_reads"}));
  EXPECT_EQ(figures_of(small_gc("bast")).at("merges"), plus(kMerges, {"replacements"}));
  EXPECT_EQ(figures_of(small_gc("bast_star")).at("merges"),
            plus(kMerges, {"replacements", "wl_swaps", "wl_pages_copied", "fallbacks"}));
  for (const char* type : {"fast", "last"}) {
    const auto f = figures_of(small_gc(type));
    EXPECT_EQ(f.at("merges"), kMerges) << type;
    EXPECT_EQ(f.count("dftl"), 0u) << type;
  }
}

TEST(Statistics, ResetStatsZeroesTheRegisteredFigures) {
  const config::DriveConfig cfg = small_gc("dftl");
  test::FakeHal hal(cfg.flash, cfg.units_per_page());
  const auto ftl = fw::make_ftl(cfg, hal);
  fw::PageToken out;
  for (fw::Lpn lpn = 0; lpn < 4; ++lpn) ftl->write(lpn, fw::PageToken{lpn, 1}, fw::kNoOp);
  for (fw::Lpn lpn = 0; lpn < 4; ++lpn) ftl->read(lpn, out);
  const StatGroup& d = *ftl->statistics().find("dftl");
  const uint64_t hits = count(*d.find("cmt_hits")), misses = count(*d.find("cmt_misses"));
  ASSERT_GT(hits + misses, 0u);
  EXPECT_EQ(derived(*d.find("hit_ratio")), double(hits) / double(hits + misses));
  ftl->reset_stats();
  EXPECT_EQ(count(*d.find("cmt_hits")), 0u);
  EXPECT_FALSE(derived(*d.find("hit_ratio")).has_value());
}

std::vector<std::string> keys(const nlohmann::ordered_json& object) {
  std::vector<std::string> out;
  for (const auto& [key, value] : object.items()) out.push_back(key);
  return out;
}

// report.json has an FTL's groups, in registration order, and only its groups.
TEST(Statistics, ReportWalksTheFtlsFigures) {
  for (const char* type : {"page", "dftl", "bast_star"}) {
    const config::DriveConfig cfg = small_gc(type);
    const auto figures = figures_of(cfg);
    auto src =
        tb::make_workload("rw=randrw,mix=0.5,bs=4k,qd=4,seed=3,count=2000", cfg.logical_bytes());
    const auto r = tb::run_simulation(cfg, *src, tb::RunOptions{}).report;
    for (const char* object : {"merges", "dftl"}) {
      ASSERT_EQ(r.contains(object), figures.count(object) == 1) << type << " " << object;
      if (r.contains(object)) {
        EXPECT_EQ(keys(r[object]), figures.at(object)) << type;
      }
    }
    // Registered figures follow the object's configuration fields.
    EXPECT_EQ(keys(r["wear_leveling"]),
              plus({"mode", "threshold_erases"}, figures.at("wear_leveling")));
    // The controller's figures, then its FTL's.
    EXPECT_EQ(keys(r["flash_ops"]),
              plus({"read", "program", "erase", "reads_from_buffer", "spare_read"},
                   figures.at("flash_ops")));
    // The firmware's own figures, then its FTL's.
    EXPECT_EQ(keys(r["firmware"]), plus({"commands", "page_reads", "page_writes", "page_trims",
                                         "rmw_reads", "unmapped_reads"},
                                        figures.at("firmware")));
    EXPECT_EQ(r["firmware"]["commands"], 2000u) << type;
    // One counter in two objects: the same value.
    EXPECT_EQ(r["gc"]["pages_copied"], r["flash_ops"]["gc_copy"]) << type;
    EXPECT_EQ(r["gc"]["runs"], r["firmware"]["gc_runs"]) << type;
  }
}

// docs/report.md's tables: each documented field's unit, by full path. A row names fields as
// `object.field`, `.field` (the first one's object) or, in a table of one object, `field`;
// its unit applies to all of them, or one per field when it lists as many.
std::map<std::string, std::string> documented_units() {
  std::ifstream in(test::source_path("docs/report.md"));
  std::map<std::string, std::string> out;
  const std::regex object_intro("^`([a-z_]+)` \\(");
  const std::regex row("^\\| (`[^|]*`) \\| ([^|]*) \\|");
  const std::regex field("`([a-z_.0-9]+)`");
  std::string line, object;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, object_intro)) object = m[1];
    if (!std::regex_search(line, m, row)) continue;
    const std::string cell = m[1], unit_cell = m[2];
    std::vector<std::string> paths;
    std::string first_object = object;
    for (auto it = std::sregex_iterator(cell.begin(), cell.end(), field);
         it != std::sregex_iterator(); ++it) {
      std::string name = (*it)[1];
      if (name[0] == '.') {
        name = first_object + name;
      } else if (name.find('.') != std::string::npos) {
        if (paths.empty()) first_object = name.substr(0, name.find('.'));
      } else {
        name = object + "." + name;
      }
      paths.push_back(name);
    }
    std::vector<std::string> units;
    for (std::size_t from = 0;;) {
      const std::size_t comma = unit_cell.find(", ", from);
      units.push_back(unit_cell.substr(from, comma - from));
      if (comma == std::string::npos) break;
      from = comma + 2;
    }
    for (std::size_t i = 0; i < paths.size(); ++i)
      out[paths[i]] = units.size() == paths.size() ? units[i] : unit_cell;
  }
  return out;
}

// Every figure of the controller, the firmware, each FTL and the write buffer, on drives built
// but not run.
TEST(Statistics, DocsDescribeEveryFigureWithItsUnit) {
  const auto documented = documented_units();
  std::set<std::string> registered;
  // Every drive in one kernel: a second kernel in one process leaks (LeakSanitizer sees it).
  tb::reset_kernel();
  std::vector<std::unique_ptr<model::EnergyMonitor>> monitors;
  std::vector<std::unique_ptr<model::Ssd>> drives;
  for (const char* type : {"page", "dftl", "block", "bast", "bast_star", "fast", "last"}) {
    config::DriveConfig cfg = small_gc(type);
    cfg.dram.write_buffer_mb = 1;
    if (std::string(type) == "dftl") cfg.flash.faults.dead_die_at_ms = 1;  // its rebuild's figure
    if (std::string(type) == "page") {  // a zoned namespace beside the FTL's: its figures too
      config::NamespaceConfig zoned{"z", config::NamespaceKind::Zoned, 0, {}};
      zoned.zones.count = 4;
      cfg.namespaces = {
          config::NamespaceConfig{"a", config::NamespaceKind::Conventional, uint64_t{1} << 20, {}},
          zoned};
    }
    monitors.push_back(std::make_unique<model::EnergyMonitor>(model::EnergyMonitor::Options{}));
    drives.push_back(
        std::make_unique<model::Ssd>((std::string("ssd_") + type).c_str(), cfg, *monitors.back()));
    const model::Ssd& ssd = *drives.back();
    for (const Statistics* owner : ssd.controller().statistics()) {
      for (const StatGroup& g : owner->groups()) {
        for (const Figure& f : g.figures()) {
          const std::string path = g.name() + "." + f.name;
          registered.insert(path);
          const auto it = documented.find(path);
          ASSERT_NE(it, documented.end()) << path << " (" << type << ") not in docs/report.md";
          EXPECT_EQ(it->second, to_string(f.unit)) << path;
        }
      }
    }
  }
  EXPECT_EQ(registered.count("write_buffer.stall_s"), 1u);
  EXPECT_EQ(registered.count("flash_ops.spare_read"), 1u);
  // The objects only FTLs fill: every documented field is some FTL's figure.
  for (const auto& [path, unit] : documented) {
    if (path.rfind("merges.", 0) == 0 || path.rfind("dftl.", 0) == 0) {
      EXPECT_EQ(registered.count(path), 1u) << path << " documented, registered by no FTL";
    }
  }
}

}  // namespace
}  // namespace ssd
