// Internal to the ir layer: pieces the module verifier (verify.cc) and the
// op verifier hooks (sdy_verify*.cc, func_verify.cc) share, and the hooks
// the dialect tables attach to their ops. A hook returns the bare message;
// the verifier puts the location and `'op.name' op ` in front.
#ifndef SHARDKIT_SRC_DIALECT_VERIFY_UTIL_H_
#define SHARDKIT_SRC_DIALECT_VERIFY_UTIL_H_

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_map.h"
#include "absl/status/status.h"
#include "shardkit/core/tensor_shape.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/internal/recent_entries.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/support/strings.h"

namespace shardkit::ir_internal {

// InvalidArgument with `message`.
inline absl::Status verifyError(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// `status` with `prefix` in front of its message (OK stays OK).
inline absl::Status withPrefix(std::string_view prefix,
                               const absl::Status& status) {
  if (status.ok() || prefix.empty()) return status;
  return verifyError(strCat(prefix, fromAbsl(status.message())));
}

std::vector<TensorShapeView> shapesOf(const std::vector<Type>& types);

// Tuples other than a 1-tuple and unranked tensors cannot have a sharding.
absl::Status checkShardableType(Type type);

// The operand types of the terminator of `op`'s first region, or none.
std::vector<Type> bodyReturnTypes(Op op);

// Appends an error for each redefined symbol and each symbol nested in
// another op (symbol_verify.cc).
void verifySymbols(Module& module, std::vector<Diagnostic>& errors);

// Checks `op` against the signature its kind registers (op_signature.cc): the
// operand, result and region counts, and what its types must agree on; OK for
// an unregistered op.
absl::Status verifyOpSignature(Op op);

// The propagation debug attributes (verify_debug_attrs.cc): on an op, and on
// a function argument or result. OK for any other name.
absl::Status verifyDebugAttr(Op op, std::string_view name,
                             const Attribute& attr,
                             const VerifyContext& context);
absl::Status verifyFuncDebugAttr(std::string_view name, const Attribute& attr,
                                 const VerifyContext& context);

// The verifier hooks of the builtin ops.
absl::Status verifyFuncOp(Op op, const VerifyContext& context);
absl::Status verifyFuncReturnOp(Op op, const VerifyContext& context);
// `callee` is the module's symbol the call names (null if none).
absl::Status verifyFuncCallSymbol(Op call, Op callee);
absl::Status verifyReshardLikeOp(Op op, const VerifyContext& context);
absl::Status verifyDataFlowEdgeOp(Op op, const VerifyContext& context);
absl::Status verifyFuncDataFlowEdgeOp(Op op, const VerifyContext& context);
absl::Status verifyPropagationBarrierOp(Op op, const VerifyContext& context);
absl::Status verifyManualComputationOp(Op op, const VerifyContext& context);
absl::Status verifyNamedComputationOp(Op op, const VerifyContext& context);
absl::Status verifyAllGatherOp(Op op, const VerifyContext& context);
absl::Status verifyAllSliceOp(Op op, const VerifyContext& context);
absl::Status verifyAllReduceOp(Op op, const VerifyContext& context);
absl::Status verifyReduceScatterOp(Op op, const VerifyContext& context);
absl::Status verifyAllToAllOp(Op op, const VerifyContext& context);
absl::Status verifyCollectivePermuteOp(Op op, const VerifyContext& context);
absl::Status verifyShardedToUnreducedOp(Op op, const VerifyContext& context);
absl::Status verifyReplicatedToUnreducedOp(Op op, const VerifyContext& context);

}  // namespace shardkit::ir_internal

namespace shardkit {

// The sharding attributes that verified OK during one verifier run, each
// with the types it was verified against (by identity: one module's types
// are uniqued). A module shares a few sharding attributes among many values,
// so most of its shardings then verify once. The memo holds the attributes
// it saw: an identity is never reused for another attribute while it lives.
// Only verifications outside manual computations are remembered (the bound
// manual axes are not part of the key).
class ShardingVerifyMemo {
 public:
  // The key of `attr` verified against `types`.
  using Key = absl::InlinedVector<const void*, 4>;
  template <typename TypeRange>
  static Key keyOf(const Attribute& attr, const TypeRange& types) {
    Key key = {attr.identity()};
    for (Type t : types) key.push_back(t.identity());
    return key;
  }

  // Whether `key` verified OK: its slot of the recent keys first (a
  // multiply, where the map hashes the whole key), then the map.
  bool contains(const Key& key) {
    uint64_t word = reinterpret_cast<uintptr_t>(key[0]) * 31 + key.size();
    if (key.size() > 1) word += reinterpret_cast<uintptr_t>(key[1]);
    const Ok::value_type*& recent = recent_.slot(word);
    if (recent != nullptr && recent->first == key) return true;
    auto it = ok_.find(key);
    if (it == ok_.end()) return false;
    recent = &*it;
    return true;
  }
  void remember(Key key, const Attribute& attr) {
    ok_.try_emplace(std::move(key), attr);
  }

 private:
  using Ok = absl::node_hash_map<Key, Attribute>;
  Ok ok_;
  core_detail::RecentEntries<Ok::value_type> recent_;
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_DIALECT_VERIFY_UTIL_H_
