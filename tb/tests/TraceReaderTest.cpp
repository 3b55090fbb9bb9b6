// SpcReader and CsvTraceReader: the real Financial1 excerpt, format variants and every error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/Errors.h"
#include "tb/tests/TraceTestUtil.h"
#include "tb/trace/CsvTraceReader.h"
#include "tb/trace/SpcReader.h"
#include "tb/trace/TraceFactory.h"

namespace ssd::tb {
namespace {

namespace fs = std::filesystem;

const std::string kFinancial1 = SSDTLM_SOURCE_DIR "/traces/umass_financial1.head10k.spc";

// Writes `text` to a file named after the running test in the test's own directory.
std::string write_trace(const std::string& extension, const std::string& text) {
  return test::write_file(testing::UnitTest::GetInstance()->current_test_info()->name() + extension,
                          text);
}

std::vector<HostRequest> read_all(RequestSource& source) {
  std::vector<HostRequest> all;
  HostRequest r;
  while (source.next(r)) all.push_back(r);
  return all;
}

// The InputError message from opening and reading the whole file, or "" if there is none.
template <class Reader>
std::string error_of(const std::string& path) {
  try {
    Reader reader(path);
    read_all(reader);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string spc_error(const std::string& text) {
  return error_of<SpcReader>(write_trace(".spc", text));
}

std::string csv_error(const std::string& text) {
  return error_of<CsvTraceReader>(write_trace(".csv", text));
}

// Arrival in picoseconds (the default SystemC time resolution).
uint64_t ps(const HostRequest& r) { return r.arrival.value(); }

TEST(SpcReader, Financial1ExcerptFirstRecordsAndCount) {
  SpcReader reader(kFinancial1);
  EXPECT_TRUE(reader.timed());
  EXPECT_EQ(reader.describe(), "spc trace " + kFinancial1);
  const std::vector<HostRequest> all = read_all(reader);
  ASSERT_EQ(all.size(), 10000u);

  // 0,303567,3584,w,0.000000 / 1,55590,3072,w,0.000000 / 0,303574,3584,w,0.026214 /
  // 1,240840,3072,w,0.026214 / 1,55596,3072,r,0.078643
  const struct {
    uint64_t arrival_ps;
    IoOp op;
    uint64_t offset;
    uint64_t length;
  } expected[] = {{0, IoOp::Write, 303567u * 512, 3584},
                  {0, IoOp::Write, 55590u * 512, 3072},
                  {26'214'000'000, IoOp::Write, 303574u * 512, 3584},
                  {26'214'000'000, IoOp::Write, 240840u * 512, 3072},
                  {78'643'000'000, IoOp::Read, 55596u * 512, 3072}};
  for (size_t i = 0; i < 5; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ps(all[i]), expected[i].arrival_ps);
    EXPECT_EQ(all[i].op, expected[i].op);
    EXPECT_EQ(all[i].offset_bytes, expected[i].offset);
    EXPECT_EQ(all[i].length_bytes, expected[i].length);
  }
  // Last line: 8,146550,512,r,259.601203
  EXPECT_EQ(ps(all.back()), 259'601'203'000'000u);
  EXPECT_EQ(all.back().offset_bytes, 146550u * 512);
}

TEST(SpcReader, Financial1ReadFractionMatchesIndependentCount) {
  // Counted without the reader: the opcode is the only field that can hold a letter.
  std::ifstream in(kFinancial1);
  std::string line;
  uint64_t lines = 0;
  uint64_t reads = 0;
  while (std::getline(in, line)) {
    ++lines;
    if (line.find(",r,") != std::string::npos || line.find(",R,") != std::string::npos) ++reads;
  }
  SpcReader reader(kFinancial1);
  uint64_t count = 0;
  uint64_t reader_reads = 0;
  HostRequest r;
  while (reader.next(r)) {
    ++count;
    if (r.op == IoOp::Read) ++reader_reads;
  }
  EXPECT_EQ(count, lines);
  EXPECT_EQ(reader_reads, reads);
  EXPECT_EQ(reads, 4078u);  // 40.8 % as in /work/shared/traces/README.md
}

TEST(SpcReader, AcceptsCaseCrLfBlanksAndComments) {
  const std::string path = write_trace(
      ".spc", "# a comment\r\n\r\n  \t\n1,2,512,R,1.5\r\n 3 , 4 , 1024 , W , 2 \r\n  # indented\n");
  SpcReader reader(path);
  const std::vector<HostRequest> all = read_all(reader);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].op, IoOp::Read);
  EXPECT_EQ(all[0].offset_bytes, 1024u);
  EXPECT_EQ(all[1].op, IoOp::Write);
  EXPECT_EQ(all[1].offset_bytes, 2048u);
  EXPECT_EQ(all[1].length_bytes, 1024u);
  EXPECT_EQ(ps(all[1]), 500'000'000'000u);
}

TEST(SpcReader, TimestampsAreExactIntegerPicoseconds) {
  // Epoch-sized timestamps, and a span beyond 2^53 ps, where a double would round.
  const std::string path =
      write_trace(".spc",
                  "0,0,512,r,1700000000.25\n0,0,512,r,1700000000.7500001\n"
                  "0,0,512,r,1700010000.250000000001\n0,0,512,r,1700010000.2500000000019\n");
  SpcReader reader(path);
  const std::vector<HostRequest> all = read_all(reader);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(ps(all[0]), 0u);
  EXPECT_EQ(ps(all[1]), 500'000'100'000u);
  EXPECT_EQ(ps(all[2]), 10'000'000'000'000'001u);
  EXPECT_EQ(ps(all[3]), 10'000'000'000'000'001u);  // sub-picosecond digits dropped
}

TEST(SpcReader, CompleteLastLineWithoutNewlineParses) {
  SpcReader reader(write_trace(".spc", "0,1,512,w,0.0\n0,2,4096,r,0.000001"));
  const std::vector<HostRequest> all = read_all(reader);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].length_bytes, 4096u);
  EXPECT_EQ(ps(all[1]), 1'000'000u);
}

TEST(SpcReader, TruncatedLastLineIsAnError) {
  const std::string path = write_trace(".spc", "0,1,512,w,0.0\n0,2,40");
  EXPECT_EQ(error_of<SpcReader>(path),
            path + ":2: record: expected 5 comma-separated fields, got 3");
}

TEST(SpcReader, EmptyFileHasNoRecords) {
  for (const char* text : {"", "\n\n", "# only a comment\n"}) {
    SpcReader reader(write_trace(".spc", text));
    HostRequest r;
    EXPECT_FALSE(reader.next(r)) << text;
    EXPECT_FALSE(reader.next(r)) << text;
  }
}

TEST(SpcReader, BinaryGarbageIsAnInputError) {
  std::string garbage;
  uint32_t x = 12345;
  for (int i = 0; i < 4096; ++i) {
    x = x * 1103515245 + 12345;
    garbage += static_cast<char>(x >> 24);
  }
  const std::string path = write_trace(".spc", garbage);
  EXPECT_THROW(
      {
        SpcReader reader(path);
        read_all(reader);
      },
      InputError);
}

TEST(SpcReader, ErrorWrongFieldCount) {
  EXPECT_EQ(spc_error("0,1,512,w,0\n0,1,512\n"),
            write_trace(".spc", "") + ":2: record: expected 5 comma-separated fields, got 3");
  EXPECT_EQ(spc_error("0,1,512,w,0,9\n"),
            write_trace(".spc", "") + ":1: record: expected 5 comma-separated fields, got 6");
}

TEST(SpcReader, ErrorNonNumericLba) {
  EXPECT_EQ(spc_error("# header comment\n0,abc,512,w,0\n"),
            write_trace(".spc", "") + ":2: LBA: expected an unsigned integer, got \"abc\"");
  EXPECT_EQ(spc_error("0,12x,512,w,0\n"),
            write_trace(".spc", "") + ":1: LBA: expected an unsigned integer, got \"12x\"");
  EXPECT_EQ(spc_error("0,,512,w,0\n"),
            write_trace(".spc", "") + ":1: LBA: expected an unsigned integer, got \"\"");
  EXPECT_EQ(spc_error("x,1,512,w,0\n"),
            write_trace(".spc", "") + ":1: ASU: expected an unsigned integer, got \"x\"");
  EXPECT_EQ(spc_error("0,99999999999999999999,512,w,0\n"),
            write_trace(".spc", "") +
                ":1: LBA: expected an unsigned integer below 2^64, got \"99999999999999999999\"");
  EXPECT_EQ(spc_error("0,36028797018963968,512,w,0\n"),  // 2^55 sectors = 2^64 bytes
            write_trace(".spc", "") +
                ":1: LBA: request ends beyond 2^64 bytes, got \"36028797018963968\"");
}

TEST(SpcReader, ErrorBadOpcode) {
  EXPECT_EQ(spc_error("0,1,512,x,0\n"),
            write_trace(".spc", "") + ":1: Opcode: expected r or w, got \"x\"");
  EXPECT_EQ(spc_error("0,1,512,read,0\n"),
            write_trace(".spc", "") + ":1: Opcode: expected r or w, got \"read\"");
}

TEST(SpcReader, ErrorSizeZero) {
  EXPECT_EQ(spc_error("0,1,0,r,0\n"),
            write_trace(".spc", "") + ":1: Size: expected a positive byte count, got \"0\"");
}

TEST(SpcReader, ErrorNegativeNumber) {
  EXPECT_EQ(spc_error("0,1,-512,r,0\n"),
            write_trace(".spc", "") + ":1: Size: expected an unsigned integer, got \"-512\"");
  EXPECT_EQ(spc_error("0,1,512,r,-0.5\n"),
            write_trace(".spc", "") + ":1: Timestamp: expected decimal seconds, got \"-0.5\"");
}

TEST(SpcReader, ErrorBadTimestamp) {
  for (const char* bad : {"1e-3", "nan", "inf", ".", "", "1.2.3", "0x10", "+1"}) {
    EXPECT_EQ(
        spc_error(std::string("0,1,512,r,") + bad + "\n"),
        write_trace(".spc", "") + ":1: Timestamp: expected decimal seconds, got \"" + bad + "\"");
  }
}

TEST(SpcReader, ErrorTimeGoesBack) {
  EXPECT_EQ(spc_error("0,1,512,r,0.6\n0,1,512,r,0.6\n0,1,512,r,0.5\n"),
            write_trace(".spc", "") + ":3: Timestamp: goes back in time (0.5 s after 0.6 s)");
  EXPECT_EQ(spc_error("0,1,512,r,2\n0,1,512,r,1.000001\n"),
            write_trace(".spc", "") + ":2: Timestamp: goes back in time (1.000001 s after 2 s)");
}

TEST(SpcReader, ErrorMissingFile) {
  const std::string path = write_trace(".spc", "") + ".missing";
  EXPECT_EQ(error_of<SpcReader>(path), path + ": cannot open: No such file or directory");
  const std::string dir = fs::path(path).parent_path().string();
  EXPECT_EQ(error_of<SpcReader>(dir), dir + ": cannot open: Is a directory");
}

TEST(SpcReader, ErrorMessageEscapesControlBytes) {
  EXPECT_EQ(spc_error(std::string("0,1,512,\x01\"\xff,0\n")),
            write_trace(".spc", "") + ":1: Opcode: expected r or w, got \"\\x01\\\"\\xff\"");
  const std::string path = write_trace(".spc", "0," + std::string(100, '7') + "x,512,r,0\n");
  EXPECT_EQ(error_of<SpcReader>(path), path + ":1: LBA: expected an unsigned integer, got \"" +
                                           std::string(60, '7') + "...\"");
}

TEST(CsvTraceReader, ParsesRecords) {
  const std::string path = write_trace(".csv",
                                       "time_ns,op,offset,length\r\n"
                                       "# comment\n"
                                       "1000,read,0,4096\r\n"
                                       "1500,W,8192,512\n"
                                       "\n"
                                       "1500,Trim,1048576,1048576\n"
                                       "9223372000000999,t,18446744073709550592,512");
  CsvTraceReader reader(path);
  EXPECT_TRUE(reader.timed());
  EXPECT_EQ(reader.describe(), "csv trace " + path);
  const std::vector<HostRequest> all = read_all(reader);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(ps(all[0]), 0u);
  EXPECT_EQ(all[0].op, IoOp::Read);
  EXPECT_EQ(all[0].offset_bytes, 0u);
  EXPECT_EQ(all[0].length_bytes, 4096u);
  EXPECT_EQ(ps(all[1]), 500'000u);
  EXPECT_EQ(all[1].op, IoOp::Write);
  EXPECT_EQ(all[1].offset_bytes, 8192u);
  EXPECT_EQ(all[1].length_bytes, 512u);
  EXPECT_EQ(all[2].op, IoOp::Trim);
  EXPECT_EQ(all[2].offset_bytes, 1048576u);
  EXPECT_EQ(all[3].op, IoOp::Trim);
  EXPECT_EQ(ps(all[3]), 9'223'371'999'999'999'000u);  // the longest span
  EXPECT_EQ(all[3].offset_bytes, 18'446'744'073'709'550'592u);
}

TEST(CsvTraceReader, OpNamesInAnyCase) {
  CsvTraceReader reader(
      write_trace(".csv",
                  "time_ns,op,offset,length\n0,READ,0,512\n0,r,0,512\n0,Write,0,512\n0,w,0,512\n"
                  "0,TRIM,0,512\n0,T,0,512\n"));
  const std::vector<HostRequest> all = read_all(reader);
  ASSERT_EQ(all.size(), 6u);
  const IoOp expected[] = {IoOp::Read,  IoOp::Read, IoOp::Write,
                           IoOp::Write, IoOp::Trim, IoOp::Trim};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(all[i].op, expected[i]) << i;
}

TEST(CsvTraceReader, EmptyFileAndHeaderOnlyHaveNoRecords) {
  for (const char* text : {"", "time_ns,op,offset,length\n", "# x\ntime_ns,op,offset,length"}) {
    CsvTraceReader reader(write_trace(".csv", text));
    HostRequest r;
    EXPECT_FALSE(reader.next(r)) << text;
  }
}

TEST(CsvTraceReader, ErrorMissingHeader) {
  EXPECT_EQ(csv_error("0,read,0,4096\n"),
            write_trace(".csv", "") +
                ":1: header: expected \"time_ns,op,offset,length\", got \"0,read,0,4096\"");
  EXPECT_EQ(csv_error("time,op,offset,length\n"),
            write_trace(".csv", "") +
                ":1: header: expected \"time_ns,op,offset,length\", got \"time,op,offset,length\"");
}

TEST(CsvTraceReader, ErrorOffsetNotMultipleOf512) {
  EXPECT_EQ(csv_error("time_ns,op,offset,length\n0,read,0,512\n0,read,1000,512\n"),
            write_trace(".csv", "") + ":3: offset: expected a multiple of 512 bytes, got \"1000\"");
}

TEST(CsvTraceReader, ErrorBadLength) {
  for (const char* bad : {"0", "100"}) {
    EXPECT_EQ(csv_error(std::string("time_ns,op,offset,length\n0,read,0,") + bad + "\n"),
              write_trace(".csv", "") +
                  ":2: length: expected a positive multiple of 512 bytes, got \"" + bad + "\"");
  }
  EXPECT_EQ(csv_error("time_ns,op,offset,length\n0,read,18446744073709551104,512\n"),
            write_trace(".csv", "") +
                ":2: offset: request ends beyond 2^64 bytes, got \"18446744073709551104\"");
}

TEST(CsvTraceReader, ErrorBadOp) {
  EXPECT_EQ(
      csv_error("time_ns,op,offset,length\n0,rd,0,512\n"),
      write_trace(".csv", "") + ":2: op: expected read, write or trim (or R, W, T), got \"rd\"");
}

TEST(CsvTraceReader, ErrorBadTime) {
  EXPECT_EQ(csv_error("time_ns,op,offset,length\n1.5,read,0,512\n"),
            write_trace(".csv", "") + ":2: time_ns: expected an unsigned integer, got \"1.5\"");
  EXPECT_EQ(csv_error("time_ns,op,offset,length\n-1,read,0,512\n"),
            write_trace(".csv", "") + ":2: time_ns: expected an unsigned integer, got \"-1\"");
  EXPECT_EQ(csv_error("time_ns,op,offset,length\n2000,read,0,512\n1500,read,0,512\n"),
            write_trace(".csv", "") + ":3: time_ns: goes back in time (1500 ns after 2000 ns)");
}

TEST(CsvTraceReader, ErrorSpanBeyondSimulatedTime) {
  EXPECT_EQ(csv_error("time_ns,op,offset,length\n0,read,0,512\n9223372000000000,read,0,512\n"),
            write_trace(".csv", "") +
                ":3: time_ns: more than 9223372 s after the first record, beyond the simulated "
                "time range");
}

TEST(CsvTraceReader, ErrorWrongFieldCount) {
  EXPECT_EQ(csv_error("time_ns,op,offset,length\n0,read,0\n"),
            write_trace(".csv", "") + ":2: record: expected 4 comma-separated fields, got 3");
}

TraceOptions in_format(const std::string& format) {
  TraceOptions opts;
  opts.format = format;
  return opts;
}

TEST(TraceFactory, OpensByFormat) {
  EXPECT_EQ(open_trace(kFinancial1, in_format("spc"))->describe(), "spc trace " + kFinancial1);
  const std::string csv = write_trace(".csv", "time_ns,op,offset,length\n");
  EXPECT_EQ(open_trace(csv, in_format("csv"))->describe(), "csv trace " + csv);
  try {
    open_trace(kFinancial1, in_format("ibm"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "--format: unknown format 'ibm' (auto, spc, csv, disksim, msr, fiu, blkparse)");
  }
}

TEST(TraceReader, IoOpNames) {
  EXPECT_STREQ(to_string(IoOp::Read), "read");
  EXPECT_STREQ(to_string(IoOp::Write), "write");
  EXPECT_STREQ(to_string(IoOp::Trim), "trim");
}

}  // namespace
}  // namespace ssd::tb
