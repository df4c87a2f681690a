#include "shardkit/factor_propagation/sharding_projection.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

absl::Status invalid(const std::string& message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// Mesh order: by axis, a sub-axis before the full axis, sub-axes by
// (pre-size, size). The canonical order of replicated axes.
bool meshOrderLess(const ResolvedAxis& a, const ResolvedAxis& b) {
  if (a.axis != b.axis) return a.axis < b.axis;
  if (a.full != b.full) return !a.full;
  return std::pair(a.pre_size, a.size) < std::pair(b.pre_size, b.size);
}

// Walks the axes of one dimension sharding, handing out whole axes or
// sub-axis pieces of them.
class AxisCursor {
 public:
  explicit AxisCursor(AxisSpan axes) : axes_(axes) {
    if (!axes_.empty()) current_ = axes_[0];
  }
  bool done() const { return index_ >= axes_.size(); }
  // What is left of the current axis.
  const ResolvedAxis& current() const { return current_; }
  // Takes the whole remainder of the current axis.
  ResolvedAxis take() {
    ResolvedAxis piece = current_;
    if (++index_ < axes_.size()) current_ = axes_[index_];
    return piece;
  }
  // Takes the major `size` part of the current axis (a proper divisor).
  ResolvedAxis split(int64_t size) {
    ResolvedAxis piece{current_.axis, false, current_.pre_size, size};
    current_.full = false;
    current_.pre_size *= size;
    current_.size /= size;
    return piece;
  }
  // Appends everything left to `out`, merging consecutive sub-axes.
  void takeRest(AxisList& out, const Mesh& mesh) {
    while (!done()) addAxisOrMerge(out, take(), mesh);
  }

 private:
  AxisSpan axes_;
  size_t index_ = 0;
  ResolvedAxis current_;
};

// Projects the axes of one dimension onto its factors (see the header).
void projectDimension(AxisSpan dim_axes, const DimMapping& mapping,
                      bool is_closed, absl::Span<const int64_t> factor_sizes,
                      const Mesh& mesh, TensorFactorShardings& tensor) {
  AxisCursor cursor(dim_axes);
  bool has_overflow = false;
  const std::vector<int64_t>& factors = mapping.factor_indices;
  for (size_t k = 0; k < factors.size(); ++k) {
    FactorSharding& factor = tensor.factors[factors[k]];
    factor.mapped = true;
    factor.is_minor_most = k + 1 == factors.size();
    if (has_overflow) {
      // Only the factor right after the overflow is recorded (closed); the
      // reference stops the walk there, so later factors stay unmapped.
      factor.is_closed = true;
      break;
    }
    factor.is_closed = is_closed;
    if (factor.is_minor_most) {
      // The minor-most factor may be sharded non-divisibly (with padding).
      cursor.takeRest(factor.axes, mesh);
      break;
    }
    int64_t remaining = factor_sizes[factors[k]];
    while (!cursor.done()) {
      int64_t axis_size = cursor.current().size;
      if (axis_size == 1) {
        factor.axes.push_back(cursor.take());
        continue;
      }
      int64_t gcd = std::gcd(remaining, axis_size);
      if (gcd == 1) break;
      factor.axes.push_back(axis_size > gcd ? cursor.split(gcd)
                                            : cursor.take());
      remaining /= gcd;
    }
    if (remaining > 1 && !cursor.done()) {
      has_overflow = true;
      cursor.takeRest(factor.overflow_axes, mesh);
    }
  }
}

void resetTensor(TensorFactorShardings& tensor, int64_t num_factors) {
  tensor.clearAxisIndex();
  tensor.factors.resize(num_factors);
  for (FactorSharding& factor : tensor.factors) {
    factor.axes.clear();
    factor.overflow_axes.clear();
    factor.is_closed = false;
    factor.is_minor_most = false;
    factor.mapped = false;
  }
  tensor.replicated_axes.clear();
  tensor.unreduced_axes.clear();
  tensor.unreduced_kind = ReductionKind::kSum;
}

absl::Status checkMapping(const TensorMapping& mapping, int64_t num_factors) {
  for (const DimMapping& dim : mapping.dim_mappings) {
    for (int64_t factor : dim.factor_indices) {
      if (factor < 0 || factor >= num_factors) {
        return invalid(strCat("factor index ", factor, " out of range [0, ",
                              num_factors, ")"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status buildTensor(const TensorSharding* sharding,
                         const TensorMapping& mapping,
                         const OpShardingRule& rule, const Mesh& mesh,
                         const ProjectionOptions& options,
                         TensorFactorShardings& tensor) {
  resetTensor(tensor, rule.numFactors());
  SK_RETURN_IF_ERROR(checkMapping(mapping, rule.numFactors()));
  if (sharding != nullptr && sharding->rank() != mapping.rank()) {
    return invalid(strCat("sharding ", toString(*sharding), " has rank ",
                          sharding->rank(), " but the rule maps ",
                          mapping.rank(), " dimensions"));
  }
  AxisList dim_axes;
  bool moved_to_replicated = false;
  for (int64_t d = 0; d < mapping.rank(); ++d) {
    bool is_closed = options.closed_if_missing;
    dim_axes.clear();
    if (sharding != nullptr) {
      const DimensionSharding& dim = sharding->dim_shardings[d];
      SK_RETURN_IF_ERROR(resolveAxes(dim.axes, mesh, dim_axes));
      is_closed = dim.is_closed;
      if (options.priority_round &&
          dim.priorityOrDefault() > *options.priority_round) {
        // Not this round: closed and empty, its axes replicated.
        tensor.replicated_axes.insert(tensor.replicated_axes.end(),
                                      dim_axes.begin(), dim_axes.end());
        moved_to_replicated = moved_to_replicated || !dim_axes.empty();
        dim_axes.clear();
        is_closed = true;
      }
    }
    projectDimension(dim_axes, mapping.dim_mappings[d], is_closed,
                     rule.factor_sizes, mesh, tensor);
  }
  if (sharding == nullptr) return absl::OkStatus();
  AxisList extra;
  SK_RETURN_IF_ERROR(resolveAxes(sharding->replicated_axes, mesh, extra));
  tensor.replicated_axes.insert(tensor.replicated_axes.end(), extra.begin(),
                                extra.end());
  if (moved_to_replicated) {
    std::sort(tensor.replicated_axes.begin(), tensor.replicated_axes.end(),
              meshOrderLess);
  }
  SK_RETURN_IF_ERROR(
      resolveAxes(sharding->unreduced_axes, mesh, tensor.unreduced_axes));
  tensor.unreduced_kind = sharding->unreduced_kind;
  return absl::OkStatus();
}

// Appends `axes` to a dimension's axes, merging at the junction; returns the
// product of their sizes.
int64_t appendFactorAxes(AxisList& dim_axes, AxisSpan axes, const Mesh& mesh) {
  int64_t size = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    size *= axes[i].size;
    if (i == 0) {
      addAxisOrMerge(dim_axes, axes[i], mesh);
    } else {
      dim_axes.push_back(axes[i]);
    }
  }
  return size;
}

std::optional<ResolvedAxis> greatestCommonPrefix(const ResolvedAxis& a,
                                                 const ResolvedAxis& b) {
  if (!canCoexist(a, b)) return std::nullopt;
  if (isPrefixOf(a, b)) return a;
  if (isPrefixOf(b, a)) return b;
  return std::nullopt;
}

void truncateToCommonPrefix(AxisList& axes, AxisSpan other) {
  size_t i = 0;
  for (; i < axes.size() && i < other.size(); ++i) {
    if (axes[i] == other[i]) continue;
    std::optional<ResolvedAxis> prefix =
        greatestCommonPrefix(axes[i], other[i]);
    if (prefix) axes[i++] = *prefix;
    break;
  }
  axes.resize(i);
}

}  // namespace

bool TensorFactorShardings::expandShardingAxes(int64_t factor,
                                               AxisSpan new_axes) {
  FactorSharding* sharding = find(factor);
  if (sharding == nullptr || !isStrictPrefix(sharding->axes, new_axes)) {
    return false;
  }
  size_t old_size = sharding->axes.size();
  sharding->axes.assign(new_axes.begin(), new_axes.end());
  if (factors_by_axis_) {
    for (size_t i = old_size; i < new_axes.size(); ++i) {
      std::vector<int64_t>& users = (*factors_by_axis_)[new_axes[i].axis];
      auto it = std::lower_bound(users.begin(), users.end(), factor);
      if (it == users.end() || *it != factor) users.insert(it, factor);
    }
  }
  return true;
}

const std::vector<int64_t>* TensorFactorShardings::factorsUsingAxis(
    int32_t axis) const {
  constexpr size_t kScanLimit = 16;
  if (factors.size() <= kScanLimit) return nullptr;
  if (!factors_by_axis_) {
    factors_by_axis_.emplace();
    for (size_t f = 0; f < factors.size(); ++f) {
      if (!factors[f].mapped) continue;
      for (const AxisList* list :
           {&factors[f].overflow_axes, &factors[f].axes}) {
        for (const ResolvedAxis& a : *list) {
          std::vector<int64_t>& users = (*factors_by_axis_)[a.axis];
          if (users.empty() || users.back() != static_cast<int64_t>(f)) {
            users.push_back(static_cast<int64_t>(f));
          }
        }
      }
    }
  }
  static const std::vector<int64_t> kNone;
  auto it = factors_by_axis_->find(axis);
  return it == factors_by_axis_->end() ? &kNone : &it->second;
}

bool TensorFactorShardings::updateShardingAxes(int64_t factor,
                                               AxisSpan new_axes,
                                               AxisSpan new_overflow_axes) {
  FactorSharding* sharding = find(factor);
  if (sharding == nullptr) return false;
  if (AxisSpan(sharding->axes) == new_axes &&
      AxisSpan(sharding->overflow_axes) == new_overflow_axes) {
    return false;
  }
  sharding->axes.assign(new_axes.begin(), new_axes.end());
  sharding->overflow_axes.assign(new_overflow_axes.begin(),
                                 new_overflow_axes.end());
  clearAxisIndex();
  return true;
}

TensorSharding TensorFactorShardings::toTensorSharding(
    const TensorMapping& mapping, absl::Span<const int64_t> factor_sizes,
    const Mesh& mesh, const MeshOrRef& mesh_ref) const {
  std::vector<DimensionSharding> dims;
  dims.reserve(mapping.dim_mappings.size());
  AxisList dim_axes;
  for (const DimMapping& dim : mapping.dim_mappings) {
    dim_axes.clear();
    bool is_closed = false;
    for (int64_t factor : dim.factor_indices) {
      const FactorSharding& sharding = factors[factor];
      if (!sharding.mapped) break;  // Only after an overflow, see build.
      is_closed = is_closed || sharding.is_closed;
      int64_t sharded_size = appendFactorAxes(dim_axes, sharding.axes, mesh);
      if (!sharding.overflow_axes.empty()) {
        // The overflow axes end the dimension.
        appendFactorAxes(dim_axes, sharding.overflow_axes, mesh);
        break;
      }
      // A factor that isn't fully sharded ends the dimension: sharding a
      // later factor would need a strided view.
      if (sharded_size < factor_sizes[factor]) break;
    }
    dims.emplace_back(toAxisRefs(dim_axes, mesh), is_closed);
  }
  TensorSharding result(mesh_ref, std::move(dims),
                        toAxisRefs(replicated_axes, mesh),
                        toAxisRefs(unreduced_axes, mesh));
  result.unreduced_kind = unreduced_kind;
  return result;
}

int64_t TensorFactorShardings::shardingSize() const {
  int64_t size = 1;
  for (const FactorSharding& factor : factors) {
    if (!factor.mapped) continue;
    size *= totalSize(factor.axes) * totalSize(factor.overflow_axes);
  }
  return size;
}

absl::StatusOr<ShardingProjection> ShardingProjection::build(
    absl::Span<const TensorSharding* const> operands,
    absl::Span<const TensorSharding* const> results, const OpShardingRule& rule,
    const Mesh& mesh, const ProjectionOptions& options) {
  ShardingProjection projection;
  SK_RETURN_IF_ERROR(projection.assign(operands, results, rule, mesh, options));
  return projection;
}

absl::Status ShardingProjection::assign(
    absl::Span<const TensorSharding* const> operands,
    absl::Span<const TensorSharding* const> results, const OpShardingRule& rule,
    const Mesh& mesh, const ProjectionOptions& options) {
  if (static_cast<int64_t>(operands.size()) != rule.numOperands() ||
      static_cast<int64_t>(results.size()) != rule.numResults()) {
    return invalid(strCat("the rule has ", rule.numOperands(), " operands and ",
                          rule.numResults(), " results, got ", operands.size(),
                          " and ", results.size(), " shardings"));
  }
  for (int64_t size : rule.factor_sizes) {
    if (size < 0) return invalid(strCat("negative factor size ", size));
  }
  num_operands_ = rule.numOperands();
  num_factors_ = rule.numFactors();
  tensors_.resize(rule.numTensors());
  for (int64_t t = 0; t < rule.numTensors(); ++t) {
    const TensorSharding* sharding =
        t < num_operands_ ? operands[t] : results[t - num_operands_];
    absl::Status status = buildTensor(sharding, rule.tensorMapping(t), rule,
                                      mesh, options, tensors_[t]);
    if (!status.ok()) {
      return invalid(strCat(t < num_operands_ ? "operand " : "result ",
                            t < num_operands_ ? t : t - num_operands_, ": ",
                            fromAbsl(status.message())));
    }
  }
  return absl::OkStatus();
}

ShardingProjection ShardingProjection::fromAxesPerFactor(
    absl::Span<const AxisList> axes_per_factor, const OpShardingRule& rule) {
  ShardingProjection projection;
  projection.num_operands_ = rule.numOperands();
  projection.num_factors_ = rule.numFactors();
  projection.tensors_.resize(rule.numTensors());
  for (int64_t t = 0; t < rule.numTensors(); ++t) {
    TensorFactorShardings& tensor = projection.tensors_[t];
    resetTensor(tensor, rule.numFactors());
    for (const DimMapping& dim : rule.tensorMapping(t).dim_mappings) {
      for (size_t k = 0; k < dim.factor_indices.size(); ++k) {
        FactorSharding& factor = tensor.factors[dim.factor_indices[k]];
        factor.mapped = true;
        factor.is_closed = true;
        factor.is_minor_most = k + 1 == dim.factor_indices.size();
        factor.axes = axes_per_factor[dim.factor_indices[k]];
      }
    }
  }
  return projection;
}

TensorFlags ShardingProjection::expandSharding(int64_t factor,
                                               AxisSpan new_axes) {
  TensorFlags changed(tensors_.size(), false);
  for (size_t t = 0; t < tensors_.size(); ++t) {
    changed[t] = tensors_[t].expandShardingAxes(factor, new_axes);
  }
  return changed;
}

TensorFlags ShardingProjection::updateSharding(int64_t factor,
                                               AxisSpan new_axes,
                                               AxisSpan new_overflow_axes) {
  TensorFlags changed(tensors_.size(), false);
  for (size_t t = 0; t < tensors_.size(); ++t) {
    changed[t] =
        tensors_[t].updateShardingAxes(factor, new_axes, new_overflow_axes);
  }
  return changed;
}

std::vector<AxisList> ShardingProjection::greatestCommonPrefixAxes() const {
  std::vector<AxisList> result(num_factors_);
  std::vector<bool> seen(num_factors_, false);
  for (const TensorFactorShardings& tensor : tensors_) {
    for (int64_t f = 0; f < num_factors_; ++f) {
      const FactorSharding* factor = tensor.find(f);
      if (factor == nullptr) continue;
      if (!seen[f]) {
        result[f] = factor->axes;
        seen[f] = true;
      } else {
        truncateToCommonPrefix(result[f], factor->axes);
      }
    }
  }
  return result;
}

TensorFlags ShardingProjection::tensorsWithOverflowAxes() const {
  TensorFlags flags(tensors_.size(), false);
  for (size_t t = 0; t < tensors_.size(); ++t) {
    for (const FactorSharding& factor : tensors_[t].factors) {
      if (factor.mapped && !factor.overflow_axes.empty()) flags[t] = true;
    }
  }
  return flags;
}

std::string toString(const ShardingProjection& projection, const Mesh& mesh) {
  std::string out;
  for (int64_t t = 0; t < projection.numTensors(); ++t) {
    const TensorFactorShardings& tensor = projection.tensor(t);
    strAppend(out, "T", t, ":");
    for (int64_t f = 0; f < projection.numFactors(); ++f) {
      const FactorSharding* factor = tensor.find(f);
      strAppend(out, " ", factorSymbol(f), "=");
      if (factor == nullptr) {
        out += "-";
        continue;
      }
      out += toString(factor->axes, mesh);
      if (!factor->overflow_axes.empty()) {
        strAppend(out, "+overflow", toString(factor->overflow_axes, mesh));
      }
      if (factor->is_closed) out += "(closed)";
    }
    strAppend(out, " | replicated=", toString(tensor.replicated_axes, mesh));
    if (!tensor.unreduced_axes.empty()) {
      strAppend(out, " unreduced=", toString(tensor.unreduced_axes, mesh));
    }
    out += "\n";
  }
  return out;
}

}  // namespace shardkit
