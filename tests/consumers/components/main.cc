// A compiler with its own IR: builds a matmul's rule with the rule builder
// and runs one propagation step on plain values, linking only
// shardkit::factor_propagation.
#include <cstdio>

#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/factor_propagation/propagate_op.h"
#include "shardkit/factor_propagation/rule_builder.h"

int main() {
  using namespace shardkit;
  // [i, k] x [k, j] -> [i, j], k a reduction factor.
  OpShardingRuleBuilder builder({{8, 32}, {32, 16}}, {{8, 16}});
  builder.addFactor({0, kNullDim}, {0}, 8)
      .addFactor({kNullDim, 1}, {1}, 16)
      .addFactor({1, 0}, {kNullDim}, 32, FactorType::kReduction);
  absl::StatusOr<OpShardingRule> built = builder.build();
  if (!built.ok()) return 4;
  const OpShardingRule& rule = *built;

  MeshTable meshes;
  meshes.add("mesh", Mesh({{"x", 2}, {"y", 4}}));
  TensorSharding lhs(MeshOrRef::ref("mesh"),
                     {DimensionSharding({AxisRef("x")}, /*is_closed=*/true),
                      DimensionSharding::open()});
  const TensorSharding* operands[] = {&lhs, nullptr};
  const TensorSharding* results[] = {nullptr};
  absl::StatusOr<PropagateOpResult> step =
      propagateOpShardings(OpShardings{operands, results}, rule, meshes);
  if (!step.ok()) return 1;
  const TensorSharding* result = step->resultUpdate(0);
  if (result == nullptr) return 2;
  std::printf("%s -> %s\n", toString(rule).c_str(), toString(*result).c_str());
  return toString(*result) == "<@mesh, [{\"x\", ?}, {?}]>" ? 0 : 3;
}
