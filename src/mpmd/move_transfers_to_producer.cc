// -mpmd-move-transfers-to-producer: every transfer moves to right after the
// op producing its operand (or to the start of the block whose argument it
// transfers). A transfer between a producer and a consumer fragment would
// otherwise keep them from being merged.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/optimize_passes.h"

namespace shardkit::mpmd {

absl::Status moveTransfersToProducer(Module& module) {
  for (FuncOp func : functionDefinitions(module)) {
    std::vector<Op> transfers;
    auto visit = [&](Op op) {
      if (isa<TransferOp>(op)) transfers.push_back(op);
    };
    Module::walkBlock(func.body(), visit);
    for (Op transfer : transfers) {
      Value operand = transfer.operand(0);
      if (operand.isBlockArgument()) {
        Block block = operand.ownerBlock();
        if (block.front() != transfer) transfer.moveBefore(block.front());
        continue;
      }
      Op producer = operand.definingOp();
      Op next = producer.nextInBlock();
      if (next != transfer) transfer.moveBefore(next);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
