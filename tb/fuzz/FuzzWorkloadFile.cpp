// libFuzzer harness of the --workload-file parser and its merged job streams: every input
// must end in requests within their namespace or an ssd::InputError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "common/Errors.h"
#include "tb/fuzz/FuzzInput.h"
#include "tb/workload/JsonWorkload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    ssd::tb::JsonWorkload w(ssd::fuzz::as_file(data, size),
                            ssd::tb::AddressSpace(ssd::fuzz::namespaces()),
                            ssd::fuzz::kMaxRequests);
    ssd::tb::HostRequest r;
    while (w.next(r)) {
      if (!ssd::fuzz::within_its_namespace(r)) std::abort();
    }
  } catch (const ssd::InputError&) {
  }
  return 0;
}
