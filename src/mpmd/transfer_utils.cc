// Replacing assigns of one value with a chain of transfers.
#include "src/mpmd/transfer_utils.h"

#include <algorithm>

#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {

std::vector<AssignOp> crossMeshAssignUsers(UnassignOp unassign) {
  std::string source_mesh = unassign.meshName();
  std::vector<AssignOp> assigns;
  for (const Value::Use& use : unassign.result().uses()) {
    auto assign = dynCast<AssignOp>(use.user());
    if (assign && assign.meshName() != source_mesh) assigns.push_back(assign);
  }
  std::stable_sort(assigns.begin(), assigns.end(), [](AssignOp a, AssignOp b) {
    return meshNameLess(a.meshName(), b.meshName());
  });
  return assigns;
}

void replaceAssignsWithChainedTransfers(const std::vector<AssignOp>& assigns,
                                        Value source,
                                        PatternRewriter& rewriter) {
  if (assigns.empty()) return;
  // Each transfer must come after the previous one: when all assigns are in
  // one block the chain starts at the first of them.
  Op anchor;
  for (AssignOp assign : assigns) {
    if (!(assign->parentBlock() == assigns.front()->parentBlock())) {
      anchor = Op();
      break;
    }
    if (!anchor || isBeforeInBlock(assign, anchor)) anchor = assign;
  }
  std::vector<Value> chain;
  Value previous = source;
  for (AssignOp assign : assigns) {
    Type target = assign.result().type();
    if (!(previous.type() == target)) {
      OperationState state = TransferOp::build(previous, target);
      previous = rewriter.createOpBefore(anchor ? anchor : Op(assign), state)
                     .result(0);
    }
    chain.push_back(previous);
  }
  for (size_t i = 0; i < assigns.size(); ++i)
    rewriter.replaceOp(assigns[i], chain[i]);
}

}  // namespace shardkit::mpmd::mpmd_internal
