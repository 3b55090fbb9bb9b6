// libFuzzer harness of the saved-state loader (tb/run/StateFile.h, docs/state.md): files cut
// short, damaged, of another format version or saved for another drive must be refused with
// a StateFileError naming the file; nothing may crash, hang or allocate without bound.
// Seven drives (small_gc with each FTL) are built once; each saves its state (pristine,
// counted as preconditioned), which the inputs then damage. The input's first byte picks the
// drive, the second how the file is made:
//   0: the rest of the input is the file;
//   1: the rest edits the saved file (5 bytes an edit: offset, 24 bits; operation; value);
//   2: the same edits on the drive state, its length and checksum made to match (so the
//      loader's own checks meet the damage);
//   3: another drive's file, edited as 1.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "firmware/StateArchive.h"
#include "model/power/EnergyMonitor.h"
#include "tb/run/StateFile.h"

namespace {

const char* const kTypes[] = {"page", "dftl", "block", "bast", "bast_star", "fast", "last"};
constexpr std::size_t kDrives = sizeof kTypes / sizeof kTypes[0];

struct Drive {
  ssd::config::DriveConfig cfg;
  std::unique_ptr<ssd::model::Ssd> ssd;
  std::string file;     // the saved state
  std::size_t payload;  // where its drive state starts
};

std::vector<Drive>& drives() {
  static std::vector<Drive> all = [] {
    std::vector<Drive> out(kDrives);
    static ssd::model::EnergyMonitor monitor(ssd::model::EnergyMonitor::Options{});
    for (std::size_t i = 0; i < kDrives; ++i) {
      nlohmann::json j = ssd::config::to_json(
          ssd::config::load_drive_config(SSDTLM_SOURCE_DIR "/configs/small_gc.json"));
      j["ftl"]["type"] = kTypes[i];
      j["ftl"]["overprovisioning"] = 0.33;
      j["ftl"]["log_block_fraction"] = 0.1;
      Drive& d = out[i];
      d.cfg = ssd::config::parse_drive_config(j, "fuzz config");
      d.ssd = std::make_unique<ssd::model::Ssd>(
          sc_core::sc_module_name(("ssd_" + std::string(kTypes[i])).c_str()), d.cfg, monitor);
      ssd::model::Controller::PreconditionStats done;
      done.done = true;
      d.ssd->controller().restore_precondition_stats(done);
      const std::string path = "/tmp/ssdtlm-fuzz-state-" + std::to_string(getpid());
      ssd::tb::save_state(path, d.cfg, *d.ssd);
      std::ifstream in(path, std::ios::binary);
      d.file.assign(std::istreambuf_iterator<char>(in), {});
      std::remove(path.c_str());
      uint64_t header = 0;
      std::memcpy(&header, d.file.data() + 12, sizeof header);
      d.payload = 36 + header;  // after the drive state's length and checksum
    }
    return out;
  }();
  return all;
}

// The input as a file of its own: the loader maps the drive's tables from it (copy on write),
// so rewriting one file in place (fuzz::as_file) would change, or cut short (SIGBUS), what the
// drive loaded last still maps. The previous file lives on while mapped.
const std::string& fresh_file(const std::string& bytes) {
  static int fd = -1;
  static std::string path;
  if (fd >= 0) close(fd);
  fd = memfd_create("ssdtlm-fuzz-state", 0);
  if (fd < 0 || write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
    std::abort();  // the harness itself failed, not the code under test
  path = "/proc/self/fd/" + std::to_string(fd);
  return path;
}

void edit(std::string& s, const uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i + 5 <= n && !s.empty(); i += 5) {
    const std::size_t at = (p[i] | p[i + 1] << 8 | p[i + 2] << 16) % s.size();
    switch (p[i + 3] % 3) {
      case 0:
        s[at] = char(s[at] ^ (p[i + 4] | 1));
        break;
      case 1:
        s[at] = char(p[i + 4]);
        break;
      default:
        s.resize(at);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  std::vector<Drive>& all = drives();
  Drive& d = all[data[0] % kDrives];
  std::string file;
  switch (data[1] % 4) {
    case 0:
      file.assign(reinterpret_cast<const char*>(data + 2), size - 2);
      break;
    case 1:
      file = d.file;
      edit(file, data + 2, size - 2);
      break;
    case 2: {
      std::string state = d.file.substr(d.payload);
      edit(state, data + 2, size - 2);
      ssd::fw::StateChecksum sum;
      sum.update(state.data(), state.size());
      const uint64_t sizes[2] = {state.size(), sum.digest()};
      file = d.file.substr(0, d.payload - sizeof sizes) +
             std::string(reinterpret_cast<const char*>(sizes), sizeof sizes) + state;
      break;
    }
    default:
      file = all[(data[0] + 1 + data[1] / 4 % (kDrives - 1)) % kDrives].file;
      edit(file, data + 2, size - 2);
  }
  const std::string& path = fresh_file(file);
  try {
    ssd::tb::load_state(path, d.cfg, *d.ssd);
  } catch (const ssd::tb::StateFileError& e) {
    if (std::string(e.what()).compare(0, path.size(), path) != 0) std::abort();
  }
  return 0;
}
