// Every way a line of each format can be malformed, read without and with --skip-bad-lines:
// without, the first bad line stops the read with a BadLineError naming the file, the line
// and the field; with, each is counted, the first few messages are kept word for word, and
// the good lines around them are read.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/Errors.h"
#include "tb/tests/TraceTestUtil.h"
#include "tb/trace/TraceFactory.h"

namespace ssd::tb {
namespace {

using test::read_all;
using test::with_format;
using test::write_file;

// A line of `format` that fails to parse, and its message after "<path>:<line>: ".
struct BadLine {
  const char* format;
  const char* text;
  const char* message;
};

const BadLine kBadLines[] = {
    {"spc", "0,0,512,r", "record: expected 5 comma-separated fields, got 4"},
    {"spc", "x,0,512,r,0", "ASU: expected an unsigned integer, got \"x\""},
    {"spc", "99999999999999999999,0,512,r,0",
     "ASU: expected an unsigned integer below 2^64, got \"99999999999999999999\""},
    {"spc", "0,x,512,r,0", "LBA: expected an unsigned integer, got \"x\""},
    {"spc", "0,36028797018963968,512,r,0",
     "LBA: request ends beyond 2^64 bytes, got \"36028797018963968\""},
    {"spc", "0,0,x,r,0", "Size: expected an unsigned integer, got \"x\""},
    {"spc", "0,0,0,r,0", "Size: expected a positive byte count, got \"0\""},
    {"spc", "0,36028797018963967,512,r,0",
     "LBA: request ends beyond 2^64 bytes, got \"36028797018963967\""},
    {"spc", "0,0,512,x,0", "Opcode: expected r or w, got \"x\""},
    {"spc", "0,0,512,r,x", "Timestamp: expected decimal seconds, got \"x\""},
    {"spc", "0,0,512,r,.", "Timestamp: expected decimal seconds, got \".\""},
    {"spc", "0,0,512,r,1.2x", "Timestamp: expected decimal seconds, got \"1.2x\""},
    {"msr", "1,h,0,Read,0,512", "record: expected 7 comma-separated fields, got 6"},
    {"msr", "x,h,0,Read,0,512,0", "Timestamp: expected an unsigned integer, got \"x\""},
    {"msr", "1,,0,Read,0,512,0", "Hostname: expected a name, got \"\""},
    {"msr", "1,h,x,Read,0,512,0", "DiskNumber: expected an unsigned integer, got \"x\""},
    {"msr", "1,h,0,Trim,0,512,0", "Type: expected Read or Write, got \"Trim\""},
    {"msr", "1,h,0,Read,x,512,0", "Offset: expected an unsigned integer, got \"x\""},
    {"msr", "1,h,0,Read,0,x,0", "Size: expected an unsigned integer, got \"x\""},
    {"msr", "1,h,0,Read,0,0,0", "Size: expected a positive byte count, got \"0\""},
    {"msr", "1,h,0,Read,18446744073709551615,512,0",
     "Offset: request ends beyond 2^64 bytes, got \"18446744073709551615\""},
    {"msr", "1,h,0,Read,0,512,x", "ResponseTime: expected an unsigned integer, got \"x\""},
    {"disksim", "0 0 1 8", "record: expected 5 blank-separated fields, got 4"},
    {"disksim", "x 0 1 8 1", "time: expected a decimal time in ns, got \"x\""},
    {"disksim", "0 x 1 8 1", "devno: expected an unsigned integer, got \"x\""},
    {"disksim", "0 0 x 8 1", "lba: expected an unsigned integer, got \"x\""},
    {"disksim", "0 0 36028797018963968 8 1",
     "lba: request ends beyond 2^64 bytes, got \"36028797018963968\""},
    {"disksim", "0 0 1 x 1", "size: expected an unsigned integer, got \"x\""},
    {"disksim", "0 0 1 36028797018963968 1",
     "size: request ends beyond 2^64 bytes, got \"36028797018963968\""},
    {"disksim", "0 0 1 0 1", "size: expected a positive sector count, got \"0\""},
    {"disksim", "0 0 36028797018963967 8 1",
     "lba: request ends beyond 2^64 bytes, got \"36028797018963967\""},
    {"disksim", "0 0 1 8 x", "flags: expected an unsigned integer, got \"x\""},
    {"fiu", "1 2 p 3 8 W 8 0", "record: expected 9 blank-separated fields, got 8"},
    {"fiu", "x 2 p 3 8 W 8 0 00112233445566778899aabbccddeeff",
     "ts: expected an unsigned integer, got \"x\""},
    {"fiu", "1 x p 3 8 W 8 0 00112233445566778899aabbccddeeff",
     "pid: expected an unsigned integer, got \"x\""},
    {"fiu", "1 2 p x 8 W 8 0 00112233445566778899aabbccddeeff",
     "lba: expected an unsigned integer, got \"x\""},
    {"fiu", "1 2 p 3 x W 8 0 00112233445566778899aabbccddeeff",
     "size: expected an unsigned integer, got \"x\""},
    {"fiu", "1 2 p 3 0 W 8 0 00112233445566778899aabbccddeeff",
     "size: expected a positive sector count, got \"0\""},
    {"fiu", "1 2 p 36028797018963967 8 W 8 0 00112233445566778899aabbccddeeff",
     "lba: request ends beyond 2^64 bytes, got \"36028797018963967\""},
    {"fiu", "1 2 p 3 8 X 8 0 00112233445566778899aabbccddeeff", "rw: expected R or W, got \"X\""},
    {"fiu", "1 2 p 3 8 W x 0 00112233445566778899aabbccddeeff",
     "major: expected an unsigned integer, got \"x\""},
    {"fiu", "1 2 p 3 8 W 8 x 00112233445566778899aabbccddeeff",
     "minor: expected an unsigned integer, got \"x\""},
    {"fiu", "1 2 p 3 8 W 4294967296 0 00112233445566778899aabbccddeeff",
     "major: expected a device number below 2^32, got \"4294967296\""},
    {"fiu", "1 2 p 3 8 W 8 4294967296 00112233445566778899aabbccddeeff",
     "minor: expected a device number below 2^32, got \"4294967296\""},
    {"fiu", "1 2 p 3 8 W 8 0 0011", "md5: expected 32 hexadecimal digits, got \"0011\""},
    {"fiu", "1 2 p 3 8 W 8 0 00112233445566778899aabbccddeefg",
     "md5: expected 32 hexadecimal digits, got \"00112233445566778899aabbccddeefg\""},
    {"csv", "0,read,0", "record: expected 4 comma-separated fields, got 3"},
    {"csv", "x,read,0,512", "time_ns: expected an unsigned integer, got \"x\""},
    {"csv", "0,x,0,512", "op: expected read, write or trim (or R, W, T), got \"x\""},
    {"csv", "0,read,x,512", "offset: expected an unsigned integer, got \"x\""},
    {"csv", "0,read,1,512", "offset: expected a multiple of 512 bytes, got \"1\""},
    {"csv", "0,read,0,x", "length: expected an unsigned integer, got \"x\""},
    {"csv", "0,read,0,1", "length: expected a positive multiple of 512 bytes, got \"1\""},
    {"csv", "0,read,0,0", "length: expected a positive multiple of 512 bytes, got \"0\""},
    {"csv", "0,read,18446744073709551104,512",
     "offset: request ends beyond 2^64 bytes, got \"18446744073709551104\""},
    {"blkparse", "  8,0 0 1",
     "record: expected at least 7 blank-separated fields (device cpu sequence time pid action "
     "rwbs), got 3"},
    {"blkparse", "  8-0 0 1 0.5 1 Q W 8 + 8 [x]",
     "device: expected major,minor device numbers below 2^32, got \"8-0\""},
    {"blkparse", "  8,4294967296 0 1 0.5 1 Q W 8 + 8 [x]",
     "device: expected major,minor device numbers below 2^32, got \"8,4294967296\""},
    {"blkparse", "  8,0 x 1 0.5 1 Q W 8 + 8 [x]", "cpu: expected an unsigned integer, got \"x\""},
    {"blkparse", "  8,0 0 x 0.5 1 Q W 8 + 8 [x]",
     "sequence: expected an unsigned integer, got \"x\""},
    {"blkparse", "  8,0 0 1 0.5 x Q W 8 + 8 [x]", "pid: expected an unsigned integer, got \"x\""},
    {"blkparse", "  8,0 0 1 0.5 1 Q W 8 - 8 [x]",
     "record: expected `sector + nsect` after the rwbs field, got \"  8,0 0 1 0.5 1 Q W 8 - 8 "
     "[x]\""},
    {"blkparse", "  8,0 0 1 0.5 1 Q W x + 8 [x]",
     "sector: expected an unsigned integer, got \"x\""},
    {"blkparse", "  8,0 0 1 0.5 1 Q W 8 + x [x]", "nsect: expected an unsigned integer, got \"x\""},
    {"blkparse", "  8,0 0 1 0.5 1 Q W 36028797018963967 + 8 [x]",
     "sector: request ends beyond 2^64 bytes, got \"36028797018963967\""},
    {"blkparse", "  8,0 0 1 0.5s 1 Q W 8 + 8 [x]", "time: expected decimal seconds, got \"0.5s\""},
    {"blkparse", "  8,0 0 1 0.5s 1 Q FWS 8 + 8 [x]",
     "time: expected decimal seconds, got \"0.5s\""},
};

// The lines a file of `format` starts with, and a line of it that is one request.
std::string header(const std::string& format) {
  return format == "csv" ? "time_ns,op,offset,length\n" : "";
}

std::string good_line(const std::string& format) {
  if (format == "spc") return "0,0,512,r,0";
  if (format == "msr") return "1,h,0,Read,0,512,0";
  if (format == "disksim") return "0 0 1 8 1";
  if (format == "fiu") return "1 2 p 3 8 W 8 0 00112233445566778899aabbccddeeff";
  if (format == "csv") return "0,read,0,512";
  return "  8,0 0 1 0.5 1 Q W 8 + 8 [x]";
}

// The BadLineError message of reading `path` to its end, or "" if there is none.
std::string bad_line_error(const std::string& path, const TraceOptions& opts) {
  try {
    test::read_trace(path, opts);
  } catch (const BadLineError& e) {
    return e.what();
  }
  return "";
}

struct Skipped {
  size_t requests;
  uint64_t skipped;
  std::vector<std::string> messages;
};

Skipped read_skipping(const std::string& path, TraceOptions opts) {
  opts.skip_bad_lines = true;
  const std::unique_ptr<TraceReader> reader = open_trace(path, opts);
  const size_t requests = read_all(*reader).size();
  return {requests, reader->counters().skipped, reader->counters().skipped_messages};
}

TEST(TraceBadLines, EachStopsTheReadOrIsSkippedWithItsMessage) {
  for (const BadLine& b : kBadLines) {
    SCOPED_TRACE(b.text);
    const std::string good = good_line(b.format);
    const std::string first = header(b.format) + good + "\n";
    const std::string path = write_file("bad", first + b.text + "\n" + good + "\n");
    const std::string line = std::to_string(std::count(first.begin(), first.end(), '\n') + 1);
    const std::string message = path + ":" + line + ": " + b.message;
    EXPECT_EQ(bad_line_error(path, with_format(b.format)), message);
    const Skipped s = read_skipping(path, with_format(b.format));
    EXPECT_EQ(s.requests, 2u);
    EXPECT_EQ(s.skipped, 1u);
    EXPECT_EQ(s.messages, std::vector<std::string>{message});
  }
}

// Every bad line of each format a hundred times between good ones: all counted, the first
// five messages kept.
TEST(TraceBadLines, ManySkippedKeepTheFirstFiveMessages) {
  for (const char* format : {"spc", "msr", "disksim", "fiu", "csv", "blkparse"}) {
    SCOPED_TRACE(format);
    const std::string good = good_line(format) + "\n";
    std::string text = header(format);
    uint64_t line = text.empty() ? 0 : 1;
    uint64_t bad = 0;
    std::vector<std::string> first_five;  // after "<path>:"
    for (int round = 0; round < 100; ++round) {
      for (const BadLine& b : kBadLines) {
        if (b.format != std::string(format)) continue;
        text += good + b.text + "\n";
        line += 2;
        ++bad;
        if (first_five.size() < 5) first_five.push_back(std::to_string(line) + ": " + b.message);
      }
    }
    const std::string path = write_file("many", text + good);
    for (std::string& m : first_five) m.insert(0, path + ":");
    const Skipped s = read_skipping(path, with_format(format));
    EXPECT_EQ(s.requests, bad + 1);
    EXPECT_EQ(s.skipped, bad);
    EXPECT_EQ(s.messages, first_five);
    EXPECT_EQ(bad_line_error(path, with_format(format)), first_five[0]);
  }
}

// A record that parses but cannot be replayed as asked: out of order, beyond the simulated
// time range, or not fitting the drive.
TEST(TraceBadLines, RecordsTheOptionsRejectStopTheReadOrAreSkipped) {
  struct Case {
    const char* what;
    std::string text;  // in opts.format
    TraceOptions opts;
    const char* message;  // after "<path>:"
    size_t requests;      // with the bad lines skipped
  };
  TraceOptions window = with_format("spc");
  window.reorder_window = 1;
  TraceOptions wide_window = with_format("spc");
  wide_window.reorder_window = 2;
  TraceOptions scaled = with_format("spc");
  scaled.time_scale = 1e6;
  TraceOptions drive = with_format("spc");
  drive.capacity_bytes = uint64_t{1} << 20;
  drive.page_bytes = 4096;
  TraceOptions aligned = with_format("spc");
  aligned.page_bytes = 4096;
  aligned.align_to_page = true;
  TraceOptions concat = drive;
  concat.volume_map = VolumeMap::kConcat;
  concat.volume_count = 1;
  TraceOptions measured = drive;
  measured.fit = Fit::kScale;  // read twice: a first pass measures the trace
  const Case cases[] = {
      {"back in time", "0,0,512,r,2\n0,0,512,r,1\n0,0,512,r,3\n", with_format("spc"),
       "2: Timestamp: goes back in time (1 s after 2 s)", 2},
      {"back in time, in ns", "5 0 1 8 1\n4 0 1 8 1\n6 0 1 8 1\n", with_format("disksim"),
       "2: time: goes back in time (4 ns after 5 ns)", 2},
      {"back in time, in ticks", "20,h,0,Read,0,512,0\n10,h,0,Read,0,512,0\n30,h,0,Read,0,512,0\n",
       with_format("msr"), "2: Timestamp: goes back in time (10 x 100 ns after 20 x 100 ns)", 2},
      {"beyond the window", "0,0,512,r,2\n0,0,512,r,3\n0,0,512,r,1\n0,0,512,r,4\n", window,
       "3: Timestamp: out of order by more than --reorder-window 1 records (1 s after 2 s, "
       "already replayed)",
       3},
      {"far after", "0,0,512,r,0\n0,0,512,r,9300000\n0,0,512,r,1\n", with_format("spc"),
       "2: Timestamp: more than 9223372 s after the first record, beyond the simulated time range",
       2},
      {"far before", "0,0,512,r,9300000\n0,0,512,r,0\n0,0,512,r,9300001\n", wide_window,
       "2: Timestamp: more than 9223372 s before the first record, beyond the simulated time "
       "range",
       2},
      {"arrives too late", "0,0,512,r,0\n0,0,512,r,10\n", scaled,
       "2: Timestamp: arrives more than 9223372 s after the first request, beyond the simulated "
       "time range",
       1},
      {"larger than the drive", "0,0,512,r,0\n0,0,2097152,r,1\n0,0,512,r,2\n", drive,
       "2: size: request of 2097152 bytes is larger than the 1048576-byte region it maps to", 2},
      {"in the last page", "0,0,512,r,0\n0,36028797018963966,512,r,1\n0,0,512,r,2\n", aligned,
       "2: offset: request ends in the last page below 2^64 bytes", 2},
      {"one volume too many", "0,0,512,r,0\n1,0,512,r,1\n0,0,512,r,2\n", concat,
       "2: volume: volume 1 is one more than --volumes 1", 2},
      {"in the first pass", "0,0,512,r,0\n0,x,512,r,1\n0,0,512,r,2\n", measured,
       "2: LBA: expected an unsigned integer, got \"x\"", 2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string path = write_file("bad.txt", c.text);
    const std::string message = path + ":" + c.message;
    EXPECT_EQ(bad_line_error(path, c.opts), message);
    const Skipped s = read_skipping(path, c.opts);
    EXPECT_EQ(s.requests, c.requests);
    EXPECT_EQ(s.skipped, 1u);
    EXPECT_EQ(s.messages, std::vector<std::string>{message});
  }
}

}  // namespace
}  // namespace ssd::tb
