// -mpmd-split-and-prioritize-transfer-independent-computations: a fragment
// fed partly by transfers is split in two, so that what does not depend on
// the transferred values can run before they arrive:
//  - the first fragment (split_keep_transferred) computes the ops that do not
//    (transitively) read a transferred operand, returns the original results
//    none of those ops' dependents reach, and the "residual" values the rest
//    needs;
//  - the second (split_drop_transferred) computes the rest from the original
//    operands and the residuals.
// (fragment_split.h). A fragment already split, or fed only (or not at all)
// by transfers, is left.
#include <algorithm>
#include <vector>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/fragment_split.h"
#include "src/mpmd/merge_fragment_ops.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

void splitTransferIndependent(Op fragment) {
  if (fragment.hasAttr(kSplitKeepTransferredAttr) ||
      fragment.hasAttr(kSplitDropTransferredAttr))
    return;
  Block body = fragment.region(0).front();
  std::vector<Value> transferred;
  for (unsigned i = 0; i < fragment.numOperands(); ++i) {
    Op def = fragment.operand(i).definingOp();
    if (def && isa<TransferOp>(def)) transferred.push_back(body.argument(i));
  }
  if (transferred.empty() || transferred.size() == fragment.numOperands())
    return;
  OpSet dependent = transitiveUsers(body, transferred);
  Op ret = body.back();
  std::vector<bool> pulled(fragment.numResults(), false);
  bool all = true;
  for (unsigned i = 0; i < ret.numOperands(); ++i) {
    Value v = ret.operand(i);
    Op def = v.definingOp();
    bool from_transfer = def ? dependent.contains(def)
                             : std::find(transferred.begin(), transferred.end(),
                                         v) != transferred.end();
    pulled[i] = from_transfer;
    all = all && from_transfer;
  }
  OpSet keep;
  for (Op op : body)
    if (!dependent.contains(op) && op != ret) keep.insert(op);
  if (keep.empty() && all) return;  // everything would move
  splitFragment(fragment, pulled, keep);
}

}  // namespace

absl::Status splitAndPrioritizeTransferIndependentComputations(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    for (Op op : func.body().ops())
      if (isa<FragmentOp>(op)) splitTransferIndependent(op);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
