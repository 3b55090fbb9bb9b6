// The options every trace reader shares: volumes, fitting to the drive, alignment, time window
// and scale, closed loop, reordering and bad lines; their report and their command-line flags.
#include <gtest/gtest.h>

#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "common/Errors.h"
#include "tb/tests/TraceTestUtil.h"
#include "tb/trace/TraceFactory.h"

namespace ssd::tb {
namespace {

using test::ps;
using test::read_all;
using test::read_trace;
using test::trace_error;
using test::with_format;
using test::write_file;

constexpr uint64_t kMiB = uint64_t{1} << 20;

// SPC records: volume (ASU), LBA, bytes, op, seconds.
std::string spc(std::initializer_list<const char*> lines) {
  std::string text;
  for (const char* l : lines) text += std::string(l) + "\n";
  return write_file("t.spc", text);
}

TraceOptions on_drive(uint64_t capacity, uint64_t page = 4096) {
  TraceOptions o = with_format("spc");
  o.capacity_bytes = capacity;
  o.page_bytes = page;
  return o;
}

nlohmann::ordered_json trace_report(const TraceReader& reader) {
  nlohmann::ordered_json r;
  reader.add_to_report(r);
  return r["trace"];
}

TEST(TraceOptions, VolumeFilterKeepsTheListedVolumes) {
  const std::string path = spc({"0,8,512,r,0", "1,16,512,r,1", "2,24,512,r,2", "1,32,512,w,3"});
  TraceOptions o = with_format("spc");
  o.volumes = {1};
  const std::unique_ptr<TraceReader> reader = open_trace(path, o);
  const auto all = read_all(*reader);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].offset_bytes, 16u * 512);
  EXPECT_EQ(ps(all[0]), 0u);  // the first request passed on arrives at zero
  EXPECT_EQ(ps(all[1]), 2'000'000'000'000u);
  EXPECT_EQ(reader->counters().records, 4u);
  EXPECT_EQ(reader->counters().other_volumes, 2u);
}

TEST(TraceOptions, OverlapSharesOneAddressSpace) {
  const auto all = read_trace(spc({"0,8,512,r,0", "5,8,512,r,0"}), on_drive(64 * kMiB));
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].offset_bytes, all[1].offset_bytes);
}

TEST(TraceOptions, ConcatGivesEachVolumeItsSlice) {
  // 4 slices of a 64 MiB drive: 16 MiB each, in order of first appearance.
  const std::string path = spc({"7,0,512,r,0", "3,8,512,r,0", "7,16,4096,w,0", "9,0,512,r,0"});
  TraceOptions o = on_drive(64 * kMiB);
  o.volume_map = VolumeMap::kConcat;
  o.volume_count = 4;
  const std::unique_ptr<TraceReader> reader = open_trace(path, o);
  const auto all = read_all(*reader);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].offset_bytes, 0u);
  EXPECT_EQ(all[1].offset_bytes, 16 * kMiB + 8 * 512);
  EXPECT_EQ(all[2].offset_bytes, 16u * 512);
  EXPECT_EQ(all[3].offset_bytes, 32 * kMiB);
  const auto report = trace_report(*reader);
  EXPECT_EQ(report["volume_map"], "concat");
  ASSERT_EQ(report["slices"].size(), 3u);
  EXPECT_EQ(report["slices"][1]["volume"], 3);
  EXPECT_EQ(report["slices"][1]["offset"], 16 * kMiB);
  EXPECT_EQ(report["slices"][1]["bytes"], 16 * kMiB);
}

TEST(TraceOptions, ConcatSlicesFollowTheVolumeList) {
  TraceOptions o = on_drive(64 * kMiB);
  o.volume_map = VolumeMap::kConcat;
  o.volumes = {9, 7};  // two slices of 32 MiB, 9 first
  const auto all = read_trace(spc({"7,0,512,r,0", "3,8,512,r,0", "9,0,512,r,0"}), o);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].offset_bytes, 32 * kMiB);
  EXPECT_EQ(all[1].offset_bytes, 0u);
}

TEST(TraceOptions, ConcatCountsVolumesInAFirstPass) {
  TraceOptions o = on_drive(60 * kMiB);
  o.volume_map = VolumeMap::kConcat;
  const auto all = read_trace(spc({"4,0,512,r,0", "2,0,512,r,0", "6,0,512,r,0", "2,8,512,r,0"}), o);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[1].offset_bytes, 20 * kMiB);
  EXPECT_EQ(all[2].offset_bytes, 40 * kMiB);
  EXPECT_EQ(all[3].offset_bytes, 20 * kMiB + 8 * 512);
}

TEST(TraceOptions, ConcatErrors) {
  TraceOptions o = on_drive(64 * kMiB);
  o.volume_map = VolumeMap::kConcat;
  o.volume_count = 2;
  const std::string path = spc({"1,0,512,r,0", "2,0,512,r,0", "3,0,512,r,0"});
  EXPECT_EQ(trace_error(path, o), path + ":3: volume: volume 3 is one more than --volumes 2");
  o.volume_count = 1;
  o.volumes = {1, 2};
  EXPECT_EQ(trace_error(path, o), "--volumes: 1 slices for 2 volumes given by --volume");
  o.volumes.clear();
  o.volume_count = 1u << 20;
  EXPECT_EQ(trace_error(path, o),
            "--volumes: 1048576 slices of a 67108864-byte drive are below one page");
}

TEST(TraceOptions, WrapFoldsRequestsIntoTheDrive) {
  // A 1 MiB drive: 3 MiB + 4 KiB wraps to 4 KiB; a request crossing the end moves back.
  const std::string path = spc({"0,6152,4096,w,0", "0,2040,8192,w,1", "0,0,512,r,2"});
  const std::unique_ptr<TraceReader> reader = open_trace(path, on_drive(kMiB));
  const auto all = read_all(*reader);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].offset_bytes, 4096u);
  EXPECT_EQ(all[1].offset_bytes, kMiB - 8192);
  EXPECT_EQ(all[2].offset_bytes, 0u);
  EXPECT_EQ(reader->counters().wrapped, 2u);
  EXPECT_EQ(trace_report(*reader)["wrapped"], 2);
}

TEST(TraceOptions, RequestLargerThanTheDriveIsAnError) {
  const std::string path = spc({"0,0,4096,w,0", "0,0,2097152,w,1"});
  EXPECT_EQ(trace_error(path, on_drive(kMiB)),
            path +
                ":2: size: request of 2097152 bytes is larger than the 1048576-byte region "
                "it maps to");
}

TEST(TraceOptions, ScaleShrinksTheTraceEvenly) {
  // The trace addresses 8 MiB (given); the drive has 1 MiB: offsets / 8, in whole sectors.
  const std::string path = spc({"0,0,4096,w,0", "0,8192,4096,w,1", "0,16376,4096,w,2"});
  TraceOptions o = on_drive(kMiB);
  o.fit = Fit::kScale;
  o.trace_capacity = 8 * kMiB;
  const std::unique_ptr<TraceReader> reader = open_trace(path, o);
  const auto all = read_all(*reader);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].offset_bytes, 0u);
  EXPECT_EQ(all[1].offset_bytes, 8192u * 512 / 8);
  // 16376 sectors / 8 = 1047552 bytes, whose 4 KiB would cross the end: moved back.
  EXPECT_EQ(all[2].offset_bytes, kMiB - 4096);
  EXPECT_EQ(reader->counters().scaled, 3u);
  EXPECT_EQ(reader->counters().wrapped, 1u);
  EXPECT_EQ(trace_report(*reader)["trace_capacity"], 8 * kMiB);
}

TEST(TraceOptions, ScaleMeasuresTheTraceInAFirstPass) {
  // The largest end is 4 MiB: scaled onto 1 MiB, offsets / 4.
  const std::string path = spc({"0,4096,4096,w,0", "0,8184,4096,w,1"});
  TraceOptions o = on_drive(kMiB);
  o.fit = Fit::kScale;
  const std::unique_ptr<TraceReader> reader = open_trace(path, o);
  const auto all = read_all(*reader);
  EXPECT_EQ(reader->counters().trace_capacity, 8184u * 512 + 4096);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].offset_bytes, 4096u * 512 / 4);
}

TEST(TraceOptions, AlignToPageRoundsRequestsOut) {
  // 3584 bytes at sector 303567 (byte 155426304 = page 37945 + 3584 bytes): two pages.
  // 1024 bytes at 4096 - 512: two pages. A whole page stays as it is.
  const std::string path = spc({"0,303567,3584,w,0", "0,7,1024,w,1", "0,8,4096,w,2"});
  TraceOptions o = on_drive(1024 * kMiB);
  o.align_to_page = true;
  const std::unique_ptr<TraceReader> reader = open_trace(path, o);
  const auto all = read_all(*reader);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].offset_bytes, 37945u * 4096);
  EXPECT_EQ(all[0].length_bytes, 8192u);
  EXPECT_EQ(all[1].offset_bytes, 0u);
  EXPECT_EQ(all[1].length_bytes, 8192u);
  EXPECT_EQ(all[2].offset_bytes, 4096u);
  EXPECT_EQ(all[2].length_bytes, 4096u);
  EXPECT_EQ(reader->counters().aligned, 2u);
}

TEST(TraceOptions, TimeWindowAndRequestLimit) {
  const std::string path =
      spc({"0,0,512,r,10", "0,1,512,r,11", "0,2,512,r,12.5", "0,3,512,r,13", "0,4,512,r,20"});
  TraceOptions o = with_format("spc");
  o.start_ps = 1'000'000'000'000;  // 1 s after the first record (10 s)
  o.end_ps = 3'000'000'000'000;
  const std::unique_ptr<TraceReader> reader = open_trace(path, o);
  const auto all = read_all(*reader);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].offset_bytes, 512u);
  EXPECT_EQ(ps(all[0]), 0u);
  EXPECT_EQ(ps(all[1]), 1'500'000'000'000u);
  EXPECT_EQ(reader->counters().before_start, 1u);
  EXPECT_TRUE(reader->counters().stopped_early);

  TraceOptions limit = with_format("spc");
  limit.max_requests = 3;
  const std::unique_ptr<TraceReader> limited = open_trace(path, limit);
  EXPECT_EQ(read_all(*limited).size(), 3u);
  EXPECT_TRUE(limited->counters().stopped_early);
  limit.max_requests = 5;
  const std::unique_ptr<TraceReader> whole = open_trace(path, limit);
  EXPECT_EQ(read_all(*whole).size(), 5u);
  EXPECT_FALSE(whole->counters().stopped_early);
}

TEST(TraceOptions, TimeScaleMultipliesInterArrivals) {
  const std::string path = spc({"0,0,512,r,100", "0,1,512,r,101", "0,2,512,r,104"});
  TraceOptions o = with_format("spc");
  o.time_scale = 0.5;
  const auto all = read_trace(path, o);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(ps(all[1]), 500'000'000'000u);
  EXPECT_EQ(ps(all[2]), 2'000'000'000'000u);
}

TEST(TraceOptions, ClosedLoopKeepsTheQueueFull) {
  TraceOptions o = with_format("spc");
  o.closed_loop = true;
  o.queue_depth = 16;
  const std::unique_ptr<TraceReader> reader = open_trace(spc({"0,0,512,r,1"}), o);
  EXPECT_FALSE(reader->timed());
  EXPECT_EQ(reader->host_queue_depth(), 16u);
  EXPECT_TRUE(open_trace(spc({"0,0,512,r,1"}), with_format("spc"))->timed());
}

TEST(TraceOptions, ReorderWindowSortsWithinItsBound) {
  // Each record is at most 2 places late.
  const std::string path = spc({"0,1,512,r,1", "0,3,512,r,3", "0,2,512,r,2", "0,0,512,r,0.5",
                                "0,5,512,r,5", "0,4,512,r,4", "0,6,512,r,4"});
  TraceOptions o = with_format("spc");
  o.reorder_window = 3;
  const std::unique_ptr<TraceReader> reader = open_trace(path, o);
  const auto all = read_all(*reader);
  ASSERT_EQ(all.size(), 7u);
  const uint64_t sectors[] = {0, 1, 2, 3, 4, 6, 5};  // equal times keep file order
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ(all[i].offset_bytes, sectors[i] * 512) << i;
  EXPECT_EQ(ps(all[0]), 0u);  // 0.5 s, before the file's first record, is time zero
  EXPECT_EQ(ps(all[6]), 4'500'000'000'000u);
  EXPECT_EQ(reader->counters().reordered, 4u);

  o.reorder_window = 1;
  EXPECT_EQ(trace_error(path, o),
            path +
                ":4: Timestamp: out of order by more than --reorder-window 1 records (0.5 s "
                "after 2 s, already replayed)");
}

TEST(TraceOptions, SkipBadLinesCountsAndReports) {
  std::string text = "0,0,512,r,0\n";
  for (int i = 0; i < 7; ++i) text += "0,x" + std::to_string(i) + ",512,r,1\n";
  text += "0,8,512,w,0.5\n0,9,512,r,0.25\n0,10,512,r,2\n";
  const std::string path = write_file("bad.spc", text);
  TraceOptions o = with_format("spc");
  o.skip_bad_lines = true;
  const std::unique_ptr<TraceReader> reader = open_trace(path, o);
  const auto all = read_all(*reader);
  ASSERT_EQ(all.size(), 3u);  // the 0.25 s record goes back in time: skipped too
  EXPECT_EQ(reader->counters().skipped, 8u);
  const auto report = trace_report(*reader);
  EXPECT_EQ(report["skipped_lines"], 8);
  ASSERT_EQ(report["skipped_messages"].size(), 5u);
  EXPECT_EQ(report["skipped_messages"][0],
            path + ":2: LBA: expected an unsigned integer, got \"x0\"");
  // Without the option the first one stops the run.
  EXPECT_EQ(trace_error(path, with_format("spc")),
            path + ":2: LBA: expected an unsigned integer, got \"x0\"");
}

TEST(TraceOptions, ReportNamesEverySetting) {
  TraceOptions o = on_drive(kMiB);
  o.time_scale = 2;
  o.end_ps = 5'000'000'000'000;
  const std::unique_ptr<TraceReader> reader = open_trace(spc({"0,0,512,r,0"}), o);
  read_all(*reader);
  const auto t = trace_report(*reader);
  for (const char* key :
       {"file",          "format",        "detected",         "compressed",    "records",
        "ignored_lines", "skipped_lines", "skipped_messages", "other_volumes", "before_start",
        "reordered",     "requests",      "stopped_early",    "aligned",       "wrapped",
        "scaled",        "fit",           "trace_capacity",   "volume_map",    "slices",
        "sector_bytes",  "time_scale",    "closed_loop",      "start_s",       "end_s",
        "max_requests"}) {
    EXPECT_TRUE(t.contains(key)) << key;
  }
  EXPECT_EQ(t["format"], "spc");
  EXPECT_EQ(t["records"], 1);
  EXPECT_EQ(t["requests"], 1);
  EXPECT_EQ(t["time_scale"], 2.0);
  EXPECT_EQ(t["end_s"], 5.0);
}

TEST(TraceOptionsCli, DetectionLineAndReportInReportJson) {
  const std::string dir = test::temp_dir("out");
  std::string out;
  ASSERT_EQ(test::run_ssdtlm("--config " + test::source_path("configs/small_gc.json") +
                                 " --trace " + test::source_path("traces/msr_hm_0.slice.csv") +
                                 " --max-requests 300 --closed-loop --qd 4 --fit scale"
                                 " --align-to-page --out " +
                                 dir,
                             out),
            0)
      << out;
  EXPECT_NE(out.find("ssdtlm: trace format: msr (detected)\n"), std::string::npos) << out;
  const auto report = nlohmann::json::parse(test::slurp(dir + "/report.json"));
  const auto& t = report["trace"];
  EXPECT_EQ(t["format"], "msr");
  EXPECT_EQ(t["detected"], true);
  EXPECT_EQ(t["requests"], 300);
  EXPECT_EQ(t["closed_loop"], true);
  EXPECT_EQ(t["fit"], "scale");
  EXPECT_GT(t["trace_capacity"].get<uint64_t>(), 0u);
  EXPECT_EQ(report["requests"]["count"], 300);
  // An explicit format says nothing.
  ASSERT_EQ(test::run_ssdtlm("--config " + test::source_path("configs/small_gc.json") +
                                 " --trace " + test::source_path("traces/msr_hm_0.slice.csv") +
                                 " --format msr --max-requests 10 --out " + dir,
                             out),
            0)
      << out;
  EXPECT_EQ(out.find("(detected)"), std::string::npos) << out;
}

TEST(TraceOptionsCli, BadLineStopsTheRunUnlessSkipped) {
  const std::string trace = write_file("bad.spc", "0,1,512,w,0\n0,zz,512,r,1\n0,2,512,r,2\n");
  const std::string dir = test::temp_dir("out");
  const std::string common =
      "--config " + test::source_path("configs/small_gc.json") + " --trace " + trace;
  std::string out;
  EXPECT_EQ(test::run_ssdtlm(common + " --out " + dir, out), 1);
  EXPECT_NE(out.find("ssdtlm: error: " + trace +
                     ":2: LBA: expected an unsigned integer, got "
                     "\"zz\""),
            std::string::npos)
      << out;
  ASSERT_EQ(test::run_ssdtlm(common + " --skip-bad-lines --out " + dir, out), 0) << out;
  const auto report = nlohmann::json::parse(test::slurp(dir + "/report.json"));
  EXPECT_EQ(report["trace"]["skipped_lines"], 1);
  EXPECT_EQ(report["requests"]["count"], 2);
}

TEST(TraceOptionsCli, FlagErrorsNameTheFlag) {
  const std::string common = "--config " + test::source_path("configs/small_gc.json") +
                             " --trace " +
                             test::source_path("traces/umass_financial1.head10k.spc") + " --out " +
                             test::temp_dir("out") + " ";
  const std::pair<const char*, const char*> cases[] = {
      {"--volume 1,x",
       "--volume: expected a volume number or MAJOR:MINOR device numbers, got \"x\""},
      {"--fit squeeze", "--fit: expected wrap or scale, got \"squeeze\""},
      {"--time-scale nan", "--time-scale: expected a finite non-negative number, got \"nan\""},
      {"--max-requests -1", "--max-requests: expected an unsigned integer, got \"-1\""},
      {"--volumes 3", "--volumes: applies only to --volume-map concat"},
      {"--trace-capacity 1g", "--trace-capacity: applies only to --fit scale"},
      {"--start-s 5 --end-s 5", "--start-s: expected less than --end-s"},
      {"--sector-bytes 0", "--sector-bytes: expected a positive size"},
      {"--format ibm", "--format: unknown format 'ibm'"},
      {"--blkparse-event C", "--blkparse-event: expected Q or D, got \"C\""},
      {"--qd 0 --closed-loop", "--qd: expected 1 to 4294967295 outstanding requests, got \"0\""},
  };
  for (const auto& [flags, message] : cases) {
    std::string out;
    EXPECT_EQ(test::run_ssdtlm(common + flags, out), 2) << flags;
    EXPECT_NE(out.find(std::string("ssdtlm: error: ") + message), std::string::npos)
        << flags << "\n"
        << out;
  }
}

}  // namespace
}  // namespace ssd::tb
