#include "firmware/StateArchive.h"

#include <algorithm>

namespace ssd::fw {

namespace {

constexpr uint64_t kPrime = 0x9e3779b97f4a7c15ull;

uint64_t mix(uint64_t h, uint64_t word) {
  h = (h ^ word) * kPrime;
  return h << 31 | h >> 33;
}

}  // namespace

void StateChecksum::block(const unsigned char* p) {
  for (std::size_t i = 0; i < lanes_.size(); ++i) {
    uint64_t word;
    std::memcpy(&word, p + i * sizeof word, sizeof word);
    lanes_[i] = mix(lanes_[i], word);
  }
}

void StateChecksum::update(const void* data, uint64_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  total_ += n;
  if (tail_size_ != 0) {
    const std::size_t take = std::min<uint64_t>(n, kBlock - tail_size_);
    std::memcpy(tail_.data() + tail_size_, p, take);
    tail_size_ += take;
    p += take;
    n -= take;
    if (tail_size_ < kBlock) return;
    block(tail_.data());
    tail_size_ = 0;
  }
  for (; n >= kBlock; p += kBlock, n -= kBlock) block(p);
  std::memcpy(tail_.data(), p, n);
  tail_size_ = n;
}

uint64_t StateChecksum::digest() const {
  StateChecksum last = *this;
  std::fill(last.tail_.begin() + std::ptrdiff_t(tail_size_), last.tail_.end(), 0);
  last.block(last.tail_.data());
  uint64_t h = total_;
  for (const uint64_t lane : last.lanes_) h = mix(h, lane);
  return h;
}

void StateArchive::section(const char* name) {
  const uint64_t n = std::strlen(name);
  if (!loading()) {
    uint64_t len = n;
    bytes(&len, sizeof len);
    bytes(const_cast<char*>(name), n);
    section_ = name;
    return;
  }
  uint64_t len = 0;
  bytes(&len, sizeof len);
  std::string got(len == n ? n : 0, '\0');
  if (len == n) bytes(got.data(), n);
  if (got != name)
    throw StateError(std::string("out of step after part '") + section_ + "': expected part '" +
                     name + "'");
  section_ = name;
}

void StateArchive::flag(bool& b) {
  uint8_t v = b;
  value(v);
  if (v > 1) invalid(std::string("a flag that is neither 0 nor 1 in part '") + section_ + "'");
  b = v != 0;
}

void StateArchive::flags(std::vector<bool>& v, uint64_t max, const char* what) {
  std::vector<uint8_t> bytes_of(v.begin(), v.end());
  array(bytes_of, max, what);
  if (!loading()) return;
  v.assign(bytes_of.size(), false);
  for (std::size_t i = 0; i < bytes_of.size(); ++i) {
    if (bytes_of[i] > 1) invalid(std::string(what) + ": a flag that is neither 0 nor 1");
    v[i] = bytes_of[i] != 0;
  }
}

void StateArchive::count(uint64_t& n, uint64_t max, const char* what) {
  value(n);
  if (loading() && n > max)
    throw StateError(std::string(what) + ": " + std::to_string(n) +
                     " elements, more than the drive's " + std::to_string(max));
}

void StateArchive::out_of_range(const char* what, uint64_t v, uint64_t bound) {
  throw StateError(std::string(what) + ": " + std::to_string(v) + " out of range (below " +
                   std::to_string(bound) + " expected)");
}

void StateArchive::invalid(const std::string& what) { throw StateError(what); }

void StateArchive::bytes(void* p, uint64_t n) {
  if (n == 0) return;
  if (out_) {
    sum_.update(p, n);
    out_->write(static_cast<const char*>(p), std::streamsize(n));
    if (!*out_) throw StateError("write failed");
    return;
  }
  in_->read(static_cast<char*>(p), std::streamsize(n));
  if (uint64_t(in_->gcount()) != n)
    throw StateError(std::string("truncated in part '") + section_ + "'");
  sum_.update(p, n);
}

void StateArchive::mismatch(const char* what, uint64_t got, uint64_t want) const {
  throw StateError(std::string(what) + ": " + std::to_string(got) + " in the file, " +
                   std::to_string(want) + " for this config");
}

}  // namespace ssd::fw
