#include "src/propagation/sharding_groups.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/sdy/sdy_ops.h"

namespace shardkit {
namespace {

// A sharding that says nothing: every dimension open and empty, nothing
// replicated or unreduced. Such members don't take part in finding a group's
// common sharding.
bool saysNothing(const TensorSharding& sharding) {
  return sharding.isFullyReplicated() &&
         std::all_of(sharding.dim_shardings.begin(),
                     sharding.dim_shardings.end(),
                     [](const DimensionSharding& d) { return !d.is_closed; });
}

}  // namespace

const TensorSharding* commonGroupSharding(
    absl::Span<const TensorSharding* const> members, bool& conflict) {
  conflict = false;
  if (members.size() == 1) return members[0];
  const TensorSharding* common = nullptr;
  for (const TensorSharding* s : members) {
    if (s == nullptr || saysNothing(*s)) continue;
    if (common == nullptr) {
      common = s;
    } else if (!(*s == *common)) {
      conflict = true;
      return common;
    }
  }
  return common;
}

std::vector<std::vector<Op>> collectShardingGroups(Module& module) {
  absl::flat_hash_map<int64_t, size_t> index;
  std::vector<std::vector<Op>> groups;
  if (!module.mayHaveOpsNamed(sdy::ShardingGroupOp::opName())) return groups;
  module.walk([&](Op op) {
    auto group = dynCast<sdy::ShardingGroupOp>(op);
    if (!group || op.numOperands() != 1) return;
    int64_t id = group.groupId();
    auto [it, inserted] = index.emplace(id, groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(op);
  });
  return groups;
}

void constrainGroupMember(Module& module, Value member,
                          const TensorSharding& like) {
  OperationState state(sdy::ShardingConstraintOp::opName());
  state.operands = {member};
  state.result_types = {member.type()};
  state.addAttr("sharding", Attribute::of(TensorSharding::fullyOpen(
                                like.mesh, member.type().rank())));
  Op constraint = module.createOp(state);
  if (member.isBlockArgument()) {
    member.ownerBlock().pushFront(constraint);
  } else {
    Op def = member.definingOp();
    constraint.setLocation(def.location());
    def.parentBlock().insertAfter(def, constraint);
  }
  Value constrained = constraint.result(0);
  member.replaceUsesWithIf(constrained, [&](const Value::Use& use) {
    return !(use.user() == constraint);
  });
}

}  // namespace shardkit
