// Single devices in -sdy-insert-explicit-reshards: an op whose results live
// on one device (a sharding on a maximal mesh) runs there whole; a function's
// arguments and results may not live on one device. Internal to the passes
// layer.
#ifndef SHARDKIT_SRC_PASSES_EXPORT_SINGLE_DEVICE_RESHARDS_H_
#define SHARDKIT_SRC_PASSES_EXPORT_SINGLE_DEVICE_RESHARDS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/dialect/func/func_ops.h"
#include "src/passes/export/reshard_builder.h"

namespace shardkit::passes_internal {

// True if `sharding` is on a maximal mesh (one device, no axes).
bool isSingleDevice(const TensorSharding& sharding, const MeshTable& meshes);

// An error at `func` if one of its arguments or results is on a single
// device: they live on every device.
absl::Status checkNoSingleDeviceSignature(FuncOp func, const MeshTable& meshes);

// True if one of `shardings` (null: none) is on a single device.
bool anySingleDevice(absl::Span<const TensorSharding* const> shardings,
                     const MeshTable& meshes);

// If some result of `op` is on a single device, the op runs there whole: its
// operands are replicated on the global mesh (MeshTable::globalMeshName) and
// moved to the device; its results get the device's sharding and are moved
// back to the global mesh, replicated, and resharded to what they had.
// Returns whether `op` is such an op; results on two devices are an error.
// `results` are the shardings of the op's results (findSharding).
absl::StatusOr<bool> reshardSingleDeviceOp(
    Op op, absl::Span<const TensorSharding* const> results,
    const MeshTable& meshes, ReshardBuilder& builder);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_EXPORT_SINGLE_DEVICE_RESHARDS_H_
