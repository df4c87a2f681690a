// The op sharding rule registry: the OpShardingRule of an op of the graph IR.
//
// Where a rule comes from, first match wins:
//  1. the op's own `sdy.sharding_rule` attribute when it is a custom rule
//     (`custom` flag): a user rule always wins;
//  2. a rule function registered for the op's name (registerOpRule) or, for
//     `stablehlo.custom_call`, for its call target (registerCustomCallRule);
//  3. shardkit's built-in rule for the StableHLO op (and for
//     `sdy.sharding_constraint`, which is pointwise), computed from the op's
//     types, its attributes (pretty or generic spelling) and, for a few ops,
//     its neighbourhood (which concatenate operands are slices, which
//     dynamic_update_slice start indices are constants, whether a scatter's
//     update computation is a plain reduction, whether a custom call feeds an
//     rng_bit_generator);
//  4. a non-custom `sdy.sharding_rule` attribute already on an op that has no
//     rule of its own (an unknown custom call or op), kept as it is.
// Otherwise the op has no rule (nullopt): constants, iota, while, case,
// optimization_barrier, tuples, tokens, sdy ops other than
// sharding_constraint, terminators, unknown ops and unknown custom calls, and
// any op with a dynamic dimension.
//
// A malformed op (a missing or ill-typed attribute, an operand count the rule
// does not fit) is an InvalidArgument status whose message starts with
// `sharding rule of 'op.name': `.
#ifndef SHARDKIT_RULES_REGISTRY_H_
#define SHARDKIT_RULES_REGISTRY_H_

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/export.h"
#include "shardkit/factor_propagation/rule_builder.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

struct RuleOptions {
  // Do not propagate along dimensions whose sharding would need data to move
  // between devices: concatenate's concat dim and convolution's spatial dims
  // get no factor; the size-changing dims of slice, pad, reduce_window and
  // select_and_scatter are blocked.
  bool conservative_propagation = false;
};

// The rule of `op` (see the top of this file), or nullopt if it has none.
absl::StatusOr<std::optional<OpShardingRule>> shardingRuleFor(
    Op op, const RuleOptions& options = {});

// Steps 2 and 3 only: the rule shardkit computes for `op`, ignoring any
// `sdy.sharding_rule` attribute on it.
absl::StatusOr<std::optional<OpShardingRule>> registryRuleFor(
    Op op, const RuleOptions& options = {});

// A rule function: the rule of `op`, or nullopt for an op it has no rule for.
// It must not modify the IR.
using OpRuleFn = std::function<absl::StatusOr<std::optional<OpShardingRule>>(
    Op op, const RuleOptions& options)>;

// Registers `fn` for ops called `op_name` (e.g. "mydialect.attention"),
// replacing any earlier function and shardkit's built-in rule for that op; a
// null `fn` removes the registration. The rule `fn` returns must have one
// mapping per operand and result, of the right ranks. Thread-safe.
void registerOpRule(std::string_view op_name, OpRuleFn fn);

// Likewise for `stablehlo.custom_call @call_target(...)`.
void registerCustomCallRule(std::string_view call_target, OpRuleFn fn);

// Whether registerOpRule or registerCustomCallRule has a function in place.
bool anyRuleFunctionRegistered();

// Helpers for rule functions: the dimension sizes of the operands / results
// of `op` (an empty shape for a value that is not a ranked tensor, e.g. a
// token).
std::vector<Shape> operandShapes(Op op);
std::vector<Shape> resultShapes(Op op);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_REGISTRY_H_
