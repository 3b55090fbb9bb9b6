#pragma once
// Builds the request source the command line asks for.
#include <cstdint>
#include <memory>
#include <string>

#include "tb/HostRequest.h"

namespace ssd::tb {

// `format` is "spc" or "csv"; throws ssd::InputError for any other or an unreadable file.
std::unique_ptr<RequestSource> open_trace(const std::string& path, const std::string& format);

// See WorkloadGenerator::help() for the spec.
std::unique_ptr<RequestSource> make_workload(const std::string& spec, uint64_t capacity_bytes);

}  // namespace ssd::tb
