// The per-op rule factories, one header per op family. Each factory takes a
// plain description of an op (operand/result shapes and the attributes the
// rule depends on) and returns its OpShardingRule, numbered exactly as the
// reference registry numbers it. Bad descriptions give InvalidArgument.
//
// Ops the reference gives no rule (constant, iota, while, case,
// optimization_barrier, get_tuple_element, ...) have no factory; reshapes of
// empty tensors and unknown custom calls return nullopt.
#ifndef SHARDKIT_RULES_OP_RULES_H_
#define SHARDKIT_RULES_OP_RULES_H_

#include "shardkit/factor_propagation/rule_builder.h"  // IWYU pragma: export
#include "shardkit/rules/collective_rules.h"           // IWYU pragma: export
#include "shardkit/rules/contraction_rules.h"          // IWYU pragma: export
#include "shardkit/rules/custom_call_rules.h"          // IWYU pragma: export
#include "shardkit/rules/gather_scatter_rules.h"       // IWYU pragma: export
#include "shardkit/rules/pointwise_rules.h"            // IWYU pragma: export
#include "shardkit/rules/reduction_rules.h"            // IWYU pragma: export
#include "shardkit/rules/reshape.h"                    // IWYU pragma: export
#include "shardkit/rules/slicing_rules.h"              // IWYU pragma: export

#endif  // SHARDKIT_RULES_OP_RULES_H_
