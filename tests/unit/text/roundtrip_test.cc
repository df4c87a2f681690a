// Seeded random round trips: generate valid values (they pass the verifier),
// print them, parse the text back, and require the same value and, printed
// again, the same text. The generators cover every syntactic feature and the
// test checks at the end that each feature actually occurred.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/hash/hash.h"
#include "fmt/format.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/verify.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit {
namespace {

constexpr uint64_t kSeed = 0x5eed5eed2024;
constexpr int kShardingCount = 10000;
constexpr int kRuleCount = 10000;

// Axis and mesh names, including ones that need escaping or quoting.
const std::vector<std::string> kAxisNames = {
    "x",         "y",   "z",      "a",       "b",           "data",
    "model",     "x.y", "sp ace", "q\"uote", "back\\slash", "\xC3\xA9t\xC3\xA9",
    "tab\there", "",    "_0"};
const std::vector<std::string> kMeshNames = {
    "mesh", "m",     "mesh_1",      "foo.bar", "my mesh",
    "a-b",  "0mesh", "m\xC3\xA9sh", "q\"m",    "$"};
const std::vector<int64_t> kAxisSizes = {1, 2, 3, 4, 6, 8, 12, 16, 32};

class Random {
 public:
  explicit Random(uint64_t seed) : engine_(seed) {}
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(engine_);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(engine_); }
  template <typename T>
  const T& pick(const std::vector<T>& values) {
    return values[uniform(0, static_cast<int64_t>(values.size()) - 1)];
  }
  template <typename List>
  void shuffle(List& values) {
    std::shuffle(values.begin(), values.end(), engine_);
  }

 private:
  std::mt19937_64 engine_;
};

// How often each feature was generated; every count must end up non-zero.
struct Coverage {
  int inline_meshes = 0, named_meshes = 0, device_ids = 0, maximal = 0,
      empty_mesh = 0, sub_axes = 0, open_dims = 0, priorities = 0,
      replicated = 0, unreduced = 0, unreduced_max = 0, unreduced_min = 0,
      quoted_names = 0;
  int z_symbols = 0, compound_dims = 0, reduction = 0, need_replication = 0,
      permutation = 0, blocked = 0, custom = 0, rank0_tensors = 0;
};

// ---------------------------------------------------------------------------
// Tensor shardings
// ---------------------------------------------------------------------------

Mesh randomMesh(Random& rng, Coverage& coverage) {
  int64_t kind = rng.uniform(0, 19);
  if (kind == 0) {
    ++coverage.empty_mesh;
    return Mesh();
  }
  if (kind == 1) {
    ++coverage.maximal;
    return Mesh::maximal(rng.uniform(0, 100));
  }
  std::vector<std::string> names = kAxisNames;
  rng.shuffle(names);
  Mesh mesh;
  int64_t num_axes = rng.uniform(1, 4);
  for (int64_t i = 0; i < num_axes; ++i) {
    mesh.axes.push_back({names[i], rng.pick(kAxisSizes)});
  }
  int64_t total = mesh.totalSize();
  if (total > 1 && total <= 256 && rng.chance(0.3)) {
    std::vector<int64_t> ids = mesh.deviceIdsOrIota();
    while (std::is_sorted(ids.begin(), ids.end())) rng.shuffle(ids);
    mesh.device_ids = std::move(ids);
    ++coverage.device_ids;
  }
  return mesh;
}

// Splits every axis of `mesh` into disjoint pieces: the full axis, or a chain
// of sub-axes (pre, size) that together cover it.
AxisRefVector randomPieces(Random& rng, const Mesh& mesh) {
  AxisRefVector pieces;
  for (const MeshAxis& axis : mesh.axes) {
    if (axis.size == 1 || rng.chance(0.4)) {
      pieces.push_back(AxisRef(axis.name));
      continue;
    }
    int64_t pre = 1;
    while (pre < axis.size) {
      int64_t rest = axis.size / pre;
      std::vector<int64_t> divisors;
      for (int64_t d = 2; d <= rest; ++d) {
        if (rest % d == 0) divisors.push_back(d);
      }
      int64_t size = rng.pick(divisors);
      pieces.push_back(makeAxisRef(axis.name, pre, size, mesh));
      pre *= size;
    }
  }
  rng.shuffle(pieces);
  return pieces;
}

struct ShardedValue {
  TensorSharding sharding;
  std::vector<int64_t> shape;
};

// A sharding (and a shape it is valid for) on `mesh`.
ShardedValue randomShardingOn(Random& rng, const Mesh& mesh, MeshOrRef ref) {
  ShardedValue value;
  TensorSharding& s = value.sharding;
  s.mesh = std::move(ref);
  if (mesh.isMaximal()) return value;  // Rank 0, nothing else allowed.
  int64_t rank = rng.uniform(0, 5);
  s.dim_shardings.resize(rank);
  for (const AxisRef& piece : randomPieces(rng, mesh)) {
    int64_t where = rng.uniform(-3, rank - 1);
    if (where >= 0) {
      s.dim_shardings[where].axes.push_back(piece);
    } else if (where == -1) {
      s.replicated_axes.push_back(piece);
    } else if (where == -2) {
      s.unreduced_axes.push_back(piece);
    }  // -3: unused.
  }
  for (DimensionSharding& dim : s.dim_shardings) {
    mergeAdjacentSubAxes(dim.axes, mesh);
    dim.is_closed = rng.chance(0.5);
    if ((dim.isOpen() || !dim.empty()) && rng.chance(0.3)) {
      dim.priority = rng.chance(0.05) ? INT64_MAX : rng.uniform(0, 5);
    }
    int64_t sharded = dim.shardedSize(mesh);
    int64_t roll = rng.uniform(0, 9);
    if (roll == 0) {
      value.shape.push_back(kDynamicSize);
    } else if (roll == 1 && sharded == 1) {
      value.shape.push_back(0);
    } else if (roll == 2) {
      value.shape.push_back(sharded * rng.uniform(1, 3) + 1);  // Padded.
    } else {
      value.shape.push_back(sharded * rng.uniform(1, 4));
    }
  }
  sortAndMergeAxes(s.replicated_axes, mesh);
  sortAndMergeAxes(s.unreduced_axes, mesh);
  // The kind only exists with unreduced axes: without them it is not
  // printed and reads back as the default.
  if (!s.unreduced_axes.empty()) {
    s.unreduced_kind = rng.pick(std::vector<ReductionKind>{
        ReductionKind::kSum, ReductionKind::kMax, ReductionKind::kMin});
  }
  return value;
}

void count(const TensorSharding& s, Coverage& coverage) {
  for (const DimensionSharding& dim : s.dim_shardings) {
    coverage.open_dims += dim.isOpen();
    coverage.priorities += dim.priority.has_value();
  }
  for (const AxisRef& axis : s.allAxes()) coverage.sub_axes += axis.isSubAxis();
  coverage.replicated += !s.replicated_axes.empty();
  coverage.unreduced += !s.unreduced_axes.empty();
  coverage.unreduced_max += s.unreduced_kind == ReductionKind::kMax;
  coverage.unreduced_min += s.unreduced_kind == ReductionKind::kMin;
}

template <typename T, typename Parse>
void checkRoundTrip(const T& value, Parse&& parse) {
  const std::string text = toString(value);
  INFO(text);
  absl::StatusOr<T> parsed = parse(text);
  INFO(std::string(fromAbsl(parsed.status().message())));
  REQUIRE(parsed.ok());
  CHECK(*parsed == value);
  CHECK(absl::Hash<T>{}(*parsed) == absl::Hash<T>{}(value));
  CHECK(toString(*parsed) == text);
  CHECK(fmt::format("{}", *parsed) == text);
  absl::StatusOr<T> from_attr = parse(toAttrString(value));
  REQUIRE(from_attr.ok());
  CHECK(*from_attr == value);
}

TEST_CASE("random valid tensor shardings round-trip through text") {
  Random rng(kSeed);
  Coverage coverage;
  for (int i = 0; i < kShardingCount; ++i) {
    Mesh mesh = randomMesh(rng, coverage);
    MeshTable table;
    MeshOrRef ref;
    if (rng.chance(0.3)) {
      ref = MeshOrRef::inlined(mesh);
      ++coverage.inline_meshes;
    } else {
      const std::string& name = rng.pick(kMeshNames);
      table.add(name, mesh);
      ref = MeshOrRef::ref(name);
      ++coverage.named_meshes;
      coverage.quoted_names += !isBareIdentifier(name);
    }
    ShardedValue value = randomShardingOn(rng, mesh, ref);
    INFO("sharding " << i << ": " << toString(value.sharding));
    absl::Status valid = verifyTensorSharding(value.sharding, table,
                                              TensorShapeView(value.shape));
    INFO(std::string(fromAbsl(valid.message())));
    REQUIRE(valid.ok());
    count(value.sharding, coverage);
    checkRoundTrip(value.sharding, [](std::string_view text) {
      return parseTensorSharding(text);
    });
  }
  CHECK(coverage.inline_meshes > 0);
  CHECK(coverage.named_meshes > 0);
  CHECK(coverage.quoted_names > 0);
  CHECK(coverage.device_ids > 0);
  CHECK(coverage.maximal > 0);
  CHECK(coverage.empty_mesh > 0);
  CHECK(coverage.sub_axes > 0);
  CHECK(coverage.open_dims > 0);
  CHECK(coverage.priorities > 0);
  CHECK(coverage.replicated > 0);
  CHECK(coverage.unreduced > 0);
  CHECK(coverage.unreduced_max > 0);
  CHECK(coverage.unreduced_min > 0);
}

TEST_CASE("random valid per-value shardings round-trip through text") {
  Random rng(kSeed + 1);
  Coverage coverage;
  for (int i = 0; i < kShardingCount / 10; ++i) {
    Mesh mesh = randomMesh(rng, coverage);
    MeshTable table;
    table.add("mesh", mesh);
    TensorShardingPerValue per_value;
    std::vector<std::vector<int64_t>> shapes;
    int64_t count = rng.uniform(0, 8);
    for (int64_t v = 0; v < count; ++v) {
      MeshOrRef ref =
          rng.chance(0.2) ? MeshOrRef::inlined(mesh) : MeshOrRef::ref("mesh");
      ShardedValue value = randomShardingOn(rng, mesh, ref);
      per_value.items.push_back(value.sharding);
      shapes.push_back(value.shape);
    }
    std::vector<TensorShapeView> views(shapes.begin(), shapes.end());
    INFO("per-value " << i << ": " << toString(per_value));
    absl::Status valid = verifyTensorShardingPerValue(per_value, table, views);
    INFO(std::string(fromAbsl(valid.message())));
    REQUIRE(valid.ok());
    checkRoundTrip(per_value, [](std::string_view text) {
      return parseTensorShardingPerValue(text);
    });
  }
}

// ---------------------------------------------------------------------------
// Op sharding rules
// ---------------------------------------------------------------------------

struct RuleWithShapes {
  OpShardingRule rule;
  std::vector<std::vector<int64_t>> operand_shapes;
  std::vector<std::vector<int64_t>> result_shapes;
};

const std::vector<int64_t> kFactorSizes = {
    1, 2, 3, 4, 5, 8, 16, 1024, 7, 64, 1000, int64_t{1} << 33};

// The dims of one tensor: its factors in random order, grouped into runs of
// 1..3 (a compound dimension never holds a size-1 factor).
std::vector<DimMapping> groupIntoDims(Random& rng, std::vector<int64_t> factors,
                                      const std::vector<int64_t>& sizes) {
  rng.shuffle(factors);
  std::vector<DimMapping> dims;
  size_t i = 0;
  while (i < factors.size()) {
    DimMapping dim;
    int64_t want = rng.uniform(1, 3);
    while (i < factors.size() &&
           static_cast<int64_t>(dim.factor_indices.size()) < want) {
      bool size_one = sizes[factors[i]] == 1;
      if (size_one && !dim.factor_indices.empty()) break;
      dim.factor_indices.push_back(factors[i++]);
      if (size_one) break;
    }
    dims.push_back(std::move(dim));
  }
  return dims;
}

// The product of the sizes, or 1 if it would overflow (the verifier does not
// compare dimension sizes with factor sizes).
int64_t dimSize(const DimMapping& dim, const std::vector<int64_t>& sizes) {
  int64_t product = 1;
  for (int64_t f : dim.factor_indices) {
    if (__builtin_mul_overflow(product, sizes[f], &product)) return 1;
  }
  return product;
}

RuleWithShapes randomRule(Random& rng) {
  RuleWithShapes out;
  OpShardingRule& rule = out.rule;
  int64_t num_factors =
      rng.chance(0.15) ? rng.uniform(19, 40) : rng.uniform(0, 8);
  for (int64_t f = 0; f < num_factors; ++f) {
    rule.factor_sizes.push_back(rng.pick(kFactorSizes));
  }
  int64_t num_operands = rng.uniform(1, 4);
  int64_t num_results = rng.uniform(1, 3);
  int64_t num_tensors = num_operands + num_results;
  // Every factor lives in a non-empty set of tensors.
  std::vector<std::vector<int64_t>> factors_of(num_tensors);
  for (int64_t f = 0; f < num_factors; ++f) {
    bool placed = false;
    for (int64_t t = 0; t < num_tensors; ++t) {
      if (rng.chance(0.4)) {
        factors_of[t].push_back(f);
        placed = true;
      }
    }
    if (!placed) factors_of[rng.uniform(0, num_tensors - 1)].push_back(f);
  }
  for (int64_t t = 0; t < num_tensors; ++t) {
    TensorMapping mapping{groupIntoDims(rng, factors_of[t], rule.factor_sizes)};
    std::vector<int64_t> shape;
    for (const DimMapping& dim : mapping.dim_mappings) {
      shape.push_back(dimSize(dim, rule.factor_sizes));
    }
    if (t < num_operands) {
      rule.operand_mappings.push_back(std::move(mapping));
      out.operand_shapes.push_back(std::move(shape));
    } else {
      rule.result_mappings.push_back(std::move(mapping));
      out.result_shapes.push_back(std::move(shape));
    }
  }
  // Disjoint special kinds; reduction factors are in no result.
  for (int64_t f = 0; f < num_factors; ++f) {
    bool in_result = false;
    for (const TensorMapping& m : rule.result_mappings) {
      in_result = in_result || m.containsFactor(f);
    }
    int64_t roll = rng.uniform(0, 9);
    if (!in_result && roll < 5) {
      rule.reduction_factors.push_back(f);
    } else if (roll == 5) {
      rule.need_replication_factors.push_back(f);
    } else if (roll == 6) {
      rule.permutation_factors.push_back(f);
    }
    if (rng.chance(0.1)) rule.blocked_propagation_factors.push_back(f);
  }
  rule.is_custom_rule = rng.chance(0.3);
  return out;
}

void count(const OpShardingRule& rule, Coverage& coverage) {
  coverage.z_symbols += rule.numFactors() > 18;
  for (int64_t t = 0; t < rule.numTensors(); ++t) {
    const TensorMapping& mapping = rule.tensorMapping(t);
    coverage.rank0_tensors += mapping.rank() == 0;
    for (const DimMapping& dim : mapping.dim_mappings) {
      coverage.compound_dims += dim.factor_indices.size() > 1;
    }
  }
  coverage.reduction += !rule.reduction_factors.empty();
  coverage.need_replication += !rule.need_replication_factors.empty();
  coverage.permutation += !rule.permutation_factors.empty();
  coverage.blocked += !rule.blocked_propagation_factors.empty();
  coverage.custom += rule.is_custom_rule;
}

TEST_CASE("random valid op sharding rules round-trip through text") {
  Random rng(kSeed + 2);
  Coverage coverage;
  for (int i = 0; i < kRuleCount; ++i) {
    RuleWithShapes generated = randomRule(rng);
    const OpShardingRule& rule = generated.rule;
    INFO("rule " << i << ": " << toString(rule));
    std::vector<TensorShapeView> operands(generated.operand_shapes.begin(),
                                          generated.operand_shapes.end());
    std::vector<TensorShapeView> results(generated.result_shapes.begin(),
                                         generated.result_shapes.end());
    absl::Status valid = verifyOpShardingRule(rule, operands, results);
    INFO(std::string(fromAbsl(valid.message())));
    REQUIRE(valid.ok());
    count(rule, coverage);
    checkRoundTrip(
        rule, [](std::string_view text) { return parseOpShardingRule(text); });
  }
  CHECK(coverage.z_symbols > 0);
  CHECK(coverage.compound_dims > 0);
  CHECK(coverage.rank0_tensors > 0);
  CHECK(coverage.reduction > 0);
  CHECK(coverage.need_replication > 0);
  CHECK(coverage.permutation > 0);
  CHECK(coverage.blocked > 0);
  CHECK(coverage.custom > 0);
}

}  // namespace
}  // namespace shardkit
