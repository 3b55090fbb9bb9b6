// libFuzzer harness of one trace reader, named by the harness's own name (fuzz_trace_spc fuzzes
// "spc"; fuzz_trace_auto the format detection), so the seven harnesses share one object: every
// input must end in requests or an ssd::InputError, never in a crash, a hang or a sanitizer report.
// The reader runs as trace-stats runs it (a plain read with the statistics on top) and as the
// simulator runs it, mapped onto a drive with a reorder window.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "common/Errors.h"
#include "tb/fuzz/FuzzInput.h"
#include "tb/trace/TraceFactory.h"
#include "tb/trace/TraceStats.h"

namespace {

constexpr std::string_view kPrefix = "fuzz_trace_";  // the harnesses' names: prefix, format
std::string g_format;

void read_all(const std::string& path, const ssd::tb::TraceOptions& opts) {
  try {
    const std::unique_ptr<ssd::tb::TraceReader> reader = ssd::tb::open_trace(path, opts);
    ssd::tb::HostRequest r;
    while (reader->next(r)) {
    }
  } catch (const ssd::InputError&) {
  }
}

void stats(const std::string& path, const ssd::tb::TraceOptions& opts) {
  try {
    const std::unique_ptr<ssd::tb::TraceReader> reader = ssd::tb::open_trace(path, opts);
    ssd::tb::to_text(ssd::tb::compute_trace_stats(*reader));
  } catch (const ssd::InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  const std::string self = *argc > 0 ? (*argv)[0] : "";
  const std::string::size_type at = self.rfind(kPrefix);
  if (at == std::string::npos) {
    std::fprintf(stderr, "%s: the harness's name must end in fuzz_trace_<format>\n", self.c_str());
    std::exit(2);
  }
  g_format = self.substr(at + kPrefix.size());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = ssd::fuzz::as_file(data, size);
  ssd::tb::TraceOptions plain;
  plain.format = g_format;
  stats(path, plain);
  ssd::tb::TraceOptions mapped = plain;
  mapped.capacity_bytes = ssd::fuzz::kCapacityBytes;
  mapped.page_bytes = 4096;
  mapped.align_to_page = true;
  mapped.reorder_window = 4;
  mapped.skip_bad_lines = true;
  mapped.fit = ssd::tb::Fit::kScale;
  mapped.volume_map = ssd::tb::VolumeMap::kConcat;
  read_all(path, mapped);
  return 0;
}
