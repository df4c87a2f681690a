// One-shot parsers for every sdy attribute. Each accepts the full form
// (`#sdy.sharding<...>`) or the stripped form ops use (`<...>`), with nothing
// but whitespace around it. On bad text the status is InvalidArgument with
// "LINE:COL: expected X, got Y".
//
// Only syntax is checked; meshes are resolved and invariants enforced by the
// verifier (shardkit/core/verify.h).
#ifndef SHARDKIT_TEXT_PARSE_H_
#define SHARDKIT_TEXT_PARSE_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/collective_params.h"
#include "shardkit/core/dimension_sharding.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/propagation_direction.h"
#include "shardkit/core/propagation_edges.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

absl::StatusOr<Mesh> parseMesh(std::string_view text);  // #sdy.mesh<...>
absl::StatusOr<AxisRef> parseAxisRef(std::string_view text);
absl::StatusOr<AxisRefList> parseAxisRefList(std::string_view text);
absl::StatusOr<DimensionSharding> parseDimensionSharding(std::string_view text);
absl::StatusOr<TensorSharding> parseTensorSharding(std::string_view text);
absl::StatusOr<TensorShardingPerValue> parseTensorShardingPerValue(
    std::string_view text);  // #sdy.sharding_per_value<...>
absl::StatusOr<OpShardingRule> parseOpShardingRule(std::string_view text);
absl::StatusOr<ManualAxes> parseManualAxes(std::string_view text);
absl::StatusOr<ListOfAxisRefLists> parseListOfAxisRefLists(
    std::string_view text);
absl::StatusOr<AllToAllParamList> parseAllToAllParamList(std::string_view text);
absl::StatusOr<PropagationDirection> parsePropagationDirection(
    std::string_view text);
absl::StatusOr<PropagationEdges> parsePropagationEdges(
    std::string_view text);  // #sdy.propagation_edges<...>

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_TEXT_PARSE_H_
