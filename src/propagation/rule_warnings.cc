// Driver::warnOpsWithoutRule: propagation passes through an op only along
// its sharding rule. An op without one (an unknown op or custom call) stops
// it silently in the reference; here the user is told, once per op name.
#include <string>

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/strings.h"
#include "src/propagation/driver.h"

namespace shardkit::propagation_internal {
namespace {

// Ops propagation leaves alone by design, not for want of a rule:
// terminators, symbols, ops with data-flow edges, collectives, reshards,
// calls, and ops with nothing to pass through (no operands or no results).
bool mayWantRule(Op op) {
  for (OpTrait trait :
       {OpTrait::kTerminator, OpTrait::kSymbol, OpTrait::kDataFlowEdges,
        OpTrait::kCollective, OpTrait::kReshardLike}) {
    if (op.hasTrait(trait)) return false;
  }
  return !isa<func::CallOp>(op) && op.numOperands() > 0 && op.numResults() > 0;
}

bool isSharded(Value v) {
  std::optional<TensorSharding> sharding = getSharding(v);
  return sharding && !sharding->isFullyReplicated();
}

// Some operand or result of `op` is sharded: there was something to pass
// through it.
bool touchesShardedValue(Op op) {
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    if (isSharded(op.operand(i))) return true;
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    if (isSharded(op.result(i))) return true;
  }
  return false;
}

}  // namespace

void Driver::warnOpsWithoutRule() {
  absl::flat_hash_set<std::string> warned;
  m_.walk([&](Op op) {
    if (op.id() >= entries_.size()) return;
    const OpEntry& entry = entries_[op.id()];
    if (!entry.classified || entry.role != OpRole::kSkip) return;
    if (!mayWantRule(op) || warned.contains(std::string(op.name()))) return;
    if (!touchesShardedValue(op)) return;
    warned.insert(std::string(op.name()));
    emitAdvisory(Diagnostic{
        locationOf(op),
        Severity::kWarning,
        strCat("'", op.name(),
               "' has no sharding rule, so propagation does not pass through "
               "it (warned once per op name); give it an attribute ",
               kShardingRuleAttr,
               " or register a rule (registerOpRule, docs/rules.md)"),
        {}});
  });
}

}  // namespace shardkit::propagation_internal
