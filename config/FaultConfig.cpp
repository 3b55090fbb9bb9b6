#include "config/FaultConfig.h"

#define XXH_INLINE_ALL  // nothing links xxHash (CMakeLists.txt)
#include <xxhash.h>

namespace ssd::config {

bool erase_fails(const FaultConfig& f, uint32_t die, uint32_t block, uint32_t erases) {
  if (f.erase_fail_probability <= 0.0) return false;
  const uint64_t key[2] = {uint64_t(die) << 32 | block, erases};
  // The hash's top 53 bits as a uniform double in [0, 1).
  const double u = double(XXH3_64bits_withSeed(key, sizeof key, f.seed) >> 11) * 0x1.0p-53;
  return u < f.erase_fail_probability;
}

}  // namespace ssd::config
