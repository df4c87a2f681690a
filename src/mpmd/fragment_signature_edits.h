// Internal to the mpmd layer: dropping results and operands of a fragment
// (the per-value shardings follow).
#ifndef SHARDKIT_SRC_MPMD_FRAGMENT_SIGNATURE_EDITS_H_
#define SHARDKIT_SRC_MPMD_FRAGMENT_SIGNATURE_EDITS_H_

#include <vector>

#include "shardkit/ir/graph.h"

namespace shardkit::mpmd::mpmd_internal {

// Replaces `fragment` by a copy (same operands, attributes and body) with only
// the results `keep` marks; the dropped results must be unused. Returns the
// new fragment, or `fragment` itself when every result is kept.
Op keepFragmentResults(Op fragment, const std::vector<bool>& keep);

// Drops the operands of `fragment` (and their block arguments) that `keep`
// does not mark; the dropped block arguments must be unused.
void keepFragmentOperands(Op fragment, const std::vector<bool>& keep);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_FRAGMENT_SIGNATURE_EDITS_H_
