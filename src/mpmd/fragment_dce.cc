// -mpmd-fragment-dce: users before producers, each fragment loses its unused
// results, then the side-effect-free ops of its body nothing uses, then the
// operands its body no longer reads; a fragment left with nothing is erased,
// and so is an unused transfer.
#include <vector>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/fragment_signature_edits.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

void simplifyFragment(Op fragment) {
  std::vector<bool> keep;
  for (unsigned i = 0; i < fragment.numResults(); ++i)
    keep.push_back(!fragment.result(i).useEmpty());
  fragment = keepFragmentResults(fragment, keep);
  Block body = fragment.region(0).front();
  eraseDeadOps(body);
  std::vector<bool> used;
  for (unsigned i = 0; i < body.numArguments(); ++i)
    used.push_back(!body.argument(i).useEmpty());
  keepFragmentOperands(fragment, used);
  bool empty = fragment.numResults() == 0 && fragment.numOperands() == 0 &&
               body.numOps() == 1;
  if (empty) fragment.erase();
}

void dceBlock(Block block) {
  std::vector<Op> ops = block.ops();
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    Op op = *it;
    if (op.isErased()) continue;
    if (isa<FragmentOp>(op)) {
      simplifyFragment(op);
    } else if (isa<TransferOp>(op)) {
      if (op.result(0).useEmpty()) op.erase();
    } else {
      for (unsigned r = op.numRegions(); r-- > 0;) {
        Region region = op.region(r);
        for (unsigned b = region.numBlocks(); b-- > 0;)
          dceBlock(region.block(b));
      }
    }
  }
}

}  // namespace

absl::Status fragmentDce(Module& module) {
  for (FuncOp func : mpmdFunctions(module))
    if (func.body()) dceBlock(func.body());
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
