// The shipped stand-ins for the founding study's workloads (workloads/study/) reproduce its
// workload table: read share, sequential share, average read and write size, and the rate.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tb/tests/TestUtil.h"
#include "tb/workload/JsonWorkload.h"

namespace ssd {
namespace {

using tb::IoOp;

struct Row {
  const char* name;
  double read_pct, seq_pct, read_kib, write_kib, iops;
};

// Cho et al., ACM TOS 2015, workload table; the rates as tools/make_study_workloads.py gives
// them.
constexpr Row kTable[] = {
    {"financial1", 15.4, 2.4, 2.3, 3.7, 38.5},  {"financial2", 78.5, 4.3, 2.3, 2.9, 38.5},
    {"homes", 21.7, 45.6, 16.7, 4.0, 100},      {"msnfs", 66.1, 6.0, 10.0, 11.0, 1049},
    {"filezilla", 0.1, 62.4, 10.4, 436.9, 100}, {"torrent", 34.3, 8.6, 14.7, 36.9, 100},
    {"gimp", 48.7, 17.9, 136.2, 15.1, 100}};

TEST(StudyWorkloads, ReproduceTheStudysWorkloadTable) {
  constexpr uint64_t kCapacity = uint64_t(32) << 30;
  for (const Row& row : kTable) {
    SCOPED_TRACE(row.name);
    tb::JsonWorkload w(test::source_path(std::string("workloads/study/") + row.name + ".json"),
                       kCapacity);
    ASSERT_TRUE(w.timed());
    // Sequential as the study counts it: a request that starts where an earlier request of
    // its kind ended (its stream's previous one). Random offsets almost never do.
    std::set<uint64_t> ends[2];
    uint64_t n = 0, reads = 0, sequential = 0, read_bytes = 0, write_bytes = 0;
    sc_core::sc_time last;
    tb::HostRequest r;
    while (w.next(r)) {
      const bool read = r.op == IoOp::Read;
      ++n;
      reads += read;
      (read ? read_bytes : write_bytes) += r.length_bytes;
      sequential += ends[read].count(r.offset_bytes);
      ends[read].insert(r.offset_bytes + r.length_bytes);
      last = std::max(last, r.arrival);
    }
    EXPECT_EQ(n, 20000u);
    EXPECT_NEAR(100.0 * double(reads) / double(n), row.read_pct, 0.05);
    EXPECT_NEAR(100.0 * double(sequential) / double(n), row.seq_pct, 0.2);
    // Uniform sizes over multiples of 512: the mean of 20,000 draws is within a few percent.
    if (reads > 100) {
      EXPECT_NEAR(double(read_bytes) / double(reads) / 1024, row.read_kib, 0.04 * row.read_kib);
    }
    EXPECT_NEAR(double(write_bytes) / double(n - reads) / 1024, row.write_kib,
                0.04 * row.write_kib);
    EXPECT_NEAR(double(n) / last.to_seconds(), row.iops, 0.01 * row.iops);
  }
}

}  // namespace
}  // namespace ssd
