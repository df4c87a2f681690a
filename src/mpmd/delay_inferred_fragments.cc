// -mpmd-delay-inferred-fragments: a fragment mesh inference created (no user
// origins) moves down to right before its first user, so that user fragments
// do not wait on it and its results are not held longer than needed. Ops are
// visited last to first, so a chain of inferred fragments moves as a whole.
// A fragment without users in its block stays where it is.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

// The first op of `op`'s block that uses (directly or nested) a result of it.
Op firstUser(Op op) {
  Block block = op.parentBlock();
  Op first;
  for (Value result : op.results()) {
    for (const Value::Use& use : result.uses()) {
      Op user = mpmd_internal::ancestorInBlock(block, use.user());
      if (user && (!first || mpmd_internal::isBeforeInBlock(user, first))) {
        first = user;
      }
    }
  }
  return first;
}

}  // namespace

absl::Status delayInferredFragments(Module& module) {
  for (FuncOp func : functionDefinitions(module)) {
    std::vector<Op> ops = func.body().ops();
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      if (!isa<FragmentOp>(*it) || FragmentOp(*it).isUserFragment()) continue;
      if (Op user = firstUser(*it)) it->moveBefore(user);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
