// docs/tutorial.md in C++: my op built with GraphBuilder's generic op(),
// its rule registered, propagation, the collectives and their cost.
#include <cstdio>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/graph_builder.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/factor_propagation/rule_builder.h"
#include "shardkit/passes/comm_report.h"
#include "shardkit/passes/pipeline.h"
#include "shardkit/rules/registry.h"

using namespace shardkit;

int main() {
  // 1. My op, `my.scale(x) -> y`, is pointwise: each dimension passes
  //    through. Tell shardkit once, before propagating.
  registerOpRule(
      "my.scale",
      [](Op op,
         const RuleOptions&) -> absl::StatusOr<std::optional<OpShardingRule>> {
        return OpShardingRuleBuilder::buildPointwise(operandShapes(op),
                                                     resultShapes(op));
      });

  // 2. A graph that uses it: y = my.scale(x · w), x sharded along the
  //    contracted dimension.
  Module module;
  GraphBuilder b(module);
  b.mesh("mesh", Mesh({{"x", 4}}));
  FuncOp f = b.func("main", {b.tensorType({8, 16}), b.tensorType({16, 32})});
  Value h = b.matmul(f.argument(0), f.argument(1));
  Op scaled = b.op("my.scale", {h}, {h.type()});
  b.ret({scaled.result(0)});
  setSharding(f.argument(0),
              TensorSharding(MeshOrRef::ref("mesh"),
                             {DimensionSharding({}, /*is_closed=*/true),
                              DimensionSharding({AxisRef("x")}, true)}));
  if (!b.status().ok()) return 1;

  // 3. Propagation, explicit reshards and collectives: the one switch.
  absl::Status status = runPassPipeline(
      module,
      "sdy-propagation-pipeline{enable-insert-explicit-collectives=true}");
  if (!status.ok()) {
    std::printf("%s\n", std::string(status.message()).c_str());
    return 1;
  }
  std::printf("%s", printModule(module).c_str());

  // 4. What the collectives cost.
  absl::StatusOr<std::vector<CommReportEntry>> report =
      communicationReport(module);
  if (!report.ok() || report->size() != 1) return 1;
  std::printf("%s", commReportJson(*report).c_str());
  return (*report)[0].op == "sdy.all_reduce" ? 0 : 1;
}
