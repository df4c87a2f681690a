// Internal to the mpmd layer: replacing assigns of one value with transfers.
#ifndef SHARDKIT_SRC_MPMD_TRANSFER_UTILS_H_
#define SHARDKIT_SRC_MPMD_TRANSFER_UTILS_H_

#include <vector>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/passes/canonicalize.h"

namespace shardkit::mpmd::mpmd_internal {

// The assign users of `unassign` onto another mesh than the unassign's,
// ordered by mesh name (meshNameLess), then by use.
std::vector<AssignOp> crossMeshAssignUsers(UnassignOp unassign);

// Replaces `assigns` (of one value, whose mesh tensor is `source`) by one
// chain of transfers in their order: source -> assigns[0] -> assigns[1] ...;
// an assign already of the previous type in the chain takes that value.
void replaceAssignsWithChainedTransfers(const std::vector<AssignOp>& assigns,
                                        Value source,
                                        PatternRewriter& rewriter);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_TRANSFER_UTILS_H_
