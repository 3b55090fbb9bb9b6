#pragma once
// docs/config.md's key tables read as data: each key's row (unit, default, meaning, rule), so
// `ssdtlm explain` gives a key's meaning in the page's own words and ConfigDocsTest checks the
// page against the field tables with the same reading.
#include <map>
#include <string>
#include <string_view>

namespace ssd::tb {

struct KeyDoc {
  std::string unit;  // the unit column ("type" in the top-level table)
  std::string default_text;
  std::string meaning;
  std::string rule;     // "" in the top-level table, whose meaning column gives the rule too
  std::string text;     // the whole row, for keys documented inside it
  std::string section;  // the anchor of the row's section heading, "flash"
};

class KeyDocs {
 public:
  // `markdown`: docs/config.md. The rows of its "Keys" chapter, by the full dotted key each
  // names; a heading "### `dram`" makes its rows' keys relative to it, a heading naming two
  // sections has them in full; "<group>" stands for each regulator group.
  explicit KeyDocs(std::string_view markdown);

  struct Found {
    const KeyDoc* doc = nullptr;  // nullptr: no row documents the key
    std::string row_key;          // the key whose row it is: the key's own, or its holder's
  };
  // A key is documented by its own row, or inside the row of the section or list holding it
  // (`wrr_weights`' row gives its three classes, `parts`' row each part's keys).
  Found find(const std::string& key) const;
  const std::map<std::string, KeyDoc>& rows() const { return rows_; }

 private:
  std::map<std::string, KeyDoc> rows_;
};

}  // namespace ssd::tb
