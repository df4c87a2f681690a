// -sdy-remove-all-gather-reduce-scatter-for-cmv1: for backends whose
// collective matmul (CMV1) fuses the communication into the dot, an
// all-gather whose only user is a dot, and a reduce-scatter of a dot's
// result without unreduced axes, are removed; the dot then carries the
// reduce-scatter's out sharding.
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
  std::vector<Op> collectives;
  module.walk([&](Op op) {
    if (isa<sdy::AllGatherOp, sdy::ReduceScatterOp>(op)) {
      collectives.push_back(op);
    }
  });
  for (Op op : collectives) {
    if (auto gather = dynCast<sdy::AllGatherOp>(op)) {
      if (isDot(gather.result().soleUser())) replaceByInput(op);
      continue;
    }
    auto scatter = sdy::ReduceScatterOp(op);
    Op dot = scatter.tensor().definingOp();
    if (!isDot(dot) || dot.numResults() != 1) continue;
    std::optional<TensorSharding> dot_sharding = getSharding(dot.result(0));
    if (dot_sharding && !dot_sharding->unreduced_axes.empty()) continue;
    setSharding(dot.result(0), scatter.outSharding());
    replaceByInput(op);
  }
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
