// The StableHLO op table: every StableHLO op kind shardkit knows, with its
// signature (op_signature.h), its inherent attributes (printed in `<{...}>` in
// the generic form), its traits and the shared pretty form it is written in,
// if any.
#include "src/dialect/stablehlo/stablehlo_ops_table.h"
#include "src/ir/op_registration.h"

namespace shardkit::ir_internal {
namespace {

using F = HloForm;
// StableHLO's elementwise ops have no side effects.
constexpr OpTraits kEw = OpTrait::kElementwise | OpTrait::kPure;
constexpr OpTraits kPure = OpTrait::kPure;
constexpr OpTraits kDataFlow = OpTrait::kDataFlowEdges;
constexpr OpTraits kPassThrough = OpTrait::kPriorityPassThrough;
constexpr OpTraits kForward = OpTrait::kPriorityForwardPassThrough;
constexpr OpTraits kBroadcast = OpTrait::kPriorityBroadcast;
constexpr OpTraits kTerminator = OpTrait::kTerminator;

using TypeRule = OpSignature::TypeRule;
constexpr TypeRule kShape = TypeRule::kSameShape;
constexpr TypeRule kShapeOrScalar = TypeRule::kSameShapeOrScalarOperands;
constexpr TypeRule kPairwise = TypeRule::kResultsMatchOperands;
constexpr Arity kUnary = kOne, kBinary = exactly(2), kTernary = exactly(3);
constexpr Arity kHalfOfOperands = {Arity::kHalfOfOperands, 0};
constexpr Arity kScatterResults = {Arity::kScatterResults, 0};

// The signature of an elementwise op of `operands`: one result, no regions,
// the same shape everywhere.
constexpr OpSignature ew(Arity operands) {
  return sig(operands, kOne, kZero, kShape);
}

// clang-format off
const StablehloOpRow kStablehloOps[] = {
    {"stablehlo.abs", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.add", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.after_all", sig(kAny, kOne), {}, {}},
    {"stablehlo.all_gather", sig(atLeast(1), kPerOperand),
     {"all_gather_dim", "replica_groups", "channel_handle",
      "use_global_device_ids"}, {}},
    {"stablehlo.all_reduce", sig(atLeast(1), kPerOperand, kOne, kPairwise),
     {"replica_groups", "channel_handle", "use_global_device_ids"}, {}},
    {"stablehlo.all_to_all", sig(atLeast(1), kPerOperand),
     {"split_dimension", "concat_dimension", "split_count", "replica_groups",
      "channel_handle"}, {}},
    {"stablehlo.and", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.atan2", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.async_done", sig(kAny, kAny), {}, {}},
    {"stablehlo.async_start", sig(kAny, kAny), {}, {}},
    {"stablehlo.batch_norm_grad", sig(exactly(5), exactly(3)),
     {"epsilon", "feature_index"}, {}},
    {"stablehlo.batch_norm_inference", sig(exactly(5), kOne),
     {"epsilon", "feature_index"}, {}},
    {"stablehlo.batch_norm_training", sig(kTernary, exactly(3)),
     {"epsilon", "feature_index"}, {}},
    {"stablehlo.bitcast_convert", sig(kUnary, kOne), {}, {}, F::kFunctional},
    {"stablehlo.broadcast", sig(kUnary, kOne),
     {"broadcast_sizes"}, kPure, F::kKeywordList},
    {"stablehlo.broadcast_in_dim", sig(kUnary, kOne),
     {"broadcast_dimensions"}, kBroadcast | kPure, F::kKeywordList},
    {"stablehlo.case", sig(kOne, kAny, atLeast(1)), {}, kDataFlow},
    {"stablehlo.cbrt", ew(kUnary), {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.ceil", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.cholesky", sig(kUnary, kOne), {"lower"}, {}},
    {"stablehlo.clamp", sig(kTernary, kOne, kZero, kShapeOrScalar),
     {}, kEw, F::kElementwise},
    {"stablehlo.collective_broadcast", sig(kUnary, kOne),
     {"replica_groups", "channel_handle"}, {}},
    {"stablehlo.collective_permute", sig(kUnary, kOne),
     {"source_target_pairs", "channel_handle"}, {}},
    {"stablehlo.compare", ew(kBinary),
     {"comparison_direction", "compare_type"}, kEw},
    {"stablehlo.complex", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.composite", sig(kAny, kAny),
     {"name", "composite_attributes", "decomposition", "version"}, {}},
    {"stablehlo.concatenate", sig(atLeast(1), kOne),
     {"dimension"}, kPure, F::kKeywordInt},
    {"stablehlo.constant", sig(kZero, kOne), {"value"}, kPure},
    {"stablehlo.convert", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.convolution", sig(kBinary, kOne),
     {"window_strides", "padding", "lhs_dilation", "rhs_dilation",
      "window_reversal", "dimension_numbers", "feature_group_count",
      "batch_group_count", "precision_config"}, {}},
    {"stablehlo.cosine", ew(kUnary), {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.count_leading_zeros", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.create_token", sig(kZero, kOne), {}, {}, F::kNullary},
    {"stablehlo.cross-replica-sum", sig(kUnary, kOne), {"replica_groups"}, {}},
    {"stablehlo.custom_call", sig(kAny, kAny),
     {"call_target_name", "has_side_effect", "backend_config", "api_version",
      "called_computations", "operand_layouts", "result_layouts",
      "output_operand_aliases"}, {}},
    {"stablehlo.divide", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.dot", sig(kBinary, kOne), {"precision_config"}, kPure},
    {"stablehlo.dot_general", sig(kBinary, kOne),
     {"dot_dimension_numbers", "precision_config", "algorithm"}, kPure},
    {"stablehlo.dynamic_broadcast_in_dim", sig(kBinary, kOne),
     {"broadcast_dimensions", "known_expanding_dimensions",
      "known_nonexpanding_dimensions"}, {}},
    {"stablehlo.dynamic_conv", sig(kTernary, kOne),
     {"window_strides", "lhs_dilation", "rhs_dilation", "window_reversal",
      "dimension_numbers", "feature_group_count", "batch_group_count",
      "precision_config"}, {}},
    {"stablehlo.dynamic_gather", sig(kTernary, kOne),
     {"dimension_numbers", "indices_are_sorted"}, {}},
    {"stablehlo.dynamic_iota", sig(kUnary, kOne),
     {"iota_dimension"}, {}, F::kKeywordInt},
    {"stablehlo.dynamic_pad", sig(exactly(5), kOne), {}, {}, F::kFunctional},
    {"stablehlo.dynamic_reshape", sig(kBinary, kOne), {}, {}, F::kFunctional},
    {"stablehlo.dynamic_slice", sig(atLeast(1), kOne),
     {"slice_sizes"}, kForward | kPure},
    {"stablehlo.dynamic_update_slice", sig(atLeast(2), kOne),
     {}, kForward | kPure, F::kFunctional},
    {"stablehlo.einsum", sig(kBinary, kOne), {"einsum_config"}, {}},
    {"stablehlo.exponential", ew(kUnary),
     {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.exponential_minus_one", ew(kUnary),
     {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.fft", sig(kUnary, kOne), {"fft_type", "fft_length"}, {}},
    {"stablehlo.floor", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.gather", sig(kBinary, kOne),
     {"dimension_numbers", "slice_sizes", "indices_are_sorted"}, {}},
    {"stablehlo.get_dimension_size", sig(kUnary, kOne),
     {"dimension"}, {}, F::kKeywordInt},
    {"stablehlo.get_tuple_element", sig(kUnary, kOne), {"index"}, kPure},
    {"stablehlo.if", sig(kOne, kAny, exactly(2)), {}, {}},
    {"stablehlo.imag", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.infeed", sig(kOne, atLeast(1)),
     {"infeed_config", "layout"}, {}},
    {"stablehlo.iota", sig(kZero, kOne),
     {"iota_dimension"}, kPure, F::kKeywordInt},
    {"stablehlo.is_finite", ew(kUnary), {}, kEw, F::kFunctional},
    {"stablehlo.log", ew(kUnary), {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.log_plus_one", ew(kUnary),
     {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.logistic", ew(kUnary),
     {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.map", sig(atLeast(1), kOne, kOne, kShape), {"dimensions"}, kEw},
    {"stablehlo.maximum", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.minimum", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.multiply", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.negate", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.not", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.optimization_barrier", sig(kAny, kPerOperand, kZero, kPairwise),
     {}, kDataFlow},
    {"stablehlo.or", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.outfeed", sig(atLeast(1), kOne), {"outfeed_config"}, {}},
    {"stablehlo.pad", sig(kBinary, kOne),
     {"edge_padding_low", "edge_padding_high", "interior_padding"}, kPure},
    {"stablehlo.partition_id", sig(kZero, kOne), {}, {}, F::kNullary},
    {"stablehlo.popcnt", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.power", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.real", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.real_dynamic_slice", sig(exactly(4), kOne),
     {}, {}, F::kFunctional},
    {"stablehlo.recv", sig(kOne, atLeast(1)),
     {"channel_handle", "is_host_transfer", "source_target_pairs"}, {}},
    {"stablehlo.reduce", sig(atLeast(2), kHalfOfOperands, kOne),
     {"dimensions"}, {}},
    {"stablehlo.reduce_precision", ew(kUnary),
     {"exponent_bits", "mantissa_bits"}, kEw},
    {"stablehlo.reduce_scatter", sig(atLeast(1), kPerOperand, kOne),
     {"scatter_dimension", "replica_groups", "channel_handle",
      "use_global_device_ids"}, {}},
    {"stablehlo.reduce_window", sig(atLeast(2), kHalfOfOperands, kOne),
     {"window_dimensions", "window_strides", "base_dilations",
      "window_dilations", "padding"}, {}},
    {"stablehlo.remainder", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.replica_id", sig(kZero, kOne), {}, {}, F::kNullary},
    {"stablehlo.reshape", sig(kUnary, kOne),
     {}, kPassThrough | kPure, F::kFunctional},
    {"stablehlo.return", sig(kAny, kZero), {}, kTerminator},
    {"stablehlo.reverse", sig(kUnary, kOne),
     {"dimensions"}, kPure, F::kKeywordList},
    {"stablehlo.rng", sig(kTernary, kOne), {"rng_distribution"}, {}},
    {"stablehlo.rng_bit_generator", sig(kUnary, exactly(2)),
     {"rng_algorithm"}, {}},
    {"stablehlo.round_nearest_afz", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.round_nearest_even", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.rsqrt", ew(kUnary), {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.scatter", sig(atLeast(3), kScatterResults, kOne),
     {"scatter_dimension_numbers", "indices_are_sorted", "unique_indices"}, {}},
    {"stablehlo.select", sig(kTernary, kOne, kZero, kShapeOrScalar), {}, kEw},
    {"stablehlo.select_and_scatter", sig(kTernary, kOne, exactly(2)),
     {"window_dimensions", "window_strides", "padding"}, {}},
    {"stablehlo.send", sig(atLeast(1), kOne),
     {"channel_handle", "is_host_transfer", "source_target_pairs"}, {}},
    {"stablehlo.set_dimension_size", sig(kBinary, kOne),
     {"dimension"}, {}, F::kKeywordInt},
    {"stablehlo.shift_left", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.shift_right_arithmetic", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.shift_right_logical", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.sign", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.sine", ew(kUnary), {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.slice", sig(kUnary, kOne),
     {"start_indices", "limit_indices", "strides"}, kPure},
    {"stablehlo.sort", sig(atLeast(1), kPerOperand, kOne, kPairwise),
     {"dimension", "is_stable"}, {}},
    {"stablehlo.sqrt", ew(kUnary), {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.subtract", ew(kBinary), {}, kEw, F::kElementwise},
    {"stablehlo.tan", ew(kUnary), {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.tanh", ew(kUnary), {"result_accuracy"}, kEw, F::kElementwise},
    {"stablehlo.torch_index_select", sig(kBinary, kOne),
     {"dim", "batch_dims"}, {}},
    {"stablehlo.transpose", sig(kUnary, kOne),
     {"permutation"}, kPassThrough | kPure, F::kKeywordList},
    {"stablehlo.triangular_solve", sig(kBinary, kOne),
     {"left_side", "lower", "unit_diagonal", "transpose_a"}, {}},
    {"stablehlo.tuple", sig(kAny, kOne), {}, kPure},
    {"stablehlo.unary_einsum", sig(kUnary, kOne), {"einsum_config"}, {}},
    {"stablehlo.uniform_dequantize", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.uniform_quantize", ew(kUnary), {}, kEw, F::kElementwise},
    {"stablehlo.while", sig(kAny, kPerOperand, exactly(2), kPairwise),
     {}, kDataFlow},
    {"stablehlo.xor", ew(kBinary), {}, kEw, F::kElementwise},
};
// clang-format on

}  // namespace

absl::Span<const StablehloOpRow> stablehloOpTable() { return kStablehloOps; }

void registerStablehloOps() {
  for (const StablehloOpRow& row : kStablehloOps) {
    registerBuiltinOp(row.name, row.inherent, row.traits, nullptr, {},
                      row.signature);
  }
}

}  // namespace shardkit::ir_internal
