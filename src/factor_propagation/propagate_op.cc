#include "shardkit/factor_propagation/propagate_op.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/factor_propagation/basic_factor_propagation.h"
#include "shardkit/factor_propagation/common_mesh.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

bool hasNoAxes(const TensorSharding& sharding) {
  if (!sharding.replicated_axes.empty() || !sharding.unreduced_axes.empty()) {
    return false;
  }
  return std::all_of(sharding.dim_shardings.begin(),
                     sharding.dim_shardings.end(),
                     [](const DimensionSharding& d) { return d.empty(); });
}

bool inRound(const DimensionSharding& dim, std::optional<int64_t> round) {
  return !round || dim.priorityOrDefault() <= *round;
}

// `sharding` as the projection saw it in round `round`: dimensions of later
// rounds closed and empty with their axes replicated, priorities dropped.
TensorSharding priorityView(const TensorSharding& sharding, int64_t round,
                            const Mesh& mesh) {
  TensorSharding view = sharding;
  bool moved = false;
  for (DimensionSharding& dim : view.dim_shardings) {
    if (!inRound(dim, round)) {
      moved = moved || !dim.axes.empty();
      view.replicated_axes.insert(view.replicated_axes.end(), dim.axes.begin(),
                                  dim.axes.end());
      dim = DimensionSharding::closed();
    }
    dim.priority.reset();
  }
  if (moved) {
    std::sort(view.replicated_axes.begin(), view.replicated_axes.end(),
              MeshAxisLess(mesh));
  }
  return view;
}

// The new sharding of a tensor whose projection was expanded, or nullopt if
// it doesn't change anything.
std::optional<TensorSharding> newSharding(const TensorSharding* old,
                                          TensorSharding projected,
                                          std::optional<int64_t> round,
                                          const Mesh& mesh) {
  if (old == nullptr) {
    if (hasNoAxes(projected)) return std::nullopt;
    return projected;
  }
  if (!round) {
    if (projected == *old) return std::nullopt;
    return projected;
  }
  if (projected == priorityView(*old, *round, mesh)) return std::nullopt;
  // Dimensions of later rounds and the replicated axes stay as they were.
  for (int64_t d = 0; d < old->rank(); ++d) {
    const DimensionSharding& dim = old->dim_shardings[d];
    if (!inRound(dim, round)) projected.dim_shardings[d] = dim;
  }
  projected.replicated_axes = old->replicated_axes;
  return projected;
}

absl::Status fillDirections(const OpShardingRule& rule,
                            const PropagateOpOptions& options,
                            std::vector<PropagationDirection>& directions) {
  if (!options.factor_directions.empty() &&
      static_cast<int64_t>(options.factor_directions.size()) !=
          rule.numFactors()) {
    return absl::InvalidArgumentError(toAbsl(strCat(
        "got ", options.factor_directions.size(),
        " factor directions for a rule with ", rule.numFactors(), " factors")));
  }
  directions.assign(rule.numFactors(), options.direction);
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    if (!options.factor_directions.empty()) {
      directions[f] = intersect(directions[f], options.factor_directions[f]);
    }
  }
  for (int64_t f : rule.blocked_propagation_factors) {
    if (f < 0 || f >= rule.numFactors()) {
      return absl::InvalidArgumentError(toAbsl(strCat(
          "blocked factor ", f, " out of range [0, ", rule.numFactors(), ")")));
    }
    directions[f] = PropagationDirection::kNone;
  }
  return absl::OkStatus();
}

}  // namespace

const TensorSharding* PropagateOpResult::operandUpdate(int64_t i) const {
  for (const ShardingUpdate& update : updates) {
    if (update.tensor == i) return &update.sharding;
  }
  return nullptr;
}

const TensorSharding* PropagateOpResult::resultUpdate(int64_t i) const {
  return operandUpdate(num_operands + i);
}

absl::StatusOr<PropagateOpResult> propagateOpShardings(
    const OpShardings& shardings, const OpShardingRule& rule, const Mesh& mesh,
    const MeshOrRef& mesh_ref, const PropagateOpOptions& options,
    PropagationWorkspace* workspace) {
  PropagationWorkspace local;
  PropagationWorkspace& ws = workspace != nullptr ? *workspace : local;
  ProjectionOptions projection_options;
  projection_options.priority_round = options.priority_round;
  SK_RETURN_IF_ERROR(ws.projection.assign(shardings.operands, shardings.results,
                                          rule, mesh, projection_options));
  SK_RETURN_IF_ERROR(fillDirections(rule, options, ws.directions));

  const FactorPropagation& strategy = options.strategy != nullptr
                                          ? *options.strategy
                                          : basicFactorPropagation();
  FactorPropagationOptions strategy_options;
  strategy_options.conservative = options.conservative;
  strategy_options.is_elementwise = options.is_elementwise;
  TensorFlags expanded = strategy.propagate(
      ws.projection, ws.directions, rule.factor_sizes, mesh, strategy_options);

  PropagateOpResult result;
  result.num_operands = rule.numOperands();
  for (int64_t t = 0; t < rule.numTensors(); ++t) {
    if (!expanded[t]) continue;
    const TensorSharding* old = t < rule.numOperands()
                                    ? shardings.operands[t]
                                    : shardings.results[t - rule.numOperands()];
    std::optional<TensorSharding> updated = newSharding(
        old,
        ws.projection.tensor(t).toTensorSharding(
            rule.tensorMapping(t), rule.factor_sizes, mesh, mesh_ref),
        options.priority_round, mesh);
    if (updated) result.updates.push_back({t, *std::move(updated)});
  }
  return result;
}

absl::StatusOr<PropagateOpResult> propagateOpShardings(
    const OpShardings& shardings, const OpShardingRule& rule,
    const MeshTable& meshes, const PropagateOpOptions& options,
    PropagationWorkspace* workspace) {
  SK_ASSIGN_OR_RETURN(
      std::optional<CommonMesh> common,
      findCommonMesh(shardings.operands, shardings.results, meshes));
  if (!common) {
    PropagateOpResult result;
    result.num_operands = rule.numOperands();
    return result;
  }
  return propagateOpShardings(shardings, rule, *common->mesh,
                              common->mesh_or_ref, options, workspace);
}

}  // namespace shardkit
