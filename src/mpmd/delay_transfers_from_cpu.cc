// -mpmd-delay-transfers-from-cpu: in each mpmd entry point, a transfer whose
// operand lives on a CPU mesh (name ending in `#cpu`) or in host memory moves
// to right before its first user: the device buffer it fills is allocated
// as late as possible.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "src/mpmd/export_utils.h"

namespace shardkit::mpmd {
namespace {

bool isFromCpu(Op transfer) {
  std::optional<MeshTensorType> type =
      MeshTensorType::of(transfer.operand(0).type());
  return type && (type->mesh_name.ends_with("#cpu") || type->isOnHost());
}

}  // namespace

absl::Status delayTransfersFromCpu(Module& module) {
  for (FuncOp func : entryPointFunctions(module)) {
    if (!func.body()) continue;
    std::vector<Op> transfers;
    for (Op op : func.body()) {
      if (isa<TransferOp>(op) && isFromCpu(op)) transfers.push_back(op);
    }
    for (Op transfer : transfers) {
      if (Op user = mpmd_internal::firstUserInBlock(transfer)) {
        transfer.moveBefore(user);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
