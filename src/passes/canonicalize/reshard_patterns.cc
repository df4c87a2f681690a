// Canonicalization patterns of sdy.reshard: a reshard of a reshard used only
// there reshards once; a reshard that an earlier one already computed (maybe
// through reshapes) reuses it.
#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/support/checked_math.h"
#include "src/passes/canonicalize/patterns.h"

namespace shardkit::canonicalize_internal {
namespace {

using sdy::ReshardOp;
using stablehlo::ReshapeOp;
using stablehlo::TransposeOp;

bool reshardOfReshard(Op op, PatternRewriter& rewriter) {
  ReshardOp outer(op);
  auto inner = dynCast<ReshardOp>(outer.input().definingOp());
  if (!inner || !inner.result().hasOneUse()) return false;
  op.setOperand(0, inner.input());
  rewriter.notifyChanged(op);
  rewriter.notifyChanged(inner);
  return true;
}

// Reshapes and transposes only relabel a buffer's layout.
bool isMetadataOp(Op op) { return isa<ReshapeOp, TransposeOp>(op); }

// `value` with the reshapes and transposes that produced it looked through.
Value metadataRoot(Value value) {
  while (Op def = value.definingOp()) {
    if (!isMetadataOp(def)) break;
    value = def.operand(0);
  }
  return value;
}

// `sharding` (of `value`) carried back through the transposes that produced
// `value`, up to the first reshape that changes the rank.
TensorSharding shardingAtRoot(TensorSharding sharding, Value value) {
  while (Op def = value.definingOp()) {
    if (isa<TransposeOp>(def)) {
      std::optional<std::vector<int64_t>> perm =
          def.attr("permutation").intList();
      if (!perm || perm->size() != sharding.dim_shardings.size()) break;
      std::vector<DimensionSharding> dims(perm->size());
      for (size_t i = 0; i < perm->size(); ++i) {
        dims[(*perm)[i]] = sharding.dim_shardings[i];
      }
      sharding.dim_shardings = std::move(dims);
    } else if (isa<ReshapeOp>(def)) {
      if (def.operand(0).type().rank() != def.result(0).type().rank()) break;
    } else {
      break;
    }
    value = def.operand(0);
  }
  return sharding;
}

// Each mesh axis of `sharding` with the linear stride (in elements of the
// row-major buffer of `type`) it partitions at, sorted by stride.
std::vector<std::pair<AxisRef, int64_t>> axisStrides(
    const TensorSharding& sharding, Type type, const Mesh& mesh) {
  std::vector<std::pair<AxisRef, int64_t>> strides;
  absl::Span<const int64_t> shape = type.shape();
  int64_t dims_below = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    const AxisRefVector& axes = sharding.dim_shardings[d].axes;
    // Saturating: a caller compares strides of shapes whose element
    // counts fit, where only the padding can push a stride past int64.
    int64_t shards = 1;
    for (const AxisRef& axis : axes) {
      shards = saturatingMul(shards, axis.size(mesh));
    }
    int64_t stride =
        saturatingMul(dims_below, shape[d] / shards + (shape[d] % shards != 0));
    for (auto axis = axes.rbegin(); axis != axes.rend(); ++axis) {
      strides.emplace_back(*axis, stride);
      stride = saturatingMul(stride, axis->size(mesh));
    }
    dims_below = saturatingMul(dims_below, shape[d]);
  }
  std::stable_sort(
      strides.begin(), strides.end(),
      [](const auto& a, const auto& b) { return a.second < b.second; });
  // A sub-axis right above its minor neighbour in the buffer is one piece
  // with it: `"a":(1)2` at stride 4 over `"a":(2)2` at stride 2 is `"a"` at 2.
  std::vector<std::pair<AxisRef, int64_t>> merged;
  for (auto& [axis, stride] : strides) {
    if (!merged.empty()) {
      auto& [minor, minor_stride] = merged.back();
      if (canMerge(axis, minor) && stride == minor_stride * minor.size(mesh)) {
        minor = merge(axis, minor, mesh);
        continue;
      }
    }
    merged.emplace_back(axis, stride);
  }
  return merged;
}

// True if `a` on a `ta` and `b` on a `tb` that is a reshape of it put every
// element on the same devices.
bool equivalentAcrossReshapes(const TensorSharding& a, Type ta,
                              const TensorSharding& b, Type tb,
                              const MeshTable& meshes) {
  if (a == b && ta == tb) return true;
  if (a.meshName() != b.meshName() || a.replicated_axes != b.replicated_axes) {
    return false;
  }
  if (ta.kind() != TypeKind::kRankedTensor ||
      tb.kind() != TypeKind::kRankedTensor || !ta.encoding().empty() ||
      !tb.encoding().empty()) {
    return false;
  }
  if (a.dim_shardings.size() != static_cast<size_t>(ta.rank()) ||
      b.dim_shardings.size() != static_cast<size_t>(tb.rank())) {
    return false;
  }
  // Strides are offsets in the buffer: static shapes whose element count
  // fits.
  if (!ta.hasStaticShape() || !tb.hasStaticShape() ||
      !checkedProduct(ta.shape()) || !checkedProduct(tb.shape())) {
    return false;
  }
  const Mesh* mesh = meshes.resolve(a);
  if (!mesh) return false;
  return axisStrides(a, ta, *mesh) == axisStrides(b, tb, *mesh);
}

// An earlier reshard in `current`'s block, reached from `root` through
// reshapes only, that computes `target` (on `target_type`).
Value findCompatibleReshard(Value root, const TensorSharding& target,
                            Type target_type, ReshardOp current,
                            const MeshTable& meshes) {
  std::vector<Value> worklist = {root};
  absl::flat_hash_set<Value> visited;
  while (!worklist.empty()) {
    Value v = worklist.back();
    worklist.pop_back();
    if (!visited.insert(v).second) continue;
    for (const Value::Use& use : v.uses()) {
      Op user = use.user();
      if (user == current.op()) continue;
      if (auto other = dynCast<ReshardOp>(user)) {
        if (other->parentBlock() == current->parentBlock() &&
            isBeforeInBlock(other, current) &&
            equivalentAcrossReshapes(other.sharding(), other.result().type(),
                                     target, target_type, meshes)) {
          return other.result();
        }
      } else if (isa<ReshapeOp>(user)) {
        worklist.push_back(user.result(0));
      }
    }
  }
  return Value();
}

// A copy of the metadata op `op` on `input`, right after `input` is defined.
Value cloneOnto(Op op, Value input, PatternRewriter& rewriter) {
  OperationState state(op.opName());
  state.operands = {input};
  state.result_types = {op.result(0).type()};
  state.inherent_attrs = op.inherentAttrs();
  state.discardable_attrs = op.discardableAttrs();
  state.location = op.location();
  Op anchor = input.definingOp() ? input.definingOp().nextInBlock()
                                 : input.ownerBlock().front();
  return rewriter.createOpBefore(anchor, state).result(0);
}

// The chain of metadata ops from `root` to `target`, replayed on `replacement`.
Value replayPath(Value root, Value target, Value replacement,
                 PatternRewriter& rewriter) {
  if (target == root) return replacement;
  Op op = target.definingOp();
  Value input = replayPath(root, op.operand(0), replacement, rewriter);
  return cloneOnto(op, input, rewriter);
}

bool reshardCse(Op op, PatternRewriter& rewriter) {
  ReshardOp reshard(op);
  Value input = reshard.input();
  Value root = metadataRoot(input);
  TensorSharding target = shardingAtRoot(reshard.sharding(), input);
  MeshTable meshes = rewriter.module().meshTable();
  Value cached = findCompatibleReshard(root, target, reshard.result().type(),
                                       reshard, meshes);
  if (!cached) return false;
  if (!(cached.type() == root.type())) {
    OperationState state(ReshapeOp::opName());
    state.operands = {cached};
    state.result_types = {root.type()};
    state.location = op.location();
    cached = rewriter.createOpBefore(cached.definingOp().nextInBlock(), state)
                 .result(0);
  }
  rewriter.replaceOp(op, replayPath(root, input, cached, rewriter));
  return true;
}

}  // namespace

void registerReshardPatterns() {
  registerCanonicalizationPattern(ReshardOp::opName(), reshardOfReshard,
                                  kReshardLabel);
  registerCanonicalizationPattern(ReshardOp::opName(), reshardCse);
}

}  // namespace shardkit::canonicalize_internal
