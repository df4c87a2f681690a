// Random op descriptions, mostly valid and some broken on purpose: a factory
// either rejects one with a status or returns a rule the core verifier
// accepts; it never crashes.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "shardkit/rules/op_rules.h"
#include "unit/rules/rule_test_util.h"

namespace shardkit {
namespace {

using testing::views;

class Random {
 public:
  explicit Random(uint64_t seed) : rng_(seed) {}
  int64_t in(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  Shape shape(int64_t max_rank) {
    Shape shape(in(0, max_rank));
    for (int64_t& d : shape) d = in(1, 6);
    return shape;
  }
  // A few dims, some out of range or repeated.
  std::vector<int64_t> dims(int64_t max_dim) {
    std::vector<int64_t> dims(in(0, 3));
    for (int64_t& d : dims) d = in(-1, max_dim);
    return dims;
  }

 private:
  std::mt19937_64 rng_;
};

// Counts accepted descriptions and checks their rules.
struct Outcome {
  int accepted = 0;
  void check(const absl::StatusOr<OpShardingRule>& rule,
             const std::vector<Shape>& operands,
             const std::vector<Shape>& results) {
    if (!rule.ok()) {
      CHECK(rule.status().code() == absl::StatusCode::kInvalidArgument);
      return;
    }
    ++accepted;
    absl::Status verified =
        verifyOpShardingRule(*rule, views(operands), views(results));
    INFO(toString(*rule));
    CHECK(verified.ok());
  }
};

// A random permutation of 0..n-1.
std::vector<int64_t> permutation(Random& r, int64_t n) {
  std::vector<int64_t> p(n);
  for (int64_t k = 0; k < n; ++k) p[k] = k;
  for (int64_t k = n - 1; k > 0; --k) std::swap(p[k], p[r.in(0, k)]);
  return p;
}

// A gather (operand, indices, slices, dims), valid by construction.
struct GatherCase {
  Shape operand, indices, slices;
  GatherDimensionNumbers dims;
};

GatherCase randomGather(Random& r) {
  GatherCase c;
  const int64_t rank = r.in(1, 4);
  c.operand = r.shape(rank);
  c.operand.resize(rank, 2);
  std::vector<int64_t> perm = permutation(r, rank);
  const int64_t num_batching = r.in(0, std::min<int64_t>(2, rank));
  const int64_t num_collapsed = r.in(0, rank - num_batching);
  const int64_t num_offset = rank - num_batching - num_collapsed;
  std::vector<int64_t> batching(perm.begin(), perm.begin() + num_batching);
  c.dims.collapsed_dims.assign(perm.begin() + num_batching,
                               perm.begin() + num_batching + num_collapsed);
  const int64_t num_batch = num_batching + r.in(0, 2);
  const bool has_index_vector = r.in(0, 1) == 1;
  const int64_t indices_rank = num_batch + (has_index_vector ? 1 : 0);
  c.dims.index_vector_dim =
      has_index_vector ? r.in(0, indices_rank - 1) : indices_rank;
  c.indices = Shape(indices_rank);
  for (int64_t& d : c.indices) d = r.in(1, 5);
  // Indices dims of the slice batch dims, in order.
  std::vector<int64_t> batch_indices_dims;
  for (int64_t d = 0; d < indices_rank; ++d) {
    if (d != c.dims.index_vector_dim) batch_indices_dims.push_back(d);
  }
  std::vector<int64_t> chosen = permutation(r, num_batch);
  for (int64_t k = 0; k < num_batching; ++k) {
    int64_t indices_dim = batch_indices_dims[chosen[k]];
    c.dims.input_batching_dims.push_back(batching[k]);
    c.dims.indices_batching_dims.push_back(indices_dim);
    c.indices[indices_dim] = c.operand[batching[k]];
  }
  const int64_t slices_rank = num_offset + num_batch;
  std::vector<int64_t> slices_perm = permutation(r, slices_rank);
  c.dims.offset_dims.assign(slices_perm.begin(),
                            slices_perm.begin() + num_offset);
  std::sort(c.dims.offset_dims.begin(), c.dims.offset_dims.end());
  c.slices = Shape(slices_rank);
  int64_t input_dim = 0;
  int64_t batch_pos = 0;
  auto skipped = [&](int64_t d) {
    return std::count(batching.begin(), batching.end(), d) ||
           std::count(c.dims.collapsed_dims.begin(),
                      c.dims.collapsed_dims.end(), d);
  };
  for (int64_t d = 0; d < slices_rank; ++d) {
    if (std::count(c.dims.offset_dims.begin(), c.dims.offset_dims.end(), d)) {
      while (skipped(input_dim)) ++input_dim;
      c.slices[d] = r.in(1, c.operand[input_dim++]);
    } else {
      c.slices[d] = c.indices[batch_indices_dims[batch_pos++]];
    }
  }
  // Sometimes break it.
  switch (r.in(0, 8)) {
    case 0:
      c.dims.offset_dims = r.dims(4);
      break;
    case 1:
      c.dims.collapsed_dims = r.dims(4);
      break;
    case 2:
      c.dims.index_vector_dim = r.in(-1, 5);
      break;
    case 3:
      c.dims.indices_batching_dims = r.dims(3);
      break;
    case 4:
      c.slices = r.shape(4);
      break;
    default:
      break;
  }
  return c;
}

TEST_CASE("random gather and scatter descriptions") {
  Random r(7);
  Outcome gathers, scatters;
  for (int i = 0; i < 3000; ++i) {
    GatherCase g = randomGather(r);
    gathers.check(gatherRule(g.operand, g.indices, g.slices, g.dims),
                  {g.operand, g.indices}, {g.slices});
    // The gather's dimension numbers, read as a scatter's.
    scatters.check(scatterRule({g.operand, g.operand}, g.indices,
                               {g.slices, g.slices}, g.dims, r.in(0, 1)),
                   {g.operand, g.operand, g.indices, g.slices, g.slices},
                   {g.operand, g.operand});
  }
  // Most descriptions are valid, some are not.
  CHECK(gathers.accepted > 1500);
  CHECK(gathers.accepted < 3000);
  CHECK(scatters.accepted > 1500);
}

TEST_CASE("random dot_general descriptions") {
  Random r(11);
  Outcome dots;
  for (int i = 0; i < 3000; ++i) {
    const int64_t lhs_rank = r.in(0, 4);
    Shape lhs = r.shape(lhs_rank);
    lhs.resize(lhs_rank, 3);
    std::vector<int64_t> lp = permutation(r, lhs_rank);
    const int64_t num_batch = r.in(0, lhs_rank);
    const int64_t num_contract = r.in(0, lhs_rank - num_batch);
    const int64_t rhs_free = r.in(0, 2);
    const int64_t rhs_rank = num_batch + num_contract + rhs_free;
    std::vector<int64_t> rp = permutation(r, rhs_rank);
    Shape rhs(rhs_rank);
    for (int64_t& d : rhs) d = r.in(1, 6);
    DotDimensionNumbers d;
    Shape out;
    for (int64_t k = 0; k < num_batch + num_contract; ++k) {
      bool batch = k < num_batch;
      (batch ? d.lhs_batching : d.lhs_contracting).push_back(lp[k]);
      (batch ? d.rhs_batching : d.rhs_contracting).push_back(rp[k]);
      rhs[rp[k]] = lhs[lp[k]];
      if (batch) out.push_back(lhs[lp[k]]);
    }
    for (int64_t k = 0; k < lhs_rank; ++k) {
      if (std::find(lp.begin(), lp.begin() + num_batch + num_contract, k) ==
          lp.begin() + num_batch + num_contract) {
        out.push_back(lhs[k]);
      }
    }
    for (int64_t k = 0; k < rhs_rank; ++k) {
      if (std::find(rp.begin(), rp.begin() + num_batch + num_contract, k) ==
          rp.begin() + num_batch + num_contract) {
        out.push_back(rhs[k]);
      }
    }
    switch (r.in(0, 6)) {
      case 0:
        d.lhs_contracting = r.dims(4);
        break;
      case 1:
        d.rhs_batching = r.dims(4);
        break;
      case 2:
        out = r.shape(4);
        break;
      default:
        break;
    }
    dots.check(dotGeneralRule(lhs, rhs, out, d), {lhs, rhs}, {out});
  }
  CHECK(dots.accepted > 1500);
  CHECK(dots.accepted < 3000);
}

TEST_CASE("random convolution descriptions") {
  Random r(17);
  Outcome convs;
  for (int i = 0; i < 3000; ++i) {
    const int64_t rank = r.in(2, 4);
    const int64_t batch_groups = r.in(0, 1) ? r.in(1, 3) : 1;
    const int64_t feature_groups = batch_groups == 1 ? r.in(1, 3) : 1;
    std::vector<int64_t> pi = permutation(r, rank);
    std::vector<int64_t> pk = permutation(r, rank);
    std::vector<int64_t> po = permutation(r, rank);
    ConvDimensionNumbers c;
    c.input_batch = pi[0];
    c.input_feature = pi[1];
    c.input_spatial.assign(pi.begin() + 2, pi.end());
    c.kernel_input_feature = pk[0];
    c.kernel_output_feature = pk[1];
    c.kernel_spatial.assign(pk.begin() + 2, pk.end());
    c.output_batch = po[0];
    c.output_feature = po[1];
    c.output_spatial.assign(po.begin() + 2, po.end());
    Shape in(rank), kernel(rank), out(rank);
    for (int64_t k = 2; k < rank; ++k) {
      in[pi[k]] = r.in(1, 16);
      kernel[pk[k]] = r.in(1, 4);
      out[po[k]] = r.in(1, 16);
    }
    out[c.output_batch] = r.in(1, 3);
    in[c.input_batch] = out[c.output_batch] * batch_groups;
    kernel[c.kernel_input_feature] = r.in(1, 3);
    in[c.input_feature] = kernel[c.kernel_input_feature] * feature_groups;
    out[c.output_feature] = r.in(1, 2) * batch_groups * feature_groups;
    kernel[c.kernel_output_feature] = out[c.output_feature];
    switch (r.in(0, 7)) {
      case 0:
        c.output_feature = r.in(-1, 5);
        break;
      case 1:
        in[c.input_batch] += 1;
        break;
      case 2:
        c.kernel_spatial.push_back(0);
        break;
      default:
        break;
    }
    convs.check(convolutionRule(in, kernel, out, c, batch_groups,
                                feature_groups, r.in(0, 1)),
                {in, kernel}, {out});
  }
  CHECK(convs.accepted > 1500);
  CHECK(convs.accepted < 3000);
}

TEST_CASE("random reshapes, broadcasts, transposes and collectives") {
  Random r(13);
  Outcome outcome;
  for (int i = 0; i < 3000; ++i) {
    Shape a = r.shape(4);
    Shape b = r.shape(4);
    std::vector<int64_t> dims = r.dims(4);
    outcome.check(broadcastInDimRule(a, b, dims), {a}, {b});
    outcome.check(transposeRule(a, b, dims), {a}, {b});
    outcome.check(allGatherRule({a}, {b}, r.in(-1, 4)), {a}, {b});
    outcome.check(allToAllRule({a}, {b}, r.in(-1, 4), r.in(-1, 4)), {a}, {b});
    outcome.check(concatenateRule({a, b}, b, r.in(-1, 4)), {a, b}, {b});
    outcome.check(reduceRule({a}, {b}, dims), {a, {}}, {b});
    absl::StatusOr<std::optional<OpShardingRule>> reshape = reshapeRule(a, b);
    if (reshape.ok() && reshape->has_value()) {
      outcome.check(**reshape, {a}, {b});
    }
  }
  CHECK(outcome.accepted > 50);
}

}  // namespace
}  // namespace shardkit
