// The state of one -sdy-pad-for-divisibility run, shared by its driver
// (pad_for_divisibility.cc) and its per-op rewrites
// (pad_for_divisibility_ops.cc). Internal to the partition layer.
//
// A tensor whose sharded dimension is not a multiple of its shard count is
// given a larger type, each such dimension rounded up to the next multiple
// (its *padded type*), so that convert-global-to-local can give every device
// an equal piece. The ops are visited in pre-order and rewritten in place or
// next to where they are, as the reference's dialect conversion does:
//
//   - an op is rewritten when a value it uses or defines is not divisible
//     (the reference's legality rules, `needsPadding`);
//   - a rewritten value keeps its sharding; its *original type* (before the
//     pass) is remembered, and decides the legality of its users;
//   - values whose padding region is known to hold zeros are remembered, so
//     that a contraction over them needs no mask.
#ifndef SHARDKIT_SRC_PARTITION_PAD_FOR_DIVISIBILITY_H_
#define SHARDKIT_SRC_PARTITION_PAD_FOR_DIVISIBILITY_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/ir/graph.h"
#include "src/partition/hlo_emitter.h"

namespace shardkit::partition {

// `shape` with every dimension sharded (by `sharding` on `mesh`) into a
// shard count that does not divide it rounded up to the next multiple of
// that count. Dynamic dimensions, a null sharding or mesh, or a rank that
// differs from the sharding's leave `shape` as it is.
std::vector<int64_t> divisiblePaddedShape(absl::Span<const int64_t> shape,
                                          const TensorSharding* sharding,
                                          const Mesh* mesh);

class PadForDivisibility {
 public:
  explicit PadForDivisibility(Module& module);
  absl::Status run();

  // ---- What the rewrites ask ----
  Module& module() { return module_; }
  // The type `value` had before the pass (its own type if it is new or
  // unchanged).
  Type originalType(Value value) const;
  // The mesh of `sharding`, or null.
  const Mesh* meshOf(const TensorSharding& sharding) const {
    return meshes_.resolve(sharding);
  }
  // The sharding of `value` (null: none); valid until the next call.
  const TensorSharding* sharding(Value value);
  // The padded type of `type` under `sharding` (non-tensors unchanged).
  Type paddedType(Type type, const TensorSharding* sharding);
  // The padded type of `value`'s original type under its own sharding.
  Type paddedTypeOf(Value value) {
    return paddedType(originalType(value), sharding(value));
  }
  bool isDivisible(Value value) {
    return paddedTypeOf(value) == originalType(value);
  }

  // Whether the padding region of `value` is known to hold zeros.
  bool isZeroPadded(Value value) const { return zero_padded_.contains(value); }
  void markZeroPadded(Value value) { zero_padded_.insert(value); }

  // Records that `value` (new) stands for a value of type `original`.
  void rememberOriginalType(Value value, Type original) {
    original_types_.try_emplace(value, original);
  }
  // Gives `value` the type `type`, remembering its original type.
  void retype(Value value, Type type);

  // ---- The building blocks of the rewrites ----
  // `value` padded at the high end of each dimension to `padded` by a pad
  // of zeros (with `value`'s sharding), built by `e`.
  Value padWithZeros(HloEmitter& e, Value value, Type padded);
  // `value` (of a padded type) with every element outside `original`'s
  // bounds along `dims` (all dims when null) replaced by the scalar
  // `pad_value`, by an iota mask and a select, each with `value`'s sharding;
  // `value` itself when no such dimension is padded.
  Value maskPadding(HloEmitter& e, Value value, Type original, Value pad_value,
                    const std::vector<int64_t>* dims);
  // maskPadding with a zero, unless `value` is known to be zero-padded. The
  // zero constant is built either way, as the reference builds it.
  Value ensureZeroPadding(HloEmitter& e, Value value,
                          const std::vector<int64_t>& dims);
  // A slice of `op`'s result `value` after `op`, trimming each of `dims`
  // whose size exceeds `target`'s back to it, with `sharding`; the users of
  // `value` then use the slice, which stands for `value` (its original
  // type is `value`'s). `value` itself when nothing is trimmed.
  Value trimAfter(Op op, Value value, Type target,
                  absl::Span<const int64_t> dims,
                  const std::optional<TensorSharding>& sharding,
                  bool zero_padded);

  // The result types of `op` rebuilt on its current operands: each the
  // larger, per dimension, of what the op infers from its operands (where
  // it infers) and the padded type of the result.
  std::vector<Type> rebuiltResultTypes(Op op);
  // Rebuilds `op` in place with rebuiltResultTypes.
  void padGeneric(Op op);

  absl::Status error(Op op, std::string_view message) const;

 private:
  absl::Status checkFunctionIO(Op func);
  bool needsPadding(Op op);
  absl::Status rewrite(Op op);
  void trimPaddedOperands(Op op);

  Module& module_;
  MeshTable meshes_;
  absl::flat_hash_map<Value, Type> original_types_;
  absl::flat_hash_set<Value> zero_padded_;
  std::optional<TensorSharding> scratch_;
};

// The rewrites by op kind (pad_for_divisibility_ops.cc).
absl::Status padSlice(PadForDivisibility& p, Op op);
absl::Status padPad(PadForDivisibility& p, Op op);
absl::Status padDotGeneral(PadForDivisibility& p, Op op);
absl::Status padConvolution(PadForDivisibility& p, Op op);
absl::Status padReduce(PadForDivisibility& p, Op op);
absl::Status padAllGather(PadForDivisibility& p, Op op);
// sdy.all_slice and sdy.reduce_scatter.
absl::Status padSlicingCollective(PadForDivisibility& p, Op op);
absl::Status padAllToAll(PadForDivisibility& p, Op op);

}  // namespace shardkit::partition

#endif  // SHARDKIT_SRC_PARTITION_PAD_FOR_DIVISIBILITY_H_
