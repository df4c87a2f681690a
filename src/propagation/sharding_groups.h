// Internal to the propagation layer: sharding groups (`sdy.sharding_group`)
// as the driver sees them. Every member of a group ends with the same
// sharding: before propagating, members take the common sharding the group's
// sharded members agree on; a group whose members disagree gets an open
// `sdy.sharding_constraint` after each member, and the constraints become
// the members instead (so the users' shardings stay as they were, like the
// reference does).
#ifndef SHARDKIT_SRC_PROPAGATION_SHARDING_GROUPS_H_
#define SHARDKIT_SRC_PROPAGATION_SHARDING_GROUPS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

// Replaces the members of every group whose members' shardings conflict by
// open sharding constraints on them (see above). `sharding_of` gives a
// member's current sharding (null if none).
template <typename ShardingOf>
void resolveGroupConflicts(Module& module, ShardingOf&& sharding_of);

// The common sharding of a group: the one sharding its members that have a
// sharding other than an empty open one agree on. Null if no member has one;
// `conflict` is set if two disagree (the first one is returned).
const TensorSharding* commonGroupSharding(
    absl::Span<const TensorSharding* const> members, bool& conflict);

// The `sdy.sharding_group` ops of `module`, by group id in order of first
// appearance.
std::vector<std::vector<Op>> collectShardingGroups(Module& module);

// Puts an open sharding constraint (on `like`'s mesh) after `member` and
// makes every other use of `member` use it instead.
void constrainGroupMember(Module& module, Value member,
                          const TensorSharding& like);

// Groups of slots (shardable values, see driver.h).
class SlotGroups {
 public:
  void add(int64_t group_id, Value slot) {
    auto [it, inserted] =
        index_.emplace(group_id, static_cast<int>(groups_.size()));
    if (inserted) groups_.emplace_back();
    if (group_of_.emplace(slot.id(), it->second).second) {
      groups_[it->second].push_back(slot);
    }
  }
  // The members of `slot`'s group (including `slot`), empty if none.
  absl::Span<const Value> membersOf(Value slot) const {
    auto it = group_of_.find(slot.id());
    if (it == group_of_.end()) return {};
    return groups_[it->second];
  }
  const std::vector<std::vector<Value>>& all() const { return groups_; }

 private:
  absl::flat_hash_map<int64_t, int> index_;      // group id -> groups_ index
  absl::flat_hash_map<uint32_t, int> group_of_;  // slot id -> groups_ index
  std::vector<std::vector<Value>> groups_;
};

template <typename ShardingOf>
void resolveGroupConflicts(Module& module, ShardingOf&& sharding_of) {
  for (const std::vector<Op>& group : collectShardingGroups(module)) {
    if (group.size() < 2) continue;
    std::vector<const TensorSharding*> shardings;
    std::vector<TensorSharding> storage;
    storage.reserve(group.size());
    for (Op op : group) {
      std::optional<TensorSharding> s = sharding_of(op.operand(0));
      shardings.push_back(s ? &storage.emplace_back(*std::move(s)) : nullptr);
    }
    bool conflict = false;
    const TensorSharding* common = commonGroupSharding(shardings, conflict);
    if (!conflict) continue;
    TensorSharding like = *common;
    for (Op op : group) constrainGroupMember(module, op.operand(0), like);
  }
}

}  // namespace shardkit

#endif  // SHARDKIT_SRC_PROPAGATION_SHARDING_GROUPS_H_
