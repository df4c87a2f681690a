// -sdy-remove-all-gather-reduce-scatter-for-cmv1: for backends whose
// collective matmul (CMV1) fuses the communication into the dot, an
// all-gather whose only use is a dot's operand is removed, and so is the
// reduce-scatter that is the only user of a dot without such an operand and
// without unreduced axes; the dot then carries the reduce-scatter's out
// sharding.
#include <optional>
#include <vector>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

bool isDot(Op op) { return isa<stablehlo::DotOp, stablehlo::DotGeneralOp>(op); }

void replaceByInput(Op op) {
  op.result(0).replaceAllUsesWith(op.operand(0));
  op.erase();
}

}  // namespace

absl::Status removeAllGatherReduceScatterForCmv1(Module& module) {
  std::vector<Op> dots;
  module.walk([&](Op op) {
    if (isDot(op)) dots.push_back(op);
  });
  std::vector<Op> removed;
  for (Op dot : dots) {
    // An all-gather whose only use is the dot goes; the dot then keeps its
    // reduce-scatter.
    bool gathered = false;
    for (Value operand : dot.operands()) {
      Op gather = operand.definingOp();
      if (isa<sdy::AllGatherOp>(gather) && gather.result(0).hasOneUse()) {
        removed.push_back(gather);
        gathered = true;
      }
    }
    if (gathered || dot.numResults() != 1) continue;
    auto scatter = dynCast<sdy::ReduceScatterOp>(dot.result(0).soleUser());
    if (!scatter) continue;
    std::optional<TensorSharding> dot_sharding = getSharding(dot.result(0));
    if (dot_sharding && !dot_sharding->unreduced_axes.empty()) continue;
    setSharding(dot.result(0), scatter.outSharding());
    removed.push_back(scatter);
  }
  for (Op op : removed) replaceByInput(op);
  return absl::OkStatus();
}

void registerRemoveAllGatherReduceScatterForCmv1Pass() {
  registerPass(optionlessPass(
      "sdy-remove-all-gather-reduce-scatter-for-cmv1",
      "Removes an all-gather feeding a dot and a reduce-scatter of a dot's "
      "result, for collective matmul V1.",
      removeAllGatherReduceScatterForCmv1));
}

}  // namespace shardkit
