// findCommonAxes: one sharding per factor for an op that needs reshards (see
// the header). The greedy search keeps a bag of candidates (factor, axes)
// and, after each pick, cuts back or drops the candidates the pick conflicts
// with and re-ranks the rest.
#include "shardkit/factor_propagation/explicit_reshards.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>

namespace shardkit {
namespace {

bool tensorIsScalar(const OpShardingRule& rule, int64_t tensor) {
  return rule.tensorMapping(tensor).rank() == 0;
}

bool isFactorInAllNonScalarTensors(const OpShardingRule& rule, int64_t factor) {
  for (int64_t t = 0; t < rule.numTensors(); ++t) {
    if (tensorIsScalar(rule, t)) continue;
    if (!rule.tensorMapping(t).containsFactor(factor)) return false;
  }
  return true;
}

bool hasDimensionsWithMultipleFactors(const OpShardingRule& rule) {
  for (int64_t t = 0; t < rule.numTensors(); ++t) {
    for (const DimMapping& dim : rule.tensorMapping(t).dim_mappings) {
      if (dim.factor_indices.size() > 1) return true;
    }
  }
  return false;
}

std::vector<int64_t> nonScalarTensors(const OpShardingRule& rule) {
  std::vector<int64_t> tensors;
  for (int64_t t = 0; t < rule.numTensors(); ++t) {
    if (!tensorIsScalar(rule, t)) tensors.push_back(t);
  }
  return tensors;
}

// Ranks factor kinds for candidates of equal source size.
int64_t precedence(FactorType type) {
  switch (type) {
    case FactorType::kPassThrough:
      return 3;
    case FactorType::kReduction:
      return 2;
    case FactorType::kPermutation:
      return 1;
    case FactorType::kNeedReplication:
      return 0;
  }
  return 0;
}

// Orders axis lists as the reference does for its final tie-break: shorter
// lists first, then axis by axis by name, then by sub-axis position.
struct AxisListLess {
  const Mesh* mesh;
  bool operator()(AxisSpan a, AxisSpan b) const {
    if (a.size() != b.size()) return a.size() < b.size();
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] == b[i]) continue;
      std::string_view an = mesh->axes[a[i].axis].name;
      std::string_view bn = mesh->axes[b[i].axis].name;
      if (an != bn) return an < bn;
      return std::tie(a[i].pre_size, a[i].size) <
             std::tie(b[i].pre_size, b[i].size);
    }
    return false;
  }
};

struct Candidate {
  int64_t factor = -1;
  AxisList axes;
  int64_t total_source_size = 0;
  int64_t largest_local_source_size = 0;
  int64_t sharding_size = 0;
  int64_t precedence = 0;
};

// Whether `a` ranks below `b`.
bool ranksBelow(const Candidate& a, const Candidate& b, const Mesh& mesh) {
  auto key = [](const Candidate& c) {
    return std::make_tuple(c.total_source_size, c.precedence,
                           c.largest_local_source_size, c.sharding_size);
  };
  if (key(a) != key(b)) return key(a) < key(b);
  if (a.factor != b.factor) return a.factor < b.factor;
  return AxisListLess{&mesh}(a.axes, b.axes);
}

class CandidateBag {
 public:
  CandidateBag(const OpShardingRule& rule, const Mesh& mesh) : mesh_(mesh) {
    // A factor that follows another in some dimension depends on it.
    blockers_.assign(rule.numFactors(), {});
    for (int64_t t = 0; t < rule.numTensors(); ++t) {
      for (const DimMapping& dim : rule.tensorMapping(t).dim_mappings) {
        for (size_t i = 1; i < dim.factor_indices.size(); ++i) {
          std::vector<int64_t>& list = blockers_[dim.factor_indices[i]];
          int64_t before = dim.factor_indices[i - 1];
          if (std::find(list.begin(), list.end(), before) == list.end()) {
            list.push_back(before);
          }
        }
      }
    }
  }

  std::vector<Candidate>& candidates() { return candidates_; }
  const std::optional<Candidate>& best() const { return best_; }
  void resetBest() { best_.reset(); }

  // The factor is fully sharded: factors after it may now be sharded.
  void unblock(int64_t factor) {
    for (std::vector<int64_t>& list : blockers_) {
      list.erase(std::remove(list.begin(), list.end(), factor), list.end());
    }
  }

  void consider(const Candidate& candidate) {
    if (!blockers_[candidate.factor].empty()) return;
    if (!best_ || ranksBelow(*best_, candidate, mesh_)) best_ = candidate;
  }

  void removeAt(size_t index) {
    candidates_[index] = std::move(candidates_.back());
    candidates_.pop_back();
  }

 private:
  const Mesh& mesh_;
  std::vector<std::vector<int64_t>> blockers_;
  std::vector<Candidate> candidates_;
  std::optional<Candidate> best_;
};

void collectCandidates(const ShardingProjection& projection,
                       const OpShardingRule& rule,
                       absl::Span<const int64_t> tensor_sizes,
                       CandidateBag& bag) {
  std::vector<Candidate>& out = bag.candidates();
  for (int64_t t = 0; t < projection.numTensors(); ++t) {
    const TensorFactorShardings& tensor = projection.tensor(t);
    for (int64_t f = 0; f < projection.numFactors(); ++f) {
      const FactorSharding* sharding = tensor.find(f);
      if (sharding == nullptr) continue;
      for (size_t n = sharding->axes.size(); n > 0; --n) {
        AxisSpan prefix = AxisSpan(sharding->axes).subspan(0, n);
        auto it = std::find_if(out.begin(), out.end(), [&](const Candidate& c) {
          return c.factor == f && AxisSpan(c.axes) == prefix;
        });
        if (it != out.end()) {
          it->total_source_size += tensor_sizes[t];
          it->largest_local_source_size =
              std::max(it->largest_local_source_size, tensor_sizes[t]);
          continue;
        }
        Candidate c;
        c.factor = f;
        c.axes.assign(prefix.begin(), prefix.end());
        c.total_source_size = tensor_sizes[t];
        c.largest_local_source_size = tensor_sizes[t];
        c.sharding_size = totalSize(prefix);
        c.precedence = precedence(rule.factorType(f));
        out.push_back(std::move(c));
      }
    }
  }
  for (const Candidate& c : out) bag.consider(c);
}

// Recomputes, for every candidate, the largest local size (under the
// assignment so far) of a tensor that maps its factor, and the best.
void updateLocalSourceSizes(const ShardingProjection& projection,
                            absl::Span<const int64_t> tensor_sizes,
                            const AxesPerFactor& assigned, CandidateBag& bag) {
  std::vector<Candidate>& candidates = bag.candidates();
  for (Candidate& c : candidates) c.largest_local_source_size = 0;
  for (int64_t t = 0; t < projection.numTensors(); ++t) {
    const TensorFactorShardings& tensor = projection.tensor(t);
    int64_t local_size = tensor_sizes[t];
    for (int64_t f = 0; f < projection.numFactors(); ++f) {
      if (tensor.find(f) != nullptr) local_size /= totalSize(assigned[f]);
    }
    for (Candidate& c : candidates) {
      if (tensor.find(c.factor) == nullptr) continue;
      c.largest_local_source_size =
          std::max(c.largest_local_source_size, local_size);
    }
  }
  bag.resetBest();
  for (const Candidate& c : candidates) bag.consider(c);
}

// After `picked` is assigned, drops the candidates that can no longer extend
// their factor's assignment and cuts back those that overlap it.
void pruneCandidates(const Candidate& picked, const AxesPerFactor& assigned,
                     CandidateBag& bag) {
  std::vector<Candidate>& candidates = bag.candidates();
  size_t i = 0;
  while (i < candidates.size()) {
    Candidate& c = candidates[i];
    if (c.factor == picked.factor) {
      if (!isStrictPrefix(picked.axes, c.axes)) {
        bag.removeAt(i);
        continue;
      }
      c.sharding_size = totalSize(c.axes) / totalSize(picked.axes);
    } else if (truncateAtOverlap(c.axes, picked.axes)) {
      const AxisList& current = assigned[c.factor];
      if (c.axes == current) {
        bag.removeAt(i);
        continue;
      }
      c.sharding_size = totalSize(c.axes) / totalSize(current);
    } else {
      c.sharding_size = totalSize(c.axes);
    }
    ++i;
  }
}

AxesPerFactor greedyCommonAxes(const ShardingProjection& projection,
                               const OpShardingRule& rule,
                               absl::Span<const int64_t> tensor_sizes,
                               const Mesh& mesh) {
  AxesPerFactor assigned(rule.numFactors());
  CandidateBag bag(rule, mesh);
  collectCandidates(projection, rule, tensor_sizes, bag);
  while (bag.best()) {
    Candidate picked = *bag.best();
    assigned[picked.factor] = picked.axes;
    if (totalSize(picked.axes) == rule.factor_sizes[picked.factor]) {
      bag.unblock(picked.factor);
    }
    pruneCandidates(picked, assigned, bag);
    updateLocalSourceSizes(projection, tensor_sizes, assigned, bag);
  }
  return assigned;
}

bool hasShardedPermutationFactor(const TensorFactorShardings& tensor,
                                 const OpShardingRule& rule) {
  for (int64_t f : rule.permutation_factors) {
    const FactorSharding* sharding = tensor.find(f);
    if (sharding != nullptr && !sharding->axes.empty()) return true;
  }
  return false;
}

// The op has two non-scalar tensors: keep one's factor shardings whole.
AxesPerFactor unaryCommonAxes(const ShardingProjection& projection,
                              const OpShardingRule& rule,
                              absl::Span<const int64_t> tensor_sizes) {
  std::vector<int64_t> tensors = nonScalarTensors(rule);
  auto preference = [&](int64_t t) {
    const TensorFactorShardings& tensor = projection.tensor(t);
    return std::make_tuple(!hasShardedPermutationFactor(tensor, rule),
                           tensor_sizes[t], tensor.shardingSize());
  };
  int64_t preferred = tensors[0];
  int64_t other = tensors[1];
  if (preference(preferred) < preference(other)) std::swap(preferred, other);

  AxesPerFactor result(rule.numFactors());
  AxisList preferred_axes;
  const TensorFactorShardings& first = projection.tensor(preferred);
  for (int64_t f = 0; f < projection.numFactors(); ++f) {
    if (const FactorSharding* sharding = first.find(f)) {
      result[f] = sharding->axes;
      preferred_axes.insert(preferred_axes.end(), sharding->axes.begin(),
                            sharding->axes.end());
    }
  }
  const TensorFactorShardings& second = projection.tensor(other);
  for (int64_t f = 0; f < projection.numFactors(); ++f) {
    const FactorSharding* sharding = second.find(f);
    if (sharding == nullptr || first.find(f) != nullptr) continue;
    result[f] = sharding->axes;
    truncateAtOverlap(result[f], preferred_axes);
  }
  return result;
}

// Appends the leading axes of `axes` to the batching factors, each to the
// first factor with room for it, while they divide what is left.
void distributeToBatchingFactors(AxisSpan axes, const OpShardingRule& rule,
                                 const Mesh& mesh, AxesPerFactor& result) {
  for (int64_t f : batchingFactors(rule)) {
    int64_t factor_size = rule.factor_sizes[f];
    if (factor_size == 0) continue;
    int64_t sharded = totalSize(result[f]);
    if (factor_size % sharded != 0) continue;
    int64_t capacity = factor_size / sharded;
    while (!axes.empty() && capacity % axes.front().size == 0) {
      addAxisOrMerge(result[f], axes.front(), mesh);
      capacity /= axes.front().size;
      axes.remove_prefix(1);
    }
    if (axes.empty()) return;
  }
}

}  // namespace

bool truncateAtOverlap(AxisList& axes, AxisSpan others) {
  for (size_t i = 0; i < axes.size(); ++i) {
    bool overlapping = std::any_of(
        others.begin(), others.end(),
        [&](const ResolvedAxis& o) { return overlaps(axes[i], o); });
    if (!overlapping) continue;
    std::optional<ResolvedAxis> prefix = prefixWithoutOverlap(axes[i], others);
    axes.resize(i);
    if (prefix) axes.push_back(*prefix);
    return true;
  }
  return false;
}

std::vector<int64_t> batchingFactors(const OpShardingRule& rule) {
  std::vector<int64_t> factors;
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    if (rule.factorType(f) == FactorType::kPassThrough &&
        isFactorInAllNonScalarTensors(rule, f)) {
      factors.push_back(f);
    }
  }
  return factors;
}

AxesPerFactor findCommonAxes(const ShardingProjection& projection,
                             const OpShardingRule& rule,
                             absl::Span<const int64_t> tensor_sizes,
                             const Mesh& mesh) {
  if (nonScalarTensors(rule).size() == 2 &&
      rule.need_replication_factors.empty() &&
      !hasDimensionsWithMultipleFactors(rule)) {
    return unaryCommonAxes(projection, rule, tensor_sizes);
  }
  AxesPerFactor result = greedyCommonAxes(projection, rule, tensor_sizes, mesh);
  // A need-replication factor can't stay sharded: its axes move to the
  // batching factors where they fit.
  for (int64_t f : rule.need_replication_factors) {
    AxisList axes = std::move(result[f]);
    result[f].clear();
    if (!axes.empty() && isFactorInAllNonScalarTensors(rule, f)) {
      distributeToBatchingFactors(axes, rule, mesh, result);
    }
  }
  return result;
}

std::optional<AxesPerFactor> compatibleFactorShardings(
    const ShardingProjection& projection, const OpShardingRule& rule) {
  AxesPerFactor common(rule.numFactors());
  std::vector<bool> seen(rule.numFactors(), false);
  for (const TensorFactorShardings& tensor : projection.tensors()) {
    for (int64_t f = 0; f < projection.numFactors(); ++f) {
      const FactorSharding* sharding = tensor.find(f);
      if (sharding == nullptr) continue;
      if (rule.factorType(f) == FactorType::kNeedReplication) {
        if (!sharding->axes.empty()) return std::nullopt;
        continue;
      }
      if (!seen[f]) {
        common[f] = sharding->axes;
        seen[f] = true;
      } else if (sharding->axes != common[f]) {
        return std::nullopt;
      }
    }
  }
  for (int64_t f : rule.reduction_factors) {
    for (const TensorFactorShardings& result : projection.results()) {
      for (const FactorSharding& sharding : result.factors) {
        if (!sharding.mapped) continue;
        for (const ResolvedAxis& a : common[f]) {
          for (const ResolvedAxis& b : sharding.axes) {
            if (overlaps(a, b)) return std::nullopt;
          }
        }
      }
    }
  }
  return common;
}

}  // namespace shardkit
