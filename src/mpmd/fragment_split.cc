// Splitting a fragment in two (fragment_split.h).
#include "src/mpmd/fragment_split.h"

#include <string>
#include <vector>

#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/clone.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/merge_fragment_ops.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// The values `op` reads: its operands, then those its regions use from
// outside, each once.
std::vector<Value> readValues(Op op) {
  std::vector<Value> values;
  absl::flat_hash_set<Value> seen;
  for (Value v : op.operands())
    if (seen.insert(v).second) values.push_back(v);
  for (Value v : freeValuesOf(op))
    if (seen.insert(v).second) values.push_back(v);
  return values;
}

// The values the ops outside `keep` need from block arguments and from ops in
// `keep`, walking back from `values`, in the order they are found.
std::vector<Value> residualsFor(std::vector<Value> values, const OpSet& keep) {
  std::vector<Value> roots;
  absl::flat_hash_set<Value> seen;
  while (!values.empty()) {
    Value v = values.back();
    values.pop_back();
    Op def = v.definingOp();
    if (!def || keep.contains(def)) {
      if (seen.insert(v).second) roots.push_back(v);
      continue;
    }
    for (Value operand : readValues(def)) values.push_back(operand);
  }
  return roots;
}

// Creates after `anchor` a copy of `fragment` with `result_types` and
// `operands`, its body a copy of the original's; `map` gets the copied
// values and `ops` the copied body ops, in order.
Op copyFragment(Op fragment, Op anchor, const std::vector<Type>& result_types,
                const std::vector<Value>& operands, std::string_view mark,
                ValueMap& map, std::vector<Op>& ops) {
  OperationState state(fragment.opName());
  state.operands = operands;
  state.result_types = result_types;
  state.inherent_attrs = fragment.inherentAttrs();
  state.discardable_attrs = fragment.discardableAttrs();
  state.num_regions = 1;
  Op copy = createAfter(anchor, state);
  copy.removeAttr("in_shardings");
  copy.removeAttr("out_shardings");
  copy.setAttr(mark, Attribute::unit());
  cloneRegionInto(fragment.region(0), copy.region(0), map);
  ops = copy.region(0).front().ops();
  return copy;
}

// Erases, last first, the ops of `ops` (except the terminator) whose
// original in `originals` `drop` selects, when nothing uses them.
template <typename Pred>
void dropCopies(const std::vector<Op>& originals, const std::vector<Op>& ops,
                Pred drop) {
  for (size_t i = ops.size() - 1; i-- > 0;) {
    if (!drop(originals[i])) continue;
    bool used = false;
    for (Value r : ops[i].results()) used = used || !r.useEmpty();
    if (!used) ops[i].erase();
  }
}

}  // namespace

OpSet transitiveUsers(Block body, std::vector<Value> values) {
  OpSet users;
  while (!values.empty()) {
    Value v = values.back();
    values.pop_back();
    for (const Value::Use& use : v.uses()) {
      Op user = ancestorInBlock(body, use.user());
      if (!user || !users.insert(user).second) continue;
      for (Value r : user.results()) values.push_back(r);
    }
  }
  return users;
}

OpSet opsFlowingTo(std::vector<Value> values) {
  OpSet ops;
  while (!values.empty()) {
    Value v = values.back();
    values.pop_back();
    Op def = v.definingOp();
    if (!def || !ops.insert(def).second) continue;
    for (Value operand : readValues(def)) values.push_back(operand);
  }
  return ops;
}

void splitFragment(Op fragment, const std::vector<bool>& pulled,
                   const OpSet& keep) {
  Block body = fragment.region(0).front();
  if (keep.size() + 1 == body.numOps()) return;  // nothing to pull out
  std::vector<Op> originals = body.ops();
  Op ret = body.back();
  std::vector<Value> pulled_values;
  std::vector<Type> kept_types, pulled_types;
  for (unsigned i = 0; i < fragment.numResults(); ++i) {
    (pulled[i] ? pulled_types : kept_types)
        .push_back(fragment.result(i).type());
    if (pulled[i]) pulled_values.push_back(ret.operand(i));
  }
  std::vector<Value> residuals = residualsFor(pulled_values, keep);
  TypeContext& types = fragment.module()->types();
  std::string mesh(FragmentOp(fragment).meshName());
  for (Value r : residuals)
    kept_types.push_back(
        MeshTensorType::fullyReplicated(mesh, r.type()).toType(types));

  ValueMap first_map;
  std::vector<Op> first_ops;
  Op first = copyFragment(fragment, fragment, kept_types, fragment.operands(),
                          kSplitKeepTransferredAttr, first_map, first_ops);
  Op first_ret = first_ops.back();
  std::vector<Value> first_returned;
  for (unsigned i = 0; i < ret.numOperands(); ++i)
    if (!pulled[i]) first_returned.push_back(first_ret.operand(i));
  for (Value r : residuals) first_returned.push_back(mapped(first_map, r));
  first_ret.setOperands(first_returned);
  dropCopies(originals, first_ops, [&](Op op) { return !keep.contains(op); });

  std::vector<Value> second_operands = fragment.operands();
  size_t residual_start = first.numResults() - residuals.size();
  for (size_t i = 0; i < residuals.size(); ++i)
    second_operands.push_back(first.result(residual_start + i));
  ValueMap second_map;
  std::vector<Op> second_ops;
  Op second = copyFragment(fragment, first, pulled_types, second_operands,
                           kSplitDropTransferredAttr, second_map, second_ops);
  Block second_body = second.region(0).front();
  for (Value r : residuals)
    mapped(second_map, r).replaceAllUsesWith(second_body.addArgument(r.type()));
  Op second_ret = second_ops.back();
  std::vector<Value> second_returned;
  for (unsigned i = 0; i < ret.numOperands(); ++i)
    if (pulled[i]) second_returned.push_back(second_ret.operand(i));
  second_ret.setOperands(second_returned);
  dropCopies(originals, second_ops, [&](Op op) { return keep.contains(op); });

  unsigned next_kept = 0, next_pulled = 0;
  for (unsigned i = 0; i < fragment.numResults(); ++i) {
    fragment.result(i).replaceAllUsesWith(
        pulled[i] ? second.result(next_pulled++) : first.result(next_kept++));
  }
  fragment.erase();
}

}  // namespace shardkit::mpmd::mpmd_internal
