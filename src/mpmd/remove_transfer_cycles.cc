// -mpmd-remove-transfer-cycles: a transfer whose result has the type of a
// value earlier in its chain of transfers (m1 -> m2 -> m3 -> m1) is replaced
// by that value. Chains through a host memory kind are kept: moving to host
// and back is not a no-op. Transfers are visited last first, so replacing
// each by its closest such value removes whole cycles.
#include <optional>
#include <vector>

#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "src/mpmd/common_passes.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

bool onDevice(Type type) {
  std::optional<MeshTensorType> mesh_type = MeshTensorType::of(type);
  return !mesh_type || !mesh_type->memory_kind ||
         *mesh_type->memory_kind == kMemoryKindDevice;
}

// The closest value up the transfer chain of `transfer` with its result
// type, or null.
Value cycleRoot(Op transfer) {
  Type target = transfer.result(0).type();
  for (Op link = transfer; link && isa<TransferOp>(link);
       link = link.operand(0).definingOp()) {
    Value source = link.operand(0);
    if (!onDevice(source.type())) return Value();
    if (source.type() == target) return source;
  }
  return Value();
}

}  // namespace

absl::Status removeTransferCycles(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    std::vector<Op> ops = func.body().ops();
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      if (!isa<TransferOp>(*it)) continue;
      if (Value root = cycleRoot(*it)) {
        it->result(0).replaceAllUsesWith(root);
        it->erase();
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
