#include "src/ir/collect_ops.h"

#include "shardkit/ir/func.h"

namespace shardkit::ir_internal {

void collectPostOrder(Block block, std::vector<Op>& out) {
  for (Op op : block) {
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      Region region = op.region(r);
      for (unsigned b = 0; b < region.numBlocks(); ++b) {
        collectPostOrder(region.block(b), out);
      }
    }
    out.push_back(op);
  }
}

void collectPreOrder(Block block, std::vector<Op>& out) {
  for (Op op : block) {
    out.push_back(op);
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      Region region = op.region(r);
      for (unsigned b = 0; b < region.numBlocks(); ++b) {
        collectPreOrder(region.block(b), out);
      }
    }
  }
}

std::vector<Op> collectFunctionBodiesPreOrder(Module& module) {
  std::vector<Op> ops;
  for (Op func : module.functions()) {
    if (!FuncOp(func).isDeclaration())
      collectPreOrder(FuncOp(func).body(), ops);
  }
  return ops;
}

}  // namespace shardkit::ir_internal
