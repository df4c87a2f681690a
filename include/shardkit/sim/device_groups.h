// Device groups of a mesh: which devices communicate in a collective over
// some mesh axes, and in what order. One routine for everything that moves
// shards between devices: the simulator's sdy collectives
// (sim/simulator.h), and the StableHLO collectives the interpreter runs
// (docs/interp.md) when their `replica_groups` are given by mesh axes
// (`#stablehlo.replica_group_mesh_axes`).
//
// A device's coordinate along a list of (sub-)axes reads each axis's digit
// of the device's mesh coordinates (sub-axis `"x":(p)s` is the middle digit
// of x's coordinate in radix [p, s, size(x) / (p * s)], most significant
// first) as one mixed-radix number, the first axis most significant. The
// devices that agree on every digit outside the axes form one group.
#ifndef SHARDKIT_SIM_DEVICE_GROUPS_H_
#define SHARDKIT_SIM_DEVICE_GROUPS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/mesh.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The devices of a mesh: ids in mesh order and each id's axis coordinates.
struct MeshDevices {
  std::vector<int64_t> ids;                  // by position
  std::vector<std::vector<int64_t>> coords;  // by id
  std::vector<bool> used;                    // by id
  int64_t id_bound = 0;                      // max id + 1

  // Fails for meshes of more than 2^16 devices, ids out of [0, 2^16) or
  // repeated ids.
  static absl::StatusOr<MeshDevices> of(const Mesh& mesh);
};

// Per device id, the ids of its group along `axes` in increasing order
// (empty for unused ids).
std::vector<std::vector<int64_t>> groupsAlong(absl::Span<const AxisRef> axes,
                                              const Mesh& mesh,
                                              const MeshDevices& devices);

// The coordinate of device `id` along `axes` (0 for the device at its
// group's origin).
int64_t coordinateAlong(absl::Span<const AxisRef> axes, const Mesh& mesh,
                        const MeshDevices& devices, int64_t id);

// The groups of a collective over `axes`, each once, each ordered by its
// devices' coordinate along `axes`, the groups in the order of their first
// devices in the mesh: StableHLO's replica groups of mesh axes, whose
// concatenations and splits follow this order. `axes` must be (sub-)axes of
// `mesh`.
absl::StatusOr<std::vector<std::vector<int64_t>>> collectiveGroups(
    absl::Span<const AxisRef> axes, const Mesh& mesh);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_SIM_DEVICE_GROUPS_H_
