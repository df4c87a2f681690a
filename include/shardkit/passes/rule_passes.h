// The op sharding rule passes: -sdy-populate-op-sharding-rules attaches the
// rule of every op that has one (shardingRuleFor) as its `sdy.sharding_rule`
// attribute.
#ifndef SHARDKIT_PASSES_RULE_PASSES_H_
#define SHARDKIT_PASSES_RULE_PASSES_H_

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"
#include "shardkit/rules/registry.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Sets `sdy.sharding_rule` on every op of `module` that has a rule. Custom
// rules stay as they are; a non-custom rule on an op shardkit has a rule for
// is replaced by that rule. Stops at the first op whose rule cannot be
// computed, with a diagnostic (diagnostic.h) located at it.
absl::Status populateOpShardingRules(Module& module,
                                     const RuleOptions& options = {});

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_RULE_PASSES_H_
