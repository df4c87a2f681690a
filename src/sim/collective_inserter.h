// The core of reshard planning (step 4 of reshard_plan.h): starting from the
// current dimension axes, insert all_slice, collective_permute, all_to_all
// and all_gather until the target's dimension axes (and mesh) are reached.
#ifndef SHARDKIT_SRC_SIM_COLLECTIVE_INSERTER_H_
#define SHARDKIT_SRC_SIM_COLLECTIVE_INSERTER_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/sim/collectives.h"

namespace shardkit::sim_internal {

struct InserterInput {
  // The mesh both shardings' axes refer to.
  const Mesh* mesh = nullptr;
  // The current mesh and the one to end on (different only when the device
  // order changes).
  MeshOrRef current_mesh;
  MeshOrRef target_mesh;
  // Stay as they are throughout.
  AxisRefVector unreduced_axes;
  ReductionKind unreduced_kind = ReductionKind::kSum;
  std::vector<AxisRefVector> current_dims;
  std::vector<AxisRefVector> target_dims;
  // The tensor's static shape (consulted when slicing for an all_to_all).
  absl::Span<const int64_t> shape;
};

// Appends the collectives to `out`; false if the algorithm did not reach the
// target (what was appended is then meaningless).
bool insertCollectives(const InserterInput& input,
                       std::vector<Collective>& out);

}  // namespace shardkit::sim_internal

#endif  // SHARDKIT_SRC_SIM_COLLECTIVE_INSERTER_H_
