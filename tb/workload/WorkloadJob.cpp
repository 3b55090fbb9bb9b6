#include "tb/workload/WorkloadJob.h"

#include <algorithm>
#include <limits>

#include "common/Errors.h"
#include "tb/trace/TextFields.h"

namespace ssd::tb {
namespace {

// SplitMix64's output function: a bijection that scrambles every bit.
uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

}  // namespace

uint64_t derive_seed(uint64_t seed, uint64_t job_index) {
  return mix64(seed + (job_index + 1) * kGolden);
}

JobStream::JobStream(JobSpec spec) : spec_(std::move(spec)), rng_(spec_.seed) {
  for (const auto& [size, weight] : spec_.bs_split) split_total_ += weight;
  if (spec_.random) {
    const uint64_t rest = spec_.offset % spec_.align;
    const uint64_t gap = rest == 0 ? 0 : spec_.align - rest;
    first_slot_ = spec_.offset + gap;
    slots_ = (spec_.size - spec_.bs_max - gap) / spec_.align + 1;
    if (spec_.distribution == AddressDistribution::kZipf) {
      zipf_ = std::make_unique<ZipfSampler>(slots_, spec_.zipf_theta);
    } else if (spec_.distribution == AddressDistribution::kHotspot) {
      hot_slots_ = static_cast<uint64_t>(static_cast<double>(slots_) * spec_.hot_fraction);
      hot_slots_ = std::min(std::max<uint64_t>(hot_slots_, 1), slots_);
    }
  }
  cursor_ = spec_.offset;
  if (spec_.zone_appends) zones_ = std::make_unique<ZoneAppends>(spec_.zone_span);
}

bool JobStream::next(HostRequest& out) {
  if ((spec_.count != 0 && issued_ == spec_.count) ||
      (spec_.io_size != 0 && bytes_ >= spec_.io_size)) {
    return false;
  }
  if (spec_.interval_ps != 0 &&
      issued_ > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / spec_.interval_ps) {
    throw InputError("workload: job " + spec_.name +
                     ": arrivals beyond the simulated time range (2^63 ps)");
  }
  out.arrival = picoseconds_time(issued_ * spec_.interval_ps);
  out.ns = spec_.ns;
  out.placement = spec_.placement.value_or(0);
  out.has_fingerprint = false;
  out.compressible_percent = 0;
  if (spec_.placement_update_bytes != 0 && written_ >= spec_.placement_update_bytes) {
    written_ = 0;
    out.op = IoOp::PlacementUpdate;
    out.offset_bytes = 0;
    out.length_bytes = 0;
    return true;
  }
  if (spec_.zone_report_every != 0 && since_report_ == spec_.zone_report_every) {
    since_report_ = 0;
    zones_->report(out);
    return true;
  }
  ++issued_;
  if (zones_) ++since_report_;
  out.op = spec_.mixed ? (unit_interval(rng_) < spec_.mix ? IoOp::Read : IoOp::Write) : spec_.op;
  const uint64_t length = draw_size();
  if (zones_) {
    zones_->next(out, out.op == IoOp::Read, length, [this](uint64_t n) { return uniform(n); });
    bytes_ += out.length_bytes;
    return true;
  }
  if (spec_.random) {
    out.offset_bytes = first_slot_ + draw_slot() * spec_.align;
  } else {
    if (cursor_ + length > spec_.offset + spec_.size) cursor_ = spec_.offset;
    out.offset_bytes = cursor_;
    cursor_ += length;
  }
  out.length_bytes = length;
  bytes_ += length;
  if (out.op == IoOp::Write) written_ += length;
  if (spec_.content && out.op == IoOp::Write) draw_content(out);
  return true;
}

uint64_t JobStream::uniform(uint64_t n) {
  // Rejection sampling: dropping the lowest 2^64 mod n raw values leaves a multiple of n
  // equally likely values, so x % n is exactly uniform.
  const uint64_t reject_below = (0 - n) % n;
  uint64_t x = rng_();
  while (x < reject_below) x = rng_();
  return x % n;
}

uint64_t JobStream::draw_size() {
  if (!spec_.bs_split.empty()) {
    uint64_t pick = uniform(split_total_);
    for (const auto& [size, weight] : spec_.bs_split) {
      if (pick < weight) return size;
      pick -= weight;
    }
  }
  if (spec_.bs_min == spec_.bs_max) return spec_.bs_min;
  const uint64_t sizes = (spec_.bs_max - spec_.bs_min) / kSectorBytes + 1;
  return spec_.bs_min + uniform(sizes) * kSectorBytes;
}

uint64_t JobStream::draw_slot() {
  switch (spec_.distribution) {
    case AddressDistribution::kUniform:
      break;
    case AddressDistribution::kZipf:
      return (*zipf_)(rng_)-1;
    case AddressDistribution::kHotspot:
      if (hot_slots_ == slots_) break;
      if (unit_interval(rng_) < spec_.hot_probability) return uniform(hot_slots_);
      return hot_slots_ + uniform(slots_ - hot_slots_);
  }
  return uniform(slots_);
}

void JobStream::draw_content(HostRequest& out) {
  // Content number c stands for one distinct data pattern; a duplicate repeats a uniformly
  // chosen earlier one, so the share of duplicates is dedupe_percentage without keeping any.
  const bool duplicate = unit_interval(rng_) * 100 < spec_.dedupe_percentage && contents_ != 0;
  const uint64_t c = duplicate ? uniform(contents_) : contents_++;
  const uint64_t a = mix64(spec_.seed ^ mix64(c + kGolden));
  const uint64_t b = mix64(a + kGolden);
  for (int i = 0; i < 8; ++i) {
    out.fingerprint[i] = static_cast<uint8_t>(a >> (8 * i));
    out.fingerprint[8 + i] = static_cast<uint8_t>(b >> (8 * i));
  }
  out.has_fingerprint = true;
  out.compressible_percent = spec_.compress_percentage;
}

}  // namespace ssd::tb
