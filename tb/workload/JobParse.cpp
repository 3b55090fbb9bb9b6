// The job text of --workload and of a workload file's jobs: parse_job checks and reads it
// (tb/workload/WorkloadJob.h); JobDescribe.cpp writes it back and lists its keys.
#include "tb/workload/WorkloadJob.h"

#include <cmath>
#include <limits>
#include <optional>

#include "common/DidYouMean.h"
#include "common/Errors.h"
#include "tb/trace/TextFields.h"

namespace ssd::tb {

namespace {

constexpr double kPsPerSecond = 1e12;
constexpr double kPsPerUs = 1e6;
constexpr double kMaxZipfTheta = 40;  // beyond it every draw is rank 1 anyway

// The raw text of each key, before validation.
struct Raw {
  std::optional<std::string_view> rw, mix, bs, qd, count, seed, offset, size, align, name, io_size,
      rate_iops, thinktime_us, distribution, dedupe_percentage, compress_percentage, queue, ns,
      zones, zone_report_every, placement, placement_update_bytes;
};

struct Key {
  const char* name;
  std::optional<std::string_view> Raw::*slot;
  bool extended;  // a --workload-file key only
};

constexpr Key kKeys[] = {{"rw", &Raw::rw, false},
                         {"mix", &Raw::mix, false},
                         {"bs", &Raw::bs, false},
                         {"qd", &Raw::qd, false},
                         {"count", &Raw::count, false},
                         {"seed", &Raw::seed, false},
                         {"offset", &Raw::offset, false},
                         {"size", &Raw::size, false},
                         {"align", &Raw::align, false},
                         {"namespace", &Raw::ns, false},
                         {"zones", &Raw::zones, false},
                         {"zone_report_every", &Raw::zone_report_every, false},
                         {"placement", &Raw::placement, false},
                         {"placement_update_bytes", &Raw::placement_update_bytes, false},
                         {"name", &Raw::name, true},
                         {"io_size", &Raw::io_size, true},
                         {"rate_iops", &Raw::rate_iops, true},
                         {"thinktime_us", &Raw::thinktime_us, true},
                         {"distribution", &Raw::distribution, true},
                         {"dedupe_percentage", &Raw::dedupe_percentage, true},
                         {"compress_percentage", &Raw::compress_percentage, true},
                         {"queue", &Raw::queue, true}};

struct Pattern {
  const char* name;
  bool random;
  bool mixed;
  IoOp op;  // when not mixed
};

constexpr Pattern kPatterns[] = {
    {"read", false, false, IoOp::Read},       {"write", false, false, IoOp::Write},
    {"rw", false, true, IoOp::Read},          {"randread", true, false, IoOp::Read},
    {"randwrite", true, false, IoOp::Write},  {"randrw", true, true, IoOp::Read},
    {"zoneappend", false, true, IoOp::Append}};

// Validation of one job's keys, with its messages' prefix.
class Parser {
 public:
  explicit Parser(const JobSyntax& syntax) : syntax_(syntax) {}

  [[noreturn]] void fail(std::string_view key, const std::string& reason) const {
    throw InputError(syntax_.prefix + std::string(key) + ": " + reason);
  }

  uint64_t unsigned_value(std::string_view key, std::string_view text) const {
    uint64_t value = 0;
    if (const char* reason = parse_unsigned(text, value)) fail(key, reason + got(text));
    return value;
  }

  double number(std::string_view key, std::string_view text) const {
    double value = 0;
    if (const char* reason = parse_double(text, value)) fail(key, reason + got(text));
    return value;
  }

  double fraction(std::string_view key, std::string_view text, double max,
                  const char* expected) const {
    const double value = number(key, text);
    if (value > max) fail(key, expected + got(text));
    return value;
  }

  uint64_t bytes_value(std::string_view key, std::string_view text) const {
    uint64_t value = 0;
    if (const char* reason = parse_bytes(text, value)) fail(key, reason + got(text));
    return value;
  }

  // Requests address whole sectors.
  uint64_t sectors_value(std::string_view key, std::string_view text) const {
    const uint64_t value = bytes_value(key, text);
    if (value == 0 || value % kSectorBytes != 0) {
      fail(key, "expected a positive multiple of 512 bytes" + got(text));
    }
    return value;
  }

  // "4k" (fixed), and in a workload file "4k-64k" (uniform) or "4k/30:64k/70" (weighted).
  void sizes(std::string_view text, JobSpec& spec) const {
    if (syntax_.extended && text.find('/') != std::string_view::npos) {
      std::string_view rest = text;
      uint64_t total = 0;
      for (;;) {
        const size_t colon = rest.find(':');
        const std::string_view item = rest.substr(0, colon);
        const size_t slash = item.find('/');
        if (slash == std::string_view::npos) fail("bs", "expected SIZE/WEIGHT" + got(item));
        const uint64_t size = sectors_value("bs", item.substr(0, slash));
        const uint64_t weight = unsigned_value("bs", item.substr(slash + 1));
        if (weight > std::numeric_limits<uint64_t>::max() - total) {
          fail("bs", "weights add up beyond 2^64" + got(text));
        }
        total += weight;
        spec.bs_split.emplace_back(size, weight);
        if (colon == std::string_view::npos) break;
        rest.remove_prefix(colon + 1);
      }
      if (total == 0) fail("bs", "expected a positive total weight" + got(text));
      spec.bs_min = spec.bs_max = spec.bs_split.front().first;
      for (const auto& [size, weight] : spec.bs_split) {
        if (weight == 0) continue;
        spec.bs_min = std::min(spec.bs_min, size);
        spec.bs_max = std::max(spec.bs_max, size);
      }
    } else if (syntax_.extended && text.find('-') != std::string_view::npos) {
      const size_t dash = text.find('-');
      spec.bs_min = sectors_value("bs", text.substr(0, dash));
      spec.bs_max = sectors_value("bs", text.substr(dash + 1));
      if (spec.bs_min > spec.bs_max) fail("bs", "expected MIN-MAX with MIN <= MAX" + got(text));
    } else {
      spec.bs_min = spec.bs_max = sectors_value("bs", text);
    }
  }

  void distribution(std::string_view text, JobSpec& spec) const {
    constexpr const char* kExpected =
        "expected uniform, zipf:THETA or hotspot:FRACTION:PROBABILITY";
    const size_t colon = text.find(':');
    const std::string_view kind = text.substr(0, colon);
    const std::string_view args =
        colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
    if (kind == "uniform" && colon == std::string_view::npos) {
      spec.distribution = AddressDistribution::kUniform;
    } else if (kind == "zipf" && colon != std::string_view::npos) {
      spec.distribution = AddressDistribution::kZipf;
      double theta = 0;
      if (parse_double(args, theta) != nullptr || theta <= 0 || theta > kMaxZipfTheta) {
        fail("distribution", "expected zipf:THETA with 0 < THETA <= 40" + got(text));
      }
      spec.zipf_theta = theta;
    } else if (kind == "hotspot" && colon != std::string_view::npos) {
      spec.distribution = AddressDistribution::kHotspot;
      const size_t second = args.find(':');
      double f = 0;
      double p = 0;
      if (second == std::string_view::npos || parse_double(args.substr(0, second), f) ||
          parse_double(args.substr(second + 1), p) || f <= 0 || f >= 1 || p > 1) {
        fail("distribution",
             "expected hotspot:FRACTION:PROBABILITY with 0 < FRACTION < 1 and PROBABILITY <= 1" +
                 got(text));
      }
      spec.hot_fraction = f;
      spec.hot_probability = p;
    } else {
      fail("distribution", kExpected + got(text));
    }
  }

  std::vector<std::string_view> key_names() const {
    std::vector<std::string_view> names;
    for (const Key& k : kKeys) {
      if (k.extended && !syntax_.extended) continue;
      names.push_back(k.name);
    }
    return names;
  }
  std::string key_list() const {
    std::string list;
    for (std::string_view name : key_names()) {
      if (!list.empty()) list += ", ";
      list += name;
    }
    return list;
  }

 private:
  const JobSyntax& syntax_;
};

// Phases of parse_job, in the order its checks run (the first error found is the one named).

// Each key's text in its slot: unknown keys and keys given twice are errors.
Raw read_keys(const std::vector<std::pair<std::string_view, std::string_view>>& keys,
              const Parser& p, const JobSyntax& syntax) {
  Raw raw;
  for (const auto& [key, value] : keys) {
    const Key* found = nullptr;
    for (const Key& k : kKeys) {
      if (key == k.name && (syntax.extended || !k.extended)) found = &k;
    }
    if (found == nullptr)
      p.fail(key, "unknown key (" + p.key_list() + ")" + did_you_mean(key, p.key_names()));
    if (raw.*found->slot) p.fail(key, "given twice");
    raw.*found->slot = value;
  }
  return raw;
}

// The access pattern and how much of it: rw, mix, bs, qd, count, seed, queue.
void read_pattern(const Parser& p, const Raw& raw, const JobSyntax& syntax, JobSpec& spec) {
  if (raw.name) spec.name = *raw.name;
  const std::string_view rw = raw.rw.value_or("read");
  const Pattern* pattern = nullptr;
  for (const Pattern& pat : kPatterns) {
    if (rw == pat.name) pattern = &pat;
  }
  if (pattern == nullptr) {
    p.fail("rw", "expected read, write, rw, randread, randwrite, randrw or zoneappend" + got(rw));
  }
  spec.rw = pattern->name;
  spec.random = pattern->random;
  spec.mixed = pattern->mixed;
  spec.op = pattern->op;
  if (pattern->op == IoOp::Append) spec.mix = 0;  // appends only, unless reads are asked for

  if (raw.mix) {
    if (!spec.mixed) p.fail("mix", "applies only to rw=rw, rw=randrw and rw=zoneappend");
    spec.mix = p.fraction("mix", *raw.mix, 1, "expected a read fraction in [0, 1]");
  }
  if (raw.bs) p.sizes(*raw.bs, spec);
  if (raw.qd) {
    const uint64_t qd = p.unsigned_value("qd", *raw.qd);
    if (qd == 0 || qd > std::numeric_limits<uint32_t>::max()) {
      p.fail("qd", "expected 1 to 4294967295 outstanding requests" + got(*raw.qd));
    }
    spec.qd = static_cast<uint32_t>(qd);
  }
  if (raw.count) {
    spec.count = p.unsigned_value("count", *raw.count);
    if (spec.count == 0) p.fail("count", "expected at least 1 request" + got(*raw.count));
  } else if (!syntax.extended) {
    p.fail("count", "required: the number of requests");
  }
  if (raw.seed) spec.seed = p.unsigned_value("seed", *raw.seed);
  if (raw.queue) {  // within host.queues: the host checks
    const uint64_t q = p.unsigned_value("queue", *raw.queue);
    if (q > 65535)
      p.fail("queue", "expected a submission queue index, 0 to 65535" + got(*raw.queue));
    spec.queue = static_cast<uint32_t>(q);
  }
}

// Which namespace: one of the drive's, by name.
void read_namespace(const Parser& p, const Raw& raw, const AddressSpace& space, JobSpec& spec) {
  if (!raw.ns) return;
  const std::optional<uint32_t> ns = config::find_namespace(space.namespaces, *raw.ns);
  if (!ns) p.fail("namespace", config::no_such_namespace(space.namespaces, *raw.ns));
  spec.ns = *ns;
  spec.ns_name = std::string(*raw.ns);
}

// Its writes' placement handle: one of its namespace's (ftl.fdp), a conventional one.
void read_placement(const Parser& p, const Raw& raw, const AddressSpace& space, JobSpec& spec) {
  if (raw.placement) {
    const uint64_t h = p.unsigned_value("placement", *raw.placement);
    if (const std::string why = config::placement_handle_problem(space.namespaces[spec.ns], h);
        !why.empty())
      p.fail("placement", why);
    spec.placement = uint16_t(h);
  }
  if (!raw.placement_update_bytes) return;
  constexpr const char* kKey = "placement_update_bytes";
  spec.placement_update_bytes = p.bytes_value(kKey, *raw.placement_update_bytes);
  if (spec.placement_update_bytes == 0)
    p.fail(kKey, "expected at least 1 byte" + got(*raw.placement_update_bytes));
  if (spec.op != IoOp::Write && !spec.mixed)
    p.fail(kKey, "applies to jobs that write (rw=write, rw, randwrite, randrw)");
  if (const std::string why =
          config::placement_handle_problem(space.namespaces[spec.ns], spec.placement.value_or(0));
      !why.empty())
    p.fail(kKey, why);
}

// Where it goes: offset, size and align within its namespace.
void read_span(const Parser& p, const Raw& raw, const AddressSpace& space, JobSpec& spec) {
  const config::NamespaceRange& n = space.namespaces[spec.ns];
  const uint64_t capacity_bytes = n.host_bytes();
  const std::string capacity =
      std::to_string(capacity_bytes) + " bytes" +
      (space.namespaces.size() == 1 ? std::string() : " of namespace " + n.name);
  if (raw.offset) {
    spec.offset = p.bytes_value("offset", *raw.offset);
    if (spec.offset % kSectorBytes != 0) {
      p.fail("offset", "expected a multiple of 512 bytes" + got(*raw.offset));
    }
  }
  if (spec.offset >= capacity_bytes) {
    p.fail("offset", "at or beyond the capacity of " + capacity + got(raw.offset.value_or("0")));
  }
  spec.size = raw.size ? p.sectors_value("size", *raw.size) : capacity_bytes - spec.offset;
  if (spec.size > capacity_bytes - spec.offset) {
    p.fail("size", "offset + size exceeds the capacity of " + capacity + got(*raw.size));
  }
  if (spec.size < spec.bs_max) {
    p.fail("size", "span of " + std::to_string(spec.size) + " bytes is smaller than bs (" +
                       std::to_string(spec.bs_max) + " bytes)");
  }
  spec.align = raw.align ? p.sectors_value("align", *raw.align) : spec.bs_min;
  if (spec.random) {
    // Offsets are multiples of align (absolute, not relative to offset) whose whole largest
    // block lies in the span.
    const uint64_t rest = spec.offset % spec.align;
    const uint64_t gap = rest == 0 ? 0 : spec.align - rest;
    if (gap > spec.size - spec.bs_max) {
      p.fail("align", "no " + std::to_string(spec.align) + "-aligned block of bs fits in the span");
    }
  }
}

// rw=zoneappend: whole zones of a zoned namespace, `zones` of them written side by side, in
// sizes of its logical blocks.
void read_zones(const Parser& p, const Raw& raw, const AddressSpace& space, JobSpec& spec) {
  if (spec.op != IoOp::Append) {
    if (raw.zones) p.fail("zones", "applies only to rw=zoneappend");
    if (raw.zone_report_every) p.fail("zone_report_every", "applies only to rw=zoneappend");
    return;
  }
  const config::NamespaceRange& n = space.namespaces[spec.ns];
  if (n.kind != config::NamespaceKind::Zoned)
    p.fail("rw", "zoneappend needs a zoned namespace (namespace=NAME); " +
                     (space.namespaces.size() == 1 ? std::string("the drive has none")
                                                   : "namespace " + n.name + " is conventional"));
  if (n.translation.enabled)
    p.fail("rw", "namespace " + n.name +
                     " is translated by the host (namespaces[].host_translation): its jobs read, "
                     "write and trim blocks, and the host's layer sends the zone commands");
  const std::string zone = std::to_string(n.zone_bytes) + " bytes";
  if (spec.offset % n.zone_bytes != 0)
    p.fail("offset", "zoneappend spans whole zones: expected a multiple of the zone size, " + zone +
                         got(raw.offset.value_or("0")));
  if (spec.size % n.zone_bytes != 0)
    p.fail("size", "zoneappend spans whole zones: expected a multiple of the zone size, " + zone +
                       got(raw.size.value_or(std::to_string(spec.size))));
  const std::string lba = std::to_string(n.lba_bytes);
  bool whole = spec.bs_min % n.lba_bytes == 0 && spec.bs_max % n.lba_bytes == 0;
  for (const auto& [size, weight] : spec.bs_split) whole = whole && size % n.lba_bytes == 0;
  if (!whole ||
      (spec.bs_split.empty() && spec.bs_min != spec.bs_max && n.lba_bytes != kSectorBytes))
    p.fail("bs", "zoneappend writes whole logical blocks of namespace " + n.name + " (" + lba +
                     " bytes): expected sizes that are multiples of " + lba +
                     " (a MIN-MAX range draws multiples of 512)" + got(raw.bs.value_or("4096")));
  if (spec.bs_max > n.zone_capacity_bytes)
    p.fail("bs", "larger than a zone's capacity, " + std::to_string(n.zone_capacity_bytes) +
                     " bytes" + got(raw.bs.value_or("")));
  const uint64_t zones = spec.size / n.zone_bytes;
  uint64_t side = 1;
  if (raw.zones) {
    side = p.unsigned_value("zones", *raw.zones);
    if (side == 0 || side > zones)
      p.fail("zones", "expected 1 to " + std::to_string(zones) +
                          " zones written side by side (the span's)" + got(*raw.zones));
  }
  if (raw.zone_report_every) {
    spec.zone_report_every = p.unsigned_value("zone_report_every", *raw.zone_report_every);
    if (spec.zone_report_every == 0)
      p.fail("zone_report_every", "expected at least 1 request" + got(*raw.zone_report_every));
  }
  spec.zone_appends = true;
  spec.zone_span =
      ZoneSpan{spec.offset, uint32_t(zones), n.zone_bytes, n.zone_capacity_bytes, uint32_t(side)};
}

// How long and how fast: io_size, rate_iops or thinktime_us.
void read_pacing(const Parser& p, const Raw& raw, JobSpec& spec) {
  if (raw.io_size) {
    spec.io_size = p.bytes_value("io_size", *raw.io_size);
    if (spec.io_size == 0) p.fail("io_size", "expected at least 1 byte" + got(*raw.io_size));
  } else if (!raw.count) {
    spec.io_size = spec.size;  // fio's default: one pass over the span
  }
  if (raw.rate_iops && raw.thinktime_us) {
    p.fail("thinktime_us", "give rate_iops or thinktime_us, not both");
  }
  if (raw.rate_iops) {
    spec.rate_iops = p.number("rate_iops", *raw.rate_iops);
    const double ps = std::round(kPsPerSecond / spec.rate_iops);
    if (spec.rate_iops == 0 || ps < 1 || ps >= 0x1p62) {
      p.fail("rate_iops", "expected 2.2e-7 to 1e12 requests per second" + got(*raw.rate_iops));
    }
    spec.interval_ps = static_cast<uint64_t>(ps);
  }
  if (raw.thinktime_us) {
    spec.thinktime_us = p.number("thinktime_us", *raw.thinktime_us);
    const double ps = std::round(spec.thinktime_us * kPsPerUs);
    if (ps < 1 || ps >= 0x1p62) {
      p.fail("thinktime_us", "expected 1e-6 to 4e12 microseconds" + got(*raw.thinktime_us));
    }
    spec.interval_ps = static_cast<uint64_t>(ps);
  }
}

// Which addresses and what data: distribution, dedupe_percentage, compress_percentage.
void read_content(const Parser& p, const Raw& raw, JobSpec& spec) {
  if (raw.distribution) {
    if (!spec.random) p.fail("distribution", "applies only to random patterns");
    p.distribution(*raw.distribution, spec);
  }
  if (raw.dedupe_percentage) {
    spec.dedupe_percentage = p.fraction("dedupe_percentage", *raw.dedupe_percentage, 100,
                                        "expected a percentage in [0, 100]");
    spec.content = true;
  }
  if (raw.compress_percentage) {
    const uint64_t c = p.unsigned_value("compress_percentage", *raw.compress_percentage);
    if (c > 100) {
      p.fail("compress_percentage",
             "expected a percentage in [0, 100]" + got(*raw.compress_percentage));
    }
    spec.compress_percentage = static_cast<uint8_t>(c);
    spec.content = true;
  }
}

}  // namespace

JobSpec parse_job(const std::vector<std::pair<std::string_view, std::string_view>>& keys,
                  const AddressSpace& space, const JobSyntax& syntax) {
  const Parser p(syntax);
  const Raw raw = read_keys(keys, p, syntax);
  JobSpec spec;
  read_pattern(p, raw, syntax, spec);
  read_namespace(p, raw, space, spec);
  read_placement(p, raw, space, spec);
  read_span(p, raw, space, spec);
  read_zones(p, raw, space, spec);
  read_pacing(p, raw, spec);
  read_content(p, raw, spec);
  return spec;
}

}  // namespace ssd::tb
