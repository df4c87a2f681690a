// Typed handles of the StableHLO ops that shardkit singles out (data-flow
// ops, constants, the ops rules and passes treat specially). Every other
// StableHLO op is known by its registered traits only (op_name.h).
#ifndef SHARDKIT_DIALECT_STABLEHLO_STABLEHLO_OPS_H_
#define SHARDKIT_DIALECT_STABLEHLO_STABLEHLO_OPS_H_

#include <string_view>

#include "shardkit/export.h"
#include "shardkit/ir/op_base.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::stablehlo {

// `stablehlo.while(%x) cond {...} do {...}`: region 0 computes the
// condition, region 1 the next iteration's values.
class WhileOp : public OpBase<"stablehlo.while"> {
 public:
  using OpBase::OpBase;
  Region cond() const { return op_.region(0); }
  Region body() const { return op_.region(1); }
};

// `stablehlo.constant dense<...>`.
class ConstantOp : public OpBase<"stablehlo.constant"> {
 public:
  using OpBase::OpBase;
  const Attribute& value() const { return op_.attr("value"); }
};

// `stablehlo.custom_call @target(...)`.
class CustomCallOp : public OpBase<"stablehlo.custom_call"> {
 public:
  using OpBase::OpBase;
  // Empty when the attribute is missing.
  std::string_view callTargetName() const {
    return stringAttrOrEmpty(op_, "call_target_name");
  }
};

// Data-flow ops (besides while) and the terminator of StableHLO regions.
using CaseOp = PlainOp<"stablehlo.case">;
using OptimizationBarrierOp = PlainOp<"stablehlo.optimization_barrier">;
using ReturnOp = PlainOp<"stablehlo.return">;

// Elementwise ops singled out (by scatter's combiner check).
using AddOp = PlainOp<"stablehlo.add">;
using MaxOp = PlainOp<"stablehlo.maximum">;
using MinOp = PlainOp<"stablehlo.minimum">;
using ClampOp = PlainOp<"stablehlo.clamp">;
using SelectOp = PlainOp<"stablehlo.select">;
using BitcastConvertOp = PlainOp<"stablehlo.bitcast_convert">;
using NegOp = PlainOp<"stablehlo.negate">;
// The other reductions mpmd turns into cross-mesh reduces.
using OrOp = PlainOp<"stablehlo.or">;
using AndOp = PlainOp<"stablehlo.and">;
// More elementwise ops, for the graph builder (dialect/graph_builder.h).
using SubtractOp = PlainOp<"stablehlo.subtract">;
using MulOp = PlainOp<"stablehlo.multiply">;
using DivOp = PlainOp<"stablehlo.divide">;
using ExpOp = PlainOp<"stablehlo.exponential">;
using LogOp = PlainOp<"stablehlo.log">;
using TanhOp = PlainOp<"stablehlo.tanh">;
using SqrtOp = PlainOp<"stablehlo.sqrt">;
using AbsOp = PlainOp<"stablehlo.abs">;

// Shape ops.
using BroadcastInDimOp = PlainOp<"stablehlo.broadcast_in_dim">;
using ConcatenateOp = PlainOp<"stablehlo.concatenate">;
using DynamicSliceOp = PlainOp<"stablehlo.dynamic_slice">;
using DynamicUpdateSliceOp = PlainOp<"stablehlo.dynamic_update_slice">;
using IotaOp = PlainOp<"stablehlo.iota">;
using PadOp = PlainOp<"stablehlo.pad">;
using ReshapeOp = PlainOp<"stablehlo.reshape">;
using ReverseOp = PlainOp<"stablehlo.reverse">;
using SliceOp = PlainOp<"stablehlo.slice">;
using TransposeOp = PlainOp<"stablehlo.transpose">;

// Contractions, reductions, gathers and the other ops with their own rule.
using BatchNormGradOp = PlainOp<"stablehlo.batch_norm_grad">;
using BatchNormInferenceOp = PlainOp<"stablehlo.batch_norm_inference">;
using BatchNormTrainingOp = PlainOp<"stablehlo.batch_norm_training">;
using CholeskyOp = PlainOp<"stablehlo.cholesky">;
using ConvolutionOp = PlainOp<"stablehlo.convolution">;
using DotOp = PlainOp<"stablehlo.dot">;
using DotGeneralOp = PlainOp<"stablehlo.dot_general">;
using FftOp = PlainOp<"stablehlo.fft">;
using GatherOp = PlainOp<"stablehlo.gather">;
using ReduceOp = PlainOp<"stablehlo.reduce">;
using ReduceWindowOp = PlainOp<"stablehlo.reduce_window">;
using RngBitGeneratorOp = PlainOp<"stablehlo.rng_bit_generator">;
using ScatterOp = PlainOp<"stablehlo.scatter">;
using SelectAndScatterOp = PlainOp<"stablehlo.select_and_scatter">;
using SortOp = PlainOp<"stablehlo.sort">;
using TriangularSolveOp = PlainOp<"stablehlo.triangular_solve">;

// Ops -sdy-resolve-single-device-sharding builds to run an op on one device.
using CompareOp = PlainOp<"stablehlo.compare">;
using ConvertOp = PlainOp<"stablehlo.convert">;
using CreateTokenOp = PlainOp<"stablehlo.create_token">;
using IfOp = PlainOp<"stablehlo.if">;
using PartitionIdOp = PlainOp<"stablehlo.partition_id">;
using ReplicaIdOp = PlainOp<"stablehlo.replica_id">;

// Collectives.
using AllGatherOp = PlainOp<"stablehlo.all_gather">;
using AllReduceOp = PlainOp<"stablehlo.all_reduce">;
using AllToAllOp = PlainOp<"stablehlo.all_to_all">;
using CollectiveBroadcastOp = PlainOp<"stablehlo.collective_broadcast">;
using CollectivePermuteOp = PlainOp<"stablehlo.collective_permute">;
using CrossReplicaSumOp = PlainOp<"stablehlo.cross-replica-sum">;
using ReduceScatterOp = PlainOp<"stablehlo.reduce_scatter">;

// The other ops the interpreter evaluates (src/interp, by these kinds).
using AfterAllOp = PlainOp<"stablehlo.after_all">;
using Atan2Op = PlainOp<"stablehlo.atan2">;
using BroadcastOp = PlainOp<"stablehlo.broadcast">;
using CbrtOp = PlainOp<"stablehlo.cbrt">;
using CeilOp = PlainOp<"stablehlo.ceil">;
using ClzOp = PlainOp<"stablehlo.count_leading_zeros">;
using ComplexOp = PlainOp<"stablehlo.complex">;
using CompositeOp = PlainOp<"stablehlo.composite">;
using CosineOp = PlainOp<"stablehlo.cosine">;
using Expm1Op = PlainOp<"stablehlo.exponential_minus_one">;
using FloorOp = PlainOp<"stablehlo.floor">;
using GetDimensionSizeOp = PlainOp<"stablehlo.get_dimension_size">;
using GetTupleElementOp = PlainOp<"stablehlo.get_tuple_element">;
using ImagOp = PlainOp<"stablehlo.imag">;
using IsFiniteOp = PlainOp<"stablehlo.is_finite">;
using Log1pOp = PlainOp<"stablehlo.log_plus_one">;
using LogisticOp = PlainOp<"stablehlo.logistic">;
using MapOp = PlainOp<"stablehlo.map">;
using NotOp = PlainOp<"stablehlo.not">;
using PopcntOp = PlainOp<"stablehlo.popcnt">;
using PowOp = PlainOp<"stablehlo.power">;
using RealOp = PlainOp<"stablehlo.real">;
using ReducePrecisionOp = PlainOp<"stablehlo.reduce_precision">;
using RemOp = PlainOp<"stablehlo.remainder">;
using RoundNearestAfzOp = PlainOp<"stablehlo.round_nearest_afz">;
using RoundNearestEvenOp = PlainOp<"stablehlo.round_nearest_even">;
using RsqrtOp = PlainOp<"stablehlo.rsqrt">;
using ShiftLeftOp = PlainOp<"stablehlo.shift_left">;
using ShiftRightArithmeticOp = PlainOp<"stablehlo.shift_right_arithmetic">;
using ShiftRightLogicalOp = PlainOp<"stablehlo.shift_right_logical">;
using SignOp = PlainOp<"stablehlo.sign">;
using SineOp = PlainOp<"stablehlo.sine">;
using TanOp = PlainOp<"stablehlo.tan">;
using TupleOp = PlainOp<"stablehlo.tuple">;
using XorOp = PlainOp<"stablehlo.xor">;

}  // namespace shardkit::stablehlo

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_STABLEHLO_STABLEHLO_OPS_H_
