// shardingRuleFor: where an op's rule comes from (attached custom rule,
// registered rule function, built-in rule, attached non-custom rule), and the
// table of rule functions compilers register for their own ops.
#include "shardkit/rules/registry.h"

#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/rules/registry_internal.h"

namespace shardkit {
namespace {

using rules_internal::OpView;
using rules_internal::RuleResult;

class RuleFunctions {
 public:
  void set(std::string_view key, OpRuleFn fn) {
    std::unique_lock lock(mu_);
    if (fn) {
      fns_[std::string(key)] = std::move(fn);
    } else {
      fns_.erase(std::string(key));
    }
    any_.store(!fns_.empty(), std::memory_order_release);
  }

  // The function registered for `key`, or null. Lock-free while nothing is
  // registered, which is the common case.
  OpRuleFn find(std::string_view key) const {
    if (!any_.load(std::memory_order_acquire)) return nullptr;
    std::shared_lock lock(mu_);
    auto it = fns_.find(std::string(key));
    return it == fns_.end() ? nullptr : it->second;
  }

  bool empty() const { return !any_.load(std::memory_order_acquire); }

 private:
  mutable std::shared_mutex mu_;
  absl::flat_hash_map<std::string, OpRuleFn> fns_;
  std::atomic<bool> any_{false};
};

RuleFunctions& opRuleFunctions() {
  static auto* fns = new RuleFunctions();
  return *fns;
}

RuleFunctions& customCallRuleFunctions() {
  static auto* fns = new RuleFunctions();
  return *fns;
}

}  // namespace

bool anyRuleFunctionRegistered() {
  return !opRuleFunctions().empty() || !customCallRuleFunctions().empty();
}

namespace {

// The rule function registered for `op`, or null.
OpRuleFn registeredFunction(Op op) {
  if (OpRuleFn fn = opRuleFunctions().find(op.name())) return fn;
  if (!isa<stablehlo::CustomCallOp>(op) || customCallRuleFunctions().empty()) {
    return nullptr;
  }
  const std::string* target = op.attr("call_target_name").asString();
  return target ? customCallRuleFunctions().find(*target) : nullptr;
}

// The rule has one mapping per operand and result, each of the value's rank:
// a factory or rule function that misread the op fails here rather than in
// propagation.
absl::Status checkFits(const OpView& op, const OpShardingRule& rule) {
  if (static_cast<size_t>(rule.numOperands()) != op.numOperands() ||
      static_cast<size_t>(rule.numResults()) != op.numResults()) {
    return op.error(strCat(
        "the rule ", toString(rule), " has ", rule.numOperands(),
        " operand and ", rule.numResults(), " result mappings, the op has ",
        op.numOperands(), " operands and ", op.numResults(), " results"));
  }
  for (int64_t t = 0; t < rule.numTensors(); ++t) {
    bool is_operand = t < rule.numOperands();
    size_t index = is_operand ? t : t - rule.numOperands();
    const Shape& shape =
        is_operand ? op.operands()[index] : op.results()[index];
    if (rule.tensorMapping(t).rank() != static_cast<int64_t>(shape.size())) {
      return op.error(strCat("the rule ", toString(rule), " maps ",
                             rule.tensorMapping(t).rank(), " dimensions of ",
                             is_operand ? "operand " : "result ", index,
                             ", which has rank ", shape.size()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::optional<OpShardingRule>> registryRuleFor(
    Op op, const RuleOptions& options) {
  OpView view(op);
  RuleResult rule = std::optional<OpShardingRule>();
  if (OpRuleFn fn = registeredFunction(op)) {
    rule = fn(op, options);
    if (!rule.ok()) return view.wrap(rule.status());
  } else {
    rule = rules_internal::builtinRule(view, options);
    if (!rule.ok()) return rule.status();
  }
  if (rule->has_value()) SK_RETURN_IF_ERROR(checkFits(view, **rule));
  return rule;
}

absl::StatusOr<std::optional<OpShardingRule>> shardingRuleFor(
    Op op, const RuleOptions& options) {
  const Attribute& attached = op.attr(kShardingRuleAttr);
  const OpShardingRule* attached_rule = attached.as<OpShardingRule>();
  if (attached && !attached_rule) {
    return OpView(op).error(
        strCat("attribute '", kShardingRuleAttr,
               "' is not an op sharding rule: ", toString(attached)));
  }
  if (attached_rule && attached_rule->is_custom_rule) return *attached_rule;
  SK_ASSIGN_OR_RETURN(std::optional<OpShardingRule> rule,
                      registryRuleFor(op, options));
  if (!rule && attached_rule) return *attached_rule;
  return rule;
}

void registerOpRule(std::string_view op_name, OpRuleFn fn) {
  opRuleFunctions().set(op_name, std::move(fn));
}

void registerCustomCallRule(std::string_view call_target, OpRuleFn fn) {
  customCallRuleFunctions().set(call_target, std::move(fn));
}

}  // namespace shardkit
