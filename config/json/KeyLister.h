#pragma once
// Lists the dotted path of every key a field table (config/*Config.h) holds (a list's item
// keys as `key[i].item`), for the docs check (ConfigDocsTest).
#include <string>
#include <utility>
#include <vector>

namespace ssd::config {

class KeyLister {
 public:
  KeyLister(std::vector<std::string>& out, std::string prefix)
      : out_(out), prefix_(std::move(prefix)) {}

  template <class T, class... Rule>
  void operator()(const char* key, const T&, Rule...) {
    out_.push_back(prefix_ + key);
  }
  void ignored(const char* key) { out_.push_back(prefix_ + key); }
  void replaced(const char*, const char*) {}

  template <class Section, class Visit>
  void section(const char* key, const Section& in, Visit visit) {
    KeyLister sub(out_, prefix_ + key + ".");
    visit(in, sub);
  }

  template <class Item, class Visit>
  void list(const char* key, const std::vector<Item>&, std::size_t, Visit visit) {
    out_.push_back(prefix_ + key);
    KeyLister sub(out_, prefix_ + key + "[i].");
    const Item item{};
    visit(item, sub);
  }

 private:
  std::vector<std::string>& out_;
  std::string prefix_;
};

}  // namespace ssd::config
