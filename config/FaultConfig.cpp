#include "config/FaultConfig.h"

#include <cstddef>

#define XXH_INLINE_ALL  // nothing links xxHash (CMakeLists.txt)
#include <xxhash.h>

namespace ssd::config {

namespace {

// The hash of `key` under the seed, its top 53 bits as a uniform double in [0, 1).
template <std::size_t N>
double uniform(const FaultConfig& f, const uint64_t (&key)[N]) {
  return double(XXH3_64bits_withSeed(key, sizeof key, f.seed) >> 11) * 0x1.0p-53;
}

}  // namespace

bool erase_fails(const FaultConfig& f, uint32_t die, uint32_t block, uint32_t erases) {
  if (f.erase_fail_probability <= 0.0) return false;
  const uint64_t key[2] = {uint64_t(die) << 32 | block, erases};
  return uniform(f, key) < f.erase_fail_probability;
}

bool program_fails(const FaultConfig& f, uint32_t die, uint32_t block, uint32_t page,
                   uint32_t erases) {
  if (f.program_fail_probability <= 0.0) return false;
  // Three words: no key of an erase's draw.
  const uint64_t key[3] = {uint64_t(die) << 32 | block, erases, page};
  return uniform(f, key) < f.program_fail_probability;
}

}  // namespace ssd::config
