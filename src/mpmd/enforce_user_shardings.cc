// -mpmd-enforce-user-shardings: the shardings the user gave the entry
// point's arguments and results win over what propagation chose for the
// fragments and transfers next to them. Sub-axes, which the user's
// input/output shardings cannot express, are cut from each dimension.
#include <optional>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"

namespace shardkit::mpmd {
namespace {

// `sharding` with each dimension cut before its first sub-axis (such a
// dimension becomes closed).
TensorSharding withoutSubAxes(const TensorSharding& sharding) {
  TensorSharding result = sharding;
  for (DimensionSharding& dim : result.dim_shardings) {
    size_t keep = 0;
    while (keep < dim.axes.size() && !dim.axes[keep].isSubAxis()) ++keep;
    if (keep == dim.axes.size()) continue;
    AxisRefVector kept(dim.axes.begin(), dim.axes.begin() + keep);
    dim.axes = std::move(kept);
    dim.is_closed = true;
  }
  return result;
}

// Every fragment that takes `value` gets `sharding` as the in_sharding of
// that operand.
void setUserInShardings(Value value, const TensorSharding& sharding) {
  for (const Value::Use& use : value.uses()) {
    if (auto fragment = dynCast<FragmentOp>(use.user())) {
      setSharding(fragment.body().argument(use.operandIndex()), sharding);
    }
  }
}

void enforceArgument(Value arg) {
  std::optional<TensorSharding> old = getSharding(arg);
  if (!old) return;
  TensorSharding user = withoutSubAxes(*old);
  if (!(user == *old)) setSharding(arg, user);
  // A transferred argument is left to
  // -mpmd-extract-reshards-from-inter-mesh-transfers.
  setUserInShardings(arg, user);
}

void enforceResult(FuncOp func, Op ret, unsigned i) {
  const TensorSharding* old = findFuncResultSharding(func, i);
  if (!old) return;
  TensorSharding user = withoutSubAxes(*old);
  Value value = ret.operand(i);
  if (!(user == *old)) setSharding(value, user);
  Op def = value.definingOp();
  if (isa<FragmentOp, TransferOp>(def)) {
    setSharding(value, user);
    setUserInShardings(value, user);
  }
}

}  // namespace

absl::Status enforceUserShardings(Module& module) {
  for (FuncOp func : entryPointFunctions(module)) {
    if (!func.body()) continue;
    for (unsigned i = 0; i < func.numArguments(); ++i) {
      enforceArgument(func.argument(i));
    }
    Op ret = func.returnOp();
    for (unsigned i = 0; ret && i < ret.numOperands(); ++i) {
      enforceResult(func, ret, i);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
