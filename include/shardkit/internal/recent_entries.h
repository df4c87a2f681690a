// RecentEntries: a direct-mapped table of pointers to the entries a map
// lookup found last, for the caches a module's ops ask over and over with a
// few keys (dictionary rewrites, printed dictionary texts, verified
// shardings). A lookup tries the key's slot first: a multiply of a word the
// caller mixes from the key's addresses, and one comparison, where the map
// would hash the whole key (names as strings, vectors).
//
// The map must keep its entries where they are and drop none while the
// table lives (an absl::node_hash_map that only grows). A slot then points at
// a live entry or is null; the caller compares the key it holds, so slots
// that collide only miss.
//
// Internal to shardkit's layers; not part of the public API.
#ifndef SHARDKIT_INTERNAL_RECENT_ENTRIES_H_
#define SHARDKIT_INTERNAL_RECENT_ENTRIES_H_

#include <cstddef>
#include <cstdint>

#include "shardkit/internal/mix_word.h"

namespace shardkit::core_detail {

template <typename Entry, int kBits = 6>
class RecentEntries {
 public:
  // The slot of a key that `word` stands for: null, or an entry found
  // before, whose key may differ.
  const Entry*& slot(uint64_t word) {
    return slots_[(word * kGoldenRatio64) >> (64 - kBits)];
  }

 private:
  const Entry* slots_[size_t{1} << kBits] = {};
};

}  // namespace shardkit::core_detail

#endif  // SHARDKIT_INTERNAL_RECENT_ENTRIES_H_
