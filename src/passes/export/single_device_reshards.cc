// The single-device part of -sdy-insert-explicit-reshards (see the header).
#include "src/passes/export/single_device_reshards.h"

#include <optional>
#include <string>
#include <string_view>

#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/strings.h"

namespace shardkit::passes_internal {
namespace {

using MaybeSharding = std::optional<TensorSharding>;

// The mesh values go through on their way to or from a single device,
// replicated: the global mesh, as -sdy-resolve-single-device-sharding picks
// it too.
std::optional<MeshOrRef> globalMesh(const MeshTable& meshes) {
  std::string_view name = meshes.globalMeshName();
  if (name.empty()) return std::nullopt;
  return MeshOrRef::ref(std::string(name));
}

}  // namespace

absl::Status checkNoSingleDeviceSignature(FuncOp func,
                                          const MeshTable& meshes) {
  for (unsigned i = 0, n = func.numArguments(); i < n; ++i) {
    MaybeSharding scratch;
    const TensorSharding* s = findSharding(func.argument(i), scratch);
    if (s && isSingleDevice(*s, meshes)) {
      return opError(func, strCat("function argument ", i,
                                  " cannot have a single-device (maximal) "
                                  "sharding attribute"));
    }
  }
  for (unsigned i = 0; i < func.numResults(); ++i) {
    const TensorSharding* s = findFuncResultSharding(func, i);
    if (s && isSingleDevice(*s, meshes)) {
      return opError(func, strCat("function result ", i,
                                  " cannot have a single-device (maximal) "
                                  "sharding attribute"));
    }
  }
  return absl::OkStatus();
}

bool isSingleDevice(const TensorSharding& sharding, const MeshTable& meshes) {
  // Without a maximal mesh in the table, only an inline mesh can be one.
  if (!meshes.hasMaximalMesh() && !sharding.mesh.inlineMesh()) return false;
  const Mesh* mesh = meshes.resolve(sharding);
  return mesh != nullptr && mesh->isMaximal();
}

bool anySingleDevice(absl::Span<const TensorSharding* const> shardings,
                     const MeshTable& meshes) {
  for (const TensorSharding* s : shardings) {
    if (s != nullptr && isSingleDevice(*s, meshes)) return true;
  }
  return false;
}

absl::StatusOr<bool> reshardSingleDeviceOp(
    Op op, absl::Span<const TensorSharding* const> results,
    const MeshTable& meshes, ReshardBuilder& builder) {
  const TensorSharding* found = nullptr;
  for (const TensorSharding* s : results) {
    if (s == nullptr || !isSingleDevice(*s, meshes)) continue;
    if (found && !sameDistribution(*found, *s)) {
      return opError(op, "has conflicting single-device result shardings");
    }
    found = s;
  }
  if (found == nullptr) return false;
  // A copy: the reshards below change the attributes `found` points into.
  const TensorSharding device = *found;
  std::optional<MeshOrRef> global = globalMesh(meshes);
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    Value operand = op.operand(i);
    if (!operand.type().isRankedTensor()) continue;
    MaybeSharding current = getSharding(operand);
    if (current && sameDistribution(*current, device)) continue;
    if (global) {
      TensorSharding replicated =
          TensorSharding::fullyClosed(*global, operand.type().rank());
      // Replicated on another mesh still has to move to the global one.
      if (current && !sameDistribution(*current, replicated)) {
        operand =
            builder.reshard(operand, replicated, op.location(), Before{op});
      }
    }
    op.setOperand(i,
                  builder.reshard(operand, device, op.location(), Before{op}));
  }
  After after{op};
  for (Value result : op.results()) {
    if (!result.type().isRankedTensor()) continue;
    MaybeSharding old = getSharding(result);
    if (old && sameDistribution(*old, device)) old.reset();
    Value moved = result;
    Op first;
    if (global) {
      moved = builder.reshard(
          moved, TensorSharding::fullyClosed(*global, result.type().rank()),
          op.location(), after);
      first = moved.definingOp();
    }
    if (old && !(global && isEquivalent(&*old, nullptr))) {
      moved = builder.reshard(moved, *old, op.location(), after);
      if (!first) first = moved.definingOp();
    }
    if (first) replaceUsesExcept(result, moved, first);
    setSharding(result, device);
  }
  return true;
}

}  // namespace shardkit::passes_internal
