// Internal to the interp layer: the replica groups of
// `#stablehlo.replica_group_mesh_axes<mesh = ..., axes = [...]>`, by the
// device groups of sim/device_groups.h.
#ifndef SHARDKIT_SRC_INTERP_MESH_AXES_GROUPS_H_
#define SHARDKIT_SRC_INTERP_MESH_AXES_GROUPS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/ir/graph.h"

namespace shardkit::interp {

// The groups of device ids `attr` names when it is a
// `#stablehlo.replica_group_mesh_axes` (its mesh inline, a
// `#stablehlo.mesh<axes = [...], device_ids = ...>` or `#sdy.mesh<...>`, or a
// symbol of `op`'s module: an `sdy.mesh`), each group ordered by the
// devices' coordinate along the axes; nullopt for any other attribute.
absl::StatusOr<std::optional<std::vector<std::vector<int64_t>>>> meshAxesGroups(
    Op op, const Attribute& attr);

}  // namespace shardkit::interp

#endif  // SHARDKIT_SRC_INTERP_MESH_AXES_GROUPS_H_
