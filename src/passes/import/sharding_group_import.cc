// -sdy-sharding-group-import.
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "shardkit/dialect/sdy/computations.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// The sharding group ops of one value, in order of appearance.
struct ValueGroups {
  Value value;
  std::vector<Op> ops;
};

int64_t groupId(Op op) { return sdy::ShardingGroupOp(op).groupId(); }

// The nearest enclosing manual computation of `op`, or null.
Op enclosingManualComputation(Op op) {
  for (Op parent = op.parentOp(); parent; parent = parent.parentOp()) {
    if (isa<sdy::ManualComputationOp>(parent)) return parent;
  }
  return Op();
}

// Collects the groups of every value, in order of first appearance, and
// checks that each group keeps to one manual computation level and one shape.
absl::StatusOr<std::vector<ValueGroups>> collectGroups(Module& module) {
  std::vector<Op> ops;
  ir_internal::collectPreOrder(module.body(), ops);
  std::vector<ValueGroups> groups;
  absl::flat_hash_map<Value, size_t> index;
  absl::flat_hash_map<int64_t, Op> manual_parent;
  absl::flat_hash_map<int64_t, std::vector<int64_t>> shape;
  for (Op op : ops) {
    if (!isa<sdy::ShardingGroupOp>(op) || op.numOperands() != 1) continue;
    Value value = op.operand(0);
    auto [it, inserted] = index.try_emplace(value, groups.size());
    if (inserted) groups.push_back({value, {}});
    groups[it->second].ops.push_back(op);

    int64_t id = groupId(op);
    Op parent = enclosingManualComputation(op);
    auto [parent_it, new_group] = manual_parent.try_emplace(id, parent);
    if (!new_group && !(parent_it->second == parent)) {
      return opError(op, strCat("ShardingGroupOps values cannot cross "
                                "ManualComputationOp boundaries for groupId: ",
                                id));
    }
    absl::Span<const int64_t> dims = value.type().shape();
    std::vector<int64_t> value_shape(dims.begin(), dims.end());
    auto [shape_it, new_shape] = shape.try_emplace(id, value_shape);
    if (!new_shape && shape_it->second != value_shape) {
      return opError(op, strCat("ShardingGroupOps values must have the same "
                                "shape for groupId: ",
                                id));
    }
  }
  return groups;
}

// Union-find over group ids that remembers the order ids were first seen.
class GroupUnion {
 public:
  void unite(int64_t a, int64_t b) {
    int64_t ra = find(a), rb = find(b);
    if (ra != rb) parent_[rb] = ra;
  }
  int64_t find(int64_t id) {
    auto [it, inserted] = parent_.try_emplace(id, id);
    if (inserted) order_.push_back(id);
    int64_t root = id;
    while (parent_[root] != root) root = parent_[root];
    while (parent_[id] != root) id = std::exchange(parent_[id], root);
    return root;
  }
  // 0..N-1 for the classes, numbered by their first-seen member.
  absl::flat_hash_map<int64_t, int64_t> canonicalIds() {
    absl::flat_hash_map<int64_t, int64_t> by_root;
    for (int64_t id : order_) {
      by_root.try_emplace(find(id), static_cast<int64_t>(by_root.size()));
    }
    absl::flat_hash_map<int64_t, int64_t> result;
    for (int64_t id : order_) result[id] = by_root.at(find(id));
    return result;
  }

 private:
  absl::flat_hash_map<int64_t, int64_t> parent_;
  std::vector<int64_t> order_;
};

}  // namespace

absl::Status importShardingGroups(Module& module) {
  if (!module.mayHaveOpsNamed(sdy::ShardingGroupOp::opName())) {
    return absl::OkStatus();
  }
  SK_ASSIGN_OR_RETURN(std::vector<ValueGroups> groups, collectGroups(module));
  if (groups.empty()) return absl::OkStatus();

  // A value in groups G1 and G2 makes them one group.
  GroupUnion unions;
  for (const ValueGroups& entry : groups) {
    int64_t first = groupId(entry.ops.front());
    for (Op op : entry.ops) unions.unite(first, groupId(op));
  }
  absl::flat_hash_map<int64_t, int64_t> canonical = unions.canonicalIds();

  // Renumber, keeping one op per (group, value).
  absl::flat_hash_set<std::pair<int64_t, Value>> seen;
  for (const ValueGroups& entry : groups) {
    for (Op op : entry.ops) {
      int64_t id = canonical.at(groupId(op));
      if (!seen.insert({id, entry.value}).second) {
        op.erase();
        continue;
      }
      op.setAttr("group_id", Attribute::integer(id, "ui64"));
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
