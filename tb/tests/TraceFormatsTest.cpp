// The trace formats: each shipped excerpt's first records checked by hand, format detection,
// gzip input, and the rules and errors of each format.
#include <sys/stat.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/Errors.h"
#include "tb/tests/TraceTestUtil.h"
#include "tb/trace/BlkparseReader.h"
#include "tb/trace/DiskSimReader.h"
#include "tb/trace/FiuReader.h"
#include "tb/trace/MsrReader.h"
#include "tb/trace/TraceFactory.h"

namespace ssd::tb {
namespace {

using test::ps;
using test::read_all;
using test::read_trace;
using test::trace_error;
using test::with_format;
using test::write_file;

constexpr uint64_t kSector = 512;

std::string excerpt(const std::string& name) { return test::source_path("traces/" + name); }

struct Expected {
  uint64_t arrival_ps;
  IoOp op;
  uint64_t offset;
  uint64_t length;
};

void expect_first(const std::vector<HostRequest>& all, const std::vector<Expected>& expected) {
  ASSERT_GE(all.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ps(all[i]), expected[i].arrival_ps);
    EXPECT_EQ(all[i].op, expected[i].op);
    EXPECT_EQ(all[i].offset_bytes, expected[i].offset);
    EXPECT_EQ(all[i].length_bytes, expected[i].length);
  }
}

TEST(TraceFormats, DiskSimFinancial1FirstRecords) {
  // 0 0 303567 7 0 / 0 1 55590 6 0 / 26214000 0 303574 7 0 / 26214000 1 240840 6 0 /
  // 78643005 1 55596 6 1; time in ns, lba and size in sectors, flags bit 0 = read.
  const auto all =
      read_trace(excerpt("umass_financial1.head10k.disksim.ascii"), with_format("disksim"));
  EXPECT_EQ(all.size(), 10000u);
  expect_first(all, {{0, IoOp::Write, 303567 * kSector, 7 * 512},
                     {0, IoOp::Write, 55590 * kSector, 6 * 512},
                     {26'214'000'000, IoOp::Write, 303574 * kSector, 7 * 512},
                     {26'214'000'000, IoOp::Write, 240840 * kSector, 6 * 512},
                     {78'643'005'000, IoOp::Read, 55596 * kSector, 6 * 512}});
  // Last line: 259601203125 8 146550 1 1
  EXPECT_EQ(ps(all.back()), 259'601'203'125'000u);
  EXPECT_EQ(all.back().op, IoOp::Read);
}

TEST(TraceFormats, NativeCsvExcerptFirstRecords) {
  // time_ns,op,offset,length / 0,write,155426304,3584 / 0,write,28462080,3072 /
  // 26214000,write,155429888,3584
  const auto all = read_trace(excerpt("umass_financial1.head1k.csv"), with_format("csv"));
  EXPECT_EQ(all.size(), 1000u);
  expect_first(all, {{0, IoOp::Write, 155426304, 3584},
                     {0, IoOp::Write, 28462080, 3072},
                     {26'214'000'000, IoOp::Write, 155429888, 3584}});
  // Last line: 30159666015,write,156196352,31232
  EXPECT_EQ(ps(all.back()), 30'159'666'015'000u);
  EXPECT_EQ(all.back().length_bytes, 31232u);
}

TEST(TraceFormats, DiskSimMsnfsInMilliseconds) {
  // 0.000 5 174224064 16 1 / 0.221 5 162947904 16 1 / 0.594 5 174933616 16 1
  TraceOptions o = with_format("disksim");
  o.time_unit = "ms";
  const auto all = read_trace(excerpt("ms_msnfs.disk5.head20k.ascii"), o);
  EXPECT_EQ(all.size(), 20000u);
  expect_first(all, {{0, IoOp::Read, 174224064 * kSector, 16 * 512},
                     {221'000'000, IoOp::Read, 162947904 * kSector, 16 * 512},
                     {594'000'000, IoOp::Read, 174933616 * kSector, 16 * 512}});
  // Last line: 6205.142 5 172638448 16 1
  EXPECT_EQ(ps(all.back()), 6'205'142'000'000u);
}

TEST(TraceFormats, MsrHm0FirstRecords) {
  // 128166386783630075,hm,0,Write,3164164096,40960,2896
  // 128166386783630309,hm,0,Write,3164147712,16384,2663  (+234 ticks of 100 ns)
  // 128166386783631602,hm,0,Write,3282006016,4096,1369   (+1527 ticks)
  const auto all = read_trace(excerpt("msr_hm_0.slice.csv"), with_format("msr"));
  EXPECT_EQ(all.size(), 7016u);  // the last line has no newline
  expect_first(all, {{0, IoOp::Write, 3164164096u, 40960},
                     {23'400'000, IoOp::Write, 3164147712u, 16384},
                     {152'700'000, IoOp::Write, 3282006016u, 4096}});
  // Last line: 128166388267685088,hm,0,Read,9213370368,4096,885
  EXPECT_EQ(ps(all.back()), (128166388267685088u - 128166386783630075u) * 100'000);
  EXPECT_EQ(all.back().op, IoOp::Read);
  EXPECT_EQ(all.back().offset_bytes, 9213370368u);
}

TEST(TraceFormats, FiuMailFirstRecordsCarryTheMd5) {
  // 89966522969723 4270 rpc.mountd 18579576 8 W 6 0 d6c75ba46e82326fefa545b57a12e221
  // 89966527950584 4253 nfsd 508516672 8 W 6 0 88b93b628d84082186026d9da044f173
  const auto all = read_trace(excerpt("fiu_mail.head10k.txt"), with_format("fiu"));
  EXPECT_EQ(all.size(), 9998u);
  expect_first(all, {{0, IoOp::Write, 18579576 * kSector, 4096},
                     {4'980'861'000, IoOp::Write, 508516672 * kSector, 4096}});
  const Fingerprint md5 = {0xd6, 0xc7, 0x5b, 0xa4, 0x6e, 0x82, 0x32, 0x6f,
                           0xef, 0xa5, 0x45, 0xb5, 0x7a, 0x12, 0xe2, 0x21};
  EXPECT_TRUE(all[0].has_fingerprint);
  EXPECT_EQ(all[0].fingerprint, md5);
  EXPECT_NE(all[1].fingerprint, md5);
  // Reads carry the MD5 of the data read.
  EXPECT_EQ(all.back().op, IoOp::Read);
  EXPECT_TRUE(all.back().has_fingerprint);
}

TEST(TraceFormats, FiuEqualContentGivesEqualFingerprints) {
  const std::string path = write_file("dup.txt",
                                      "1000 1 a 0 8 W 8 0 00112233445566778899aabbccddeeff\n"
                                      "2000 1 a 64 8 W 8 0 00112233445566778899AABBCCDDEEFF\n"
                                      "3000 1 a 128 8 W 8 0 ffeeddccbbaa99887766554433221100\n");
  const auto all = read_trace(path, with_format("fiu"));
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].fingerprint, all[1].fingerprint);
  EXPECT_NE(all[0].fingerprint, all[2].fingerprint);
}

TEST(TraceFormats, BlkparseExcerptFirstRecords) {
  //   6,0    0        1     0.000000000  4270  Q   W 18579576 + 8 [rpc.mountd]
  //   6,0    0        2     0.004980861  4253  Q   W 508516672 + 8 [nfsd]
  const auto all = read_trace(excerpt("fiu_mail.head2k.blkparse.txt"), with_format("blkparse"));
  EXPECT_EQ(all.size(), 2000u);
  expect_first(all, {{0, IoOp::Write, 18579576 * kSector, 4096},
                     {4'980'861'000, IoOp::Write, 508516672 * kSector, 4096}});
  // The same records as the FIU file they were converted from.
  TraceOptions fiu = with_format("fiu");
  fiu.max_requests = 2000;
  const auto original = read_trace(excerpt("fiu_mail.head10k.txt"), fiu);
  ASSERT_EQ(original.size(), 2000u);
  for (size_t i = 0; i < all.size(); ++i) {
    ASSERT_EQ(ps(all[i]), ps(original[i])) << i;
    ASSERT_EQ(all[i].offset_bytes, original[i].offset_bytes) << i;
    ASSERT_EQ(all[i].op, original[i].op) << i;
  }
}

// A blktrace of every kind of event, as blkparse prints them.
constexpr const char* kBlkparseEvents =
    "  8,0    3        1     0.000000000  4162  A  WS 2048 + 8 <- (8,1) 0\n"
    "  8,0    3        2     0.000000500  4162  Q  WS 2048 + 8 [jbd2/sda1-8]\n"
    "  8,0    3        3     0.000001000  4162  G  WS 2048 + 8 [jbd2/sda1-8]\n"
    "  8,0    3        4     0.000001500  4162  P   N [jbd2/sda1-8]\n"
    "  8,0    3        5     0.000002000  4162  I  WS 2048 + 8 [jbd2/sda1-8]\n"
    "  8,0    3        6     0.000010000   223  D  WS 2048 + 8 [kworker/3:1H]\n"
    "  8,0    3        7     0.000020000  4162  Q  RA 4096 + 16 [cat]\n"
    "  8,0    3        8     0.000025000  4162  Q FWS 0 + 0 [sync]\n"
    "  8,0    3        9     0.000030000     0  m   N cfq4162 insert_request\n"
    "  8,0    3       10     0.000040000  4162  Q  DS 8192 + 2048 [fstrim]\n"
    "  8,0    0       11     0.000050000   223  D  RA 4096 + 16 [kworker/0:1H]\n"
    "  8,0    0       12     0.000300000     0  C  WS 2048 + 8 [0]\n"
    "  8,16   1        1     0.000400000  4170  Q   W 100 + 8 [dd]\n"
    "CPU0 (8,0):\n"
    " Reads Queued:           1,        8KiB\t Writes Queued:           1,        4KiB\n"
    "Total (8,0):\n";

TEST(TraceFormats, BlkparseQueuedEvents) {
  const std::string path = write_file("events.txt", kBlkparseEvents);
  const std::unique_ptr<TraceReader> reader = open_trace(path, with_format("auto"));
  EXPECT_EQ(reader->counters().format, "blkparse");
  const auto all = read_all(*reader);
  // Q events: the sync write, the read-ahead, the preflush without data (a flush), the
  // discard, and the other disk's write.
  expect_first(all, {{0, IoOp::Write, 2048 * kSector, 8 * 512},
                     {19'500'000, IoOp::Read, 4096 * kSector, 16 * 512},
                     {24'500'000, IoOp::Flush, 0, 0},
                     {39'500'000, IoOp::Trim, 8192 * kSector, 2048 * kSector},
                     {399'500'000, IoOp::Write, 100 * kSector, 8 * 512}});
  EXPECT_EQ(all.size(), 5u);
  // A, G, P, I, D, D, C and m; the summary ends the events.
  EXPECT_EQ(reader->counters().ignored, 8u);
}

// rwbs flags: F before the op letter is a preflush, after it force unit access (blkparse
// prints no sectors for an event without data).
TEST(TraceFormats, BlkparseFlushesAndForceUnitAccess) {
  const std::string path = write_file("flushes.txt",
                                      "  8,0 0 1 0.000001 1 Q FN [jbd2/sda1-8]\n"
                                      "  8,0 0 2 0.000002 1 Q FWS [jbd2/sda1-8]\n"
                                      "  8,0 0 3 0.000003 1 Q WFS 64 + 8 [jbd2/sda1-8]\n"
                                      "  8,0 0 4 0.000004 1 Q FWFS 128 + 8 [jbd2/sda1-8]\n"
                                      "  8,0 0 5 0.000005 1 Q WSM 256 + 8 [kworker]\n"
                                      "  8,0 0 6 0.000006 1 Q N [x]\n");
  const auto all = read_trace(path, with_format("blkparse"));
  expect_first(all, {{0, IoOp::Flush, 0, 0},
                     {1'000'000, IoOp::Flush, 0, 0},
                     {2'000'000, IoOp::Write, 64 * kSector, 8 * 512},
                     {3'000'000, IoOp::Flush, 0, 0},
                     {3'000'000, IoOp::Write, 128 * kSector, 8 * 512},
                     {4'000'000, IoOp::Write, 256 * kSector, 8 * 512}});
  ASSERT_EQ(all.size(), 6u);
  const std::vector<bool> fua = {false, false, true, false, true, false};
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i].fua, fua[i]) << i;
  // Data without sectors needs the preflush that makes it a flush.
  const std::string nodata = write_file("nodata.txt", "  8,0 0 1 0.5 1 Q WS [x]\n");
  EXPECT_EQ(trace_error(nodata, with_format("blkparse")),
            nodata +
                ":1: record: expected `sector + nsect` after the rwbs field, got \"  8,0 0 "
                "1 0.5 1 Q WS [x]\"");
}

TEST(TraceFormats, BlkparseDispatchedEventsAndDeviceFilter) {
  const std::string path = write_file("events.txt", kBlkparseEvents);
  TraceOptions d = with_format("blkparse");
  d.blkparse_event = 'D';
  const auto dispatched = read_trace(path, d);
  expect_first(dispatched, {{0, IoOp::Write, 2048 * kSector, 8 * 512},
                            {40'000'000, IoOp::Read, 4096 * kSector, 16 * 512}});
  EXPECT_EQ(dispatched.size(), 2u);
  TraceOptions sdb = with_format("blkparse");
  sdb.volumes = {uint64_t{8} << 32 | 16};  // 8:16 on the command line
  const auto other = read_trace(path, sdb);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].offset_bytes, 100 * kSector);
  EXPECT_EQ(ps(other[0]), 0u);
}

TEST(TraceFormats, DetectsEveryExcerpt) {
  const std::pair<const char*, const char*> cases[] = {
      {"umass_financial1.head10k.spc", "spc"},
      {"umass_financial1.head1k.csv", "csv"},
      {"umass_financial1.head10k.disksim.ascii", "disksim"},
      {"ms_msnfs.disk5.head20k.ascii", "disksim"},
      {"msr_hm_0.slice.csv", "msr"},
      {"fiu_mail.head10k.txt", "fiu"},
      {"fiu_mail.head2k.blkparse.txt", "blkparse"}};
  for (const auto& [file, format] : cases) {
    EXPECT_EQ(detect_format(excerpt(file)), format) << file;
    const std::unique_ptr<TraceReader> reader = open_trace(excerpt(file), with_format("auto"));
    EXPECT_TRUE(reader->counters().detected) << file;
    EXPECT_EQ(reader->counters().format, format) << file;
  }
  EXPECT_EQ(detect_format(write_file("n.csv", "# made by hand\n\ntime_ns,op,offset,length\n")),
            "csv");
}

TEST(TraceFormats, DetectionErrors) {
  const std::string empty = write_file("empty.txt", "# nothing\n\n");
  EXPECT_EQ(trace_error(empty, with_format("auto")),
            empty + ": no record to detect the trace format from; give --format");
  const std::string odd = write_file("odd.txt", "# x\nhello world\n");
  EXPECT_EQ(trace_error(odd, with_format("auto")),
            odd +
                ":2: record: not a trace format ssdtlm knows (spc, csv, disksim, msr, fiu, "
                "blkparse); give --format, got \"hello world\"");
  // An explicit format overrides detection.
  const std::string spc = write_file("x.spc", "0,1,512,r,0.5\n");
  EXPECT_EQ(trace_error(spc, with_format("disksim")),
            spc + ":1: record: expected 5 blank-separated fields, got 1");
}

TEST(TraceFormats, GzipFilesReadLikePlainOnes) {
  const std::string text = test::slurp(excerpt("msr_hm_0.slice.csv"));
  const std::string gz = test::write_gzip("hm_0.csv.gz", text);
  const std::string plain = write_file("hm_0.csv", text);
  const std::unique_ptr<TraceReader> reader = open_trace(gz, with_format("auto"));
  EXPECT_EQ(reader->counters().format, "msr");
  const auto a = read_all(*reader);
  const auto b = read_trace(plain, with_format("msr"));
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(ps(a[i]), ps(b[i])) << i;
    ASSERT_EQ(a[i].offset_bytes, b[i].offset_bytes) << i;
    ASSERT_EQ(a[i].length_bytes, b[i].length_bytes) << i;
  }
  nlohmann::ordered_json report;
  reader->add_to_report(report);
  EXPECT_TRUE(report["trace"]["compressed"].get<bool>());
}

TEST(TraceFormats, TruncatedGzipIsAnError) {
  const std::string text = test::slurp(excerpt("umass_financial1.head10k.spc"));
  const std::string gz = test::slurp(test::write_gzip("full.gz", text));
  const std::string cut = write_file("cut.gz", gz.substr(0, gz.size() / 2));
  const std::string message = trace_error(cut, with_format("spc"));
  EXPECT_EQ(message.rfind(cut + ": after line ", 0), 0u) << message;
  EXPECT_NE(message.find("truncated gzip data"), std::string::npos) << message;
  // Without its 8-byte footer (CRC and length).
  const std::string no_footer = write_file("nofooter.gz", gz.substr(0, gz.size() - 8));
  EXPECT_NE(trace_error(no_footer, with_format("spc")).find("gzip"), std::string::npos);
}

TEST(TraceFormats, DiskSimTimeUnits) {
  const std::string path = write_file("t.ascii", "1.5 0 0 8 1\n2.25 0 8 8 0\n");
  for (const auto& [unit, ps_per_unit] : {std::pair<const char*, uint64_t>{"ns", 1000},
                                          {"us", 1'000'000},
                                          {"ms", 1'000'000'000},
                                          {"s", 1'000'000'000'000}}) {
    TraceOptions o = with_format("disksim");
    o.time_unit = unit;
    const auto all = read_trace(path, o);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(ps(all[1]), ps_per_unit * 3 / 4) << unit;  // 2.25 - 1.5
  }
  TraceOptions bad = with_format("disksim");
  bad.time_unit = "min";
  EXPECT_EQ(trace_error(path, bad), "--time-unit: expected ns, us, ms or s, got \"min\"");
}

TEST(TraceFormats, SectorBytesOption) {
  TraceOptions o = with_format("disksim");
  o.sector_bytes = 4096;
  const auto all = read_trace(write_file("t.ascii", "0 0 10 2 1\n"), o);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].offset_bytes, 40960u);
  EXPECT_EQ(all[0].length_bytes, 8192u);
  // MSR counts bytes whatever the sector size.
  TraceOptions msr = with_format("msr");
  msr.sector_bytes = 4096;
  const auto m = read_trace(write_file("m.csv", "1,h,0,Read,1024,512,0\n"), msr);
  EXPECT_EQ(m[0].offset_bytes, 1024u);
  EXPECT_EQ(m[0].length_bytes, 512u);
}

// The line buffer starts at 64 KiB and grows: comments of 100 KiB and of the longest line
// accepted (the limit less its newline) between records, plain and gzip-compressed.
TEST(TraceFormats, LinesUpToTheLimitAreReadWhole) {
  const std::string text = "0,1,512,r,0\n#" + std::string(100 << 10, 'c') + "\n0,2,512,w,1\n#" +
                           std::string(LineReader::kMaxLineBytes - 2, 'c') + "\n0,3,512,r,2\n";
  for (const std::string& path :
       {write_file("long.spc", text), test::write_gzip("long.spc.gz", text)}) {
    const std::vector<HostRequest> all = read_trace(path, with_format("spc"));
    ASSERT_EQ(all.size(), 3u) << path;
    EXPECT_EQ(all[1].offset_bytes, 2 * kSector);
    EXPECT_EQ(all[2].offset_bytes, 3 * kSector);
    EXPECT_EQ(all[2].op, IoOp::Read);
  }
}

TEST(TraceFormats, LineLongerThanTheLimitIsAnError) {
  const std::string path = write_file(
      "long.spc", "0,1,512,r,0\n" + std::string(LineReader::kMaxLineBytes + 10, '7') + "\n");
  EXPECT_EQ(trace_error(path, with_format("spc")),
            path + ":2: record: line longer than 1048576 bytes (not a text trace?)");
}

}  // namespace
}  // namespace ssd::tb

namespace ssd::tb {
namespace {

// A gzip whose 4-byte length (ISIZE) or CRC-32 is wrong.
std::string corrupt_footer(const std::string& name, size_t from_end) {
  std::string gz = test::slurp(test::write_gzip(name + ".whole", "0,1,512,r,0\n0,2,512,w,0.5\n"));
  gz[gz.size() - from_end] ^= 1;
  return test::write_file(name, gz);
}

TEST(TraceFormats, GzipLengthAndCrcAreChecked) {
  // Boost's gzip_decompressor never compared ISIZE: a wrong one was read as good.
  const std::string isize = corrupt_footer("isize.gz", 1);
  EXPECT_EQ(trace_error(isize, with_format("spc")),
            isize + ": after line 0: corrupt gzip data (incorrect length check)");
  const std::string crc = corrupt_footer("crc.gz", 5);
  EXPECT_EQ(trace_error(crc, with_format("spc")),
            crc + ": after line 0: corrupt gzip data (incorrect data check)");
}

TEST(TraceFormats, GzipConcatenatedMembersReadAsOne) {
  const std::string a = test::slurp(test::write_gzip("a.gz", "0,1,512,r,0\n"));
  const std::string b = test::slurp(test::write_gzip("b.gz", "0,2,512,w,0.5\n"));
  const std::string both = write_file("ab.gz", a + b);
  EXPECT_EQ(read_trace(both, with_format("spc")).size(), 2u);
}

TEST(TraceFormats, GzipLeftUnreadIsReported) {
  // More than one buffer of text, so --max-requests 1 leaves compressed data unread.
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "0," + std::to_string(i) + ",512,r," + std::to_string(i) + "\n";
  const std::string gz = test::write_gzip("long.gz", text);
  TraceOptions opts = with_format("spc");
  opts.max_requests = 1;
  const std::unique_ptr<TraceReader> reader = open_trace(gz, opts);
  read_all(*reader);
  std::vector<std::string> warnings;
  reader->add_warnings(warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], gz + ": reading stopped before the end of the gzip data, so its "
                              "checksum and length were not verified");
  nlohmann::ordered_json report;
  reader->add_to_report(report);
  EXPECT_FALSE(report["trace"]["gzip_verified"].get<bool>());
  // Read to the end, it is verified and nothing is said.
  const std::unique_ptr<TraceReader> whole = open_trace(gz, with_format("spc"));
  read_all(*whole);
  warnings.clear();
  whole->add_warnings(warnings);
  EXPECT_TRUE(warnings.empty());
}

TEST(TraceFormats, BlkparseMissingPidOrNegativeCpuIsAnError) {
  // Without the pid the action shifted into its place and the line passed as another event.
  const std::string no_pid =
      write_file("nopid.txt", "  8,0    0        1     0.000000000  Q   W 100 + 8 [x]\n");
  EXPECT_EQ(trace_error(no_pid, with_format("blkparse")),
            no_pid + ":1: pid: expected an unsigned integer, got \"Q\"");
  const std::string cpu =
      write_file("cpu.txt", "  8,0   -1        1     0.000000000  42  Q   W 100 + 8 [x]\n");
  EXPECT_EQ(trace_error(cpu, with_format("blkparse")),
            cpu + ":1: cpu: expected an unsigned integer, got \"-1\"");
}

TEST(TraceFormats, FifoIsRefusedNotWaitedOn) {
  const std::string path = test::temp_dir("fifo") + "/trace.spc";
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  EXPECT_EQ(trace_error(path, with_format("spc")),
            path + ": not a regular file (a FIFO, socket or device); give a file");
}

}  // namespace
}  // namespace ssd::tb
