#include "tb/WorkloadGenerator.h"

#include <cstdio>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>

#include "common/Errors.h"
#include "tb/TraceReader.h"

namespace ssd::tb {

namespace {

// The raw text of each key, before validation.
struct Spec {
  std::optional<std::string_view> rw, mix, bs, qd, count, seed, offset, size, align;
};

constexpr std::pair<const char*, std::optional<std::string_view> Spec::*> kKeys[] = {
    {"rw", &Spec::rw},         {"mix", &Spec::mix},     {"bs", &Spec::bs},
    {"qd", &Spec::qd},         {"count", &Spec::count}, {"seed", &Spec::seed},
    {"offset", &Spec::offset}, {"size", &Spec::size},   {"align", &Spec::align}};

struct Pattern {
  const char* name;
  bool random;
  bool mixed;
  IoOp op;  // when not mixed
};

constexpr Pattern kPatterns[] = {
    {"read", false, false, IoOp::Read},      {"write", false, false, IoOp::Write},
    {"rw", false, true, IoOp::Read},         {"randread", true, false, IoOp::Read},
    {"randwrite", true, false, IoOp::Write}, {"randrw", true, true, IoOp::Read}};

[[noreturn]] void fail(std::string_view key, const std::string& reason) {
  throw InputError("workload: " + std::string(key) + ": " + reason);
}

uint64_t unsigned_value(std::string_view key, std::string_view text) {
  uint64_t value = 0;
  if (const char* reason = parse_unsigned(text, value)) fail(key, reason + got(text));
  return value;
}

// Bytes with an optional binary suffix: 4k = 4096.
uint64_t bytes_value(std::string_view key, std::string_view text) {
  int shift = 0;
  if (!text.empty()) {
    switch (text.back() | 0x20) {
      case 'k':
        shift = 10;
        break;
      case 'm':
        shift = 20;
        break;
      case 'g':
        shift = 30;
        break;
    }
  }
  uint64_t value = 0;
  if (parse_unsigned(text.substr(0, text.size() - (shift ? 1 : 0)), value) != nullptr ||
      value > (std::numeric_limits<uint64_t>::max() >> shift)) {
    fail(key, "expected a byte count below 2^64 with an optional k, m or g suffix" + got(text));
  }
  return value << shift;
}

// Requests address whole sectors.
uint64_t sectors_value(std::string_view key, std::string_view text) {
  const uint64_t value = bytes_value(key, text);
  if (value == 0 || value % kSectorBytes != 0) {
    fail(key, "expected a positive multiple of 512 bytes" + got(text));
  }
  return value;
}

Spec split_spec(std::string_view spec) {
  Spec keys;
  while (!spec.empty()) {
    const size_t comma = spec.find(',');
    const std::string_view item = spec.substr(0, comma);
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    if (item.empty()) continue;  // tolerate "a=1,,b=2" and a trailing comma
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) fail(item, "expected key=value");
    const std::string_view key = item.substr(0, eq);
    std::optional<std::string_view> Spec::* slot = nullptr;
    for (const auto& [name, member] : kKeys) {
      if (key == name) slot = member;
    }
    if (slot == nullptr) {
      fail(key, "unknown key (rw, mix, bs, qd, count, seed, offset, size, align)");
    }
    if (keys.*slot) fail(key, "given twice");
    keys.*slot = item.substr(eq + 1);
  }
  return keys;
}

}  // namespace

WorkloadGenerator::WorkloadGenerator(const std::string& spec, uint64_t capacity_bytes) {
  const Spec keys = split_spec(spec);

  const std::string_view rw = keys.rw.value_or("read");
  const Pattern* pattern = nullptr;
  for (const Pattern& p : kPatterns) {
    if (rw == p.name) pattern = &p;
  }
  if (pattern == nullptr) {
    fail("rw", "expected read, write, rw, randread, randwrite or randrw" + got(rw));
  }
  rw_ = pattern->name;
  random_ = pattern->random;
  mixed_ = pattern->mixed;
  op_ = pattern->op;

  if (keys.mix) {
    if (!mixed_) fail("mix", "applies only to rw=rw and rw=randrw");
    const char* reason = parse_double(*keys.mix, mix_);
    if (reason == nullptr && mix_ > 1) reason = "expected a read fraction in [0, 1]";
    if (reason != nullptr) fail("mix", reason + got(*keys.mix));
  }
  if (keys.bs) bs_ = sectors_value("bs", *keys.bs);
  if (keys.qd) {
    const uint64_t qd = unsigned_value("qd", *keys.qd);
    if (qd == 0 || qd > std::numeric_limits<uint32_t>::max()) {
      fail("qd", "expected 1 to 4294967295 outstanding requests" + got(*keys.qd));
    }
    qd_ = static_cast<uint32_t>(qd);
  }
  if (!keys.count) fail("count", "required: the number of requests");
  count_ = unsigned_value("count", *keys.count);
  if (count_ == 0) fail("count", "expected at least 1 request" + got(*keys.count));
  if (keys.seed) seed_ = unsigned_value("seed", *keys.seed);

  const std::string capacity = std::to_string(capacity_bytes) + " bytes";
  if (keys.offset) {
    offset_ = bytes_value("offset", *keys.offset);
    if (offset_ % kSectorBytes != 0) {
      fail("offset", "expected a multiple of 512 bytes" + got(*keys.offset));
    }
  }
  if (offset_ >= capacity_bytes) {
    fail("offset", "at or beyond the capacity of " + capacity + got(keys.offset.value_or("0")));
  }
  size_ = keys.size ? sectors_value("size", *keys.size) : capacity_bytes - offset_;
  if (size_ > capacity_bytes - offset_) {
    fail("size", "offset + size exceeds the capacity of " + capacity + got(*keys.size));
  }
  if (size_ < bs_) {
    fail("size", "span of " + std::to_string(size_) + " bytes is smaller than bs (" +
                     std::to_string(bs_) + " bytes)");
  }
  align_ = keys.align ? sectors_value("align", *keys.align) : bs_;
  if (random_) {
    // Offsets are multiples of align_ (absolute, not relative to offset_) whose whole block
    // lies in the span.
    const uint64_t rest = offset_ % align_;
    const uint64_t gap = rest == 0 ? 0 : align_ - rest;
    if (gap > size_ - bs_) {
      fail("align", "no " + std::to_string(align_) + "-aligned block of bs fits in the span");
    }
    first_slot_ = offset_ + gap;
    slots_ = (size_ - bs_ - gap) / align_ + 1;
  }
  cursor_ = offset_;
  rng_.seed(seed_);
}

bool WorkloadGenerator::next(HostRequest& out) {
  if (issued_ == count_) return false;
  ++issued_;
  out.arrival = sc_core::SC_ZERO_TIME;
  if (mixed_) {
    // The top 53 bits as a double in [0, 1) are exact, so the comparison is portable.
    const double u = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    out.op = u < mix_ ? IoOp::Read : IoOp::Write;
  } else {
    out.op = op_;
  }
  if (random_) {
    out.offset_bytes = first_slot_ + uniform(slots_) * align_;
  } else {
    if (cursor_ + bs_ > offset_ + size_) cursor_ = offset_;
    out.offset_bytes = cursor_;
    cursor_ += bs_;
  }
  out.length_bytes = bs_;
  return true;
}

uint64_t WorkloadGenerator::uniform(uint64_t n) {
  // Rejection sampling: dropping the lowest 2^64 mod n raw values leaves a multiple of n
  // equally likely values, so x % n is exactly uniform.
  const uint64_t reject_below = (0 - n) % n;
  uint64_t x = rng_();
  while (x < reject_below) x = rng_();
  return x % n;
}

std::string WorkloadGenerator::describe() const {
  std::string s = "workload rw=" + rw_;
  if (mixed_) {
    char mix[32];
    std::snprintf(mix, sizeof mix, "%g", mix_);
    s += std::string(",mix=") + mix;
  }
  s += ",bs=" + std::to_string(bs_) + ",qd=" + std::to_string(qd_) +
       ",count=" + std::to_string(count_) + ",seed=" + std::to_string(seed_) +
       ",offset=" + std::to_string(offset_) + ",size=" + std::to_string(size_);
  if (random_) s += ",align=" + std::to_string(align_);
  return s;
}

std::string WorkloadGenerator::help() {
  return R"(Workload spec: comma-separated key=value pairs, e.g.
  rw=randwrite,bs=4k,qd=32,count=1000000,seed=1
Keys:
  rw      read | write | rw (sequential) or randread | randwrite | randrw (random);
          default read. rw and randrw mix reads and writes.
  mix     rw and randrw only: fraction of reads in [0, 1]; default 0.5.
  bs      request size in bytes, multiple of 512; suffix k, m or g (x1024); default 4k.
  qd      host outstanding-request limit, >= 1; default 1.
  count   number of requests, >= 1; required.
  seed    random seed (unsigned 64-bit); default 1. Same spec, same sequence.
  offset  first byte of the span, multiple of 512; default 0.
  size    span length in bytes, multiple of 512; default capacity - offset.
  align   random patterns: offsets are multiples of align (multiple of 512); default bs.
Sequential patterns wrap around to offset at the end of the span. Requests are issued as
fast as qd and the drive allow (closed loop).
)";
}

}  // namespace ssd::tb
