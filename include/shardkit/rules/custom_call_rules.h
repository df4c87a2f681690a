// Rules of stablehlo.custom_call by call target name. Known targets:
//  - pointwise: annotate_device_placement, Cholesky, CompactWyHelper,
//    InspectSharding, InvertDiagBlocksLowerTriangular,
//    InvertDiagBlocksUpperTriangular, LayoutConstraint, mhlo.erf,
//    MoveToDevice, MoveToHost, X64SplitHigh, X64SplitLow,
//    xla.megascale.provide_metadata;
//  - X64Combine (pointwise; needs replication and blocked when its result
//    feeds an rng_bit_generator, whose state must stay replicated);
//  - Eigh, Qr, QrDecompositionBlock, ProductOfElementaryHouseholderReflectors
//    (batch dims pointwise, matrix dims need replication or are free);
//  - mhlo.topk, ApproxTopK, PartialReduce (the top-k dim is blocked).
// Targets without a rule (nullopt): sdy_testonly, tpu_custom_call, the
// python callbacks, and every unknown target.
#ifndef SHARDKIT_RULES_CUSTOM_CALL_RULES_H_
#define SHARDKIT_RULES_CUSTOM_CALL_RULES_H_

#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/export.h"
#include "shardkit/rules/rule_builder.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Facts about the custom call's surroundings that a rule depends on.
struct CustomCallContext {
  // Some user of the (first) result is a stablehlo.rng_bit_generator.
  bool used_by_rng_bit_generator = false;
};

// True if `target` is a target this registry knows (with or without rule).
bool isKnownCustomCallTarget(std::string_view target);

// The rule of `custom_call @target(operands) -> results`, nullopt for a
// target without a rule. Errors: operand/result counts or ranks that do not
// fit the target.
absl::StatusOr<std::optional<OpShardingRule>> customCallRule(
    std::string_view target, absl::Span<const Shape> operands,
    absl::Span<const Shape> results, const CustomCallContext& context = {});

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_RULES_CUSTOM_CALL_RULES_H_
