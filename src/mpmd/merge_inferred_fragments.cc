// -mpmd-merge-inferred-fragments and
// -mpmd-merge-user-fragments-into-scheduling-units: the policies of the
// fragment merging walk (merge_fragments_driver.h).
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/merge_fragment_ops.h"
#include "src/mpmd/merge_fragments_driver.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// An inferred fragment is cheap: merging it never delays a transfer. Two user
// fragments stay apart, and so do the two halves of a split.
bool allowInferredMerge(FragmentOp producer, FragmentOp consumer) {
  if (producer.isUserFragment() && consumer.isUserFragment()) return false;
  return !(producer->hasAttr(kSplitKeepTransferredAttr) &&
           consumer->hasAttr(kSplitDropTransferredAttr));
}

bool stagesAgree(FragmentOp a, FragmentOp b) {
  return !a.stageId() || !b.stageId() || *a.stageId() == *b.stageId();
}

// Two user fragments form one scheduling unit when they come from the same
// pass of autodiff (transpose count) and the same call.
bool allowUserMerge(FragmentOp producer, FragmentOp consumer) {
  if (!producer.isUserFragment() || !consumer.isUserFragment()) return false;
  std::optional<int64_t> a = singleTransposeCount(producer);
  std::optional<int64_t> b = singleTransposeCount(consumer);
  if (!a || !b || *a != *b) return false;
  std::optional<int64_t> ca = callCounterOf(producer);
  std::optional<int64_t> cb = callCounterOf(consumer);
  if (ca && cb && *ca != *cb) return false;
  return stagesAgree(producer, consumer);
}

}  // namespace

absl::Status mergeInferredFragments(Module& module,
                                    const PassOptions& options) {
  MergePolicy policy;
  policy.allow = allowInferredMerge;
  SK_ASSIGN_OR_RETURN(policy.any_consumer,
                      options.getBool("merge-any-consumer", false));
  SK_ASSIGN_OR_RETURN(policy.sideways,
                      options.getBool("merge-sideways", false));
  if (policy.any_consumer && policy.sideways) {
    return absl::InvalidArgumentError(
        "merge-sideways cannot be used with merge-any-consumer");
  }
  for (FuncOp func : mpmdFunctions(module)) mergeFragmentsInFunc(func, policy);
  return absl::OkStatus();
}

absl::Status mergeUserFragmentsIntoSchedulingUnits(Module& module) {
  MergePolicy policy;
  policy.allow = allowUserMerge;
  for (FuncOp func : mpmdFunctions(module)) mergeFragmentsInFunc(func, policy);
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
