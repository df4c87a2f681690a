#include "src/propagation/op_classification.h"

#include <optional>
#include <utility>

#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/ir/module.h"
#include "shardkit/support/status_macros.h"

namespace shardkit::propagation_internal {

absl::Status ClassifiedRules::classify(Op op, OpEntry& entry,
                                       bool conservative) {
  entry.classified = true;
  entry.shared_operand = hasSharedOperand(op);
  // Ops with the same signature share the registry's rule (an op's own
  // `sdy.sharding_rule` takes precedence, so those are never looked up), and
  // its priority kind and elementwise-ness, which depend on the signature
  // alone.
  if (op.hasAttr(kShardingRuleAttr)) {
    entry.has_rule_attr = true;
    saw_rule_attr = true;
  } else if (std::optional<int32_t> cached = rules.find(op)) {
    const OpEntry& first = rule_ops[*cached];
    entry.role = OpRole::kRule;
    entry.rule = *cached;
    entry.rule_from_registry = true;
    entry.priority = first.priority;
    entry.elementwise = first.elementwise;
    return absl::OkStatus();
  }
  entry.priority = opPriorityKind(op);
  entry.elementwise = isElementwiseOp(op);
  SK_ASSIGN_OR_RETURN(OpRoleInfo info, classifyOp(op, conservative));
  entry.role = info.role;
  if (info.rule) {
    entry.rule = rules.add(*std::move(info.rule));
    entry.rule_from_registry = info.from_registry;
    rule_ops.push_back(entry);
    if (info.from_registry) rules.record(op, entry.rule);
  }
  return absl::OkStatus();
}

void Preclassification::start(Module& module, bool conservative) {
  finish();
  entries_.assign(module.opIdBound(), OpEntry{});
  thread_ =
      std::thread([this, &module, conservative] { run(module, conservative); });
}

void Preclassification::run(Module& module, bool conservative) {
  module.walk([&](Op op) {
    if (op.hasTrait(OpTrait::kSymbol)) return;
    OpEntry& entry = entries_[op.id()];
    // A failure leaves the op to its first visit, which fails the same way
    // where the driver's own classification would have.
    if (!rules_.classify(op, entry, conservative).ok()) entry = OpEntry{};
  });
  adopted_.assign(rules_.rules.size(), -1);
}

void Preclassification::finish() {
  if (thread_.joinable()) thread_.join();
}

bool Preclassification::adopt(Op op, OpEntry& entry, ClassifiedRules& into) {
  if (op.id() >= entries_.size() || !entries_[op.id()].classified) {
    return false;
  }
  entry = entries_[op.id()];
  into.saw_rule_attr = into.saw_rule_attr || entry.has_rule_attr;
  if (entry.rule < 0) return true;
  int32_t& index = adopted_[entry.rule];
  if (index < 0) {
    // The first op of its rule in the adopter's order: the rule becomes the
    // adopter's next, as its own classification would have made it.
    index = into.rules.add(rules_.rules.take(entry.rule));
    entry.rule = index;
    into.rule_ops.push_back(entry);
    if (entry.rule_from_registry) into.rules.record(op, index);
    return true;
  }
  entry.rule = index;
  return true;
}

}  // namespace shardkit::propagation_internal
