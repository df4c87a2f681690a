// The per-op propagation step: everything that happens for one op (or one
// data-flow edge, or a function result and its returned value) given its
// operand and result shardings and its sharding rule. Plain values in, plain
// values out: a compiler with its own IR calls this from its own worklist.
//
//   1. Project every sharding onto the rule's factors (a missing sharding is
//      fully open); with a user-priority round, dimensions of a later round
//      are closed and empty and their axes replicated.
//   2. Let the strategy expand the factor shardings, each factor in its
//      direction (blocked-propagation factors never propagate).
//   3. Project every expanded tensor back to dimensions. A tensor counts as
//      updated only if that gives a new sharding: not the same as before, and
//      not an empty one for a tensor that had none (e.g. when the only new
//      axes would need a strided view).
#ifndef SHARDKIT_FACTOR_PROPAGATION_PROPAGATE_OP_H_
#define SHARDKIT_FACTOR_PROPAGATION_PROPAGATE_OP_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/propagation_direction.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/factor_propagation/factor_propagation.h"
#include "shardkit/factor_propagation/sharding_projection.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The current shardings of an op's operands and results; null = none.
struct OpShardings {
  absl::Span<const TensorSharding* const> operands;
  absl::Span<const TensorSharding* const> results;
};

struct PropagateOpOptions {
  // The strategy; null means basicFactorPropagation().
  const FactorPropagation* strategy = nullptr;
  // The direction for all factors (e.g. a propagation barrier's).
  PropagationDirection direction = PropagationDirection::kBoth;
  // Optional, one per factor of the rule: further restricts each factor
  // (intersected with `direction`), e.g. from opPriorityDirection.
  absl::Span<const PropagationDirection> factor_directions;
  // Never propagate sub-axes.
  bool conservative = false;
  // The op is elementwise (used by the aggressive strategy).
  bool is_elementwise = false;
  // The current user-priority round, if propagating by user priorities.
  std::optional<int64_t> priority_round;
};

// A new sharding for one tensor; `tensor` counts operands first, then
// results.
struct ShardingUpdate {
  int64_t tensor = 0;
  TensorSharding sharding;
};

struct PropagateOpResult {
  int64_t num_operands = 0;
  // Ascending by tensor; empty if nothing changed.
  std::vector<ShardingUpdate> updates;

  bool anyUpdated() const { return !updates.empty(); }
  // The new sharding of operand/result `i`, or null if unchanged.
  const TensorSharding* operandUpdate(int64_t i) const;
  const TensorSharding* resultUpdate(int64_t i) const;
};

// Scratch memory a caller can keep across calls to avoid reallocating.
struct PropagationWorkspace {
  ShardingProjection projection;
  std::vector<PropagationDirection> directions;
};

// Propagates through one op in `mesh`; new shardings refer to `mesh_ref`.
// InvalidArgument if the shardings don't fit the rule (counts, ranks, axes
// not in `mesh`) or `factor_directions` has the wrong size.
absl::StatusOr<PropagateOpResult> propagateOpShardings(
    const OpShardings& shardings, const OpShardingRule& rule, const Mesh& mesh,
    const MeshOrRef& mesh_ref, const PropagateOpOptions& options = {},
    PropagationWorkspace* workspace = nullptr);

// Same, in the common mesh of the shardings (see findCommonMesh); nothing is
// updated if there is none.
absl::StatusOr<PropagateOpResult> propagateOpShardings(
    const OpShardings& shardings, const OpShardingRule& rule,
    const MeshTable& meshes, const PropagateOpOptions& options = {},
    PropagationWorkspace* workspace = nullptr);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_FACTOR_PROPAGATION_PROPAGATE_OP_H_
