// Internal to the mpmd layer: merging two fragments into one, and the
// attributes of the merged fragment (origins, stage, call counter, the passes
// that inferred it). Shared by the fragment merging passes (merge-inferred,
// scheduling units, rule-based merge, absorb).
#ifndef SHARDKIT_SRC_MPMD_MERGE_FRAGMENT_OPS_H_
#define SHARDKIT_SRC_MPMD_MERGE_FRAGMENT_OPS_H_

#include <optional>
#include <string_view>
#include <vector>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/graph.h"
#include "src/mpmd/fragment_utils.h"

namespace shardkit::mpmd::mpmd_internal {

// Attributes of split fragments (split-bwd-fragments and the transfer
// independent split): the part that keeps the transferred results and the
// part that drops them. Such a pair is never merged back.
inline constexpr std::string_view kSplitKeepTransferredAttr =
    "split_keep_transferred";
inline constexpr std::string_view kSplitDropTransferredAttr =
    "split_drop_transferred";
// The remat flag of a fragment (remat passes), part of a stage's identity.
inline constexpr std::string_view kRematAttr = "remat";

// Merges the fragments `producer` and `consumer` (same block, `producer`
// first; `consumer` need not use `producer`) into one fragment created right
// before `consumer`, and erases both. The merged body is the producer's ops
// then the consumer's; operands are the producer's then the consumer's that
// are not producer results, each value once; results are the producer's that
// something other than `consumer` uses, then all of the consumer's. When the
// producer has one operand and one result, used only by `consumer`, the merged
// fragment keeps the consumer's operand list with the producer's operand in
// place of its result instead.
//
// The merged fragment has the union of the origins, the producer's mesh and
// the stage of either; every other attribute is dropped (see
// mergedFragmentAttrs).
Op mergeFragmentOps(Op producer, Op consumer);

// The origins of `a` then those of `b` not already present.
std::vector<Attribute> originUnion(FragmentOp a, FragmentOp b);

// The largest transpose count of the origins (nullopt without origins).
std::optional<int64_t> maxTransposeCount(FragmentOp fragment);

// Gives `merged` (the result of mergeFragmentOps on `producer` and `consumer`,
// read before the merge) the attributes a merge keeps:
//  - call_counter: the one counter, or the shared one; of two different
//    counters the user fragment's when exactly one is a user fragment, none
//    otherwise;
//  - mpmd.inferred_by: when `merged` is not a user fragment, the passes of
//    both (each once).
struct SavedMergeAttrs {
  std::optional<int64_t> call_counter;
  std::vector<Attribute> inferred_by;
};
SavedMergeAttrs mergedFragmentAttrs(FragmentOp producer, FragmentOp consumer);
void applyMergedAttrs(Op merged, const SavedMergeAttrs& attrs);

// mergeFragmentOps followed by applyMergedAttrs.
Op mergeFragmentsKeepingAttrs(Op producer, Op consumer);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_MERGE_FRAGMENT_OPS_H_
