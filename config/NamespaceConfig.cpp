#include "config/NamespaceConfig.h"

#include "common/DidYouMean.h"

namespace ssd::config {

void validate_namespaces(const std::vector<NamespaceConfig>& namespaces, uint64_t page_bytes,
                         uint64_t logical_bytes, Problems& problems) {
  if (namespaces.size() > kMaxNamespaces)
    problems.add("namespaces", "lists " + std::to_string(namespaces.size()) + "; at most " +
                                   std::to_string(kMaxNamespaces));
  uint64_t total = 0;
  for (std::size_t i = 0; i < namespaces.size(); ++i) {
    const std::string path = "namespaces[" + std::to_string(i) + "]";
    const NamespaceConfig& n = namespaces[i];
    require_short_identifier(problems, path + ".name", n.name);
    for (std::size_t j = 0; j < i; ++j)
      if (namespaces[j].name == n.name)
        problems.add(path + ".name", "\"" + n.name + "\" names two namespaces");
    if (n.size_bytes % page_bytes != 0)
      problems.add(path + ".size_bytes", "must be a whole number of flash pages (" +
                                             std::to_string(page_bytes) + " bytes), got " +
                                             std::to_string(n.size_bytes));
    // Each below 2^56, added only while the sum is within the capacity: no overflow.
    if (total <= logical_bytes) total += n.size_bytes;
  }
  if (total > logical_bytes)
    problems.add("namespaces", "their sizes add up to more than the drive's logical capacity of " +
                                   std::to_string(logical_bytes) +
                                   " bytes (flash and ftl.overprovisioning)");
}

std::vector<NamespaceRange> namespace_layout(const std::vector<NamespaceConfig>& namespaces,
                                             uint64_t logical_bytes) {
  if (namespaces.empty()) return {NamespaceRange{"ns1", 0, logical_bytes}};
  std::vector<NamespaceRange> out;
  uint64_t first = 0;
  for (const NamespaceConfig& n : namespaces) {
    out.push_back(NamespaceRange{n.name, first, n.size_bytes});
    first += n.size_bytes;
  }
  return out;
}

std::optional<uint32_t> find_namespace(const std::vector<NamespaceRange>& layout,
                                       std::string_view name) {
  for (std::size_t i = 0; i < layout.size(); ++i)
    if (layout[i].name == name) return uint32_t(i);
  return std::nullopt;
}

std::string no_such_namespace(const std::vector<NamespaceRange>& layout, std::string_view name) {
  std::vector<std::string> names;
  std::string listed;
  for (const NamespaceRange& n : layout) {
    listed += (names.empty() ? "" : ", ") + n.name;
    names.push_back(n.name);
  }
  return "the drive has no namespace \"" + std::string(name) + "\" (it has " + listed + ")" +
         did_you_mean(name, names);
}

}  // namespace ssd::config
