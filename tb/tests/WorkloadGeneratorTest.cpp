// WorkloadGenerator: spec grammar, determinism, offset bounds and alignment, op mix, errors.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "common/Errors.h"
#include "tb/workload/WorkloadGenerator.h"

namespace ssd::tb {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;

std::vector<HostRequest> generate(const std::string& spec, uint64_t capacity = kGiB) {
  WorkloadGenerator generator(spec, capacity);
  std::vector<HostRequest> all;
  HostRequest r;
  while (generator.next(r)) all.push_back(r);
  return all;
}

bool same(const std::vector<HostRequest>& a, const std::vector<HostRequest>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].op != b[i].op || a[i].offset_bytes != b[i].offset_bytes ||
        a[i].length_bytes != b[i].length_bytes || a[i].arrival != b[i].arrival) {
      return false;
    }
  }
  return true;
}

// The InputError message of constructing a generator, or "" if there is none.
std::string spec_error(const std::string& spec, uint64_t capacity = kGiB) {
  try {
    WorkloadGenerator generator(spec, capacity);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(WorkloadGenerator, ClosedLoopSourceProperties) {
  WorkloadGenerator generator("rw=randwrite,bs=4k,qd=32,count=1000,seed=7", kGiB);
  EXPECT_FALSE(generator.timed());
  EXPECT_EQ(generator.host_queue_depth(), 32u);
  EXPECT_EQ(generator.expected_count(), 1000u);
  EXPECT_EQ(generator.describe(),
            "workload rw=randwrite,bs=4096,qd=32,count=1000,seed=7,offset=0,size=1073741824,"
            "align=4096");
  HostRequest r;
  uint64_t n = 0;
  while (generator.next(r)) {
    ++n;
    EXPECT_EQ(r.arrival, sc_core::SC_ZERO_TIME);
    EXPECT_EQ(r.op, IoOp::Write);
    EXPECT_EQ(r.length_bytes, 4096u);
  }
  EXPECT_EQ(n, 1000u);
  EXPECT_FALSE(generator.next(r));
}

TEST(WorkloadGenerator, Defaults) {
  WorkloadGenerator generator("count=2", 1 << 20);
  EXPECT_EQ(generator.host_queue_depth(), 1u);
  EXPECT_EQ(generator.describe(),
            "workload rw=read,bs=4096,qd=1,count=2,seed=1,offset=0,size=1048576");
  EXPECT_EQ(WorkloadGenerator("rw=rw,count=1", 1 << 20).describe(),
            "workload rw=rw,mix=0.5,bs=4096,qd=1,count=1,seed=1,offset=0,size=1048576");
}

TEST(WorkloadGenerator, MakeWorkload) {
  EXPECT_EQ(make_workload("count=3", 1 << 20)->expected_count(), 3u);
}

TEST(WorkloadGenerator, SameSpecSameSequence) {
  const std::string spec = "rw=randrw,mix=0.3,bs=8k,count=10000,seed=42";
  EXPECT_TRUE(same(generate(spec), generate(spec)));
  EXPECT_FALSE(same(generate(spec), generate("rw=randrw,mix=0.3,bs=8k,count=10000,seed=43")));
}

TEST(WorkloadGenerator, GoldenSequence) {
  // Computed independently (a Python mt19937_64 with the same rejection sampling): any
  // compiler or standard library must give exactly these.
  const std::vector<HostRequest> all = generate("rw=randrw,bs=4k,count=6,seed=1");
  const std::pair<IoOp, uint64_t> expected[] = {{IoOp::Read, 262463488},  {IoOp::Read, 470343680},
                                                {IoOp::Read, 914657280},  {IoOp::Read, 347115520},
                                                {IoOp::Write, 134283264}, {IoOp::Read, 590458880}};
  ASSERT_EQ(all.size(), 6u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(all[i].op, expected[i].first) << i;
    EXPECT_EQ(all[i].offset_bytes, expected[i].second) << i;
  }
}

TEST(WorkloadGenerator, RandomOffsetsAlignedAndInBounds) {
  // The span starts off the alignment grid and does not end on it, to exercise both edges.
  const uint64_t start = 3 * 512;
  const uint64_t end = start + 1000 * 512;
  WorkloadGenerator generator("rw=randread,bs=12k,align=8k,offset=1536,size=500k,count=200000",
                              kGiB);
  std::map<uint64_t, uint64_t> hits;
  HostRequest r;
  while (generator.next(r)) {
    ASSERT_EQ(r.offset_bytes % 8192, 0u) << r.offset_bytes;
    ASSERT_GE(r.offset_bytes, start);
    ASSERT_LE(r.offset_bytes + r.length_bytes, end);
    ++hits[r.offset_bytes];
  }
  // Aligned offsets from 8 KiB to 61 * 8 KiB (61 * 8192 + 12288 <= end < 62 * 8192 + 12288):
  // all hit, evenly.
  ASSERT_EQ(hits.size(), 61u);
  EXPECT_EQ(hits.begin()->first, 8192u);
  EXPECT_EQ(hits.rbegin()->first, 61u * 8192);
  for (const auto& [offset, n] : hits) {
    EXPECT_NEAR(static_cast<double>(n), 200000.0 / 61, 300) << offset;  // ~5 sigma
  }
}

TEST(WorkloadGenerator, RandomOffsetsCoverWholeCapacity) {
  WorkloadGenerator generator("rw=randwrite,bs=4k,count=100000,seed=3", kGiB);
  uint64_t low = kGiB;
  uint64_t high = 0;
  HostRequest r;
  while (generator.next(r)) {
    ASSERT_EQ(r.offset_bytes % 4096, 0u);
    ASSERT_LE(r.offset_bytes + 4096, kGiB);
    low = std::min(low, r.offset_bytes);
    high = std::max(high, r.offset_bytes);
  }
  EXPECT_LT(low, kGiB / 1000);
  EXPECT_GT(high, kGiB - kGiB / 1000);
}

TEST(WorkloadGenerator, SequentialWrapsAround) {
  // Span 8k..22k holds three whole 4k blocks; the fourth would cross its end.
  const std::vector<HostRequest> all = generate("rw=write,bs=4k,offset=8k,size=14k,count=7");
  const uint64_t expected[] = {8192, 12288, 16384, 8192, 12288, 16384, 8192};
  ASSERT_EQ(all.size(), 7u);
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(all[i].offset_bytes, expected[i]) << i;
    EXPECT_EQ(all[i].op, IoOp::Write);
  }
  // Default span: the whole capacity.
  const std::vector<HostRequest> read = generate("rw=read,bs=1m,count=3", 2 << 20);
  EXPECT_EQ(read[0].offset_bytes, 0u);
  EXPECT_EQ(read[1].offset_bytes, 1u << 20);
  EXPECT_EQ(read[2].offset_bytes, 0u);
  EXPECT_EQ(read[2].op, IoOp::Read);
}

TEST(WorkloadGenerator, MixFraction) {
  for (const auto& [spec, mix] :
       {std::pair<std::string, double>{"rw=randrw,mix=0.3,count=100000", 0.3},
        {"rw=rw,count=100000,seed=9", 0.5},
        {"rw=randrw,mix=0,count=1000", 0.0},
        {"rw=randrw,mix=1,count=1000", 1.0}}) {
    const std::vector<HostRequest> all = generate(spec);
    uint64_t reads = 0;
    for (const HostRequest& r : all) reads += r.op == IoOp::Read;
    // 0.01 is about 7 standard deviations at 100k requests.
    EXPECT_NEAR(static_cast<double>(reads) / static_cast<double>(all.size()), mix, 0.01) << spec;
  }
}

TEST(WorkloadGenerator, SizeSuffixes) {
  EXPECT_EQ(generate("bs=1K,count=1")[0].length_bytes, 1024u);
  EXPECT_EQ(generate("bs=2m,count=1")[0].length_bytes, 2u << 20);
  EXPECT_EQ(generate("bs=1G,count=1", 4 * kGiB)[0].length_bytes, kGiB);
  EXPECT_EQ(generate("bs=1536,count=1,,")[0].length_bytes, 1536u);
}

// Blanks around items, keys and values, as people write lists: the same requests.
TEST(WorkloadGenerator, BlanksAroundKeysAndValues) {
  const std::vector<HostRequest> plain = generate("rw=randrw,mix=0.3,bs=8k,count=50,seed=3");
  const std::vector<HostRequest> spaced =
      generate(" rw = randrw, mix=0.3 ,\tbs= 8k,  count =50 , seed=3 ");
  ASSERT_EQ(spaced.size(), plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    EXPECT_EQ(spaced[i].op, plain[i].op) << i;
    EXPECT_EQ(spaced[i].offset_bytes, plain[i].offset_bytes) << i;
    EXPECT_EQ(spaced[i].length_bytes, plain[i].length_bytes) << i;
  }
}

TEST(WorkloadGenerator, SpecErrors) {
  const std::pair<std::string, std::string> cases[] = {
      {"count=1,depth=4",
       "workload: depth: unknown key (rw, mix, bs, qd, count, seed, offset, size, align, "
       "namespace, zones, zone_report_every, placement, placement_update_bytes)"},
      {"count=1,randread", "workload: randread: expected key=value"},
      {"count=1,count=2", "workload: count: given twice"},
      {"", "workload: count: required: the number of requests"},
      {"rw=randr,count=1",
       "workload: rw: expected read, write, rw, randread, randwrite, randrw or zoneappend, got "
       "\"randr\""},
      {"rw=randread,mix=0.5,count=1",
       "workload: mix: applies only to rw=rw, rw=randrw and rw=zoneappend"},
      {"rw=rw,mix=1.5,count=1", "workload: mix: expected a read fraction in [0, 1], got \"1.5\""},
      {"rw=rw,mix=-0.1,count=1",
       "workload: mix: expected a finite non-negative number, got \"-0.1\""},
      {"rw=rw,mix=nan,count=1",
       "workload: mix: expected a finite non-negative number, got \"nan\""},
      {"bs=1000,count=1", "workload: bs: expected a positive multiple of 512 bytes, got \"1000\""},
      {"bs=0,count=1", "workload: bs: expected a positive multiple of 512 bytes, got \"0\""},
      {"bs=4q,count=1",
       "workload: bs: expected a byte count below 2^64 with an optional k, m or g suffix, got "
       "\"4q\""},
      {"bs=k,count=1",
       "workload: bs: expected a byte count below 2^64 with an optional k, m or g suffix, got "
       "\"k\""},
      {"bs=99999999999g,count=1",
       "workload: bs: expected a byte count below 2^64 with an optional k, m or g suffix, got "
       "\"99999999999g\""},
      {"qd=0,count=1", "workload: qd: expected 1 to 4294967295 outstanding requests, got \"0\""},
      {"qd=4294967296,count=1",
       "workload: qd: expected 1 to 4294967295 outstanding requests, got \"4294967296\""},
      {"qd=many,count=1", "workload: qd: expected an unsigned integer, got \"many\""},
      {"count=0", "workload: count: expected at least 1 request, got \"0\""},
      {"count=1e6", "workload: count: expected an unsigned integer, got \"1e6\""},
      {"count=1,seed=-1", "workload: seed: expected an unsigned integer, got \"-1\""},
      {"count=1,offset=100", "workload: offset: expected a multiple of 512 bytes, got \"100\""},
      {"count=1,offset=1g",
       "workload: offset: at or beyond the capacity of 1073741824 bytes, got \"1g\""},
      {"count=1,offset=512m,size=768m",
       "workload: size: offset + size exceeds the capacity of 1073741824 bytes, got \"768m\""},
      {"count=1,size=1000",
       "workload: size: expected a positive multiple of 512 bytes, got \"1000\""},
      {"count=1,bs=8k,size=4k",
       "workload: size: span of 4096 bytes is smaller than bs (8192 bytes)"},
      {"count=1,bs=8k,offset=1048572k",  // 4 KiB before the end: the default span is too small
       "workload: size: span of 4096 bytes is smaller than bs (8192 bytes)"},
      {"count=1,align=768",
       "workload: align: expected a positive multiple of 512 bytes, got \"768\""},
      {"rw=randread,count=1,bs=4k,offset=512,size=6k,align=4k",
       "workload: align: no 4096-aligned block of bs fits in the span"},
  };
  for (const auto& [spec, message] : cases) EXPECT_EQ(spec_error(spec), message) << spec;
  EXPECT_EQ(spec_error("count=1", 0),
            "workload: offset: at or beyond the capacity of 0 bytes, got \"0\"");
}

TEST(WorkloadGenerator, HelpNamesEveryKey) {
  const std::string help = WorkloadGenerator::help();
  for (const char* key : {"rw", "mix", "bs", "qd", "count", "seed", "offset", "size", "align"}) {
    EXPECT_NE(help.find(std::string("\n  ") + key + " "), std::string::npos) << key;
  }
  for (const char* pattern : {"read", "write", "randread", "randwrite", "randrw"}) {
    EXPECT_NE(help.find(pattern), std::string::npos) << pattern;
  }
}

}  // namespace
}  // namespace ssd::tb
