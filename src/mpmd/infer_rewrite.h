// Internal to the mpmd layer: the pieces of -mpmd-infer-mesh-rewrite-using-
// analysis (infer_rewrite.cc places meshless ops; infer_rewrite_calls.cc
// rewrites calls, callees and loops around them).
#ifndef SHARDKIT_SRC_MPMD_INFER_REWRITE_H_
#define SHARDKIT_SRC_MPMD_INFER_REWRITE_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "src/mpmd/infer_mesh_util.h"

namespace shardkit::mpmd::mpmd_internal {

// The assign users of `value`, grouped by mesh, meshes in name order.
MeshGroups<AssignOp> assignUsersByMesh(Value value);

// Places the meshless op `op`, used by assigns only: inlined into its only
// consumer fragment, cloned into each consumer fragment (when there are at
// most `max_clones` or it has no operands), or wrapped in a fragment per mesh
// it is assigned to. `op` and its assign users are erased.
absl::Status assignOpBasedOnConsumers(Op op, int max_clones);

// Walks `block` from its last op: rewrites calls (to their rewritten
// callees), loops (mpmd.for) and meshless ops (assignOpBasedOnConsumers).
absl::Status absorbMeshlessProducers(Block block, int max_clones);

// A callee's results are assigned to the meshes of their use sets (a result
// used on several meshes is copied, its copies' positions in `mpmd.copies`),
// before its body is placed.
absl::Status assignCalleeResults(FuncOp callee, const Topology& topology);
// A callee's arguments take the meshes of their assign users (copied per
// mesh likewise), after its body is placed.
absl::Status assignCalleeArgs(FuncOp callee);
// A call of a rewritten callee: operands assigned, copies passed, results
// unassigned for their assign users.
absl::Status rewriteCall(Op call);
// An mpmd.for: its body placed, its arguments and results on meshes.
absl::Status rewriteFor(ForOp op, int max_clones);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_INFER_REWRITE_H_
