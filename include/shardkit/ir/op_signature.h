// OpSignature: what an op kind declares of its operands, results and
// regions (how many of each, and what their types agree on), part of its
// registration (OpInfo::signature). The verifier checks it before the op
// kind's own hook, so hooks, rules and passes can rely on the counts; its
// messages follow MLIR's generated verifiers ("expected 2 operands, but found
// 3").
#ifndef SHARDKIT_IR_OP_SIGNATURE_H_
#define SHARDKIT_IR_OP_SIGNATURE_H_

#include <cstdint>

#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

struct OpSignature {
  // How many of something an op takes.
  struct Arity {
    enum Kind : uint8_t {
      kAny,  // anything (func.call, custom_call, ...)
      kExactly,
      kAtLeast,
      kAtMost,
      kPerOperand,      // results: one per operand
      kHalfOfOperands,  // results of reduce, reduce_window: inputs + inits
      kScatterResults,  // results of scatter: N inputs, indices, N updates
    };
    Kind kind = kAny;
    uint16_t n = 0;
  };

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

  // The default declares nothing: any counts, any types.
  Arity operands;
  Arity results;
  Arity regions;
  TypeRule types = TypeRule::kNone;

  static constexpr Arity exactly(uint16_t n) { return {Arity::kExactly, n}; }
  static constexpr Arity atLeast(uint16_t n) { return {Arity::kAtLeast, n}; }
  static constexpr Arity atMost(uint16_t n) { return {Arity::kAtMost, n}; }
  static constexpr Arity any() { return {}; }
};

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_OP_SIGNATURE_H_
