#pragma once
// The drive's state as a byte stream, for a saved aged drive (docs/state.md): each stateful
// class has one state(StateArchive&) that lists its members, so the same code saves and
// loads them and the two cannot drift apart. Arrays go as whole blocks (no per-element
// call); the large tables (table()) start at a page boundary of the file, so that loading maps
// them from it instead of copying them. Loading trusts nothing: every count is bounded by the
// caller (from the config's geometry) before anything is allocated, indexes are checked against
// their range, and a short or corrupt stream throws StateError saying what was being read. Both
// ways the bytes are summed (StateChecksum): a saved file holds the sum, which loading compares.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/HugePages.h"

namespace ssd::fw {

struct StateError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A 64-bit checksum of a byte stream, the same however the stream is cut into calls (the
// fuzz harness sums a whole edited state at once): xxHash's XXH3, as fast as memory delivers
// the bytes (zlib's CRC-32, about 4 GB/s, was a tenth of loading the 1 TB drive, and the load's
// largest part once its tables were mapped instead of zeroed and copied).
class StateChecksum {
 public:
  StateChecksum();
  ~StateChecksum();
  StateChecksum(const StateChecksum&) = delete;
  StateChecksum& operator=(const StateChecksum&) = delete;
  void update(const void* p, uint64_t n);
  uint64_t digest() const;

 private:
  struct State;  // xxHash's, inlined in StateArchive.cpp
  State* state_;
};

// Stored as its bytes: trivially copyable, and no padding (whose bytes nothing sets, so that
// identical runs would write different files). Floating-point values have no padding, only no
// unique representation (+0 and -0).
template <class T>
inline constexpr bool kStoredAsBytes = std::is_trivially_copyable_v<T> &&
                                       (std::is_floating_point_v<T> ||
                                        std::has_unique_object_representations_v<T>);

class StateArchive {
  // An optional value an index may also take ("none"); not deduced from the argument.
  template <class T>
  struct Id {
    using type = T;
  };
  template <class T>
  using Sentinel = std::optional<typename Id<T>::type>;

 public:
  // Writes to `out`, whose position is `offset` bytes into its file (table() aligns to it).
  StateArchive(std::ostream& out, uint64_t offset) : out_(&out), pos_(offset) {}
  // Reads the `size` bytes of a file at `file` (mapped or in memory) from byte `offset` on;
  // `fd`: the file, whose tables are then mapped (-1: copied).
  StateArchive(const uint8_t* file, uint64_t size, uint64_t offset, int fd)
      : in_(file), size_(size), pos_(offset), fd_(fd) {}
  // Measures what a save from `offset` on would write (position() at the end), writing
  // nothing: a state file's size before it is written.
  struct Measure {};
  StateArchive(Measure, uint64_t offset) : pos_(offset), measuring_(true) {}

  bool loading() const { return in_ != nullptr; }
  // The file offset reached (a loaded stream must end at the file's end).
  uint64_t position() const { return pos_; }
  // The checksum of the bytes written or read so far.
  uint64_t checksum() const { return sum_.digest(); }

  // A named mark between parts: a stream out of step fails here, naming the part.
  void section(const char* name);

  // A plain value (integers, flags, enums, trivially copyable structs).
  template <class T>
  void value(T& v) {
    static_assert(kStoredAsBytes<T>);
    bytes(&v, sizeof v);
  }
  // A flag: 0 or 1 once loaded.
  void flag(bool& b);
  // A value that must be below `bound` (or equal `sentinel`) once loaded.
  template <class T>
  void index(T& v, uint64_t bound, const char* what, Sentinel<T> sentinel = std::nullopt) {
    value(v);
    if (loading() && v != sentinel && uint64_t(v) >= bound) out_of_range(what, uint64_t(v), bound);
  }
  // A value that must equal the one the config gives.
  template <class T>
  void expect(T v, const char* what) {
    T got = v;
    value(got);
    if (got != v) mismatch(what, uint64_t(got), uint64_t(v));
  }

  // A vector of at most `max` elements (its length is stored).
  template <class T>
  void array(std::vector<T>& v, uint64_t max, const char* what) {
    static_assert(kStoredAsBytes<T>);
    uint64_t n = v.size();
    count(n, max, what);
    if (loading()) v.resize(n);
    bytes(v.data(), n * sizeof(T));
  }
  // A vector whose length the config fixes (as constructed): the stored one must match.
  template <class T, class A>
  void fixed(std::vector<T, A>& v, const char* what) {
    fixed(v.data(), v.size(), what);
  }
  // The same for `n` elements at `p`, a part of a table of the caller's.
  template <class T>
  void fixed(T* p, std::size_t n, const char* what) {
    static_assert(kStoredAsBytes<T>);
    expect(uint64_t(n), what);
    bytes(p, n * sizeof(T));
  }
  // As array() and fixed(), for elements that are indexes below `bound` (or `sentinel`).
  template <class T>
  void indexes(std::vector<T>& v, uint64_t max, uint64_t bound, const char* what,
               Sentinel<T> sentinel = std::nullopt) {
    array(v, max, what);
    check(v.data(), v.size(), bound, what, sentinel);
  }
  template <class T, class A>
  void fixed_indexes(std::vector<T, A>& v, uint64_t bound, const char* what,
                     Sentinel<T> sentinel = std::nullopt) {
    fixed_indexes(v.data(), v.size(), bound, what, sentinel);
  }
  template <class T>
  void fixed_indexes(T* p, std::size_t n, uint64_t bound, const char* what,
                     Sentinel<T> sentinel = std::nullopt) {
    fixed(p, n, what);
    check(p, n, bound, what, sentinel);
  }
  // A large table of `n` elements (a LazyTable: memory of its own), whose elements must be
  // below `bound` (or equal `sentinel`) once loaded. Saved at a page boundary of the file;
  // loaded by mapping that part of the file over the table (private: the run's writes copy
  // the pages they touch), so the 1 TB drive's 4 GB of tables load without being copied or
  // zeroed.
  template <class T>
  void table(LazyTable<T>& t, std::size_t n, const char* what, uint64_t bound = kAny,
             Sentinel<T> sentinel = std::nullopt) {
    static_assert(kStoredAsBytes<T>);
    expect(uint64_t(n), what);
    align_to_page();
    if (n == 0) return;
    T* p = &t[0];
    if (!loading()) {
      bytes(p, n * sizeof(T));
      return;
    }
    const uint64_t from = pos_;
    if (!place(p, n * sizeof(T))) {  // copied: summed and checked where it is
      for (std::size_t at = 0; at < n; at += kTablePart / sizeof(T)) {
        const std::size_t part = std::min(n - at, kTablePart / sizeof(T));
        sum_.update(p + at, part * sizeof(T));
        check(p + at, part, bound, what, sentinel);
      }
      return;
    }
    // Mapped: summed and checked as read from the file a part at a time into a buffer that
    // stays in the cache, not through the mapping, whose page-table entries for 4 GB (a fault
    // each 16 pages) cost the 1 TB drive's load more than reading the bytes did; the run then
    // maps just the pages it touches. The file is never written in place (docs/state.md), so
    // what the mapping shows is what was checked.
    std::vector<T> buffer(std::min(n, kTablePart / sizeof(T)));
    for (std::size_t at = 0; at < n; at += buffer.size()) {
      const std::size_t part = std::min(n - at, buffer.size());
      read_part(buffer.data(), part * sizeof(T), from + at * sizeof(T));
      sum_.update(buffer.data(), part * sizeof(T));
      check(buffer.data(), part, bound, what, sentinel);
    }
  }
  template <class T>
  void indexes(std::deque<T>& d, uint64_t max, uint64_t bound, const char* what) {
    std::vector<T> v(d.begin(), d.end());
    indexes(v, max, bound, what);
    if (loading()) d.assign(v.begin(), v.end());
  }
  // A vector of pairs, as two arrays.
  template <class A, class B>
  void pairs(std::vector<std::pair<A, B>>& v, uint64_t max, const char* what) {
    std::vector<A> first;
    std::vector<B> second;
    for (const auto& [x, y] : v) {
      first.push_back(x);
      second.push_back(y);
    }
    array(first, max, what);
    second.resize(first.size());
    fixed(second, what);
    if (!loading()) return;
    v.clear();
    for (std::size_t i = 0; i < first.size(); ++i) v.emplace_back(first[i], second[i]);
  }
  // Whether a bool read as bytes (in a struct) holds 0 or 1; read as a bool, another byte
  // would be undefined.
  static bool valid_flag(const bool& b) {
    uint8_t v;
    std::memcpy(&v, &b, 1);
    return v <= 1;
  }
  // A vector of bools (no block layout): a byte each.
  void flags(std::vector<bool>& v, uint64_t max, const char* what);

  // An element count: stored; once loaded, at most `max`.
  void count(uint64_t& n, uint64_t max, const char* what);
  // Fails with `what` out of range.
  [[noreturn]] static void out_of_range(const char* what, uint64_t v, uint64_t bound);
  [[noreturn]] static void invalid(const std::string& what);

 private:
  static constexpr uint64_t kAny = ~uint64_t{0};  // no bound
  // What tables are aligned to in the file: the page a mapping starts at (where the machine's
  // pages are larger, tables are copied).
  static constexpr uint64_t kPageBytes = 4096;
  // Loaded tables are summed and checked a part at a time, while the part is in the cache.
  static constexpr std::size_t kTablePart = std::size_t{256} << 10;

  template <class T>
  void check(const T* p, std::size_t n, uint64_t bound, const char* what,
             std::optional<T> sentinel) const {
    if (!loading() || bound == kAny) return;
    if (!any_out_of_range(p, n, bound, sentinel)) return;
    // The culprit, looked for once found.
    for (const T* x = p; x != p + n; ++x)
      if (uint64_t(*x) >= bound && *x != sentinel) out_of_range(what, uint64_t(*x), bound);
  }
  // Whether an element is at or above `bound` (and not `sentinel`), without a branch per
  // element: for unsigned elements compared in their own type, so that the loop is vectorised
  // (compared as 64-bit values it was not, and checking the 1 TB drive's two 1 GB tables of
  // 32-bit indexes cost its load more than summing its 4.2 GB did).
  template <class T>
  static bool any_out_of_range(const T* p, std::size_t n, uint64_t bound,
                               std::optional<T> sentinel) {
    if constexpr (std::is_unsigned_v<T>) {
      if (bound > uint64_t(std::numeric_limits<T>::max())) return false;  // every value is below
      const T b = T(bound);
      T bad = 0;
      if (sentinel) {
        const T none = *sentinel;
        for (const T* x = p; x != p + n; ++x) bad |= T(*x >= b) & T(*x != none);
      } else {
        for (const T* x = p; x != p + n; ++x) bad |= T(*x >= b);
      }
      return bad != 0;
    } else {
      const T none = sentinel.value_or(T(0));
      const bool no_sentinel = !sentinel;
      bool bad = false;
      for (const T* x = p; x != p + n; ++x)
        bad |= (uint64_t(*x) >= bound) & (no_sentinel | (*x != none));
      return bad;
    }
  }
  // Zero bytes up to the file's next page boundary.
  void align_to_page();
  // Loads `n` bytes into `p` (the start of a mapping of its own) unsummed: mapped from the
  // file where there is one (true), else copied.
  bool place(void* p, uint64_t n);
  // Reads `n` bytes of the file at `at` (within it) into `out`.
  void read_part(void* out, uint64_t n, uint64_t at) const;
  void bytes(void* p, uint64_t n);
  [[noreturn]] void mismatch(const char* what, uint64_t got, uint64_t want) const;

  std::ostream* out_ = nullptr;
  const uint8_t* in_ = nullptr;
  uint64_t size_ = 0;  // of the file read
  uint64_t pos_ = 0;   // in the file
  int fd_ = -1;
  bool measuring_ = false;
  std::string section_ = "start";  // a copy: the name given may be a temporary
  StateChecksum sum_;
};

}  // namespace ssd::fw
