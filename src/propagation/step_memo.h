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

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "shardkit/core/detail/mix_word.h"
#include "shardkit/core/op_sharding_rule.h"
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
  absl::InlinedVector<ShardingPool::Id, 8> shardings;  // per tensor

  friend bool operator==(const StepKey&, const StepKey&) = default;
  // The fields folded into one word (mixWord), then combined once: the
  // driver hashes a key every visit, and combining each field and the
  // vector's bytes separately cost about 70 instructions.
  template <typename H>
  friend H AbslHashValue(H h, const StepKey& k) {
    using core_detail::mixWord;
    uint64_t x = mixWord(reinterpret_cast<uintptr_t>(k.rule), k.code);
    x = mixWord(x, static_cast<uint64_t>(k.user_round));
    x = mixWord(x, uint64_t{k.direction} | uint64_t{k.elementwise} << 8 |
                       uint64_t{k.conservative} << 9 |
                       uint64_t{k.shardings.size()} << 16);
    for (ShardingPool::Id id : k.shardings) x = mixWord(x, id);
    return H::combine(std::move(h), x);
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
    auto it = index_.find(key);
    if (it == index_.end()) return false;
    updates = absl::MakeConstSpan(updates_).subspan(it->second.first,
                                                    it->second.second);
    return true;
  }
  void insert(StepKey key, absl::Span<const StepUpdate> updates) {
    auto [it, inserted] =
        index_.try_emplace(std::move(key), updates_.size(), updates.size());
    if (inserted)
      updates_.insert(updates_.end(), updates.begin(), updates.end());
  }

 private:
  // Key -> (offset, count) in updates_: one arena instead of a vector each.
  absl::flat_hash_map<StepKey, std::pair<uint32_t, uint32_t>> index_;
  std::vector<StepUpdate> updates_;
};

}  // namespace shardkit::propagation_internal

#endif  // SHARDKIT_SRC_PROPAGATION_STEP_MEMO_H_
