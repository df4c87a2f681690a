// Device arithmetic of a mesh for the partitioner: which shard along some
// axes a device holds, which devices a collective over some axes groups
// together, and a mesh's axes cut at the sub-axis boundaries a list uses.
//
// Devices are numbered by their ids: with a mesh's `device_ids`, device `d`
// sits at the position of `d` in that list; without, at position `d`. A
// position reads as mixed-radix coordinates over the mesh axes, the last axis
// minor, and a sub-axis `"x":(p)s` of an axis of size n is the coordinate
// (x / (n / (p * s))) % s of that axis.
#ifndef SHARDKIT_PARTITION_DEVICE_GROUPS_H_
#define SHARDKIT_PARTITION_DEVICE_GROUPS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::partition {

// The mesh's axes in mesh order, each cut into the sub-axes that the
// sub-axes among `axes` delimit (a full axis when none of them cuts it): the
// finest refs every axis of `axes` is a concatenation of.
AxisRefVector orderedAxisRefs(absl::Span<const AxisRef> axes, const Mesh& mesh);
// The same for the axes sharding the dimensions of `sharding` and its
// unreduced axes.
AxisRefVector orderedAxisRefs(const TensorSharding& sharding, const Mesh& mesh);

// The product of the sizes of `axes` in `mesh`.
int64_t totalAxesSize(absl::Span<const AxisRef> axes, const Mesh& mesh);

// The index of the shard device `device_id` holds along `axes`: its
// coordinates along them read as one mixed-radix number, the first axis
// major. In [0, totalAxesSize(axes)). Fails if the mesh has no such device.
absl::StatusOr<int64_t> shardIndex(int64_t device_id, const Mesh& mesh,
                                   absl::Span<const AxisRef> axes);

// The devices a collective over `axes` groups: every group holds the devices
// that agree on all coordinates outside `axes`. Groups are ordered by those
// other coordinates (mesh order, row-major); within a group devices are
// ordered by their coordinates along `axes` in the order of `axes` (the first
// major). Device ids are the mesh's.
struct ReplicaGroups {
  int64_t num_groups = 0;
  int64_t group_size = 0;
  std::vector<int64_t> ids;  // num_groups * group_size, group after group
};
ReplicaGroups replicaGroups(absl::Span<const AxisRef> axes, const Mesh& mesh);

}  // namespace shardkit::partition

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PARTITION_DEVICE_GROUPS_H_
