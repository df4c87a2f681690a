// -mpmd-merge-inferred-fragments,
// -mpmd-merge-user-fragments-into-scheduling-units and
// -mpmd-merge-forward-with-backward: the policies of the fragment merging
// walk (merge_fragments_driver.h).
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

// The next fragment on `a`'s mesh after `a` is `b`.
bool nextOnMesh(FragmentOp a, FragmentOp b) {
  for (Op op = a->nextInBlock(); op; op = op.nextInBlock()) {
    if (isa<FragmentOp>(op) && FragmentOp(op).meshName() == a.meshName())
      return op == b.op();
  }
  return false;
}

// A forward fragment directly followed (on its mesh) by the backward one
// that uses it: only the last stage of 1F1B has such pairs.
bool allowForwardBackwardMerge(FragmentOp producer, FragmentOp consumer) {
  std::optional<int64_t> a = singleTransposeCount(producer);
  std::optional<int64_t> b = singleTransposeCount(consumer);
  return nextOnMesh(producer, consumer) && a == 0 && b == 1;
}

}  // namespace

absl::Status mergeForwardWithBackward(Module& module) {
  MergePolicy policy;
  policy.allow = allowForwardBackwardMerge;
  for (FuncOp func : mpmdFunctions(module)) mergeFragmentsInFunc(func, policy);
  return absl::OkStatus();
}

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
