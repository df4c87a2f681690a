// -mpmd-split-bwd-fragments: a backward fragment (one transpose count, 1)
// whose results are partly transferred is split (fragment_split.h) so that
// the transferred results and what they need are computed first, and the
// results that stay on the mesh (typically weight gradients) after, in a
// fragment of their own the scheduler can delay.
#include <vector>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/fragment_split.h"
#include "src/mpmd/merge_fragment_ops.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

bool isBackwardCandidate(Op fragment) {
  std::optional<int64_t> transpose = singleTransposeCount(fragment);
  return transpose && *transpose == 1 &&
         !fragment.hasAttr(kSplitKeepTransferredAttr) &&
         !fragment.hasAttr(kSplitDropTransferredAttr);
}

void splitBackward(Op fragment) {
  std::vector<bool> pulled;
  bool any = false, all = true;
  for (unsigned i = 0; i < fragment.numResults(); ++i) {
    bool transferred = false;
    for (const Value::Use& use : fragment.result(i).uses())
      transferred = transferred || isa<TransferOp>(use.user());
    pulled.push_back(!transferred);
    any = any || !transferred;
    all = all && !transferred;
  }
  if (!any || all) return;
  Op ret = fragment.region(0).front().back();
  std::vector<Value> kept_values;
  for (unsigned i = 0; i < ret.numOperands(); ++i)
    if (!pulled[i]) kept_values.push_back(ret.operand(i));
  splitFragment(fragment, pulled, opsFlowingTo(kept_values));
}

}  // namespace

absl::Status splitBwdFragments(Module& module) {
  std::vector<Op> fragments;
  for (Op op : module.functions()) {
    FuncOp func(op);
    if (!func.body()) continue;
    auto visit = [&](Op nested) {
      if (isa<FragmentOp>(nested) && isBackwardCandidate(nested))
        fragments.push_back(nested);
    };
    Module::walkBlock(func.body(), visit);
  }
  for (Op fragment : fragments) splitBackward(fragment);
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
