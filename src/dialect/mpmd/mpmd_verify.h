// Internal to the mpmd layer: the verifier hooks of the mpmd op table
// (ops.cc) and what they share. A hook returns either a bare message, which
// the module verifier prints as `'mpmd.op' op MESSAGE` (MLIR's emitOpError),
// or an error already located at the op (MLIR's emitError, no op name).
#ifndef SHARDKIT_SRC_DIALECT_MPMD_MPMD_VERIFY_H_
#define SHARDKIT_SRC_DIALECT_MPMD_MPMD_VERIFY_H_

#include <initializer_list>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/ir/graph.h"

namespace shardkit::mpmd::mpmd_internal {

// `'op' op expects parent op 'func.func'` (one name) or `... to be one of
// 'func.func, mpmd.for'`, unless `op`'s parent is one of `parents`.
absl::Status checkParent(Op op,
                         std::initializer_list<std::string_view> parents);

// `operand #0 must be mesh tensor type, but got 'tensor<4xf32>'` unless the
// value is a mesh tensor (`what` is "operand" or "result").
absl::StatusOr<MeshTensorType> requireMeshTensor(Value value,
                                                 std::string_view what,
                                                 unsigned index);

// The mesh tensor is valid for its mesh in the enclosing topology.
absl::Status verifyForTopology(Op op, const MeshTensorType& type);

absl::Status verifyFragmentOp(Op op, const VerifyContext& context);
absl::Status verifyFragmentCallOp(Op op, const VerifyContext& context);
absl::Status verifyNamedComputationOp(Op op, const VerifyContext& context);
absl::Status verifyTransferOp(Op op, const VerifyContext& context);
absl::Status verifyAssignOp(Op op, const VerifyContext& context);
absl::Status verifyUnassignOp(Op op, const VerifyContext& context);
absl::Status verifySameTypeOp(Op op, const VerifyContext& context);
absl::Status verifyNamedTensorOp(Op op, const VerifyContext& context);
absl::Status verifyReduceOp(Op op, const VerifyContext& context);
absl::Status verifyCallOp(Op op, const VerifyContext& context);
absl::Status verifyForOp(Op op, const VerifyContext& context);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_DIALECT_MPMD_MPMD_VERIFY_H_
