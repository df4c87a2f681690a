// How -sdy-insert-explicit-reshards makes values unreduced: a reshard whose
// target adds unreduced axes becomes `sdy.replicated_to_unreduced` and
// `sdy.sharded_to_unreduced`, and a value flowing to a place that wants more
// unreduced axes (a return, a data-flow edge, a call) is made unreduced
// there (docs/export.md, "Explicit reshards"). Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_EXPORT_UNREDUCED_RESHARDS_H_
#define SHARDKIT_SRC_PASSES_EXPORT_UNREDUCED_RESHARDS_H_

#include <optional>

#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/graph.h"
#include "src/passes/export/reshard_builder.h"

namespace shardkit::passes_internal {

// If `reshard` (an sdy.reshard) only adds unreduced axes to its input's
// sharding, besides removing a suffix of some dimensions' axes, replaces it
// by a replicated_to_unreduced over the added axes that shard nothing, then
// a sharded_to_unreduced over the removed suffixes. Returns whether it did;
// any other reshard (other meshes, axes that move, unreduced axes dropped)
// is left to -sdy-reshard-to-collectives.
bool convertReshardToUnreducedCollectives(Op reshard, const MeshTable& meshes,
                                          ReshardBuilder& builder);

// If `target` has unreduced axes `current` (the sharding of the operand of
// `use`) lacks, makes the operand so: a reshard to the target's dimensions
// first when they differ, then a replicated_to_unreduced over the missing
// axes. The ops go right after the operand's definition when
// `after_operand`, else right before the user. Returns the operand's new
// sharding (the target), or nullopt if nothing was needed.
std::optional<TensorSharding> insertUnreducedCollectives(
    OperandRef use, const TensorSharding& current, const TensorSharding& target,
    bool after_operand, const MeshTable& meshes, ReshardBuilder& builder);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_EXPORT_UNREDUCED_RESHARDS_H_
