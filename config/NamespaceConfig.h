#pragma once
// The drive's namespaces (namespaces): NVMe namespaces carved out of the logical capacity, each
// its own range of logical blocks that commands address from its own block 0. Absent: one
// namespace of the whole capacity, as a drive ships. The struct, its field table and its rules.
// docs/config.md#namespaces documents each key.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/json/Bounds.h"
#include "config/json/Problems.h"

namespace ssd::config {

struct NamespaceConfig {
  std::string name;         // a short identifier: the report's and the workloads' name for it
  uint64_t size_bytes = 0;  // a whole number of flash pages
};

// Where a namespace lies in the drive's logical capacity: namespaces follow one another from
// byte 0 in the order listed (what a drive's namespace management allocates), so capacity left
// over lies past the last one and is never written (over-provisioning the FTL sees).
struct NamespaceRange {
  std::string name;
  uint64_t first_byte = 0;
  uint64_t size_bytes = 0;
};

// At most this many: each has its own figures in report.json.
inline constexpr std::size_t kMaxNamespaces = 64;

template <class Ns, class V>
void visit_namespace(Ns& n, V& v) {
  v("name", n.name, Presence::kRequired);  // a short identifier: validate_namespaces()
  v("size_bytes", n.size_bytes, between(1, 0x1p56), Presence::kRequired);
}

// The namespaces against the page and the logical capacity: each a whole number of pages (no
// page holds two namespaces' data), names distinct, all of them within the capacity.
void validate_namespaces(const std::vector<NamespaceConfig>& namespaces, uint64_t page_bytes,
                         uint64_t logical_bytes, Problems& problems);

// The ranges, in order; one named "ns1" of the whole capacity when none is listed.
std::vector<NamespaceRange> namespace_layout(const std::vector<NamespaceConfig>& namespaces,
                                             uint64_t logical_bytes);

// The index of the namespace `name` names in `layout`; nullopt when none does.
std::optional<uint32_t> find_namespace(const std::vector<NamespaceRange>& layout,
                                       std::string_view name);
// Why `name` names none: "the drive has no namespace \"x\" (it has a, b); did you mean ...".
std::string no_such_namespace(const std::vector<NamespaceRange>& layout, std::string_view name);

}  // namespace ssd::config
