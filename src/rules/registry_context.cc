// The facts some rules take from an op's surroundings rather than from the
// op itself.
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "src/rules/registry_internal.h"

namespace shardkit::rules_internal {

bool isConstantValue(Value value) {
  return isa<stablehlo::ConstantOp, sdy::ConstantOp>(value.definingOp());
}

bool usedByRngBitGenerator(Op op) {
  for (unsigned r = 0; r < op.numResults(); ++r) {
    for (const Value::Use& use : op.result(r).uses()) {
      if (isa<stablehlo::RngBitGeneratorOp>(use.user())) return true;
    }
  }
  return false;
}

bool scatterCombinerIsReduction(Op scatter) {
  const unsigned n = scatter.numResults();
  if (n == 0 || scatter.numRegions() != 1) return false;
  Block body = scatter.region(0).front();
  if (!body || body.numArguments() != 2 * n || body.empty()) return false;
  Op ret = body.back();
  if (ret.numOperands() != n) return false;
  OpName combiner;
  for (unsigned i = 0; i < n; ++i) {
    // Result i must be `op(current_i, update_i)` (either order) for one op
    // an all-reduce can compute.
    Op def = ret.operand(i).definingOp();
    if (!def || !(def.parentBlock() == body) || def.numOperands() != 2) {
      return false;
    }
    if (!isa<stablehlo::AddOp, stablehlo::MaxOp, stablehlo::MinOp>(def)) {
      return false;
    }
    if (combiner && !(def.opName() == combiner)) return false;
    combiner = def.opName();
    Value current = body.argument(i);
    Value update = body.argument(n + i);
    bool straight = def.operand(0) == current && def.operand(1) == update;
    bool swapped = def.operand(0) == update && def.operand(1) == current;
    if (!straight && !swapped) return false;
  }
  return true;
}

}  // namespace shardkit::rules_internal
