// What -sdy-insert-explicit-reshards reads of an op: its operands' and
// results' shardings and sizes. Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_EXPORT_OP_SHARDINGS_H_
#define SHARDKIT_SRC_PASSES_EXPORT_OP_SHARDINGS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/graph.h"
#include "shardkit/ir/module.h"
#include "shardkit/support/checked_math.h"

namespace shardkit::passes_internal {

// The element count of each operand, then each result (0 for a tensor
// without a static shape).
inline std::vector<int64_t> tensorSizes(Op op) {
  std::vector<int64_t> sizes;
  sizes.reserve(op.numOperands() + op.numResults());
  auto add = [&](Type type) {
    int64_t size = 0;
    if (type.isRankedTensor() && type.hasStaticShape()) {
      size = 1;
      for (int64_t d : type.shape()) size = saturatingMul(size, d);
    }
    sizes.push_back(size);
  };
  for (unsigned i = 0; i < op.numOperands(); ++i) add(op.operand(i).type());
  for (unsigned i = 0; i < op.numResults(); ++i) add(op.result(i).type());
  return sizes;
}

// The shardings of the op's operands and results, read without copies
// (findSharding): valid until a sharding attribute of the op or of its
// operands' producers changes, so read what is needed before changing one.
struct OpShardings {
  absl::InlinedVector<std::optional<TensorSharding>, 4> scratch;  // computed
  absl::InlinedVector<const TensorSharding*, 4> pointers;
  // The attributes holding `pointers` (null for computed ones).
  absl::InlinedVector<const Attribute*, 4> holders;
  unsigned num_operands = 0;

  explicit OpShardings(Op op) { read(op); }
  // (Re)reads the shardings of `op`.
  void read(Op op) {
    num_operands = op.numOperands();
    scratch.clear();
    scratch.resize(op.numOperands() + op.numResults());
    pointers.clear();
    holders.clear();
    for (unsigned i = 0; i < num_operands; ++i) {
      add(bypassingBarriers(op.operand(i)), i);
    }
    for (unsigned i = 0; i < op.numResults(); ++i) {
      add(op.result(i), num_operands + i);
    }
  }
  // An operand made by propagation barriers stands for the barriers' input
  // (the reference reads operand shardings through them).
  static Value bypassingBarriers(Value value) {
    while (Op def = value.definingOp()) {
      if (!isa<sdy::PropagationBarrierOp>(def) || def.numOperands() != 1) break;
      value = def.operand(0);
    }
    return value;
  }
  void add(Value value, unsigned tensor) {
    const Attribute* holder;
    pointers.push_back(findSharding(value, scratch[tensor], holder));
    holders.push_back(holder);
  }
  absl::Span<const TensorSharding* const> operands() const {
    return absl::MakeConstSpan(pointers).subspan(0, num_operands);
  }
  absl::Span<const TensorSharding* const> results() const {
    return absl::MakeConstSpan(pointers).subspan(num_operands);
  }
};

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_EXPORT_OP_SHARDINGS_H_
