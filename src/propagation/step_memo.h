// Internal to the propagation layer: the outcomes of the driver's steps by
// their inputs. A step is a pure function of its rule, its parameters and its
// tensors' shardings (interned ids), and a module repeating the same layers
// repeats the same steps: the driver looks a step up here before computing
// it, which gives the same updates without projecting anything.
#ifndef SHARDKIT_SRC_PROPAGATION_STEP_MEMO_H_
#define SHARDKIT_SRC_PROPAGATION_STEP_MEMO_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/internal/mix_word.h"
#include "shardkit/internal/position_index.h"
#include "src/propagation/sharding_pool.h"

namespace shardkit::propagation_internal {

// Everything a step's outcome depends on (besides the module's fixed mesh
// table): `code` holds the strategy, the op-priority round and the direction
// of every factor (Driver::stepCode), the rest is spelled out.
struct StepKey {
  // Rules are told apart by address: the driver keeps each rule at a fixed
  // address for as long as the memo lives.
  const OpShardingRule* rule = nullptr;
  uint64_t code = 0;
  int64_t user_round = -1;  // -1: not in a user-priority round
  uint8_t direction = 0;
  bool elementwise = false;
  bool conservative = false;
  std::vector<ShardingPool::Id> shardings;  // per tensor

  friend bool operator==(const StepKey& a, const StepKey& b) {
    if (a.rule != b.rule || a.code != b.code || a.user_round != b.user_round ||
        a.direction != b.direction || a.elementwise != b.elementwise ||
        a.conservative != b.conservative ||
        a.shardings.size() != b.shardings.size()) {
      return false;
    }
    for (size_t i = 0; i < a.shardings.size(); ++i) {
      if (a.shardings[i] != b.shardings[i]) return false;
    }
    return true;
  }
  // The fields folded into words (mixWord), two sharding ids a word: the
  // driver hashes a key every visit.
  uint64_t hash() const {
    using core_detail::mixWord;
    uint64_t x = mixWord(reinterpret_cast<uintptr_t>(rule), code);
    x = mixWord(
        x, static_cast<uint64_t>(user_round) ^
               (uint64_t{direction} | uint64_t{elementwise} << 8 |
                uint64_t{conservative} << 9 | uint64_t{shardings.size()} << 16)
                   << 32);
    size_t n = shardings.size();
    const ShardingPool::Id* ids = shardings.data();
    size_t i = 0;
    for (; i + 1 < n; i += 2) {
      x = mixWord(x, uint64_t{ids[i]} | uint64_t{ids[i + 1]} << 32);
    }
    if (i < n) x = mixWord(x, ids[i]);
    return x;  // PositionIndex folds the halves
  }
};

// One new sharding of a step (before the driver adapts it to the value that
// receives it: data-flow edge views).
struct StepUpdate {
  uint32_t tensor = 0;
  ShardingPool::Id sharding = ShardingPool::kNone;
};

class StepMemo {
 public:
  // The updates recorded for `key`, or false if there are none.
  bool find(const StepKey& key, absl::Span<const StepUpdate>& updates) const {
    int32_t e = index_.find(
        key.hash(), [&](int32_t at) { return entries_[at].key == key; });
    if (e < 0) return false;
    const Entry& entry = entries_[e];
    updates = absl::MakeConstSpan(updates_).subspan(entry.first, entry.count);
    return true;
  }
  void insert(StepKey key, absl::Span<const StepUpdate> updates) {
    absl::Span<const StepUpdate> found;
    if (find(key, found)) return;
    uint64_t hash = key.hash();
    entries_.push_back({std::move(key), static_cast<uint32_t>(updates_.size()),
                        static_cast<uint32_t>(updates.size())});
    updates_.insert(updates_.end(), updates.begin(), updates.end());
    index_.add(static_cast<int32_t>(entries_.size() - 1), hash);
  }

 private:
  struct Entry {
    StepKey key;
    uint32_t first, count;  // in updates_: one arena, not a vector each
  };
  // The entries by their keys' hashes (a module has few distinct steps).
  std::vector<Entry> entries_;
  core_detail::PositionIndex index_;
  std::vector<StepUpdate> updates_;
};

}  // namespace shardkit::propagation_internal

#endif  // SHARDKIT_SRC_PROPAGATION_STEP_MEMO_H_
