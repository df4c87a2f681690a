// -mpmd-unroll-for-loops: every mpmd.for (whose unroll factor must equal its
// iteration count) is replaced by that many copies of its body, chained
// through the loop-carried values; iteration i reads a `ui32` constant i as
// its index. Every copied op, and each index constant, gets an
// unroll_counter that keeps counting across the loops of a function, so
// that no two iterations of any loop share one (later passes turn them into
// call counters). Nested loops are an error.
#include <string>
#include <vector>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/clone.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

constexpr std::string_view kUnrollCounterAttr = "unroll_counter";

Attribute counterAttr(int64_t counter) {
  return Attribute::integer(counter, "ui32");
}

Value indexConstant(Op loop, int64_t index, int64_t counter) {
  Type type = loop.module()->types().rankedTensor({}, "ui32");
  OperationState state(stablehlo::ConstantOp::opName());
  state.result_types = {type};
  state.addAttr("value",
                Attribute::elements(strCat("dense<", index, ">"), type));
  Op constant = createBefore(loop, state);
  constant.setAttr(kUnrollCounterAttr, counterAttr(counter));
  return constant.result(0);
}

// Unrolls `loop` with counters from `first_counter`; returns how many
// iterations it had.
int64_t unroll(Op loop, int64_t first_counter) {
  Block body = loop.region(0).front();
  int64_t iterations = ForOp(loop).iterations();
  unsigned carried = body.numArguments() - 1;
  std::vector<Value> values = loop.operands();
  Op ret = body.back();
  for (int64_t i = 0; i < iterations; ++i) {
    ValueMap map;
    for (unsigned a = 0; a < carried; ++a) map[body.argument(a)] = values[a];
    map[body.argument(carried)] = indexConstant(loop, i, first_counter + i);
    for (Op op : body) {
      if (op == ret) break;
      Op copy = cloneOp(op, map);
      loop.parentBlock().insertBefore(loop, copy);
      copy.setAttr(kUnrollCounterAttr, counterAttr(first_counter + i));
    }
    for (unsigned r = 0; r < ret.numOperands(); ++r)
      values[r] = mapped(map, ret.operand(r));
  }
  for (unsigned r = 0; r < loop.numResults(); ++r)
    loop.result(r).replaceAllUsesWith(values[r]);
  loop.erase();
  return iterations;
}

}  // namespace

absl::Status unrollForLoops(Module& module) {
  for (Op op : module.functions()) {
    FuncOp func(op);
    if (!func.body()) continue;
    std::vector<Op> loops;
    absl::Status status = absl::OkStatus();
    auto visit = [&](Op nested) {
      if (!isa<ForOp>(nested)) return;
      loops.push_back(nested);
      Op parent = nested.parentOp();
      if (status.ok() && parent && isa<ForOp>(parent)) {
        status = locatedError(nested, "Nested fori loops aren't supported.");
      }
      std::optional<int64_t> factor = ForOp(nested).unrollFactor();
      if (status.ok() && (!factor || *factor != ForOp(nested).iterations())) {
        status = locatedError(nested,
                              "The unroll factor is required to be the same "
                              "as the number of iterations.");
      }
    };
    Module::walkBlock(func.body(), visit);
    SK_RETURN_IF_ERROR(status);
    int64_t counter = 0;
    for (Op loop : loops) counter += unroll(loop, counter);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
