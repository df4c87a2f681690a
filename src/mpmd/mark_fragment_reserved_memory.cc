// -mpmd-mark-fragment-reserved-memory: walks each mpmd function in program
// order keeping, per mesh, the bytes of device memory live values hold (each
// value's local shape on its mesh). Each fragment gets
// `reserved_hbm_bytes = live bytes on its mesh minus its own device operands`
// (those the compiler of the fragment already sees), rounded up.
//
// Function arguments start live, except those in host memory and unused
// donated ones (`jax.buffer_donor`). After a fragment or transfer, operands
// used for the last time stop being live, except function arguments that are
// not donated (the caller may still hold them); its used results in device
// memory become live. Any other op in the body is an error.
#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/export_utils.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

class LiveMemory {
 public:
  explicit LiveMemory(const Topology& topology) : topology_(topology) {
    for (const NamedMesh& mesh : topology.meshes) bytes_[mesh.name] = 0;
  }

  // Adds (sign 1) or removes (sign -1) a value of mesh tensor type `type`.
  absl::Status add(Op at, Type type, double sign) {
    SK_ASSIGN_OR_RETURN(double size, bytesOf(at, type));
    bytes_[meshNameOf(type)] += sign * size;
    return absl::OkStatus();
  }

  absl::StatusOr<double> bytesOf(Op at, Type type) const {
    std::optional<MeshTensorType> mesh_type = MeshTensorType::of(type);
    if (!mesh_type) {
      return locatedError(at, "Expected a mesh tensor, got " + type.str());
    }
    const Mesh* mesh = topology_.find(mesh_type->mesh_name);
    if (mesh == nullptr) {
      return locatedError(at, "Topology doesn't have a mesh with name: " +
                                  mesh_type->mesh_name);
    }
    std::optional<double> size =
        mpmd_internal::localTensorBytes(*mesh_type, *mesh);
    if (!size) {
      return locatedError(
          at, "Unknown element type width: " + mesh_type->element_type);
    }
    return *size;
  }

  double on(const std::string& mesh) { return bytes_[mesh]; }

 private:
  const Topology& topology_;
  std::map<std::string, double> bytes_;
};

absl::StatusOr<int64_t> reservedBytes(Op fragment, LiveMemory& live) {
  double bytes = live.on(std::string(FragmentOp(fragment).meshName()));
  absl::flat_hash_set<Value> seen;
  for (unsigned i = 0; i < fragment.numOperands(); ++i) {
    Value operand = fragment.operand(i);
    if (mpmd_internal::isArgOnHost(fragment, i) || !seen.insert(operand).second)
      continue;
    SK_ASSIGN_OR_RETURN(double size, live.bytesOf(fragment, operand.type()));
    bytes -= size;
  }
  return static_cast<int64_t>(std::ceil(bytes));
}

// Frees the operands of `op` used for the last time, then adds its results.
absl::Status step(FuncOp func, Op op, LiveMemory& live) {
  absl::flat_hash_set<Value> seen;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    Value operand = op.operand(i);
    if (mpmd_internal::isArgOnHost(op, i) || !seen.insert(operand).second ||
        !mpmd_internal::isDeadAfter(operand, op)) {
      continue;
    }
    if (operand.isBlockArgument() &&
        !mpmd_internal::isArgBufferDonor(func, operand.index())) {
      continue;
    }
    SK_RETURN_IF_ERROR(live.add(op, operand.type(), -1));
  }
  for (Value result : op.results()) {
    if (mpmd_internal::isResultOnHost(result) || result.useEmpty()) continue;
    SK_RETURN_IF_ERROR(live.add(op, result.type(), 1));
  }
  return absl::OkStatus();
}

absl::Status markFunction(FuncOp func) {
  std::optional<Topology> topology = topologyOf(func);
  if (!topology) return absl::OkStatus();
  LiveMemory live(*topology);
  for (unsigned i = 0; i < func.numArguments(); ++i) {
    Value arg = func.argument(i);
    if (mpmd_internal::isHostMemoryKind(func.argAttr(i, kMemoryKindAttr)))
      continue;
    if (mpmd_internal::isArgBufferDonor(func, i) && arg.useEmpty()) continue;
    SK_RETURN_IF_ERROR(live.add(func, arg.type(), 1));
  }
  mpmd_internal::ErrorCollector errors;
  for (Op op : func.body()) {
    if (isa<FragmentOp>(op)) {
      SK_ASSIGN_OR_RETURN(int64_t bytes, reservedBytes(op, live));
      op.setAttr(mpmd_internal::kReservedHbmBytesAttr,
                 Attribute::integer(bytes));
    }
    if (isa<FragmentOp, TransferOp>(op)) {
      SK_RETURN_IF_ERROR(step(func, op, live));
    } else if (!isa<func::ReturnOp>(op)) {
      errors.add(op,
                 "Expected only TransferOp, FragmentOp, FragmentCallOp and "
                 "ReturnOp in the function body.");
    }
  }
  return errors.status();
}

}  // namespace

absl::Status markFragmentReservedMemory(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (func.body()) SK_RETURN_IF_ERROR(markFunction(func));
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
