#include "tb/run/StateCache.h"

#include "common/Format.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/Errors.h"
#include "tb/run/StateFile.h"
#include "tb/trace/TextFields.h"

namespace fs = std::filesystem;

namespace ssd::tb {

namespace {

std::string hex128(const void* data, std::size_t n) {
  const XXH128_hash_t h = XXH3_128bits(data, n);
  char text[33];
  std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(h.high64),
                static_cast<unsigned long long>(h.low64));
  return text;
}

bool is_state_file(const fs::directory_entry& e) {
  return e.is_regular_file() && e.path().extension() == ".state";
}
// AtomicFile's temporaries: "<name>.state.tmp.<pid>.<n>".
bool is_temporary(const fs::directory_entry& e) {
  return e.is_regular_file() &&
         e.path().filename().string().find(".state.tmp.") != std::string::npos;
}

std::vector<StateCache::Entry> listed(const std::string& dir,
                                      bool (*wanted)(const fs::directory_entry&)) {
  std::vector<StateCache::Entry> out;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    struct stat st {};
    if (!wanted(e) || stat(e.path().c_str(), &st) != 0) continue;
    out.push_back({e.path().string(), uint64_t(st.st_size), int64_t(st.st_mtime)});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.used != b.used ? a.used > b.used : a.path < b.path;
  });
  return out;
}

// "filled 0.5, " for a drive preconditioned part full, "" for a full one.
std::string filled(const nlohmann::json& precondition) {
  const double fill = precondition.value("fill_fraction", 1.0);
  return fill == 1.0 ? "" : "filled " + nlohmann::json(fill).dump() + ", ";
}

// The drive a state file holds, from its header: "page FTL, 8x4x1 dies, 2 planes x 1366
// blocks x 768 pages of 16384 B, random 1"; or why it cannot be read.
std::string described(const std::string& path) {
  try {
    const nlohmann::json h = state_header(path);
    const nlohmann::json& f = h.at("config").at("flash");
    const nlohmann::json& p = h.at("precondition");
    return h.at("config").at("ftl").at("type").get<std::string>() + " FTL, " +
           f.at("channels").dump() + "x" + f.at("ways_per_channel").dump() + "x" +
           f.at("dies_per_way").dump() + " dies of " + f.at("planes_per_die").dump() + " x " +
           f.at("blocks_per_plane").dump() + " blocks x " + f.at("pages_per_block").dump() +
           " pages of " + f.at("page_bytes").dump() + " B, " + filled(p) + "random " +
           p.at("random_fraction").dump() + (p.at("bulk").get<bool>() ? "" : " (simulated)");
  } catch (const std::exception& e) {
    return std::string("unreadable: ") + e.what();
  }
}

}  // namespace

nlohmann::ordered_json state_key(const config::DriveConfig& cfg, const AgingOptions& aging,
                                 const std::string& build) {
  return {{"format", kStateFormatVersion},
          {"build", build},
          {"config", state_shaping_config(cfg)},
          {"precondition",
           {{"fill_fraction", aging.fill_fraction},
            {"random_fraction", aging.random_fraction},
            {"mode", aging.simulate ? "simulate" : "bulk"}}}};
}

std::string state_key_file(const nlohmann::ordered_json& key) {
  const std::string text = key.dump();
  return hex128(text.data(), text.size()) + ".state";
}

std::string build_identity(const std::string& version) {
  static const std::string exe = [] {
    std::ifstream in("/proc/self/exe", std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    return bytes.empty() ? std::string("unknown") : hex128(bytes.data(), bytes.size());
  }();
  return version + " " + exe;
}

std::string StateCache::default_dir() {
  if (const char* d = std::getenv("SSDTLM_STATE_CACHE"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/ssdtlm";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/ssdtlm";
  return "";
}

uint64_t StateCache::max_bytes_from_env() {
  const char* text = std::getenv("SSDTLM_STATE_CACHE_MAX_GB");
  if (text == nullptr || *text == '\0') return uint64_t(kDefaultMaxGb * 1e9);
  double value = 0;
  if (const char* reason = parse_double(text, value))
    throw UsageError(std::string("SSDTLM_STATE_CACHE_MAX_GB: ") + reason + got(text));
  if (!(value > 0) || value > 1e9)
    throw UsageError("SSDTLM_STATE_CACHE_MAX_GB: must be a size in GB above 0" + got(text));
  return uint64_t(value * 1e9);
}

void StateCache::create() const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(dir_ + ": cannot create the state cache (" + ec.message() + ")");
}

void StateCache::touch(const std::string& path) {
  const timespec now[2] = {{0, UTIME_NOW}, {0, UTIME_NOW}};
  utimensat(AT_FDCWD, path.c_str(), now, 0);  // a read-only cache stays usable
}

std::vector<std::string> StateCache::evict(const std::string& keep) const {
  std::vector<Entry> all = entries();
  uint64_t total = 0;
  for (const Entry& e : all) total += e.bytes;
  std::vector<std::string> removed;
  // Least recently used first; another run may have removed a file already.
  for (auto e = all.rbegin(); e != all.rend() && total > max_bytes_; ++e) {
    if (e->path == keep) continue;
    std::error_code ec;
    fs::remove(e->path, ec);
    total -= e->bytes;
    removed.push_back(e->path);
  }
  return removed;
}

std::vector<StateCache::Entry> StateCache::entries() const { return listed(dir_, is_state_file); }
std::vector<StateCache::Entry> StateCache::temporaries() const {
  return listed(dir_, is_temporary);
}

int state_cache_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const char* usage =
      "Usage: ssdtlm state-cache [list | clear] [--dir DIR]\n"
      "  list   the aged drives kept by --precondition (docs/state.md#the-cache): each file's\n"
      "         size, last use and drive, the total and the cap (the default)\n"
      "  clear  remove them all\n"
      "  --dir DIR  the cache folder (default $SSDTLM_STATE_CACHE, else\n"
      "         $XDG_CACHE_HOME/ssdtlm, else ~/.cache/ssdtlm)\n"
      "The cap: $SSDTLM_STATE_CACHE_MAX_GB (default 20); beyond it a run that stores a drive\n"
      "removes the least recently used.\n";
  std::string action = "list", dir = StateCache::default_dir();
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--help" || args[i] == "-h") {
      out << usage;
      return 0;
    }
    if (args[i] == "--dir" && i + 1 < args.size()) {
      dir = args[++i];
    } else if ((args[i] == "list" || args[i] == "clear") && i == 0) {
      action = args[i];
    } else {
      err << "ssdtlm state-cache: error: unexpected argument \"" << args[i] << "\"\n" << usage;
      return 2;
    }
  }
  if (dir.empty()) {
    err << "ssdtlm state-cache: error: no cache folder: set SSDTLM_STATE_CACHE or HOME, or give "
           "--dir\n";
    return 2;
  }
  uint64_t max_bytes = 0;
  try {
    max_bytes = StateCache::max_bytes_from_env();
  } catch (const UsageError& e) {
    err << "ssdtlm state-cache: error: " << e.what() << '\n';
    return 2;
  }
  const StateCache cache(dir, max_bytes);
  std::vector<StateCache::Entry> files = cache.entries();
  const std::vector<StateCache::Entry> temps = cache.temporaries();
  files.insert(files.end(), temps.begin(), temps.end());
  uint64_t total = 0;
  for (const StateCache::Entry& e : files) total += e.bytes;
  if (action == "clear") {
    for (const StateCache::Entry& e : files) {
      std::error_code ec;
      fs::remove(e.path, ec);
      if (ec) err << "ssdtlm state-cache: warning: " << e.path << ": " << ec.message() << '\n';
    }
    out << "removed " << files.size() << " files, " << gb_text(total) << ", from " << dir << "\n";
    return 0;
  }
  out << dir << ": " << files.size() << " files, " << gb_text(total) << " (cap "
      << gb_text(max_bytes) << ")\n";
  for (const StateCache::Entry& e : files) {
    char when[32];
    const std::time_t t = std::time_t(e.used);
    std::strftime(when, sizeof when, "%Y-%m-%d %H:%M", std::localtime(&t));
    const bool temporary = e.path.find(".state.tmp.") != std::string::npos;
    out << "  " << fs::path(e.path).filename().string() << "  " << gb_text(e.bytes) << "  used "
        << when << "  "
        << (temporary ? std::string("being written (or left by a run that died)")
                      : described(e.path))
        << "\n";
  }
  return 0;
}

}  // namespace ssd::tb
