#include "tb/run/StateFile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>

#include "common/AtomicFile.h"
#include "common/CpuTime.h"
#include "common/Format.h"
#include "firmware/StateArchive.h"
#include "tb/run/PhaseProgress.h"
#include "tb/trace/TextFields.h"

namespace ssd::tb {

namespace {

constexpr char kMagic[8] = {'S', 'S', 'D', 'T', 'L', 'M', 'S', 'T'};
constexpr uint64_t kMaxHeaderBytes = 1 << 20;

// The firmware's tables, then every die's contents, channel by channel.
void drive_state(fw::StateArchive& a, model::Ssd& ssd) {
  a.section("ssdtlm drive state");
  ssd.controller().firmware().state(a);
  for (uint32_t c = 0; c < ssd.channels(); ++c)
    for (uint32_t d = 0; d < ssd.channel(c).dies(); ++d) ssd.channel(c).die(d).state(a);
  a.section("end");
}

// Dotted keys whose values differ between two configs' shaping keys, with both values.
void differences(const nlohmann::json& file, const nlohmann::json& mine, const std::string& at,
                 std::vector<std::string>& out) {
  if (file.is_object() && mine.is_object()) {
    for (const auto& [key, value] : mine.items())
      differences(file.contains(key) ? file[key] : nlohmann::json(), value,
                  at.empty() ? key : at + "." + key, out);
    for (const auto& [key, value] : file.items())
      if (!mine.contains(key))
        differences(value, nlohmann::json(), at.empty() ? key : at + "." + key, out);
    return;
  }
  if (file != mine)
    out.push_back(at + " is " + (file.is_null() ? "absent" : file.dump()) + " in the file, " +
                  (mine.is_null() ? "absent" : mine.dump()) + " in the config");
}

struct Header {
  nlohmann::json config;
  model::Controller::PreconditionStats precondition;
};

// A file mapped whole, read only (the header and small parts are read from it; the tables
// are mapped again, each over its own memory).
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) : fd_(open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) throw StateFileError(path + ": cannot open the state file");
    struct stat st {};
    void* m = MAP_FAILED;
    if (fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) {
      size_ = uint64_t(st.st_size);
      m = size_ == 0 ? nullptr : mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
    }
    if (m == MAP_FAILED) {
      close(fd_);
      throw StateFileError(path + ": cannot open the state file (not a regular file)");
    }
    data_ = static_cast<const uint8_t*>(m);
  }
  ~MappedFile() {
    if (data_) munmap(const_cast<uint8_t*>(data_), size_);
    if (fd_ >= 0) close(fd_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }
  int fd() const { return fd_; }
  // Copies `n` bytes at `at` into `out`; false past the end.
  bool read(uint64_t at, void* out, uint64_t n) const {
    if (at > size_ || n > size_ - at) return false;
    std::memcpy(out, data_ + at, n);
    return true;
  }

 private:
  int fd_;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

// The header; `at` is left where the drive state's length and checksum start.
Header read_header(const MappedFile& f, const std::string& path, uint64_t& at) {
  char magic[sizeof kMagic];
  uint32_t version = 0;
  uint64_t length = 0;
  if (!f.read(0, magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
    throw StateFileError(path + ": not an ssdtlm state file (wrong magic)");
  if (!f.read(sizeof magic, &version, sizeof version))
    throw StateFileError(path + ": truncated header");
  if (version != kStateFormatVersion)
    throw StateFileError(path + ": state format version " + std::to_string(version) +
                         ", this ssdtlm reads version " + std::to_string(kStateFormatVersion) +
                         " (save the state again)");
  at = sizeof magic + sizeof version;
  if (!f.read(at, &length, sizeof length) || length > kMaxHeaderBytes)
    throw StateFileError(path + ": truncated or corrupt header");
  at += sizeof length;
  std::string text(length, '\0');
  if (!f.read(at, text.data(), length)) throw StateFileError(path + ": truncated header");
  at += length;
  Header h;
  try {
    const nlohmann::json doc = nlohmann::json::parse(text);
    h.config = doc.at("config");
    const nlohmann::json& pre = doc.at("precondition");
    h.precondition.done = true;
    h.precondition.bulk = pre.at("bulk").get<bool>();
    // Absent in the files of builds before --precondition-fill, which filled the whole drive.
    h.precondition.fill_fraction = pre.value("fill_fraction", 1.0);
    h.precondition.random_fraction = pre.at("random_fraction").get<double>();
    h.precondition.pages_written = pre.at("pages_written").get<uint64_t>();
    if (!h.config.is_object()) throw std::runtime_error("config is not an object");
  } catch (const std::exception& e) {
    // A damaged header's bytes are quoted by the JSON parser: escaped, never printed raw.
    throw StateFileError(path + ": corrupt header (" + tb::escaped(e.what()) + ")");
  }
  return h;
}

}  // namespace

nlohmann::ordered_json state_shaping_config(const config::DriveConfig& cfg) {
  const nlohmann::ordered_json all = config::to_json(cfg);
  nlohmann::ordered_json out;
  for (const char* key :
       {"channels", "ways_per_channel", "dies_per_way", "planes_per_die", "blocks_per_plane",
        "pages_per_block", "page_bytes", "cell_type", "program_unit"})
    out["flash"][key] = all["flash"][key];
  // Every FTL key but the idle times, which only time background work, the DRAM's sizing from
  // the tables, which changes no table, and read refresh, which records only the run.
  for (const auto& [key, value] : all["ftl"].items())
    if ((key.size() < 8 || key.compare(key.size() - 8, 8, "_idle_us") != 0) &&
        key != "size_dram_from_table" && key != "read_refresh")
      out["ftl"][key] = value;
  out["dram"]["write_buffer_mb"] = all["dram"]["write_buffer_mb"];
  // A DFTL translation page's entries and its cache's are of this size.
  out["dram"]["access_bytes"] = all["dram"]["access_bytes"];
  out["lifetime"]["mode"] = all["lifetime"]["mode"];
  // Preconditioning writes what the namespaces cover.
  if (!cfg.namespaces.empty()) out["allocated_units"] = cfg.allocated_units();
  return out;
}

namespace {

// The file's header text: what the state is of.
std::string header_text(const config::DriveConfig& cfg, const model::Ssd& ssd) {
  const model::Controller::PreconditionStats& pre = ssd.controller().precondition_stats();
  return nlohmann::ordered_json{{"config", state_shaping_config(cfg)},
                                {"precondition",
                                 {{"bulk", pre.bulk},
                                  {"fill_fraction", pre.fill_fraction},
                                  {"random_fraction", pre.random_fraction},
                                  {"pages_written", pre.pages_written}}}}
      .dump();
}

// Bytes before the drive state: magic, format version, header length, header, then the
// state's length and checksum.
uint64_t bytes_before_state(const std::string& header) {
  return sizeof kMagic + sizeof kStateFormatVersion + sizeof(uint64_t) + header.size() +
         2 * sizeof(uint64_t);
}

}  // namespace

uint64_t saved_state_bytes(const config::DriveConfig& cfg, model::Ssd& ssd) {
  fw::StateArchive a(fw::StateArchive::Measure{}, bytes_before_state(header_text(cfg, ssd)));
  drive_state(a, ssd);
  return a.position();
}

void save_state(const std::string& path, const config::DriveConfig& cfg, model::Ssd& ssd) {
  const model::Controller::PreconditionStats& pre = ssd.controller().precondition_stats();
  if (!pre.done) throw StateFileError(path + ": the drive was not preconditioned: nothing to save");
  try {
    AtomicFile file(path, AtomicFile::unique_suffix());
    std::ofstream& out = file.stream();
    const std::string header = header_text(cfg, ssd);
    const uint64_t length = header.size();
    out.write(kMagic, sizeof kMagic);
    out.write(reinterpret_cast<const char*>(&kStateFormatVersion), sizeof kStateFormatVersion);
    out.write(reinterpret_cast<const char*>(&length), sizeof length);
    out << header;
    // The drive state's length and checksum, known once it is written.
    const std::streampos at = out.tellp();
    uint64_t sizes[2] = {0, 0};
    out.write(reinterpret_cast<const char*>(sizes), sizeof sizes);
    fw::StateArchive a(out, uint64_t(out.tellp()));
    drive_state(a, ssd);
    sizes[0] = uint64_t(out.tellp() - at) - sizeof sizes;
    sizes[1] = a.checksum();
    out.seekp(at);
    out.write(reinterpret_cast<const char*>(sizes), sizeof sizes);
    file.commit();
  } catch (const std::exception& e) {
    throw StateFileError(path + ": cannot save the drive's state: " + e.what());
  }
}

void load_state(const std::string& path, const config::DriveConfig& cfg, model::Ssd& ssd) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  const MappedFile file(path);
  uint64_t at = 0;
  Header h = read_header(file, path, at);
  // The drive state's length (the rest of the file) and checksum.
  uint64_t sizes[2] = {0, 0};
  if (!file.read(at, sizes, sizeof sizes)) throw StateFileError(path + ": truncated header");
  at += sizeof sizes;
  const uint64_t rest = file.size() - at;
  if (rest != sizes[0])
    throw StateFileError(path + ": " + std::to_string(rest) +
                         " bytes of drive state, the header says " + std::to_string(sizes[0]) +
                         (rest < sizes[0] ? " (truncated)" : ""));
  std::vector<std::string> diff;
  differences(h.config, nlohmann::json(state_shaping_config(cfg)), "", diff);
  if (!diff.empty()) {
    std::string list;
    for (std::size_t i = 0; i < diff.size() && i < 5; ++i) list += (i ? "; " : "") + diff[i];
    if (diff.size() > 5) list += "; and " + std::to_string(diff.size() - 5) + " more";
    throw StateFileError(path + ": saved for another drive: " + list +
                         " (the keys that shape the state must match, docs/state.md)");
  }
  try {
    fw::StateArchive a(file.data(), file.size(), at, file.fd());
    drive_state(a, ssd);
    if (a.position() != file.size()) throw fw::StateError("bytes after the mark 'end'");
    if (a.checksum() != sizes[1]) throw fw::StateError("checksum mismatch (a damaged file)");
  } catch (const std::exception& e) {
    throw StateFileError(path + ": bad drive state: " + tb::escaped(e.what()));
  }
  h.precondition.wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  h.precondition.cpu_s = cpu_seconds() - cpu_start;
  ssd.controller().restore_precondition_stats(h.precondition);
}

nlohmann::json state_header(const std::string& path) {
  const MappedFile file(path);
  uint64_t at = 0;
  const Header h = read_header(file, path, at);
  return {{"config", h.config},
          {"precondition",
           {{"bulk", h.precondition.bulk},
            {"fill_fraction", h.precondition.fill_fraction},
            {"random_fraction", h.precondition.random_fraction},
            {"pages_written", h.precondition.pages_written}}}};
}

StateSizeNote state_size_note(const std::string& path, uint64_t bytes, uint64_t available) {
  if (bytes > available)
    return {false, path + ": not enough disk space for the aged drive: it takes " + gb_text(bytes) +
                       ", the disk has " + gb_text(available) + " free"};
  if (bytes >= kLargeStateBytes)
    return {true, "the aged drive takes " + gb_text(bytes) + " on disk: saving it to " + path};
  return {true, ""};
}

void StateSaver::start_of_simulation() {
  const Stopwatch clock;
  PhaseProgress saving(progress_, "saving the aged drive to " + path_);
  try {
    // Said before the bytes are written (a state cache the user did not think of filling, a
    // disk too small): measured by a pass over the state that writes nothing.
    std::error_code ec;
    const std::filesystem::space_info space =
        std::filesystem::space(std::filesystem::absolute(path_).parent_path(), ec);
    const StateSizeNote note =
        state_size_note(path_, saved_state_bytes(cfg_, ssd_),
                        ec ? std::numeric_limits<uint64_t>::max() : uint64_t(space.available));
    if (!note.fits) throw StateFileError(note.text);
    if (!note.text.empty())
      std::cerr << "ssdtlm: warning: " << note.text
                << (best_effort_ ? " (the state cache; --no-state-cache does not keep it)" : "")
                << '\n';
    saving.begin();
    save_state(path_, cfg_, ssd_);
    saving.finish();
  } catch (const std::exception& e) {
    if (best_effort_) {
      warning_ = e.what();
    } else {
      error_ = std::current_exception();
      sc_core::sc_stop();
    }
  }
  took_ = clock.elapsed();
}

}  // namespace ssd::tb
