#include "shardkit/ir/walk.h"

namespace shardkit::ir_internal {

void collectPostOrder(Block block, std::vector<Op>& out) {
  for (Op op : block) {
    forEachBlock(op, [&](Block nested) { collectPostOrder(nested, out); });
    out.push_back(op);
  }
}

void collectPreOrder(Block block, std::vector<Op>& out) {
  for (Op op : block) {
    out.push_back(op);
    forEachBlock(op, [&](Block nested) { collectPreOrder(nested, out); });
  }
}

std::vector<Op> collectFunctionBodiesPreOrder(Module& module) {
  std::vector<Op> ops;
  for (Op func : module.functions()) {
    if (func.numRegions() != 0 && !func.region(0).empty()) {
      collectPreOrder(func.region(0).front(), ops);
    }
  }
  return ops;
}

}  // namespace shardkit::ir_internal
