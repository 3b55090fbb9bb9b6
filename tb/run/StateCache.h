#pragma once
// The aged-drive cache (docs/state.md#the-cache): `--precondition` keeps the drive it ages in a
// folder, one file per key, and later runs with the same key load it (tb/run/StateFile.h)
// instead of preconditioning again. The key is a hash of everything that shapes the aged
// state: the config's shaping keys (state_shaping_config), the preconditioning options, the
// state format and the simulator's build. Files are written whole through a temporary of
// their own and renamed into place, so concurrent runs never see a partial file; beyond the
// cache's size cap the least recently used files go.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/DriveConfig.h"

namespace ssd::tb {

// What a cached state is for: the preconditioning options beside the drive's config.
struct AgingOptions {
  double fill_fraction = 1.0;
  double random_fraction = 1.0;
  bool simulate = false;  // --precondition-mode simulate
};

// Everything that shapes the aged drive, as canonical JSON: `build` names the simulator's
// build (build_identity()), so a rebuilt simulator never loads an older one's state.
nlohmann::ordered_json state_key(const config::DriveConfig& cfg, const AgingOptions& aging,
                                 const std::string& build);
// The cache file's name for a key: the key's XXH3-128 in hex, ".state".
std::string state_key_file(const nlohmann::ordered_json& key);
// This executable's XXH3-128 in hex (read once from /proc/self/exe), with `version`.
std::string build_identity(const std::string& version);

class StateCache {
 public:
  static constexpr double kDefaultMaxGb = 20;
  // The folder: $SSDTLM_STATE_CACHE, else $XDG_CACHE_HOME/ssdtlm, else $HOME/.cache/ssdtlm
  // ("" if none of them is set).
  static std::string default_dir();
  // The size cap: $SSDTLM_STATE_CACHE_MAX_GB (GB of 10^9 bytes), else kDefaultMaxGb. Throws
  // UsageError naming the variable when it is not a positive number.
  static uint64_t max_bytes_from_env();

  StateCache(std::string dir, uint64_t max_bytes) : dir_(std::move(dir)), max_bytes_(max_bytes) {}
  const std::string& dir() const { return dir_; }
  std::string path(const nlohmann::ordered_json& key) const {
    return dir_ + "/" + state_key_file(key);
  }
  // Creates the folder; throws std::runtime_error naming it when it cannot.
  void create() const;
  // Marks `path` used now (its modification time): eviction keeps what runs load.
  static void touch(const std::string& path);
  // Removes the least recently used files until the cache is within its cap, never `keep`;
  // returns the files removed.
  std::vector<std::string> evict(const std::string& keep) const;

  struct Entry {
    std::string path;
    uint64_t bytes = 0;
    int64_t used = 0;  // seconds since the epoch
  };
  // The state files, most recently used first, and the temporaries of writes in progress (or
  // of runs that died writing).
  std::vector<Entry> entries() const;
  std::vector<Entry> temporaries() const;

 private:
  std::string dir_;
  uint64_t max_bytes_;
};

// `ssdtlm state-cache [list | clear] [--dir DIR]`: lists the cache's files (size, last use,
// the drive each holds) and totals, or removes them all. Returns the exit status.
int state_cache_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace ssd::tb
