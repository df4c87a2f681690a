// The names of the discardable attributes shardkit reads and writes on any
// op, function argument or result (the reference's constants.h). Inherent
// attributes of an op are read through its typed handle (sdy_ops.h).
#ifndef SHARDKIT_DIALECT_SDY_ATTR_NAMES_H_
#define SHARDKIT_DIALECT_SDY_ATTR_NAMES_H_

#include <string_view>

#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// `#sdy.sharding` of a function argument or result, or
// `#sdy.sharding_per_value` of an op's results.
inline constexpr std::string_view kShardingAttr = "sdy.sharding";
// `#sdy.op_sharding_rule` of an op.
inline constexpr std::string_view kShardingRuleAttr = "sdy.sharding_rule";

// Debug information propagation attaches (-sdy-propagation-pipeline's
// debug-sharding-origins and debug-propagation-edges): its name on ops and
// data-flow edges (`op`), and the names export gives the edges' records on
// their data-flow op, one array for its block arguments and one for its
// results.
struct DebugAttrNames {
  std::string_view op;
  std::string_view block_arg;
  std::string_view result;

  // One of the names of the arrays export makes.
  constexpr bool isSunk(std::string_view name) const {
    return name == block_arg || name == result;
  }
};
inline constexpr DebugAttrNames kShardingOriginsAttrs = {
    "sdy.sharding_origins", "sdy.block_arg_sharding_origins",
    "sdy.result_sharding_origins"};
inline constexpr DebugAttrNames kPropagationEdgesAttrs = {
    "sdy.propagation_edges", "sdy.block_arg_propagation_edges",
    "sdy.result_propagation_edges"};
// The names on ops, which most code reads.
inline constexpr std::string_view kShardingOriginsAttr =
    kShardingOriginsAttrs.op;
inline constexpr std::string_view kPropagationEdgesAttr =
    kPropagationEdgesAttrs.op;
// The name debug-sharding-origins gives a sharding constraint
// (`constraint_N`) or manual computation (`mc_N`), which origins refer to.
inline constexpr std::string_view kShardingOriginNameAttr =
    "sdy.sharding_origin_name";

// An `sdy.mesh` op's mesh in StableHLO's dictionary form, which
// -sdy-lift-inlined-meshes attaches to every mesh op.
inline constexpr std::string_view kStablehloMeshAttr = "stablehlo.mesh";

// Set on the copies of a function that flattening the call graph makes: the
// name of the function they copy, and the manual axes their calls are
// nested in.
inline constexpr std::string_view kOriginalFuncNameAttr =
    "sdy.original_func_name";
inline constexpr std::string_view kFuncManualAxesAttr = "sdy.func_manual_axes";

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_SDY_ATTR_NAMES_H_
