// The signature table: how many operands, results and regions each known
// op takes, and what its operand and result types must agree on. The
// verifier checks it before the op's own hook, so hooks, rules and passes
// can rely on the counts. Messages follow MLIR's generated verifiers
// ("expected 2 operands, but found 3").
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/sdy_ops.h"
#include "src/ir/op_name_map.h"
#include "src/ir/verify_util.h"

namespace shardkit::ir_internal {
namespace {

// How many of something an op takes.
struct Arity {
  enum Kind : uint8_t {
    kExactly,
    kAtLeast,
    kAtMost,
    kPerOperand,       // results: one per operand
    kHalfOfOperands,   // results of reduce, reduce_window: inputs + inits
    kScatterResults,   // results of scatter: N inputs, indices, N updates
    kCalleeDependent,  // anything (func.call, custom_call, ...)
  };
  Kind kind = kExactly;
  uint16_t n = 0;
};

constexpr Arity exactly(uint16_t n) { return {Arity::kExactly, n}; }
constexpr Arity atLeast(uint16_t n) { return {Arity::kAtLeast, n}; }
constexpr Arity atMost(uint16_t n) { return {Arity::kAtMost, n}; }
constexpr Arity kAny = {Arity::kCalleeDependent, 0};
constexpr Arity kPerOperand = {Arity::kPerOperand, 0};
constexpr Arity kZero = exactly(0);
constexpr Arity kOne = exactly(1);

// What the operand and result types agree on.
enum class TypeRule : uint8_t {
  kNone,
  // Every ranked tensor operand and result has the same shape (a dynamic
  // size matches any size): StableHLO's elementwise ops.
  kSameShape,
  // kSameShape, but operands may also be rank 0 (select's predicate,
  // clamp's bounds).
  kSameShapeOrScalarOperands,
  // Result i has the type of operand i (while, sort, all_reduce, ...).
  kResultsMatchOperands,
};

struct Signature {
  std::string_view name;
  Arity operands;
  Arity results;
  Arity regions = kZero;
  TypeRule types = TypeRule::kNone;
};

constexpr TypeRule kShape = TypeRule::kSameShape;
constexpr TypeRule kShapeOrScalar = TypeRule::kSameShapeOrScalarOperands;
constexpr TypeRule kPairwise = TypeRule::kResultsMatchOperands;
constexpr Arity kUnary = kOne, kBinary = exactly(2), kTernary = exactly(3);

// The signature of an elementwise op of `operands`: one result, no regions,
// the same shape everywhere.
constexpr Signature elementwise(std::string_view name, Arity operands) {
  return {name, operands, kOne, kZero, kShape};
}

// clang-format off
constexpr Signature kSignatures[] = {
    // func (a declaration may have no region)
    {FuncOp::kName, kZero, kZero, atMost(1)},
    {func::ReturnOp::kName, kAny, kZero},
    {func::CallOp::kName, kAny, kAny},
    // sdy ops whose hooks do not already check their counts
    {sdy::MeshOp::kName, kZero, kZero},
    {sdy::ShardingGroupOp::kName, kOne, kZero},
    {sdy::ConstantOp::kName, kZero, kOne},
    {sdy::ReturnOp::kName, kAny, kZero},
    // stablehlo: elementwise
    elementwise("stablehlo.abs", kUnary),
    elementwise("stablehlo.add", kBinary),
    elementwise("stablehlo.and", kBinary),
    elementwise("stablehlo.atan2", kBinary),
    elementwise("stablehlo.cbrt", kUnary),
    elementwise("stablehlo.ceil", kUnary),
    {"stablehlo.clamp", kTernary, kOne, kZero, kShapeOrScalar},
    elementwise("stablehlo.compare", kBinary),
    elementwise("stablehlo.complex", kBinary),
    elementwise("stablehlo.convert", kUnary),
    elementwise("stablehlo.cosine", kUnary),
    elementwise("stablehlo.count_leading_zeros", kUnary),
    elementwise("stablehlo.divide", kBinary),
    elementwise("stablehlo.exponential", kUnary),
    elementwise("stablehlo.exponential_minus_one", kUnary),
    elementwise("stablehlo.floor", kUnary),
    elementwise("stablehlo.imag", kUnary),
    elementwise("stablehlo.is_finite", kUnary),
    elementwise("stablehlo.log", kUnary),
    elementwise("stablehlo.log_plus_one", kUnary),
    elementwise("stablehlo.logistic", kUnary),
    {"stablehlo.map", atLeast(1), kOne, kOne, kShape},
    elementwise("stablehlo.maximum", kBinary),
    elementwise("stablehlo.minimum", kBinary),
    elementwise("stablehlo.multiply", kBinary),
    elementwise("stablehlo.negate", kUnary),
    elementwise("stablehlo.not", kUnary),
    elementwise("stablehlo.or", kBinary),
    elementwise("stablehlo.popcnt", kUnary),
    elementwise("stablehlo.power", kBinary),
    elementwise("stablehlo.real", kUnary),
    elementwise("stablehlo.reduce_precision", kUnary),
    elementwise("stablehlo.remainder", kBinary),
    elementwise("stablehlo.round_nearest_afz", kUnary),
    elementwise("stablehlo.round_nearest_even", kUnary),
    elementwise("stablehlo.rsqrt", kUnary),
    {"stablehlo.select", kTernary, kOne, kZero, kShapeOrScalar},
    elementwise("stablehlo.shift_left", kBinary),
    elementwise("stablehlo.shift_right_arithmetic", kBinary),
    elementwise("stablehlo.shift_right_logical", kBinary),
    elementwise("stablehlo.sign", kUnary),
    elementwise("stablehlo.sine", kUnary),
    elementwise("stablehlo.sqrt", kUnary),
    elementwise("stablehlo.subtract", kBinary),
    elementwise("stablehlo.tan", kUnary),
    elementwise("stablehlo.tanh", kUnary),
    elementwise("stablehlo.uniform_dequantize", kUnary),
    elementwise("stablehlo.uniform_quantize", kUnary),
    elementwise("stablehlo.xor", kBinary),
    // stablehlo: everything else
    {"stablehlo.after_all", kAny, kOne},
    {"stablehlo.all_gather", atLeast(1), kPerOperand},
    {"stablehlo.all_reduce", atLeast(1), kPerOperand, kOne, kPairwise},
    {"stablehlo.all_to_all", atLeast(1), kPerOperand},
    {"stablehlo.async_done", kAny, kAny},
    {"stablehlo.async_start", kAny, kAny},
    {"stablehlo.batch_norm_grad", exactly(5), exactly(3)},
    {"stablehlo.batch_norm_inference", exactly(5), kOne},
    {"stablehlo.batch_norm_training", kTernary, exactly(3)},
    {"stablehlo.bitcast_convert", kUnary, kOne},
    {"stablehlo.broadcast", kUnary, kOne},
    {"stablehlo.broadcast_in_dim", kUnary, kOne},
    {"stablehlo.case", kOne, kAny, atLeast(1)},
    {"stablehlo.cholesky", kUnary, kOne},
    {"stablehlo.collective_broadcast", kUnary, kOne},
    {"stablehlo.collective_permute", kUnary, kOne},
    {"stablehlo.composite", kAny, kAny},
    {"stablehlo.concatenate", atLeast(1), kOne},
    {"stablehlo.constant", kZero, kOne},
    {"stablehlo.convolution", kBinary, kOne},
    {"stablehlo.create_token", kZero, kOne},
    {"stablehlo.cross-replica-sum", kUnary, kOne},
    {"stablehlo.custom_call", kAny, kAny},
    {"stablehlo.dot", kBinary, kOne},
    {"stablehlo.dot_general", kBinary, kOne},
    {"stablehlo.dynamic_broadcast_in_dim", kBinary, kOne},
    {"stablehlo.dynamic_conv", kTernary, kOne},
    {"stablehlo.dynamic_gather", kTernary, kOne},
    {"stablehlo.dynamic_iota", kUnary, kOne},
    {"stablehlo.dynamic_pad", exactly(5), kOne},
    {"stablehlo.dynamic_reshape", kBinary, kOne},
    {"stablehlo.dynamic_slice", atLeast(1), kOne},
    {"stablehlo.dynamic_update_slice", atLeast(2), kOne},
    {"stablehlo.einsum", kBinary, kOne},
    {"stablehlo.fft", kUnary, kOne},
    {"stablehlo.gather", kBinary, kOne},
    {"stablehlo.get_dimension_size", kUnary, kOne},
    {"stablehlo.get_tuple_element", kUnary, kOne},
    {"stablehlo.if", kOne, kAny, exactly(2)},
    {"stablehlo.infeed", kOne, atLeast(1)},
    {"stablehlo.iota", kZero, kOne},
    {"stablehlo.optimization_barrier", kAny, kPerOperand, kZero, kPairwise},
    {"stablehlo.outfeed", atLeast(1), kOne},
    {"stablehlo.pad", kBinary, kOne},
    {"stablehlo.partition_id", kZero, kOne},
    {"stablehlo.real_dynamic_slice", exactly(4), kOne},
    {"stablehlo.recv", kOne, atLeast(1)},
    {"stablehlo.reduce", atLeast(2), {Arity::kHalfOfOperands, 0}, kOne},
    {"stablehlo.reduce_scatter", atLeast(1), kPerOperand, kOne},
    {"stablehlo.reduce_window", atLeast(2), {Arity::kHalfOfOperands, 0}, kOne},
    {"stablehlo.replica_id", kZero, kOne},
    {"stablehlo.reshape", kUnary, kOne},
    {"stablehlo.return", kAny, kZero},
    {"stablehlo.reverse", kUnary, kOne},
    {"stablehlo.rng", kTernary, kOne},
    {"stablehlo.rng_bit_generator", kUnary, exactly(2)},
    {"stablehlo.scatter", atLeast(3), {Arity::kScatterResults, 0}, kOne},
    {"stablehlo.select_and_scatter", kTernary, kOne, exactly(2)},
    {"stablehlo.send", atLeast(1), kOne},
    {"stablehlo.set_dimension_size", kBinary, kOne},
    {"stablehlo.slice", kUnary, kOne},
    {"stablehlo.sort", atLeast(1), kPerOperand, kOne, kPairwise},
    {"stablehlo.torch_index_select", kBinary, kOne},
    {"stablehlo.transpose", kUnary, kOne},
    {"stablehlo.triangular_solve", kBinary, kOne},
    {"stablehlo.tuple", kAny, kOne},
    {"stablehlo.unary_einsum", kUnary, kOne},
    {"stablehlo.while", kAny, kPerOperand, exactly(2), kPairwise},
};
// clang-format on

const Signature* findSignature(std::string_view name) {
  static const auto* index = [] {
    auto* map = new absl::flat_hash_map<std::string, const Signature*>();
    for (const Signature& s : kSignatures) map->emplace(s.name, &s);
    return map;
  }();
  auto it = index->find(toAbsl(name));
  return it == index->end() ? nullptr : it->second;
}

// Checks `count` of `what` ("operand", "result", "region") against `arity`;
// the per-operand kinds depend on the op's number of `operands`.
absl::Status checkCount(Arity arity, size_t count, size_t operands,
                        std::string_view what) {
  switch (arity.kind) {
    case Arity::kCalleeDependent:
      return absl::OkStatus();
    case Arity::kAtLeast:
      if (count >= arity.n) return absl::OkStatus();
      return verifyError(strCat("expected ", arity.n, " or more ", what,
                                "s, but found ", count));
    case Arity::kAtMost:
      if (count <= arity.n) return absl::OkStatus();
      return verifyError(strCat("expected at most ", arity.n, " ", what,
                                arity.n == 1 ? "" : "s", ", but found ",
                                count));
    case Arity::kPerOperand:
      if (count == operands) return absl::OkStatus();
      return verifyError(strCat("expected one ", what, " per operand (",
                                operands, "), but found ", count));
    case Arity::kHalfOfOperands:
    case Arity::kScatterResults: {
      bool scatter = arity.kind == Arity::kScatterResults;
      size_t inputs = scatter ? (operands - 1) / 2 : operands / 2;
      if (operands != (scatter ? 2 * inputs + 1 : 2 * inputs)) {
        return verifyError(strCat(
            "expected ",
            scatter ? "an odd number of operands (inputs, indices and one "
                      "update per input)"
                    : "an even number of operands (inputs and one init "
                      "value per input)",
            ", but found ", operands));
      }
      if (count == inputs) return absl::OkStatus();
      return verifyError(strCat("expected ", inputs, " ", what,
                                "s (one per input), but found ", count));
    }
    case Arity::kExactly:
      break;
  }
  if (count == arity.n) return absl::OkStatus();
  if (arity.n == 0) return verifyError(strCat("requires zero ", what, "s"));
  return verifyError(strCat("expected ", arity.n, " ", what,
                            arity.n == 1 ? "" : "s", ", but found ", count));
}

// Whether two ranked shapes agree, a dynamic size agreeing with any size.
bool compatibleShapes(Type a, Type b) {
  if (a.rank() != b.rank()) return false;
  for (int64_t d = 0; d < a.rank(); ++d) {
    int64_t x = a.shape()[d], y = b.shape()[d];
    if (x != y && x != kDynamicSize && y != kDynamicSize) return false;
  }
  return true;
}

absl::Status checkTypes(Op op, TypeRule rule) {
  if (rule == TypeRule::kResultsMatchOperands) {
    for (unsigned i = 0; i < op.numResults(); ++i) {
      if (op.result(i).type() != op.operand(i).type()) {
        return verifyError(strCat("requires result ", i, " ('",
                                  op.result(i).type().str(),
                                  "') to have the type of operand ", i, " ('",
                                  op.operand(i).type().str(), "')"));
      }
    }
    return absl::OkStatus();
  }
  if (rule == TypeRule::kNone) return absl::OkStatus();
  // The shapes of the ranked tensors agree, the result's first.
  Type first;
  auto agrees = [&](Type t) {
    if (!t.isRankedTensor()) return true;
    if (!first) {
      first = t;
      return true;
    }
    return t == first || compatibleShapes(first, t);
  };
  bool ok = true;
  for (unsigned i = 0; ok && i < op.numResults(); ++i) {
    ok = agrees(op.result(i).type());
  }
  for (unsigned i = 0; ok && i < op.numOperands(); ++i) {
    Type t = op.operand(i).type();
    if (rule == TypeRule::kSameShapeOrScalarOperands && t.isRankedTensor() &&
        t.rank() == 0) {
      continue;
    }
    ok = agrees(t);
  }
  if (ok) return absl::OkStatus();
  return verifyError("requires the same shape for all operands and results");
}

}  // namespace

// The signature of `name`: registered op kinds live as long as the process,
// so their lookups are remembered by entry (per thread: verifiers may run on
// several).
const Signature* signatureOf(OpName name) {
  auto find = [](OpName n) { return findSignature(n.str()); };
  if (!name.isRegistered()) return find(name);
  thread_local OpNameMap<const Signature*> cache;
  return cache.get(name, find);
}

absl::Status verifyOpSignature(Op op) {
  const Signature* signature = signatureOf(op.opName());
  if (signature == nullptr) return absl::OkStatus();
  size_t operands = op.numOperands();
  size_t results = op.numResults();
  size_t regions = op.numRegions();
  // Most ops have exactly the counts they declare: no Status to make.
  auto exact = [](Arity arity, size_t count) {
    return arity.kind == Arity::kExactly && count == arity.n;
  };
  if (!exact(signature->operands, operands)) {
    SK_RETURN_IF_ERROR(
        checkCount(signature->operands, operands, operands, "operand"));
  }
  if (!exact(signature->results, results)) {
    SK_RETURN_IF_ERROR(
        checkCount(signature->results, results, operands, "result"));
  }
  if (!exact(signature->regions, regions)) {
    SK_RETURN_IF_ERROR(
        checkCount(signature->regions, regions, operands, "region"));
  }
  return checkTypes(op, signature->types);
}

}  // namespace shardkit::ir_internal
