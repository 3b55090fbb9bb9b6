// Config overrides (`--set KEY=VALUE`) and report.json's provenance: every config section can
// be reached, errors name the key, and the digests in the report are those of the effective
// config (what --dump-config prints) and of the input.
#include <gtest/gtest.h>

#include <string>
#include <nlohmann/json.hpp>

#include "common/Errors.h"
#include "common/Sha256.h"
#include "config/Overrides.h"
#include "tb/tests/TraceTestUtil.h"

namespace ssd::test {
namespace {

const std::string kConfig = source_path("configs/default.json");

// FIPS 180-2 appendix B and the NIST one-million-'a' vector.
TEST(Sha256, KnownDigests) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 h;
  const std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i) h.update(chunk);
  EXPECT_EQ(h.hex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Override, PathsValuesAndArrays) {
  nlohmann::json doc = {{"flash", {{"t_prog_us", 900}}},
                        {"power", {{"rails", {{{"name", "5v"}}}}}}};
  config::apply_override(doc, "flash.t_prog_us=500.5");
  config::apply_override(doc, "ftl.type=dftl");  // a new section; a bare word is a string
  config::apply_override(doc, "flash.multiplane=true");
  config::apply_override(doc, "name=\"123\"");  // quoted: a string of digits
  config::apply_override(doc, "power.rails.0.voltage_v=3.3");
  config::apply_override(doc, "power.rails[1].name=12v");  // index == size appends
  config::apply_override(doc, "power.peak_windows_us=[1,10]");
  EXPECT_EQ(doc["flash"]["t_prog_us"], 500.5);
  EXPECT_EQ(doc["ftl"]["type"], "dftl");
  EXPECT_EQ(doc["flash"]["multiplane"], true);
  EXPECT_EQ(doc["name"], "123");
  EXPECT_EQ(doc["power"]["rails"][0]["voltage_v"], 3.3);
  EXPECT_EQ(doc["power"]["rails"][1]["name"], "12v");
  EXPECT_EQ(doc["power"]["peak_windows_us"], nlohmann::json::parse("[1,10]"));
}

TEST(Override, PathErrorsNameTheKey) {
  nlohmann::json doc = {{"flash", {{"t_prog_us", 900}}},
                        {"power", {{"rails", {{{"name", "5v"}}}}}}};
  const auto message = [&](const std::string& assignment) {
    try {
      config::apply_override(doc, assignment);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("flash.t_prog_us.x=1"),
            "--set flash.t_prog_us.x: flash.t_prog_us is a number, not an object");
  EXPECT_EQ(message("power.rails.3.name=x"),
            "--set power.rails.3.name: power.rails has 1 entries: index 3 is beyond the next one");
  EXPECT_EQ(message("power.rails.x=1"),
            "--set power.rails.x: power.rails is an array: expected an index, got \"x\"");
  EXPECT_EQ(message("flash..t=1"), "--set flash..t: empty part in the key");
  EXPECT_EQ(message("=1"), "--set: expected KEY=VALUE, got \"=1\"");
  EXPECT_THROW(config::apply_override(doc, "flash"), UsageError);
  // Found by tb/fuzz/FuzzOverride.cpp: a value of bytes that are not UTF-8 became a string the
  // config's error message could not quote.
  EXPECT_EQ(message("flash.t_prog_us=5\xff"), "--set: not valid UTF-8 text");
  EXPECT_THROW(config::apply_override(doc, "flash.t_prog_us=5\xff"), UsageError);
}

nlohmann::json dump_config(const std::string& sets) {
  std::string out;
  EXPECT_EQ(run_ssdtlm("--config " + kConfig + " " + sets + " --dump-config", out), 0) << out;
  return nlohmann::json::parse(out);
}

// One key of every section, and the top-level keys, through the whole command line.
TEST(Override, EverySectionReachable) {
  const nlohmann::json c = dump_config(
      "--set name=other --set description=d --set 'sources=[\"s\"]' --set host.queue_depth=16 "
      "--set controller.t_cmd_issue_us=15 --set dram.size_mb=256 --set flash.t_prog_us=500 "
      "--set ftl.type=dftl --set power.rails.0.voltage_v=3.3 --set "
      "'power.rails[0].i_baseline_ma=10' "
      "--set power.regulators.nand.currents_at=supply --set power.regulators.nand.efficiency=0.9");
  EXPECT_EQ(c["name"], "other");
  EXPECT_EQ(c["description"], "d");
  EXPECT_EQ(c["sources"], nlohmann::json::parse("[\"s\"]"));
  EXPECT_EQ(c["host"]["queue_depth"], 16);
  EXPECT_EQ(c["controller"]["t_cmd_issue_us"], 15.0);
  EXPECT_EQ(c["dram"]["size_mb"], 256);
  EXPECT_EQ(c["flash"]["t_prog_us"], 500.0);
  EXPECT_EQ(c["ftl"]["type"], "dftl");
  EXPECT_EQ(c["power"]["rails"][0]["voltage_v"], 3.3);
  EXPECT_EQ(c["power"]["rails"][0]["i_baseline_ma"], 10.0);
  EXPECT_EQ(c["power"]["regulators"]["nand"]["efficiency"], 0.9);
  EXPECT_EQ(c["power"]["regulators"]["nand"]["currents_at"], "supply");
}

TEST(Override, LaterSetWins) {
  EXPECT_EQ(
      dump_config("--set flash.t_prog_us=500 --set flash.t_prog_us=700")["flash"]["t_prog_us"],
      700.0);
}

// Validated like the file: exit 1 and the key named, as for a bad config file.
TEST(Override, ValidationErrorsNameTheKey) {
  const std::pair<std::string, std::string> cases[] = {
      {"--set flash.t_raed_us=50", "with --set: flash.t_raed_us: unknown key"},
      {"--set flash.t_prog_us=slow", "with --set: flash.t_prog_us: expected a number, got string"},
      {"--set flash.channels=2.5", "with --set: flash.channels:"},
      {"--set ftl.type=nope", "with --set: ftl.type:"},
      {"--set bogus.x=1", "with --set: bogus: unknown key"},
      {"--set flash.t_prog_us.x=1", "--set flash.t_prog_us.x: flash.t_prog_us is a number"},
  };
  for (const auto& [sets, want] : cases) {
    std::string out;
    EXPECT_EQ(run_ssdtlm("--config " + kConfig + " " + sets + " --dump-config", out), 1) << sets;
    EXPECT_NE(out.find(want), std::string::npos) << sets << "\n" << out;
  }
  std::string out;
  EXPECT_EQ(run_ssdtlm("--config " + kConfig + " --set novalue --dump-config", out), 2);
  EXPECT_NE(out.find("--set: expected KEY=VALUE, got \"novalue\""), std::string::npos) << out;
  // A usage error is one whatever the files hold: the command line is checked first.
  EXPECT_EQ(run_ssdtlm("--config /nonexistent.json --set novalue --dump-config", out), 2) << out;
}

// provenance.config_sha256 digests exactly what --dump-config prints with the same overrides;
// input_sha256 the trace file's bytes.
TEST(Override, ReportProvenanceMatchesEffectiveConfig) {
  const std::string sets = "--set flash.t_prog_us=500 --set ftl.type=dftl";
  const std::string trace = source_path("traces/umass_financial1.head1k.csv");
  std::string dumped;
  ASSERT_EQ(run_ssdtlm("--config " + kConfig + " " + sets + " --dump-config", dumped), 0);
  const std::string dir = temp_dir("out");
  std::string log;
  ASSERT_EQ(run_ssdtlm("--config " + kConfig + " " + sets + " --trace " + trace +
                           " --max-requests 200 --quiet --no-series --out " + dir,
                       log),
            0)
      << log;
  const nlohmann::json r = nlohmann::json::parse(slurp(dir + "/report.json"));
  const nlohmann::json& p = r["provenance"];
  EXPECT_EQ(p["config_sha256"], sha256_hex(dumped));
  EXPECT_EQ(p["input"], "trace");
  EXPECT_EQ(p["input_sha256"], sha256_file(trace));
  EXPECT_EQ(p["config"], kConfig);
  EXPECT_EQ(p["overrides"], nlohmann::json::parse(R"(["flash.t_prog_us=500","ftl.type=dftl"])"));
  EXPECT_EQ(p["version"], "0.1.0");
  EXPECT_FALSE(p["git"].get<std::string>().empty());
  EXPECT_EQ(p["argv"].back(), dir);  // argv is recorded as given, in order
  EXPECT_EQ(r["drive"]["ftl"], "dftl");
}

// --reproducible leaves out the command line, which names the output directory: runs into
// two directories write the same report.
TEST(Override, ReproducibleProvenanceHasNoCommandLine) {
  std::string a, b, log;
  for (std::string* report : {&a, &b}) {
    const std::string dir = temp_dir(report == &a ? "a" : "b");
    ASSERT_EQ(run_ssdtlm("--config " + kConfig +
                             " --workload rw=randwrite,count=200 --quiet "
                             "--reproducible --no-series --out " +
                             dir,
                         log),
              0)
        << log;
    *report = slurp(dir + "/report.json");
  }
  EXPECT_EQ(a, b);
  const nlohmann::json p = nlohmann::json::parse(a)["provenance"];
  EXPECT_FALSE(p.contains("argv"));
  EXPECT_EQ(p["input"], "workload");
  EXPECT_EQ(p["input_sha256"], sha256_hex("rw=randwrite,count=200"));
}

}  // namespace
}  // namespace ssd::test
