// Internal to the mpmd layer: splitting a fragment in two, for the passes
// that pull computations out of fragments (split-bwd-fragments, the
// transfer-independent split).
#ifndef SHARDKIT_SRC_MPMD_FRAGMENT_SPLIT_H_
#define SHARDKIT_SRC_MPMD_FRAGMENT_SPLIT_H_

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/ir/graph.h"

namespace shardkit::mpmd::mpmd_internal {

using OpSet = absl::flat_hash_set<Op>;

// The ops of `body` that read (transitively) one of `values`.
OpSet transitiveUsers(Block body, std::vector<Value> values);
// The ops that compute (transitively) one of `values`.
OpSet opsFlowingTo(std::vector<Value> values);

// Replaces `fragment` by two fragments on its mesh, both copies of it
// (operands, attributes, body) that then drop what the other computes:
//  - the first (split_keep_transferred) computes the body ops in `keep` and
//    returns the results `pulled` does not mark, then the "residual" values
//    (block arguments or results of `keep` ops) the others need;
//  - the second (split_drop_transferred), right after it, takes the original
//    operands and the residuals and returns the results `pulled` marks.
// Nothing happens when `keep` holds every op of the body. Unused operands
// and pass-through results are left for fragment-dce and -canonicalize.
void splitFragment(Op fragment, const std::vector<bool>& pulled,
                   const OpSet& keep);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_FRAGMENT_SPLIT_H_
