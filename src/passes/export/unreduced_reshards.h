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

// When `target` only adds unreduced axes to `current` (out = in + r2u +
// s2u, same mesh, same reduction kind), how the value becomes so: per
// dimension, axes `current` has beyond `target` (a strict prefix of them)
// become sharded_to_unreduced when all of them are added axes; any other
// dimension change is a reshard first, keeping the rest of `current`; the
// added axes left are replicated_to_unreduced. Ops run reshard, r2u, s2u.

// Replaces `reshard` (an sdy.reshard) by those ops when its target adds
// unreduced axes that way; returns whether it did. Any other reshard (other
// meshes, unreduced axes dropped) is left to -sdy-reshard-to-collectives.
bool convertReshardToUnreducedCollectives(Op reshard, const MeshTable& meshes,
                                          ReshardBuilder& builder);

// Makes the operand of `use` (of sharding `current`) have the unreduced axes
// of `target` with those ops, right after the operand's definition when
// `after_operand`, else right before the user. Returns the operand's new
// sharding, or nullopt if nothing was needed.
std::optional<TensorSharding> insertUnreducedCollectives(
    OperandRef use, const TensorSharding& current, const TensorSharding& target,
    bool after_operand, const MeshTable& meshes, ReshardBuilder& builder);

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_EXPORT_UNREDUCED_RESHARDS_H_
