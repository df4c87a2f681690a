// The texts of the StableHLO dialect attributes shardkit reads into plain
// structs (core/dimension_numbers.h) and writes back:
//   #stablehlo.dot<lhs_batching_dimensions = [0], ...>
//   #stablehlo.gather<offset_dims = [1], ..., index_vector_dim = 1>
//   #stablehlo.scatter<update_window_dims = [1], ...>
//   #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
//   #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = "x", size = 2>]>
// Any spacing is read; fields may come in any order, but each at most once
// and none unknown. A text that is not such an attribute gives nullopt.
#ifndef SHARDKIT_TEXT_STABLEHLO_ATTR_TEXT_H_
#define SHARDKIT_TEXT_STABLEHLO_ATTR_TEXT_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "shardkit/core/dimension_numbers.h"
#include "shardkit/core/mesh.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

std::optional<DotDimensionNumbers> parseDotDimensionNumbersAttr(
    std::string_view text);
// Empty lists are omitted, as StableHLO prints them.
std::string printDotDimensionNumbersAttr(const DotDimensionNumbers& dims);

std::optional<GatherDimensionNumbers> parseGatherDimensionNumbersAttr(
    std::string_view text);
std::optional<ScatterDimensionNumbers> parseScatterDimensionNumbersAttr(
    std::string_view text);
// Empty lists and an index_vector_dim of 0 are omitted, as StableHLO prints
// them.
std::string printGatherDimensionNumbersAttr(const GatherDimensionNumbers& dims);
std::string printScatterDimensionNumbersAttr(
    const ScatterDimensionNumbers& dims);

// The bracket form `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` on its own (as
// the pretty form of convolution writes it): every dimension is named once.
std::optional<ConvDimensionNumbers> parseConvDimensionNumbers(
    std::string_view text);
std::string printConvDimensionNumbers(const ConvDimensionNumbers& dims);
// `#stablehlo.conv<...>` around the bracket form.
std::optional<ConvDimensionNumbers> parseConvDimensionNumbersAttr(
    std::string_view text);
std::string printConvDimensionNumbersAttr(const ConvDimensionNumbers& dims);

// `#stablehlo.mesh<axes = [...], device_ids = ...>` (each axis
// `#stablehlo.mesh_axis<name = "x", size = 2>` or stripped `<name = ...>`)
// as an sdy mesh of its axes; device ids are not carried over. Errors say
// what is malformed.
absl::StatusOr<Mesh> parseStablehloMeshAxes(std::string_view text);

// `mesh` as StableHLO's mesh attribute, as the reference prints it:
// `#stablehlo.mesh<axes=[<name = "x", size = 2>]>`, with
// `, device_ids=dense<[...]> : tensor<Nxi64>` when it has explicit ids.
std::string printStablehloMesh(const Mesh& mesh);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_TEXT_STABLEHLO_ATTR_TEXT_H_
