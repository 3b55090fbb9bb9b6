// libFuzzer harness of the --workload spec parser and its generator: every input must end in
// requests within their namespace or an ssd::InputError.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/Errors.h"
#include "tb/fuzz/FuzzInput.h"
#include "tb/workload/WorkloadGenerator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    ssd::tb::WorkloadGenerator w(std::string(reinterpret_cast<const char*>(data), size),
                                 ssd::tb::AddressSpace(ssd::fuzz::namespaces()));
    ssd::tb::HostRequest r;
    for (uint64_t i = 0; i < ssd::fuzz::kMaxRequests && w.next(r); ++i) {
      if (!ssd::fuzz::within_its_namespace(r)) std::abort();
    }
  } catch (const ssd::InputError&) {
  }
  return 0;
}
