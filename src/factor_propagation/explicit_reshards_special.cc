// The two special cases of explicit reshards (see the header): reshapes whose
// axes overflow a factor, and the dot whose result alone is resharded in the
// non-full version.
#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

#include "shardkit/factor_propagation/explicit_reshards.h"

namespace shardkit {
namespace {

// The factors of `mapping`, dimension by dimension, major to minor.
std::vector<int64_t> flattenedFactors(const TensorMapping& mapping) {
  std::vector<int64_t> factors;
  for (const DimMapping& dim : mapping.dim_mappings) {
    factors.insert(factors.end(), dim.factor_indices.begin(),
                   dim.factor_indices.end());
  }
  return factors;
}

// `axes` handed out over `mapping`'s factors, axis by axis: each axis goes
// to the first factors with room for a part of it (their gcd), split into
// sub-axes where a factor takes only part of it; what no factor has room for
// goes to the last factor, which may be sharded unevenly.
TensorFactorShardings distributeAxes(const TensorFactorShardings& tensor,
                                     const TensorMapping& mapping,
                                     const OpShardingRule& rule, AxisSpan axes,
                                     const Mesh& mesh) {
  TensorFactorShardings result;
  result.factors.resize(rule.numFactors());
  result.replicated_axes = tensor.replicated_axes;
  result.unreduced_axes = tensor.unreduced_axes;
  result.unreduced_kind = tensor.unreduced_kind;
  std::vector<int64_t> order = flattenedFactors(mapping);
  std::vector<int64_t> room;
  for (int64_t f : order) {
    result.factors[f].mapped = true;
    room.push_back(rule.factor_sizes[f]);
  }
  for (size_t d = 0; d < mapping.dim_mappings.size(); ++d) {
    const std::vector<int64_t>& dim = mapping.dim_mappings[d].factor_indices;
    if (!dim.empty()) result.factors[dim.back()].is_minor_most = true;
  }
  for (const ResolvedAxis& axis : axes) {
    std::optional<ResolvedAxis> rest = axis;
    int64_t axis_size = mesh.axes[axis.axis].size;
    for (size_t i = 0; i < order.size() && rest; ++i) {
      int64_t common = std::gcd(rest->size, room[i]);
      if (common == 1) continue;
      addAxisOrMerge(
          result.factors[order[i]].axes,
          ResolvedAxis::subAxis(rest->axis, rest->pre_size, common, axis_size),
          mesh);
      room[i] /= common;
      if (common == rest->size) {
        rest.reset();
      } else {
        rest = ResolvedAxis::subAxis(rest->axis, rest->pre_size * common,
                                     rest->size / common, axis_size);
      }
    }
    if (rest && !order.empty()) {
      addAxisOrMerge(result.factors[order.back()].axes, *rest, mesh);
    }
  }
  return result;
}

}  // namespace

AxesPerFactor reshapeCommonAxes(const ShardingProjection& projection,
                                const OpShardingRule& rule, const Mesh& mesh) {
  const TensorFactorShardings& in = projection.operand(0);
  const TensorFactorShardings& out = projection.result(0);
  const TensorFactorShardings& preferred =
      in.shardingSize() >= out.shardingSize() ? in : out;
  AxisList all;
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    const FactorSharding* factor = preferred.find(f);
    if (factor == nullptr) continue;
    all.insert(all.end(), factor->axes.begin(), factor->axes.end());
    all.insert(all.end(), factor->overflow_axes.begin(),
               factor->overflow_axes.end());
  }
  const TensorMapping& in_mapping = rule.tensorMapping(0);
  const TensorMapping& out_mapping = rule.tensorMapping(1);
  MeshOrRef ref = MeshOrRef::ref("");
  TensorSharding in_sharding =
      distributeAxes(in, in_mapping, rule, all, mesh)
          .toTensorSharding(in_mapping, rule.factor_sizes, mesh, ref);
  TensorSharding out_sharding =
      distributeAxes(out, out_mapping, rule, all, mesh)
          .toTensorSharding(out_mapping, rule.factor_sizes, mesh, ref);
  // Projecting the two shardings back keeps only what both can express.
  const TensorSharding* operands[] = {&in_sharding};
  const TensorSharding* results[] = {&out_sharding};
  absl::StatusOr<ShardingProjection> legal =
      ShardingProjection::build(operands, results, rule, mesh);
  if (!legal.ok()) return AxesPerFactor(rule.numFactors());
  return legal->greatestCommonPrefixAxes();
}

bool reshardDotResultLikeOperands(ShardingProjection& projection,
                                  const OpShardingRule& rule,
                                  absl::Span<const int64_t> tensor_sizes) {
  if (projection.numOperands() != 2 || projection.numResults() != 1 ||
      tensor_sizes.size() != 3) {
    return false;
  }
  const TensorFactorShardings& lhs = projection.operand(0);
  const TensorFactorShardings& rhs = projection.operand(1);
  TensorFactorShardings& result = projection.mutableTensor(2);
  std::optional<int64_t> conflicting;
  AxisList conflicting_axes;
  AxisList reduction_axes;
  AxisList non_contracting_axes;
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    const FactorSharding* l = lhs.find(f);
    const FactorSharding* r = rhs.find(f);
    if (l == nullptr && r == nullptr) continue;
    const AxisList& operand_axes = l ? l->axes : r->axes;
    int64_t operand_size = 0;
    if (l && r) {
      // Batching or contracting: both operands must agree.
      if (l->axes != r->axes) return false;
      operand_size = std::max(tensor_sizes[0], tensor_sizes[1]);
      if (rule.factorType(f) == FactorType::kReduction) {
        reduction_axes.insert(reduction_axes.end(), operand_axes.begin(),
                              operand_axes.end());
        continue;
      }
    } else {
      operand_size = l ? tensor_sizes[0] : tensor_sizes[1];
      for (const ResolvedAxis& axis : operand_axes) {
        for (const ResolvedAxis& seen : non_contracting_axes) {
          if (overlaps(seen, axis)) return false;
        }
        non_contracting_axes.push_back(axis);
      }
    }
    const FactorSharding* in_result = result.find(f);
    if (in_result == nullptr) return false;
    if (in_result->axes == operand_axes) continue;
    if (operand_axes.empty() || conflicting || tensor_sizes[2] > operand_size) {
      return false;
    }
    conflicting = f;
    conflicting_axes = operand_axes;
  }
  if (!conflicting) return false;
  AxisList& result_axes = result.factors[*conflicting].axes;
  if (result_axes.empty() || result_axes != reduction_axes) return false;
  result_axes = conflicting_axes;
  return true;
}

}  // namespace shardkit
