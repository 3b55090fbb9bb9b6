#include "firmware/StateArchive.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

#include <algorithm>

// The streaming loop inlined. Built for any x86-64, XXH3 would use SSE2 only: with xxHash
// 0.8.0 and 0.8.1's internals, as its own xxh_x86dispatch.c (which Debian builds into the
// library, not the header) does, an AVX2 loop is compiled beside it and taken where the
// processor has AVX2: twice as fast on data in the cache, which is how loading reads the tables.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__AVX2__)
#define XXH_DISPATCH_AVX2 1
#define XXH_TARGET_AVX2 __attribute__((__target__("avx2")))
#define SSDTLM_XXH3_AVX2 1
#include <immintrin.h>
#endif
#define XXH_INLINE_ALL
#include <xxhash.h>
#if defined(SSDTLM_XXH3_AVX2) && XXH_VERSION_NUMBER > 801
#undef SSDTLM_XXH3_AVX2  // the internals differ: the library's default loop only
#endif

namespace ssd::fw {

namespace {

#ifdef SSDTLM_XXH3_AVX2
__attribute__((__target__("avx2"))) void update_avx2(XXH3_state_t* s, const void* p, uint64_t n) {
  XXH3_update(s, static_cast<const xxh_u8*>(p), n, XXH3_accumulate_512_avx2, XXH3_scrambleAcc_avx2);
}
bool has_avx2() {
  static const bool yes = (__builtin_cpu_init(), __builtin_cpu_supports("avx2") != 0);
  return yes;
}
#endif

}  // namespace

struct StateChecksum::State {
  XXH3_state_t xxh;
};

StateChecksum::StateChecksum() : state_(new State) { XXH3_64bits_reset(&state_->xxh); }

StateChecksum::~StateChecksum() { delete state_; }

void StateChecksum::update(const void* p, uint64_t n) {
#ifdef SSDTLM_XXH3_AVX2
  if (has_avx2()) {
    update_avx2(&state_->xxh, p, n);  // the same sum
    return;
  }
#endif
  XXH3_64bits_update(&state_->xxh, p, n);
}

uint64_t StateChecksum::digest() const { return XXH3_64bits_digest(&state_->xxh); }

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

void StateArchive::align_to_page() {
  char pad[kPageBytes] = {};  // written as zeros, or read (and summed) on load
  bytes(pad, (kPageBytes - pos_ % kPageBytes) % kPageBytes);
}

bool StateArchive::place(void* p, uint64_t n) {
  if (n > size_ - std::min(pos_, size_))
    throw StateError(std::string("truncated in part '") + section_ + "'");
  // Over the table's own pages: the file's part starts at a page boundary (align_to_page), the
  // table at the start of its mapping; the rest of the last page is not the table's.
  const uint64_t pages = (n + kPageBytes - 1) / kPageBytes * kPageBytes;
  const bool mapped = fd_ >= 0 && mmap(p, pages, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED,
                                       fd_, off_t(pos_)) != MAP_FAILED;
  if (!mapped) std::memcpy(p, in_ + pos_, n);
  pos_ += n;
  return mapped;
}

void StateArchive::read_part(void* out, uint64_t n, uint64_t at) const {
  auto* to = static_cast<char*>(out);
  while (n > 0) {
    const ssize_t got = pread(fd_, to, n, off_t(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) throw StateError(std::string("cannot read part '") + section_ + "'");
    to += got;
    at += uint64_t(got);
    n -= uint64_t(got);
  }
}

void StateArchive::bytes(void* p, uint64_t n) {
  if (n == 0) return;
  if (measuring_) {
    pos_ += n;
    return;
  }
  if (out_) {
    sum_.update(p, n);
    out_->write(static_cast<const char*>(p), std::streamsize(n));
    if (!*out_) throw StateError("write failed");
    pos_ += n;
    return;
  }
  if (n > size_ - std::min(pos_, size_))
    throw StateError(std::string("truncated in part '") + section_ + "'");
  std::memcpy(p, in_ + pos_, n);
  sum_.update(p, n);
  pos_ += n;
}

void StateArchive::mismatch(const char* what, uint64_t got, uint64_t want) const {
  throw StateError(std::string(what) + ": " + std::to_string(got) + " in the file, " +
                   std::to_string(want) + " for this config");
}

}  // namespace ssd::fw
