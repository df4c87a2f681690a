// HloEmitter: builds StableHLO ops before an anchor op, with the anchor's
// location, as the partitioner's rewrites do (each new op goes where the op
// it replaces was). Internal to the partition layer; its passes share it.
//
// The ops are built as the reference builds them, so they print as it
// prints them: partition_id/replica_id as `tensor<ui32>`, constants as dense
// literals (all-equal values as a splat), reductions with a region of one
// binary op on scalars.
#ifndef SHARDKIT_SRC_PARTITION_HLO_EMITTER_H_
#define SHARDKIT_SRC_PARTITION_HLO_EMITTER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/ir/graph.h"

namespace shardkit::partition {

// The reduction a collective or a reduction body computes.
enum class ReduceKind { kSum, kMax, kMin, kAnd };

// The dense literal of `values` shaped `shape` (`dense<[[0, 1], [2, 3]]>`; a
// splat `dense<0>` when all are equal); booleans as `true`/`false`.
std::string denseIntLiteral(absl::Span<const int64_t> values,
                            absl::Span<const int64_t> shape,
                            bool boolean = false);

class HloEmitter {
 public:
  // Inserts before `anchor`, at its location.
  HloEmitter(Module& module, Op anchor);

  Module& module() { return module_; }
  Op anchor() const { return anchor_; }
  Type tensor(absl::Span<const int64_t> shape, std::string_view element);
  Type scalar(std::string_view element) { return tensor({}, element); }

  // Creates `state` (with the anchor's location) before the anchor.
  Op create(OperationState& state);
  Value create1(OperationState& state) { return create(state).result(0); }

  // `stablehlo.constant dense<literal-body> : type`, `literal` being the
  // whole `dense<...>` text.
  Value constant(Type type, std::string literal);
  // A scalar or tensor of one integer value (`dense<v> : tensor<...xT>`).
  Value splatInt(Type type, int64_t value);
  // `dense<[...]> : tensor<NxT>` of integers (or booleans, `i1`).
  Value intTable(absl::Span<const int64_t> values, std::string_view element);

  Value partitionId();
  Value replicaId();
  // The device id as a scalar i64: replica_id when replica_count > 1, else
  // partition_id, converted to i64. Fails when both counts exceed 1.
  absl::StatusOr<Value> deviceId(int64_t replica_count,
                                 int64_t partition_count);

  Value convert(Value v, std::string_view element);
  Value reshape(Value v, absl::Span<const int64_t> shape);
  Value transpose(Value v, absl::Span<const int64_t> permutation);
  Value broadcastInDim(Value v, Type type, absl::Span<const int64_t> dims);
  Value dynamicSlice(Value v, absl::Span<const Value> starts,
                     absl::Span<const int64_t> sizes);
  Value concatenate(absl::Span<const Value> values, int64_t dim);
  // An elementwise binary op of the operands' type (`stablehlo.add`, ...).
  Value binary(std::string_view name, Value lhs, Value rhs);
  // `stablehlo.compare DIR, lhs, rhs` (DIR: EQ, GE, LE, ...): i1 result.
  Value compare(std::string_view direction, Value lhs, Value rhs);
  Value select(Value pred, Value on_true, Value on_false);
  Value clamp(Value min, Value x, Value max);
  Value iota(Type type, int64_t dim);

  // Gives `op` (an all_reduce, reduce_scatter or reduce with an empty
  // region 0) the body reducing two scalars of `element` by `kind`.
  void buildReduceBody(Op op, std::string_view element, ReduceKind kind);

 private:
  Module& module_;
  Op anchor_;
};

// The op name of a reduction body's binary op.
std::string_view reduceOpName(ReduceKind kind);

}  // namespace shardkit::partition

#endif  // SHARDKIT_SRC_PARTITION_HLO_EMITTER_H_
