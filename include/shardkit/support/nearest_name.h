// "Did you mean ...?": the known name nearest to a mistyped one, by edit
// distance, as LLVM's command line suggests an option for an unknown one.
#ifndef SHARDKIT_SUPPORT_NEAREST_NAME_H_
#define SHARDKIT_SUPPORT_NEAREST_NAME_H_

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace shardkit {

// The Levenshtein distance of `a` and `b` (insertions, deletions and
// replacements of one byte each cost 1).
inline size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      size_t replace = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({replace, row[j - 1] + 1, above + 1});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The candidate nearest to `name`, or "" when none is near enough to be
// what was meant: at most a third of the name's length away (and at least
// one edit allowed), so that an unrelated word gets no suggestion. The first
// of equally near candidates wins.
inline std::string nearestName(std::string_view name,
                               const std::vector<std::string>& candidates) {
  size_t limit = std::max<size_t>(1, name.size() / 3);
  const std::string* best = nullptr;
  size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    size_t distance = editDistance(name, candidate);
    if (distance < best_distance) {
      best = &candidate;
      best_distance = distance;
    }
  }
  return best ? *best : std::string();
}

}  // namespace shardkit

#endif  // SHARDKIT_SUPPORT_NEAREST_NAME_H_
