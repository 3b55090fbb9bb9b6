#pragma once
// A VCD written by the energy monitor (docs/energy-model.md#currentvcd), read back for tests:
// the signals by full dotted name, and every value change in file order.
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tb/tests/TestUtil.h"

namespace ssd::test {

struct Vcd {
  // "ssd.ch0.w0d0_ma" -> identifier (signals that always carry the same value share one).
  std::map<std::string, std::string> id_of;
  struct Change {
    uint64_t t;
    std::string id;
    std::string value;  // as written, without the 'r'
  };
  std::vector<Change> changes;  // $dumpvars values included
  uint64_t dumpvars_t = 0;
  uint64_t last_t = 0;
  std::vector<uint64_t> stamps;
};

inline Vcd read_vcd(const std::string& path) {
  Vcd v;
  std::istringstream in(slurp(path));
  std::vector<std::string> scopes;
  std::string word;
  uint64_t t = 0;
  while (in >> word) {
    if (word == "$scope") {
      std::string kind, name;
      in >> kind >> name >> word;
      scopes.push_back(name);
    } else if (word == "$upscope") {
      in >> word;
      scopes.pop_back();
    } else if (word == "$var") {
      std::string type, size, id, name;
      in >> type >> size >> id >> name >> word;
      std::string full;
      for (const auto& s : scopes) full += s + ".";
      v.id_of[full + name] = id;
    } else if (word == "$dumpvars") {
      v.dumpvars_t = t;
    } else if (word[0] == '#') {
      t = std::stoull(word.substr(1));
      v.stamps.push_back(t);
    } else if (word[0] == 'r') {
      std::string id;
      in >> id;
      v.changes.push_back({t, id, word.substr(1)});
    }
  }
  v.last_t = t;
  return v;
}

}  // namespace ssd::test
