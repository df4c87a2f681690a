// What --comm-report cannot price (see communicationReportGaps in the
// header): communication the module still implies but holds no collective
// for.
#include <optional>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/passes/comm_report.h"
#include "shardkit/rules/registry.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// True if an operand of `op` is sharded along a dimension that maps to a
// reduction factor of `rule` by axes its first result does not keep
// unreduced: the partial results need an all-reduce.
bool reducesOverShardedAxes(Op op, const OpShardingRule& rule) {
  if (rule.reduction_factors.empty() || op.numResults() == 0 ||
      rule.numOperands() != op.numOperands()) {
    return false;
  }
  std::optional<TensorSharding> result = getSharding(op.result(0));
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    std::optional<TensorSharding> sharding = getSharding(op.operand(i));
    if (!sharding) continue;
    const TensorMapping& mapping = rule.tensorMapping(i);
    for (int64_t d = 0; d < sharding->rank() && d < mapping.rank(); ++d) {
      bool reduction = false;
      for (int64_t f : mapping.dim_mappings[d].factor_indices) {
        reduction |= rule.factorType(f) == FactorType::kReduction;
      }
      if (!reduction) continue;
      for (const AxisRef& axis : sharding->dim_shardings[d].axes) {
        bool unreduced = false;
        if (result) {
          for (const AxisRef& u : result->unreduced_axes) {
            unreduced |= u.name == axis.name;
          }
        }
        if (!unreduced) return true;
      }
    }
  }
  return false;
}

// True if some use of `op`'s first result is an sdy.all_reduce.
bool feedsAllReduce(Op op) {
  for (const Value::Use& use : op.result(0).uses()) {
    if (isa<sdy::AllReduceOp>(use.user())) return true;
  }
  return false;
}

}  // namespace

std::vector<CommReportGap> communicationReportGaps(Module& module) {
  std::vector<CommReportGap> gaps;
  module.walk([&](Op op) {
    if (isa<sdy::ReshardOp>(op)) {
      gaps.push_back({locationOf(op),
                      strCat("'", op.name(),
                             "' is not lowered to collectives, so the report "
                             "leaves out what it moves; "
                             "-sdy-reshard-to-collectives lowers it")});
      return;
    }
    if (op.numResults() == 0 || !op.result(0).type().isRankedTensor()) return;
    absl::StatusOr<std::optional<OpShardingRule>> rule = shardingRuleFor(op);
    if (!rule.ok() || !rule->has_value()) return;
    if (!reducesOverShardedAxes(op, **rule) || feedsAllReduce(op)) return;
    gaps.push_back(
        {locationOf(op),
         strCat("'", op.name(),
                "' reduces over sharded axes but no sdy.all_reduce follows "
                "it, so the report leaves it out; "
                "-sdy-insert-explicit-reshards=enable-full-version=true "
                "inserts it")});
  });
  return gaps;
}

}  // namespace shardkit
