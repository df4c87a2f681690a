// -mpmd-delay-inferred-fragments: in each mpmd entry point, a fragment mesh
// inference created (no user origins) moves down to right before its first
// user, so that user fragments do not wait on it and its results are not
// held longer than needed. Ops are visited last to first, so a chain of
// inferred fragments moves as a whole. A fragment without users stays.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "src/mpmd/export_utils.h"

namespace shardkit::mpmd {

absl::Status delayInferredFragments(Module& module) {
  for (FuncOp func : entryPointFunctions(module)) {
    if (!func.body()) continue;
    std::vector<Op> ops = func.body().ops();
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      if (!isa<FragmentOp>(*it) || FragmentOp(*it).isUserFragment()) continue;
      if (Op user = mpmd_internal::firstUserInBlock(*it)) it->moveBefore(user);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
