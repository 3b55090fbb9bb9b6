// The aged-drive cache (docs/state.md#the-cache): its key changes with every input that shapes
// the aged state and with nothing else; a key outside the shaping set leaves the saved state
// byte for byte the same (so a drive loaded for a config that differs there is the drive
// preconditioning would give); a run that loads its drive from the cache is the run that
// preconditions byte for byte; a damaged cache file is made again; the cache keeps within its
// cap; concurrent runs storing one drive leave one whole file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "tb/run/Simulation.h"
#include "tb/run/StateCache.h"
#include "tb/run/StateFile.h"
#include "tb/tests/TestUtil.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

namespace fs = std::filesystem;

// The JSON value at a dotted key ("flash.t_prog_us").
nlohmann::json& at(nlohmann::json& j, const std::string& key) {
  nlohmann::json* v = &j;
  for (std::size_t start = 0; start <= key.size();) {
    const std::size_t dot = std::min(key.find('.', start), key.size());
    v = &(*v)[key.substr(start, dot - start)];
    start = dot + 1;
  }
  return *v;
}

// Other values a key may take, from its field-table entry: the first that makes a valid
// drive is used.
std::vector<nlohmann::json> other_values(const nlohmann::ordered_json& entry,
                                         const nlohmann::json& v) {
  const std::string type = entry["type"];
  std::vector<nlohmann::json> out;
  if (type == "bool") out.push_back(!v.get<bool>());
  if (type == "choice")
    for (const auto& c : entry["choices"])
      if (c.get<std::string>() != v.get<std::string>()) out.push_back(c.get<std::string>());
  if (type == "integer" && v.is_number()) {
    const uint64_t x = v.get<uint64_t>();
    for (const uint64_t y : {x * 2, x + 1, x / 2, x - 1, uint64_t{1}, uint64_t{64}, uint64_t{4096}})
      if (y != x) out.push_back(y);
  }
  if (type == "number" && v.is_number()) {
    const double x = v.get<double>();
    for (const double y : {x * 1.5, x * 0.5, x + 1, 0.5, 1.0})
      if (y != x) out.push_back(y);
  }
  if (type == "string") out.push_back(v.get<std::string>() + "x");
  // The list that shapes the state: a dynamic SLC cache's curve.
  if (type == "list")
    out.push_back(nlohmann::json::parse(R"([{"free_fraction": 1, "slc_fraction": 0.1}])"));
  return out;
}

// `cfg` with `key` set to the first of its other values the model accepts; none: false.
bool changed(const config::DriveConfig& cfg, const nlohmann::ordered_json& entry,
             config::DriveConfig& out) {
  nlohmann::json j = config::to_json(cfg);
  const std::string key = entry["key"];
  for (const nlohmann::json& value : other_values(entry, at(j, key))) {
    nlohmann::json k = j;
    at(k, key) = value;
    try {
      out = config::parse_drive_config(k, "test config");
      tb::check_drive(out, "test config");
      return true;
    } catch (const ConfigError&) {
    }
  }
  return false;
}

// The keys of the field tables (no list items) with their entries, split by whether they shape
// the state.
struct Keys {
  std::vector<nlohmann::ordered_json> shaping, other;
};
Keys keys_of(const config::DriveConfig& cfg) {
  const nlohmann::json shaping = tb::state_shaping_config(cfg);
  Keys out;
  for (const auto& e : config::config_key_table()) {
    const std::string key = e["key"];
    if (key.find('[') != std::string::npos || key.find('.') == std::string::npos) continue;
    // Sections within sections (ftl.fdp) too: the key's every part is in the shaping config.
    const nlohmann::json* v = &shaping;
    for (std::size_t start = 0; v && start <= key.size();) {
      const std::size_t dot = std::min(key.find('.', start), key.size());
      const std::string part = key.substr(start, dot - start);
      v = v->is_object() && v->contains(part) ? &(*v)[part] : nullptr;
      start = dot + 1;
    }
    (v ? out.shaping : out.other).push_back(e);
  }
  return out;
}

const tb::AgingOptions kAging{1.0, 1.5, false};

TEST(StateCache, KeyChangesWithEveryInputThatShapesTheState) {
  // Each FTL, as some keys apply to one FTL only; pages of four mapping units, so that the unit
  // may change either way.
  std::vector<config::DriveConfig> drives;
  for (const char* type : {"page", "dftl", "block", "bast", "fast", "last"}) {
    nlohmann::json j = config::to_json(test::shipped("small_gc"));
    j["flash"]["page_bytes"] = 16384;
    j["ftl"]["type"] = type;
    j["ftl"]["overprovisioning"] = 0.33;
    j["ftl"]["log_block_fraction"] = 0.1;
    drives.push_back(config::parse_drive_config(j, type));
  }
  // An SLC cache (on MLC).
  nlohmann::json j = config::to_json(drives[0]);
  j["flash"]["cell_type"] = "mlc";
  j["flash"]["blocks_per_plane"] = 96;
  j["ftl"]["slc_cache_blocks_per_plane"] = 4;
  drives.push_back(config::parse_drive_config(j, "page, SLC cache"));
  // One that may program word lines at once (MLC, a write buffer, the NAND part's rules).
  j = config::to_json(drives[0]);
  j["flash"]["cell_type"] = "mlc";
  j["dram"]["write_buffer_mb"] = 1;
  j["controller"]["block_order"] = "nand";
  j["controller"]["issue_order"] = "per_die_queues";
  drives.push_back(config::parse_drive_config(j, "page, word lines"));
  const Keys keys = keys_of(drives[0]);
  ASSERT_GT(keys.shaping.size(), 20u);
  for (const auto& e : keys.shaping) {
    bool tried = false;
    for (const config::DriveConfig& cfg : drives) {
      config::DriveConfig other;
      if (!changed(cfg, e, other)) continue;
      tried = true;
      EXPECT_NE(tb::state_key_file(tb::state_key(other, kAging, "build 1")),
                tb::state_key_file(tb::state_key(cfg, kAging, "build 1")))
          << e["key"] << " on " << to_string(cfg.ftl.type);
    }
    EXPECT_TRUE(tried) << e["key"] << ": no other value any FTL accepts";
  }
  const config::DriveConfig& cfg = drives[0];
  const std::string base = tb::state_key_file(tb::state_key(cfg, kAging, "build 1"));
  EXPECT_NE(tb::state_key_file(tb::state_key(cfg, {0.5, 1.5, false}, "build 1")), base);
  EXPECT_NE(tb::state_key_file(tb::state_key(cfg, {1.0, 1.0, false}, "build 1")), base);
  EXPECT_NE(tb::state_key_file(tb::state_key(cfg, {1.0, 1.5, true}, "build 1")), base);
  EXPECT_NE(tb::state_key_file(tb::state_key(cfg, kAging, "build 2")), base);
  EXPECT_EQ(tb::state_key(cfg, kAging, "build 1")["format"], tb::kStateFormatVersion);
  // Every other key leaves the key as it is: the workload and outputs are not config keys.
  for (const auto& e : keys.other) {
    config::DriveConfig other;
    if (changed(cfg, e, other)) {
      EXPECT_EQ(tb::state_key_file(tb::state_key(other, kAging, "build 1")), base) << e["key"];
    }
  }
}

// The state file preconditioning `cfg` saves.
std::string aged_bytes(const config::DriveConfig& cfg, const std::string& dir) {
  auto src = tb::make_workload("rw=randread,count=1", cfg.logical_bytes());
  tb::RunOptions o;
  o.out_dir = dir + "/out";
  o.precondition = true;
  o.precondition_random = kAging.random_fraction;
  o.save_state = dir + "/aged.state";
  tb::run_simulation(cfg, *src, o);
  return test::slurp(o.save_state);
}

// What the key leaves out does not shape the state: each other key changed, preconditioning
// saves the same bytes (page FTL, and DFTL with its translation pages and cache).
TEST(StateCache, KeysOutsideTheKeyLeaveTheStateAsItIs) {
  for (const char* type : {"page", "dftl"}) {
    nlohmann::json j = config::to_json(test::shipped("small_gc"));
    j["ftl"]["type"] = type;
    const config::DriveConfig cfg = config::parse_drive_config(j, type);
    const std::string dir = test::temp_dir("base");
    const std::string base = aged_bytes(cfg, dir);
    ASSERT_GT(base.size(), 1000u);
    std::size_t tried = 0;
    for (const auto& e : keys_of(cfg).other) {
      config::DriveConfig other;
      if (!changed(cfg, e, other) || other.lifetime.enabled()) continue;
      ++tried;
      EXPECT_TRUE(aged_bytes(other, dir) == base) << type << ": " << e["key"];
    }
    EXPECT_GT(tried, 100u);
  }
}

struct Outputs {
  std::string report, energy, requests;
  std::string aged_from;
};

Outputs run(const config::DriveConfig& cfg, const std::string& dir, const std::string& cache) {
  auto src =
      tb::make_workload("rw=randrw,mix=0.6,bs=8k,qd=4,seed=11,count=600", cfg.logical_bytes());
  tb::RunOptions o;
  o.out_dir = dir;
  o.reproducible = true;
  o.request_log = "requests.csv";
  o.precondition = true;
  o.precondition_random = kAging.random_fraction;
  o.state_cache = cache;
  o.state_cache_max_bytes = uint64_t(1) << 40;
  o.build = "test build";
  const tb::RunResult r = tb::run_simulation(cfg, *src, o);
  EXPECT_TRUE(r.data_intact);
  EXPECT_TRUE(r.cache_warnings.empty()) << r.cache_warnings.front();
  return {test::slurp(dir + "/report.json"), test::slurp(dir + "/energy.csv"),
          test::slurp(dir + "/requests.csv"), r.aged_from};
}

void expect_same(const Outputs& a, const Outputs& b, const std::string& what) {
  EXPECT_EQ(a.report, b.report) << what;
  EXPECT_EQ(a.energy, b.energy) << what;
  EXPECT_EQ(a.requests, b.requests) << what;
}

// Cold (preconditioned and stored), warm (loaded) and without the cache: the same outputs, for
// a drive whose keys outside the key differ from the one that stored the state.
TEST(StateCache, WarmRunIsTheColdRunByteForByte) {
  for (const char* type : {"page", "dftl", "fast"}) {
    nlohmann::json j = config::to_json(test::shipped("small_gc"));
    j["ftl"]["type"] = type;
    j["ftl"]["overprovisioning"] = 0.33;
    j["ftl"]["log_block_fraction"] = 0.1;
    const config::DriveConfig cfg = config::parse_drive_config(j, type);
    j["flash"]["t_prog_us"] = j["flash"]["t_prog_us"].get<double>() * 2;
    j["ftl"]["bg_gc_idle_us"] = 500;
    j["host"]["queue_depth"] = 8;
    const config::DriveConfig slower = config::parse_drive_config(j, type);
    const std::string dir = test::temp_dir(type);
    const std::string cache = dir + "/cache";
    const Outputs cold = run(cfg, dir + "/cold", cache);
    const Outputs plain = run(cfg, dir + "/plain", "");
    const Outputs warm = run(cfg, dir + "/warm", cache);
    EXPECT_EQ(cold.aged_from, "stored");
    EXPECT_EQ(plain.aged_from, "preconditioned");
    EXPECT_EQ(warm.aged_from, "cache");
    expect_same(plain, cold, std::string(type) + " cold");
    expect_same(plain, warm, std::string(type) + " warm");
    const Outputs slower_warm = run(slower, dir + "/slower_warm", cache);
    EXPECT_EQ(slower_warm.aged_from, "cache");
    expect_same(run(slower, dir + "/slower_plain", ""), slower_warm, std::string(type) + " slower");
    EXPECT_EQ(tb::StateCache(cache, 1).entries().size(), 1u) << type;
  }
}

// report.json's phases: aging in the run and saving it (cold), or loading it (warm), each with
// its own time; the run's is the simulation less them, and the requests per wall second are of
// the run alone. With --reproducible there are none.
TEST(StateCache, EachPhaseHasItsTime) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  const std::string dir = test::temp_dir("phases");
  const auto report = [&](const std::string& name, bool reproducible) {
    auto src = tb::make_workload("rw=randread,bs=4k,qd=4,seed=3,count=500", cfg.logical_bytes());
    tb::RunOptions o;
    o.out_dir = dir + "/" + name;
    o.reproducible = reproducible;
    o.precondition = true;
    o.state_cache = dir + "/cache";
    o.state_cache_max_bytes = uint64_t(1) << 40;
    o.build = "test build";
    const tb::RunResult r = tb::run_simulation(cfg, *src, o);
    EXPECT_EQ(r.report.contains("phases"), !reproducible) << name;
    return r.report;
  };
  const nlohmann::ordered_json cold = report("cold", false), warm = report("warm", false);
  const auto keys = [](const nlohmann::ordered_json& phases) {
    std::vector<std::string> k;
    for (const auto& [key, value] : phases.items()) k.push_back(key);
    return k;
  };
  EXPECT_EQ(keys(cold["phases"]),
            (std::vector<std::string>{"build", "precondition", "save", "run", "outputs"}));
  EXPECT_EQ(keys(warm["phases"]), (std::vector<std::string>{"build", "load", "run", "outputs"}));
  EXPECT_EQ(cold["phases"]["precondition"]["wall_s"], cold["precondition"]["wall_s"]);
  EXPECT_EQ(cold["phases"]["precondition"]["cpu_s"], cold["precondition"]["cpu_s"]);
  for (const auto* r : {&cold, &warm}) {
    double sum = 0;
    for (const auto& [key, t] : (*r)["phases"].items()) {
      EXPECT_GE(t["wall_s"].get<double>(), 0.0) << key;
      EXPECT_GE(t["cpu_s"].get<double>(), 0.0) << key;
      sum += t["wall_s"].get<double>();
    }
    EXPECT_LE(sum, (*r)["wall_time_s"].get<double>() * (1 + 1e-12));
    EXPECT_DOUBLE_EQ((*r)["requests_per_wall_s"].get<double>(),
                     500.0 / (*r)["phases"]["run"]["wall_s"].get<double>());
  }
  report("reproducible", true);
}

// Runs ssdtlm through the shell (`command` after the binary) with its output in `log`; in a
// process of its own: a throw after this process's earlier kernels ran their coroutines is
// one AddressSanitizer cannot follow.
int sh(const std::string& command, const std::string& log) {
  const int rc = std::system((command + " >" + log + " 2>&1").c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

// report.json without its provenance.
nlohmann::json measured(const std::string& dir) {
  nlohmann::json r = nlohmann::json::parse(test::slurp(dir + "/report.json"));
  r.erase("provenance");
  return r;
}

TEST(StateCache, ADamagedFileIsMadeAgain) {
  const std::string dir = test::temp_dir("damaged");
  const std::string cache = dir + "/cache";
  const std::string log = dir + "/log";
  const std::string run = "SSDTLM_STATE_CACHE=" + cache + " " + SSDTLM_BINARY + " --config " +
                          test::source_path("configs/small_gc.json") +
                          " --workload rw=randread,count=200,seed=1 --reproducible --quiet"
                          " --precondition --out ";
  ASSERT_EQ(sh(run + dir + "/cold", log), 0) << test::slurp(log);
  const std::vector<tb::StateCache::Entry> files = tb::StateCache(cache, 1).entries();
  ASSERT_EQ(files.size(), 1u);
  const std::string good = test::slurp(files[0].path);
  for (const std::string& bad : {good.substr(0, good.size() / 2), good.substr(0, 20),
                                 good.substr(0, good.size() - 100) + std::string(100, 'x')}) {
    std::ofstream(files[0].path, std::ios::binary | std::ios::trunc) << bad;
    ASSERT_EQ(sh(run + dir + "/again", log), 0) << test::slurp(log);
    const std::string out = test::slurp(log);
    EXPECT_NE(out.find("ssdtlm: warning: " + files[0].path + ": "), std::string::npos) << out;
    EXPECT_NE(out.find("removed from the cache, preconditioning again"), std::string::npos);
    EXPECT_EQ(measured(dir + "/again"), measured(dir + "/cold"));
    EXPECT_EQ(test::slurp(files[0].path), good);
  }
}

TEST(StateCache, LeastRecentlyUsedFilesGoBeyondTheCap) {
  const std::string dir = test::temp_dir("cap");
  const std::vector<std::string> names = {"a.state", "b.state", "c.state", "d.state"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::ofstream(dir + "/" + names[i]) << std::string(1000, 'x');
    fs::last_write_time(dir + "/" + names[i],
                        fs::file_time_type::clock::now() - std::chrono::hours(10 - i));
  }
  std::ofstream(dir + "/e.state.tmp.1.0") << std::string(5000, 'x');  // a write in progress
  tb::StateCache::touch(dir + "/a.state");                            // used now
  const tb::StateCache cache(dir, 2500);
  const std::vector<std::string> gone = cache.evict(dir + "/b.state");
  EXPECT_EQ(gone, (std::vector<std::string>{dir + "/c.state", dir + "/d.state"}));
  std::set<std::string> left;
  for (const auto& e : fs::directory_iterator(dir)) left.insert(e.path().filename().string());
  EXPECT_EQ(left, (std::set<std::string>{"a.state", "b.state", "e.state.tmp.1.0"}));
  EXPECT_EQ(cache.entries().front().path, dir + "/a.state");
  EXPECT_EQ(cache.temporaries().size(), 1u);
}

// Through the command line: the second run loads what the first stored, and says so; two runs
// storing one drive at once leave one whole file; the cache is listed and cleared.
TEST(StateCache, CommandLine) {
  const std::string dir = test::temp_dir("cli");
  const std::string cache = dir + "/cache";
  const std::string base = "SSDTLM_STATE_CACHE=" + cache + " " + SSDTLM_BINARY + " --config " +
                           test::source_path("configs/small_gc.json") +
                           " --workload rw=randread,count=50,seed=1 --reproducible --precondition";
  const std::string log = dir + "/log";
  ASSERT_EQ(sh("(" + base + " --out " + dir + "/a & " + base + " --out " + dir + "/b; wait)", log),
            0)
      << test::slurp(log);
  ASSERT_EQ(sh(base + " --out " + dir + "/c", log), 0);
  EXPECT_NE(test::slurp(log).find("loaded from the state cache: " + cache + "/"), std::string::npos)
      << test::slurp(log);
  const nlohmann::json c = nlohmann::json::parse(test::slurp(dir + "/c/report.json"));
  EXPECT_EQ(c["provenance"]["aged_drive"]["from"], "cache");
  EXPECT_EQ(measured(dir + "/a"), measured(dir + "/c"));
  const tb::StateCache listed(cache, 1);
  EXPECT_EQ(listed.entries().size(), 1u);
  EXPECT_TRUE(listed.temporaries().empty());
  ASSERT_EQ(sh(std::string(SSDTLM_BINARY) + " state-cache list --dir " + cache, log), 0);
  EXPECT_NE(test::slurp(log).find("1 files"), std::string::npos);
  EXPECT_NE(test::slurp(log).find("page FTL"), std::string::npos) << test::slurp(log);
  ASSERT_EQ(sh(std::string(SSDTLM_BINARY) + " state-cache clear --dir " + cache, log), 0);
  EXPECT_TRUE(listed.entries().empty());
  // Opting out: preconditioned in the run, nothing stored.
  ASSERT_EQ(sh(base + " --no-state-cache --out " + dir + "/d", log), 0);
  EXPECT_TRUE(listed.entries().empty());
  EXPECT_EQ(sh(base + " --no-state-cache --state-cache " + cache + " --out " + dir + "/e", log), 2);
  EXPECT_EQ(sh("SSDTLM_STATE_CACHE_MAX_GB=lots " + base + " --out " + dir + "/e", log), 2);
  EXPECT_NE(test::slurp(log).find("SSDTLM_STATE_CACHE_MAX_GB"), std::string::npos);
}

}  // namespace
}  // namespace ssd
