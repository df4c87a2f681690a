// The StableHLO op kinds shardkit knows, with their inherent attributes
// (printed in `<{...}>` when an op is printed in generic form).
#include <initializer_list>
#include <string>
#include <string_view>

#include "shardkit/core/strings.h"
#include "shardkit/ir/op_name.h"

namespace shardkit {

OpName registerBuiltinOpInfo(std::string_view name, OpInfo info);

namespace {

struct Entry {
  std::string_view name;
  std::initializer_list<std::string_view> inherent;
};

// Ops whose only inherent attribute is `result_accuracy`.
constexpr std::string_view kAccuracyOps[] = {
    "cbrt", "cosine",       "exponential", "exponential_minus_one",
    "log",  "log_plus_one", "logistic",    "rsqrt",
    "sine", "sqrt",         "tan",         "tanh"};

// Ops without inherent attributes.
constexpr std::string_view kPlainOps[] = {"abs",
                                          "add",
                                          "after_all",
                                          "and",
                                          "atan2",
                                          "bitcast_convert",
                                          "case",
                                          "ceil",
                                          "clamp",
                                          "complex",
                                          "convert",
                                          "count_leading_zeros",
                                          "create_token",
                                          "divide",
                                          "dynamic_pad",
                                          "dynamic_reshape",
                                          "dynamic_update_slice",
                                          "floor",
                                          "if",
                                          "imag",
                                          "is_finite",
                                          "maximum",
                                          "minimum",
                                          "multiply",
                                          "negate",
                                          "not",
                                          "optimization_barrier",
                                          "or",
                                          "partition_id",
                                          "popcnt",
                                          "power",
                                          "real",
                                          "real_dynamic_slice",
                                          "remainder",
                                          "replica_id",
                                          "reshape",
                                          "round_nearest_afz",
                                          "round_nearest_even",
                                          "select",
                                          "shift_left",
                                          "shift_right_arithmetic",
                                          "shift_right_logical",
                                          "sign",
                                          "subtract",
                                          "tuple",
                                          "uniform_dequantize",
                                          "uniform_quantize",
                                          "while",
                                          "xor",
                                          "async_start",
                                          "async_done"};

const Entry kEntries[] = {
    {"all_gather",
     {"all_gather_dim", "replica_groups", "channel_handle",
      "use_global_device_ids"}},
    {"all_reduce",
     {"replica_groups", "channel_handle", "use_global_device_ids"}},
    {"all_to_all",
     {"split_dimension", "concat_dimension", "split_count", "replica_groups",
      "channel_handle"}},
    {"batch_norm_grad", {"epsilon", "feature_index"}},
    {"batch_norm_inference", {"epsilon", "feature_index"}},
    {"batch_norm_training", {"epsilon", "feature_index"}},
    {"broadcast", {"broadcast_sizes"}},
    {"broadcast_in_dim", {"broadcast_dimensions"}},
    {"cholesky", {"lower"}},
    {"collective_broadcast", {"replica_groups", "channel_handle"}},
    {"collective_permute", {"source_target_pairs", "channel_handle"}},
    {"compare", {"comparison_direction", "compare_type"}},
    {"composite", {"name", "composite_attributes", "decomposition", "version"}},
    {"concatenate", {"dimension"}},
    {"constant", {"value"}},
    {"convolution",
     {"window_strides", "padding", "lhs_dilation", "rhs_dilation",
      "window_reversal", "dimension_numbers", "feature_group_count",
      "batch_group_count", "precision_config"}},
    {"cross-replica-sum", {"replica_groups"}},
    {"custom_call",
     {"call_target_name", "has_side_effect", "backend_config", "api_version",
      "called_computations", "operand_layouts", "result_layouts",
      "output_operand_aliases"}},
    {"dot", {"precision_config"}},
    {"dot_general", {"dot_dimension_numbers", "precision_config", "algorithm"}},
    {"dynamic_broadcast_in_dim",
     {"broadcast_dimensions", "known_expanding_dimensions",
      "known_nonexpanding_dimensions"}},
    {"dynamic_conv",
     {"window_strides", "lhs_dilation", "rhs_dilation", "window_reversal",
      "dimension_numbers", "feature_group_count", "batch_group_count",
      "precision_config"}},
    {"dynamic_gather", {"dimension_numbers", "indices_are_sorted"}},
    {"dynamic_iota", {"iota_dimension"}},
    {"dynamic_slice", {"slice_sizes"}},
    {"einsum", {"einsum_config"}},
    {"fft", {"fft_type", "fft_length"}},
    {"gather", {"dimension_numbers", "slice_sizes", "indices_are_sorted"}},
    {"get_dimension_size", {"dimension"}},
    {"get_tuple_element", {"index"}},
    {"infeed", {"infeed_config", "layout"}},
    {"iota", {"iota_dimension"}},
    {"map", {"dimensions"}},
    {"outfeed", {"outfeed_config"}},
    {"pad", {"edge_padding_low", "edge_padding_high", "interior_padding"}},
    {"recv", {"channel_handle", "is_host_transfer", "source_target_pairs"}},
    {"reduce", {"dimensions"}},
    {"reduce_precision", {"exponent_bits", "mantissa_bits"}},
    {"reduce_scatter",
     {"scatter_dimension", "replica_groups", "channel_handle",
      "use_global_device_ids"}},
    {"reduce_window",
     {"window_dimensions", "window_strides", "base_dilations",
      "window_dilations", "padding"}},
    {"reverse", {"dimensions"}},
    {"rng", {"rng_distribution"}},
    {"rng_bit_generator", {"rng_algorithm"}},
    {"scatter",
     {"scatter_dimension_numbers", "indices_are_sorted", "unique_indices"}},
    {"select_and_scatter", {"window_dimensions", "window_strides", "padding"}},
    {"send", {"channel_handle", "is_host_transfer", "source_target_pairs"}},
    {"set_dimension_size", {"dimension"}},
    {"slice", {"start_indices", "limit_indices", "strides"}},
    {"sort", {"dimension", "is_stable"}},
    {"torch_index_select", {"dim", "batch_dims"}},
    {"transpose", {"permutation"}},
    {"triangular_solve",
     {"left_side", "lower", "unit_diagonal", "transpose_a"}},
    {"unary_einsum", {"einsum_config"}},
};

void add(std::string_view op, std::initializer_list<std::string_view> inherent,
         bool terminator = false) {
  OpInfo info;
  for (std::string_view a : inherent) info.inherent_attrs.emplace_back(a);
  info.is_terminator = terminator;
  registerBuiltinOpInfo(strCat("stablehlo.", op), std::move(info));
}

}  // namespace

void registerStablehloOps() {
  for (std::string_view op : kAccuracyOps) add(op, {"result_accuracy"});
  for (std::string_view op : kPlainOps) add(op, {});
  for (const Entry& e : kEntries) add(e.name, e.inherent);
  add("return", {}, /*terminator=*/true);
}

}  // namespace shardkit
