// Saved aged drives (docs/state.md): a run that loads the state saved after preconditioning
// is the run preconditioned in-process, byte for byte (report.json, energy.csv, the request
// log), for every FTL and both preconditioning modes; a file saved for another drive, cut
// short or damaged is refused with an error naming the file and what is wrong.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "firmware/StateArchive.h"
#include "model/Ssd.h"
#include "model/power/EnergyMonitor.h"
#include "tb/run/Simulation.h"
#include "tb/run/StateFile.h"
#include "tb/tests/LogFtlRig.h"
#include "tb/tests/TestUtil.h"
#include "tb/tests/TraceTestUtil.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd {
namespace {

struct Drive {
  std::string name;
  config::DriveConfig cfg;
};

// `c` with `section.key` set to the JSON `value`.
config::DriveConfig with(const config::DriveConfig& c, const std::string& section,
                         const std::string& key, const std::string& value) {
  nlohmann::json j = config::to_json(c);
  j[section][key] = nlohmann::json::parse(value);
  return config::parse_drive_config(j, "test config");
}
config::DriveConfig with(const config::DriveConfig& c, const std::string& key,
                         const std::string& value) {
  return with(c, "ftl", key, value);
}

// Every FTL on a small drive; the page FTL also with a write buffer and an SLC cache, with
// units smaller than the page, and with a victim policy that keeps state (random); the block
// FTL with either read look-up (the SRAM's offsets are not in the state: a loaded drive rebuilds
// them from the spare areas, docs/ftl.md#read-look-up).
std::vector<Drive> drives() {
  std::vector<Drive> out;
  const config::DriveConfig small = test::shipped("small_gc");
  out.push_back({"page", small});
  config::DriveConfig buffered = with(small, "flash", "cell_type", "\"mlc\"");
  buffered.dram.write_buffer_mb = 1;
  buffered.flash.blocks_per_plane = 96;
  buffered = with(buffered, "slc_cache_blocks_per_plane", "4");
  out.push_back({"page_buffer_slc", buffered});
  out.push_back({"page_random_gc", with(small, "gc_policy", "\"random\"")});
  out.push_back({"dftl", with(small, "type", "\"dftl\"")});
  for (const char* type : {"block", "bast", "bast_star", "fast", "last"})
    out.push_back({type, test::log_drive(type, 4, 48, 16, 0.33, 0.1)});
  out.push_back({"block_scan", with(out.back().cfg, "type", "\"block\"")});
  out.back().cfg = with(out.back().cfg, "block_read_lookup", "\"scan\"");
  return out;
}

// The outputs of one run, by file name.
struct Outputs {
  std::string report, energy, requests;
};

Outputs run(const config::DriveConfig& cfg, const std::string& dir, bool simulate,
            const std::string& save, const std::string& load) {
  auto src =
      tb::make_workload("rw=randrw,mix=0.6,bs=8k,qd=4,seed=11,count=600", cfg.logical_bytes());
  tb::RunOptions o;
  o.out_dir = dir;
  o.reproducible = true;
  o.request_log = "requests.csv";
  o.precondition = load.empty();
  o.precondition_random = 1.5;
  o.precondition_simulate = simulate;
  o.save_state = save;
  o.load_state = load;
  const tb::RunResult r = tb::run_simulation(cfg, *src, o);
  EXPECT_TRUE(r.data_intact);
  return {test::slurp(dir + "/report.json"), test::slurp(dir + "/energy.csv"),
          test::slurp(dir + "/requests.csv")};
}

TEST(StateFile, LoadedRunIsThePreconditionedRunByteForByte) {
  for (const Drive& d : drives()) {
    for (const bool simulate : {false, true}) {
      const std::string tag = d.name + (simulate ? " simulate" : " bulk");
      const std::string dir = test::temp_dir(d.name + (simulate ? "_sim" : "_bulk"));
      const std::string state = dir + "/aged.state";
      const Outputs plain = run(d.cfg, dir + "/plain", simulate, "", "");
      const Outputs saved = run(d.cfg, dir + "/saved", simulate, state, "");
      const Outputs loaded = run(d.cfg, dir + "/loaded", simulate, "", state);
      ASSERT_FALSE(plain.report.empty()) << tag;
      EXPECT_NE(plain.report.find("\"done\": true"), std::string::npos) << tag;
      EXPECT_EQ(plain.report, saved.report) << tag << ": saving changed the run";
      EXPECT_EQ(plain.report, loaded.report) << tag;
      EXPECT_EQ(plain.energy, loaded.energy) << tag;
      EXPECT_EQ(plain.requests, loaded.requests) << tag;
      for (const auto& e : std::filesystem::directory_iterator(dir))  // no temporary left
        EXPECT_EQ(e.path().filename().string().find("aged.state.tmp"), std::string::npos) << tag;
    }
  }
}

// The drive's host socket bound, so that the kernel can elaborate it.
struct NoHost : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<NoHost> socket{"socket"};
  NoHost() : sc_core::sc_module("no_host") {}
};

// The size announced before a state file is written is the file's, for every FTL.
TEST(StateFile, ItsSizeIsKnownBeforeItIsWritten) {
  for (const Drive& d : drives()) {
    tb::reset_kernel();
    model::EnergyMonitor monitor(model::EnergyMonitor::Options{});
    model::Ssd ssd("ssd", d.cfg, monitor);
    NoHost host;
    host.socket.bind(ssd.host_socket());
    ssd.controller().precondition(1.0, 1.5, model::Controller::PreconditionMode::Bulk);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaboration: the drive is aged
    const uint64_t measured = tb::saved_state_bytes(d.cfg, ssd);
    const std::string path = test::temp_dir(d.name) + "/aged.state";
    tb::save_state(path, d.cfg, ssd);
    EXPECT_EQ(measured, std::filesystem::file_size(path)) << d.name;
  }
}

// What is said before a state file is written: an error when the disk cannot hold it, a
// warning from kLargeStateBytes on, nothing below.
TEST(StateFile, ALargeOrTooLargeStateIsSaidBeforehand) {
  const tb::StateSizeNote small = tb::state_size_note("s.state", tb::kLargeStateBytes - 1, ~0ull);
  EXPECT_TRUE(small.fits);
  EXPECT_EQ(small.text, "");
  const tb::StateSizeNote large = tb::state_size_note("s.state", 4'294'967'296, 1e12);
  EXPECT_TRUE(large.fits);
  EXPECT_EQ(large.text, "the aged drive takes 4.29 GB on disk: saving it to s.state");
  const tb::StateSizeNote full = tb::state_size_note("s.state", 4'294'967'296, 1'500'000'000);
  EXPECT_FALSE(full.fits);
  EXPECT_EQ(full.text,
            "s.state: not enough disk space for the aged drive: it takes 4.29 GB, the disk has "
            "1.50 GB free");
}

// A state saved from `cfg`, preconditioned in bulk.
std::string saved_state(const config::DriveConfig& cfg) {
  const std::string dir = test::temp_dir("saved");
  run(cfg, dir + "/out", false, dir + "/aged.state", "");
  return dir + "/aged.state";
}

// The error ssdtlm gives loading `path` into a drive built from `cfg` ("" if it runs). In a
// process of its own: a throw after this process's earlier kernels ran their coroutines is
// one AddressSanitizer cannot follow (false stack-buffer-overflow reports).
std::string load_error(const config::DriveConfig& cfg, const std::string& path) {
  const std::string dir = test::temp_dir("load_error");
  std::ofstream(dir + "/config.json") << config::to_json(cfg).dump();
  std::string out;
  const int rc =
      test::run_ssdtlm("--config " + dir + "/config.json --load-state " + path +
                           " --workload rw=randread,count=1 --quiet --out " + dir + "/out",
                       out);
  return rc == 0 ? "" : out;
}

std::string bytes_of(const std::string& path) { return test::slurp(path); }
void write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(StateFile, AnotherDriveIsRefusedNamingTheKeys) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  const std::string state = saved_state(cfg);
  config::DriveConfig other = cfg;
  other.flash.blocks_per_plane = 80;
  const std::string e = load_error(config::parse_drive_config(config::to_json(other), "t"), state);
  EXPECT_NE(e.find(state), std::string::npos) << e;
  EXPECT_NE(e.find("flash.blocks_per_plane is 64 in the file, 80 in the config"), std::string::npos)
      << e;
  const std::string f = load_error(with(cfg, "type", "\"dftl\""), state);
  EXPECT_NE(f.find("ftl.type is \"page\" in the file, \"dftl\" in the config"), std::string::npos)
      << f;
  // Keys that do not shape the state may differ: the timing of the measured run.
  config::DriveConfig slower = cfg;
  slower.flash.t_prog_us *= 2;
  EXPECT_EQ(load_error(slower, state), "");
}

// The fuzz harness sums an edited state at once; loading sums it as the archive reads it.
TEST(StateFile, ChecksumIsTheSameHoweverTheBytesAreCut) {
  std::string bytes(1000, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = char(i * 7 + i / 13);
  fw::StateChecksum whole;
  whole.update(bytes.data(), bytes.size());
  for (const std::size_t step : {1, 3, 8, 31, 33, 500}) {
    fw::StateChecksum cut;
    for (std::size_t at = 0; at < bytes.size(); at += step)
      cut.update(bytes.data() + at, std::min(step, bytes.size() - at));
    EXPECT_EQ(cut.digest(), whole.digest()) << step;
  }
  for (const std::size_t at : {0, 31, 32, 999}) {  // a byte changed, one left off
    std::string damaged = bytes;
    damaged[at] ^= 1;
    fw::StateChecksum sum;
    sum.update(damaged.data(), damaged.size());
    EXPECT_NE(sum.digest(), whole.digest()) << at;
  }
  fw::StateChecksum shorter;
  shorter.update(bytes.data(), bytes.size() - 1);
  EXPECT_NE(shorter.digest(), whole.digest());
}

TEST(StateFile, DamagedFilesAreRefusedWithAClearError) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  const std::string state = saved_state(cfg);
  const std::string good = bytes_of(state);
  ASSERT_GT(good.size(), 1000u);
  EXPECT_EQ(load_error(cfg, state), "");
  const std::string bad = state + ".bad";
  const auto refused = [&](const std::string& bytes, const std::string& what) {
    write(bad, bytes);
    const std::string e = load_error(cfg, bad);
    EXPECT_NE(e.find(bad + ": "), std::string::npos)
        << what << " (" << bytes.size() << " bytes): " << e;
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  refused("", "wrong magic");
  refused("SSDTLMSX" + good.substr(8), "wrong magic");
  std::string v1 = good;  // the zlib-compressed format
  v1[8] = 1;
  refused(v1, "state format version 1, this ssdtlm reads version 6");
  std::string v4 = good;  // before the dynamic SLC cache
  v4[8] = 4;
  refused(v4, "state format version 4, this ssdtlm reads version 6");
  refused(good.substr(0, 14), "truncated");
  refused(good.substr(0, 30), "header");
  for (const double at : {0.3, 0.6, 0.9, 0.999}) {
    refused(good.substr(0, std::size_t(double(good.size()) * at)), "(truncated)");
    std::string flipped = good;
    flipped[std::size_t(double(good.size()) * at)] ^= 0x5a;
    refused(flipped, "bad drive state");
  }
  refused(good + "x", "bytes of drive state, the header says");
  refused(std::string("not there"), "wrong magic");
  EXPECT_NE(load_error(cfg, state + ".missing").find("cannot open"), std::string::npos);
}

// A bit flip in the header's JSON that makes a byte non-UTF-8: the parser's message quotes the
// bytes it read, and the error prints them escaped (\xNN), never raw.
TEST(StateFile, AHeaderBitFlipIsPrintedEscaped) {
  const config::DriveConfig cfg = test::shipped("small_gc");
  const std::string state = saved_state(cfg);
  std::string flipped = bytes_of(state);
  const std::size_t at = flipped.find("\"config\"");
  ASSERT_NE(at, std::string::npos);
  flipped[at + 1] = char(flipped[at + 1] ^ 0x80);  // 'c' (0x63) -> 0xe3
  const std::string bad = state + ".flipped";
  write(bad, flipped);
  const std::string e = load_error(cfg, bad);
  EXPECT_NE(e.find(bad + ": corrupt header ("), std::string::npos) << e;
  EXPECT_NE(e.find("\\xe3"), std::string::npos) << e;
  EXPECT_TRUE(std::all_of(e.begin(), e.end(), [](char c) {
    return c == '\n' || (c >= 0x20 && c < 0x7f);
  })) << e;
}

TEST(StateFile, CommandLine) {
  const std::string dir = test::temp_dir("state");
  const std::string base = "--config " + test::source_path("configs/small_gc.json") +
                           " --workload rw=randwrite,count=50,seed=1 --reproducible --quiet";
  std::string out;
  EXPECT_EQ(test::run_cli(base + " --out " + dir + "/a --save-state " + dir + "/s", out), 2);
  EXPECT_NE(out.find("--save-state: applies only with --precondition"), std::string::npos) << out;
  EXPECT_EQ(
      test::run_cli(base + " --out " + dir + "/a --precondition --save-state " + dir + "/s", out),
      0)
      << out;
  EXPECT_EQ(test::run_cli(base + " --out " + dir + "/b --load-state " + dir + "/s", out), 0) << out;
  // The same but for where the aged drive came from.
  nlohmann::json a = nlohmann::json::parse(test::slurp(dir + "/a/report.json"));
  nlohmann::json b = nlohmann::json::parse(test::slurp(dir + "/b/report.json"));
  EXPECT_EQ(a["provenance"]["aged_drive"], nlohmann::json({{"from", "preconditioned"}}));
  EXPECT_EQ(b["provenance"]["aged_drive"],
            nlohmann::json({{"from", "file"}, {"file", dir + "/s"}}));
  a.erase("provenance");
  b.erase("provenance");
  EXPECT_EQ(a, b);
  EXPECT_EQ(
      test::run_cli(base + " --out " + dir + "/c --precondition --load-state " + dir + "/s", out),
      2);
  EXPECT_EQ(test::run_cli(base + " --out " + dir +
                              "/c --set flash.blocks_per_plane=80"
                              " --load-state " +
                              dir + "/s",
                          out),
            1);
  EXPECT_NE(out.find("flash.blocks_per_plane"), std::string::npos) << out;
}

}  // namespace
}  // namespace ssd
