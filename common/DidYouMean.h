#pragma once
// "Did you mean" for an unknown key or option: the closest known name by edit distance
// (Damerau-Levenshtein with adjacent swaps), if it is close enough to be a slip of the
// fingers (at most a third of the word's letters, and at least one).
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ssd {

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// "; did you mean \"name\"?" for the closest of `known`, or "" if none is close.
template <class Names>
std::string did_you_mean(std::string_view word, const Names& known) {
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  std::string best;
  std::size_t best_d = limit + 1;
  for (const auto& name : known) {
    const std::size_t d = edit_distance(word, name);
    if (d < best_d) {
      best_d = d;
      best = std::string(name);
    }
  }
  return best.empty() ? std::string() : "; did you mean \"" + best + "\"?";
}

}  // namespace ssd
