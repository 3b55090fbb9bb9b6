// Whole output sets: a run replaces the outputs of an earlier one in its directory as a set,
// a failed or interrupted run leaves the directory as it was, and no temporaries stay behind.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tb/tests/TraceTestUtil.h"

extern char** environ;

namespace ssd::test {
namespace {

namespace fs = std::filesystem;

const std::string kConfig = source_path("configs/default.json");

std::set<std::string> names_in(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

// The staging directories of runs into `dir` (".<name>.ssdtlm-tmp.<pid>" next to it).
std::vector<std::string> staging_dirs(const std::string& dir) {
  const std::string prefix = "." + fs::path(dir).filename().string() + ".ssdtlm-tmp.";
  std::vector<std::string> found;
  for (const auto& e : fs::directory_iterator(fs::path(dir).parent_path())) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) {
      found.push_back(e.path().string());
    }
  }
  return found;
}

std::string run_into(const std::string& dir, const std::string& extra) {
  return "--config " + kConfig + " --workload rw=randwrite,count=300 -q --reproducible --out " +
         dir + " " + extra;
}

TEST(OutputSet, EarlierRunsOutputsAreReplacedAsASet) {
  const std::string dir = temp_dir("out");
  std::string out;
  ASSERT_EQ(run_ssdtlm(run_into(dir, "--vcd"), out), 0) << out;
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"report.json", "energy.csv", "current.vcd"}));
  // The second run writes neither the VCD nor the series: the first run's must not stay.
  ASSERT_EQ(run_ssdtlm(run_into(dir, "--no-series"), out), 0) << out;
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"report.json"}));
  EXPECT_TRUE(staging_dirs(dir).empty());
}

// The set swaps in with the directory (one step), taking the user's own files along; a
// subdirectory cannot go along, so then the set is moved in file by file.
TEST(OutputSet, FilesOfYoursInTheDirectoryStay) {
  for (const bool with_subdirectory : {false, true}) {
    SCOPED_TRACE(with_subdirectory);
    const std::string dir = temp_dir(with_subdirectory ? "outsub" : "out");
    std::string out;
    ASSERT_EQ(run_ssdtlm(run_into(dir, "--vcd"), out), 0) << out;
    std::ofstream(dir + "/notes.txt") << "mine";
    fs::create_symlink("notes.txt", dir + "/notes.link");
    std::set<std::string> expected = {"report.json", "notes.txt", "notes.link"};
    if (with_subdirectory) {
      fs::create_directory(dir + "/plots");
      std::ofstream(dir + "/plots/a.png") << "png";
      expected.insert("plots");
    }
    ASSERT_EQ(run_ssdtlm(run_into(dir, "--no-series"), out), 0) << out;
    EXPECT_EQ(names_in(dir), expected);
    EXPECT_EQ(slurp(dir + "/notes.txt"), "mine");
    EXPECT_EQ(fs::read_symlink(dir + "/notes.link"), "notes.txt");
    if (with_subdirectory) {
      EXPECT_EQ(slurp(dir + "/plots/a.png"), "png");
    }
    EXPECT_TRUE(staging_dirs(dir).empty());
  }
}

TEST(OutputSet, FailedRunLeavesTheDirectoryAsItWas) {
  const std::string dir = temp_dir("out");
  std::string out;
  ASSERT_EQ(run_ssdtlm(run_into(dir, "--vcd"), out), 0) << out;
  const std::string before = slurp(dir + "/report.json");
  // A bad line after many good ones: the run fails once the files are being written.
  std::string text;
  for (int i = 0; i < 2000; ++i)
    text += "0," + std::to_string(i * 8) + ",4096,w," + std::to_string(i) + ".0\n";
  const std::string trace = write_file("late.spc", text + "0,1,4096,q,3000.0\n");
  EXPECT_EQ(run_ssdtlm(
                "--config " + kConfig + " --trace " + trace + " --format spc -q --out " + dir, out),
            1);
  EXPECT_EQ(slurp(dir + "/report.json"), before);
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"report.json", "energy.csv", "current.vcd"}));
  EXPECT_TRUE(staging_dirs(dir).empty());
}

// Starts a long run into `dir`, waits until it writes, sends `sig`, and returns how it ended.
int interrupted_run(const std::string& dir, int sig) {
  const std::string binary = SSDTLM_BINARY;
  std::vector<std::string> args = {
      binary, "--config", kConfig, "--workload", "rw=randwrite,count=100000000",
      "-q",   "--vcd",    "--out", dir};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, binary.c_str(), nullptr, nullptr, argv.data(), environ), 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (;;) {
    const std::vector<std::string> staging = staging_dirs(dir);
    if (!staging.empty() && fs::exists(staging.front() + "/current.vcd.tmp")) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "the run never started writing";
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, sig);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(OutputSet, SigintAndSigtermRemoveTemporaries) {
  for (const int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(sig);
    const std::string dir = temp_dir("out" + std::to_string(sig));
    std::string out;
    ASSERT_EQ(run_ssdtlm(run_into(dir, ""), out), 0) << out;
    const std::string before = slurp(dir + "/report.json");
    const int status = interrupted_run(dir, sig);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    EXPECT_TRUE(staging_dirs(dir).empty());
    EXPECT_EQ(names_in(dir), (std::set<std::string>{"report.json", "energy.csv"}));
    EXPECT_EQ(slurp(dir + "/report.json"), before);
  }
}

TEST(OutputSet, KilledRunLeavesTheEarlierSetWhole) {
  const std::string dir = temp_dir("out");
  std::string out;
  ASSERT_EQ(run_ssdtlm(run_into(dir, ""), out), 0) << out;
  const std::string before = slurp(dir + "/report.json");
  const int status = interrupted_run(dir, SIGKILL);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
  // Nothing can clean up at SIGKILL: the staging directory is all that is left of it...
  EXPECT_EQ(staging_dirs(dir).size(), 1u);
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"report.json", "energy.csv"}));
  EXPECT_EQ(slurp(dir + "/report.json"), before);
  // ...until the next run into the same directory, which removes it.
  ASSERT_EQ(run_ssdtlm(run_into(dir, ""), out), 0) << out;
  EXPECT_TRUE(staging_dirs(dir).empty());
}

// Every file of an output directory by name, with its bytes: two runs' sets differ in them.
using Snapshot = std::map<std::string, std::string>;

Snapshot snapshot(const std::string& dir) {
  Snapshot files;
  for (const std::string& name : names_in(dir)) files[name] = slurp(dir + "/" + name);
  return files;
}

void restore(const std::string& dir, const Snapshot& files) {
  fs::create_directories(dir);
  for (const auto& [name, bytes] : files)
    std::ofstream(dir + "/" + name, std::ios::binary) << bytes;
}

// A run long enough (about a second here) to be killed at many points, its VCD streamed
// through the whole run and every output moved in at the end.
std::vector<std::string> long_run(const std::string& dir) {
  return {SSDTLM_BINARY, "--config",       kConfig, "--workload", "rw=randwrite,count=40000,seed=5",
          "-q",          "--reproducible", "--vcd", "--out",      dir};
}

pid_t spawn(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ), 0);
  return pid;
}

// Kills long runs into a directory that holds an earlier run's set, at seeded random moments
// from before the start to after the end (the outputs are moved in at the end: a kill can land
// on that too), and checks after each that the directory holds one whole set, the earlier or
// the new one, and, for `sig` other than SIGKILL, that the run left no temporaries at all.
void kill_at_random_moments(int sig, int kills, unsigned seed) {
  const std::string base = temp_dir("sig" + std::to_string(sig));
  std::string out;
  ASSERT_EQ(run_ssdtlm(run_into(base + "/earlier", "--vcd"), out), 0) << out;
  const Snapshot earlier = snapshot(base + "/earlier");
  // The new set, from an uninterrupted run (--reproducible: every run writes the same bytes),
  // and how long a run takes, to spread the kills over.
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  ::waitpid(spawn(long_run(base + "/new")), &status, 0);
  const auto run_time = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  const Snapshot fresh = snapshot(base + "/new");
  ASSERT_NE(earlier, fresh);

  std::mt19937 random(seed);
  std::uniform_real_distribution<double> moment(0.0, 1.15);  // in run times
  int landed_mid_run = 0;
  for (int k = 0; k < kills; ++k) {
    const auto delay =
        std::chrono::duration_cast<std::chrono::microseconds>(run_time * moment(random));
    SCOPED_TRACE("kill " + std::to_string(k) + " after " + std::to_string(delay.count()) + " us");
    // Each kill in a parent of its own, so anything it leaves there is its own.
    const std::string parent = base + "/kill" + std::to_string(k);
    const std::string dir = parent + "/out";
    restore(dir, earlier);
    const pid_t pid = spawn(long_run(dir));
    std::this_thread::sleep_for(delay);
    ::kill(pid, sig);
    ::waitpid(pid, &status, 0);
    const Snapshot left = snapshot(dir);
    // Never a mix or a part: byte for byte the earlier set or the new one.
    EXPECT_TRUE(left == earlier || left == fresh)
        << "files: " << ::testing::PrintToString(names_in(dir));
    if (WIFEXITED(status)) {
      // The kill came after the run had finished.
      EXPECT_EQ(WEXITSTATUS(status), 0);
      EXPECT_EQ(left, fresh);
    } else {
      EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
      if (left == earlier) ++landed_mid_run;
    }
    if (sig != SIGKILL) {
      EXPECT_EQ(names_in(parent), (std::set<std::string>{"out"})) << "temporaries left behind";
    }
  }
  // The kills must not all have come too late to test anything.
  EXPECT_GT(landed_mid_run, 0);
}

TEST(OutputSet, SigkillAtRandomMomentsLeavesOneWholeSet) { kill_at_random_moments(SIGKILL, 40, 9); }

TEST(OutputSet, SigintAtRandomMomentsLeavesOneWholeSetAndNoTemporaries) {
  kill_at_random_moments(SIGINT, 12, 10);
}

TEST(OutputSet, SigtermAtRandomMomentsLeavesOneWholeSetAndNoTemporaries) {
  kill_at_random_moments(SIGTERM, 12, 11);
}

}  // namespace
}  // namespace ssd::test
