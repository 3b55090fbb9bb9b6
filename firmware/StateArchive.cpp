#include "firmware/StateArchive.h"

#include <algorithm>

#include <zlib.h>

namespace ssd::fw {

void StateChecksum::update(const void* p, uint64_t n) {
  crc_ = crc32_z(crc_, static_cast<const Bytef*>(p), n);
  total_ += n;
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
