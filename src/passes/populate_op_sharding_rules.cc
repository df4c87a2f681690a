// -sdy-populate-op-sharding-rules.
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/passes/pass.h"
#include "shardkit/passes/rule_passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/passes/pass_list.h"

namespace shardkit {

absl::Status populateOpShardingRules(Module& module,
                                     const RuleOptions& options) {
  absl::Status status;
  module.walk([&](Op op) {
    if (!status.ok()) return;
    absl::StatusOr<std::optional<OpShardingRule>> rule =
        shardingRuleFor(op, options);
    if (!rule.ok()) {
      status = locatedError(op, fromAbsl(rule.status().message()));
      return;
    }
    if (!rule->has_value()) return;
    const OpShardingRule* attached =
        op.attr(kShardingRuleAttr).as<OpShardingRule>();
    if (attached && *attached == **rule) return;  // e.g. a custom rule
    op.setAttr(kShardingRuleAttr, Attribute::of(**std::move(rule)));
  });
  return status;
}

void registerRulePasses() {
  registerPass(boolOptionPass(
      "sdy-populate-op-sharding-rules",
      "Attaches to every op that has a sharding rule its rule as the "
      "`sdy.sharding_rule` attribute (custom rules are kept).",
      {"conservative-propagation",
       "rules that never propagate along dimensions needing data movement "
       "(default false)"},
      &RuleOptions::conservative_propagation, populateOpShardingRules));
}

}  // namespace shardkit
