// The per-op step as a compiler with its own IR uses it: a dot_general given
// as plain values (its sharding rule built field by field, its mesh and its
// operands' shardings as value types, nothing parsed) goes through
// propagateOpShardings. This binary links shardkit::factor_propagation and
// nothing above it (tests/CMakeLists.txt fails the configuration if ir,
// rules or the driver get linked), so the step needs none of them.
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/core/dimension_sharding.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/core/verify.h"
#include "shardkit/factor_propagation/aggressive_factor_propagation.h"
#include "shardkit/factor_propagation/propagate_op.h"

namespace shardkit {
namespace {

constexpr int64_t kI = 0;  // lhs rows, result rows
constexpr int64_t kJ = 1;  // rhs columns, result columns
constexpr int64_t kK = 2;  // the contracting dimension

// dot_general [m, k] x [k, n] -> [m, n]: `([i, k], [k, j])->([i, j])
// {i=m, j=n, k=k} reduction={k}`.
OpShardingRule matmulRule(int64_t m, int64_t n, int64_t k) {
  auto dims = [](std::vector<int64_t> factors) {
    TensorMapping mapping;
    for (int64_t factor : factors) mapping.dim_mappings.push_back({{factor}});
    return mapping;
  };
  OpShardingRule rule;
  rule.factor_sizes = {m, n, k};
  rule.operand_mappings = {dims({kI, kK}), dims({kK, kJ})};
  rule.result_mappings = {dims({kI, kJ})};
  rule.reduction_factors = {kK};
  return rule;
}

Mesh meshXY() { return Mesh({{"x", 2}, {"y", 4}}); }

DimensionSharding open(std::vector<std::string> axes) {
  AxisRefVector refs;
  for (std::string& name : axes) refs.emplace_back(std::move(name));
  return DimensionSharding(std::move(refs), /*is_closed=*/false);
}
DimensionSharding closed(std::vector<std::string> axes) {
  DimensionSharding dim = open(std::move(axes));
  dim.is_closed = true;
  return dim;
}

TensorSharding onMesh(std::vector<DimensionSharding> dims) {
  return TensorSharding(MeshOrRef::ref("mesh"), std::move(dims));
}

// The shardings of lhs, rhs and result after one step (the old one where
// nothing changed, nullopt where there is still none).
struct Matmul {
  Matmul(std::optional<TensorSharding> lhs, std::optional<TensorSharding> rhs,
         std::optional<TensorSharding> result)
      : lhs(std::move(lhs)), rhs(std::move(rhs)), result(std::move(result)) {}

  std::optional<TensorSharding> lhs, rhs, result;
  PropagateOpOptions options;

  std::vector<std::optional<TensorSharding>> propagate() const {
    const TensorSharding* operands[] = {lhs ? &*lhs : nullptr,
                                        rhs ? &*rhs : nullptr};
    const TensorSharding* results[] = {result ? &*result : nullptr};
    absl::StatusOr<PropagateOpResult> step = propagateOpShardings(
        OpShardings{operands, results}, matmulRule(8, 16, 32), meshXY(),
        MeshOrRef::ref("mesh"), options);
    INFO(step.status().ToString());
    REQUIRE(step.ok());
    std::vector<std::optional<TensorSharding>> after = {lhs, rhs, result};
    for (const ShardingUpdate& update : step->updates) {
      after[update.tensor] = update.sharding;
    }
    return after;
  }
};

TEST_CASE("plain values: the hand-built rule is a valid dot_general rule") {
  // The views point into these: a view of a braced list would dangle.
  std::vector<std::vector<int64_t>> operand_shapes = {{8, 32}, {32, 16}};
  std::vector<std::vector<int64_t>> result_shapes = {{8, 16}};
  std::vector<TensorShapeView> operands(operand_shapes.begin(),
                                        operand_shapes.end());
  std::vector<TensorShapeView> results(result_shapes.begin(),
                                       result_shapes.end());
  CHECK(verifyOpShardingRule(matmulRule(8, 16, 32), operands, results).ok());
  CHECK(toString(matmulRule(8, 16, 32)) ==
        "<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>");
}

TEST_CASE("plain values: lhs shardings reach rhs and result") {
  Matmul op{onMesh({open({"x"}), open({"y"})}), std::nullopt, std::nullopt};
  std::vector<std::optional<TensorSharding>> after = op.propagate();
  CHECK(after[0] == onMesh({open({"x"}), open({"y"})}));
  // k (sharded by "y") reaches rhs's dim 0; i ("x") the result's dim 0.
  CHECK(after[1] == onMesh({open({"y"}), open({})}));
  CHECK(after[2] == onMesh({open({"x"}), open({})}));
  for (const std::optional<TensorSharding>& sharding : after) {
    REQUIRE(sharding.has_value());
  }
  // What comes out is a valid sharding of each value.
  CHECK(verifyTensorShardingWithMesh(*after[1], meshXY(), {32, 16}).ok());
  CHECK(verifyTensorShardingWithMesh(*after[2], meshXY(), {8, 16}).ok());
}

TEST_CASE("plain values: a result sharding reaches the operands") {
  Matmul op{std::nullopt, std::nullopt, onMesh({open({"x"}), open({"y"})})};
  std::vector<std::optional<TensorSharding>> after = op.propagate();
  CHECK(after[0] == onMesh({open({"x"}), open({})}));
  CHECK(after[1] == onMesh({open({}), open({"y"})}));
  CHECK(after[2] == onMesh({open({"x"}), open({"y"})}));
}

TEST_CASE("plain values: closed dimensions take nothing") {
  Matmul op{onMesh({closed({"x"}), closed({})}),
            onMesh({closed({}), closed({"y"})}),
            onMesh({closed({}), open({})})};
  std::vector<std::optional<TensorSharding>> after = op.propagate();
  CHECK(after[0] == op.lhs);
  CHECK(after[1] == op.rhs);
  CHECK(after[2] == onMesh({closed({}), open({"y"})}));
}

TEST_CASE("plain values: a forward-only step leaves the operands alone") {
  Matmul op{std::nullopt, std::nullopt, onMesh({open({"x"}), open({"y"})})};
  op.options.direction = PropagationDirection::kForward;
  std::vector<std::optional<TensorSharding>> after = op.propagate();
  CHECK_FALSE(after[0].has_value());
  CHECK_FALSE(after[1].has_value());
}

TEST_CASE("plain values: the aggressive strategy resolves a conflict") {
  // Both operands want "x": lhs for i, rhs for j. The basic strategy gives
  // the result neither (so it still has no sharding); the aggressive one
  // gives "x" to one of the two factors.
  Matmul op{onMesh({open({"x"}), open({})}), onMesh({open({}), open({"x"})}),
            std::nullopt};
  std::vector<std::optional<TensorSharding>> basic = op.propagate();
  CHECK_FALSE(basic[2].has_value());

  op.options.strategy = &aggressiveFactorPropagation();
  std::vector<std::optional<TensorSharding>> aggressive = op.propagate();
  REQUIRE(aggressive[2].has_value());
  int64_t sharded_dims = 0;
  for (const DimensionSharding& dim : aggressive[2]->dim_shardings) {
    sharded_dims += dim.axes.size();
  }
  CHECK(sharded_dims == 1);
}

TEST_CASE("plain values: the common mesh comes from a mesh table") {
  MeshTable meshes;
  meshes.add("mesh", meshXY());
  TensorSharding lhs = onMesh({open({"x"}), open({})});
  const TensorSharding* operands[] = {&lhs, nullptr};
  const TensorSharding* results[] = {nullptr};
  absl::StatusOr<PropagateOpResult> step = propagateOpShardings(
      OpShardings{operands, results}, matmulRule(8, 16, 32), meshes);
  REQUIRE(step.ok());
  REQUIRE(step->resultUpdate(0) != nullptr);
  CHECK(*step->resultUpdate(0) == onMesh({open({"x"}), open({})}));
  CHECK(step->operandUpdate(0) == nullptr);
}

TEST_CASE("plain values: shardings that do not fit the rule are an error") {
  // A rank-1 lhs for a rank-2 mapping.
  Matmul op{onMesh({open({"x"})}), std::nullopt, std::nullopt};
  const TensorSharding* operands[] = {&*op.lhs, nullptr};
  const TensorSharding* results[] = {nullptr};
  absl::StatusOr<PropagateOpResult> step = propagateOpShardings(
      OpShardings{operands, results}, matmulRule(8, 16, 32), meshXY(),
      MeshOrRef::ref("mesh"));
  CHECK(step.status().code() == absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace shardkit
