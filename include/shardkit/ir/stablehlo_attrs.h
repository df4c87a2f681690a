// Structured views of the StableHLO dialect attributes that shardkit keeps as
// text (`#stablehlo.dot<...>`, `#stablehlo.gather<...>`,
// `#stablehlo.conv<...>`).
#ifndef SHARDKIT_IR_STABLEHLO_ATTRS_H_
#define SHARDKIT_IR_STABLEHLO_ATTRS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/ir/attribute.h"

namespace shardkit {

// `key = value` fields of a dialect attribute `#dialect.name<k1 = v1, ...>`
// (values as text), or nullopt if `attr` is not of that shape.
std::optional<std::vector<std::pair<std::string, std::string>>>
dialectAttrFields(const Attribute& attr);
// The mnemonic of `#dialect.name<...>` (`dialect.name`), or empty.
std::string_view dialectAttrName(const Attribute& attr);

// `[1, 2]` → {1, 2}.
std::optional<std::vector<int64_t>> parseIntListText(std::string_view text);

struct DotDimensionNumbers {
  std::vector<int64_t> lhs_batching;
  std::vector<int64_t> rhs_batching;
  std::vector<int64_t> lhs_contracting;
  std::vector<int64_t> rhs_contracting;

  friend bool operator==(const DotDimensionNumbers&,
                         const DotDimensionNumbers&) = default;
};
std::optional<DotDimensionNumbers> getDotDimensionNumbers(
    const Attribute& attr);
// `#stablehlo.dot<...>` (empty lists omitted, as StableHLO prints it).
Attribute toAttribute(const DotDimensionNumbers& dims);

struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
  std::vector<int64_t> start_index_map;
  int64_t index_vector_dim = 0;
};
std::optional<GatherDimensionNumbers> getGatherDimensionNumbers(
    const Attribute& attr);

struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
};
std::optional<ScatterDimensionNumbers> getScatterDimensionNumbers(
    const Attribute& attr);

// `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`.
struct ConvDimensionNumbers {
  int64_t input_batch = 0;
  int64_t input_feature = 0;
  std::vector<int64_t> input_spatial;
  int64_t kernel_input_feature = 0;
  int64_t kernel_output_feature = 0;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0;
  int64_t output_feature = 0;
  std::vector<int64_t> output_spatial;
};
std::optional<ConvDimensionNumbers> getConvDimensionNumbers(
    const Attribute& attr);
// Parses the bracket form on its own.
std::optional<ConvDimensionNumbers> parseConvDimensionNumbers(
    std::string_view text);

}  // namespace shardkit

#endif  // SHARDKIT_IR_STABLEHLO_ATTRS_H_
