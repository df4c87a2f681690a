// -mpmd-verify-stage-merging: after stages are merged, a fragment with a stage
// is identified by its mesh, stage, transpose count, call counter, split
// half and remat flag; two fragments with the same identity mean the stage
// assignment was inconsistent. Counters match when equal or when either is
// absent, so the check compares pairs rather than hashing identities.
#include <optional>
#include <string>
#include <vector>

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/merge_fragment_ops.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

struct StageIdentity {
  std::string mesh;
  int64_t stage = 0;
  int64_t transpose_count = 0;
  std::optional<int64_t> call_counter;
  int split = 0;  // 0 none, 1 keeps transferred results, 2 drops them
  bool remat = false;

  bool matches(const StageIdentity& o) const {
    return mesh == o.mesh && stage == o.stage &&
           transpose_count == o.transpose_count && split == o.split &&
           remat == o.remat &&
           (!call_counter || !o.call_counter ||
            *call_counter == *o.call_counter);
  }
};

StageIdentity identityOf(FragmentOp fragment) {
  StageIdentity id;
  id.mesh = std::string(fragment.meshName());
  id.stage = *fragment.stageId();
  // A merged remat fragment mixes transpose counts: it counts as the latest.
  id.transpose_count = maxTransposeCount(fragment).value_or(0);
  id.call_counter = callCounterOf(fragment);
  if (fragment->hasAttr(kSplitKeepTransferredAttr)) id.split = 1;
  if (fragment->hasAttr(kSplitDropTransferredAttr)) id.split = 2;
  id.remat = fragment->hasAttr(kRematAttr);
  return id;
}

std::string describe(const StageIdentity& id) {
  static constexpr const char* kSplit[] = {"none", "keep_transferred",
                                           "drop_transferred"};
  return strCat("[mesh=", id.mesh, ", stage_id=", id.stage,
                ", transpose_count=", id.transpose_count,
                ", call_count=", id.call_counter.value_or(-1),
                ", split_type=", kSplit[id.split],
                ", is_remat=", id.remat ? 1 : 0, "]");
}

}  // namespace

absl::Status verifyStageMerging(Module& module) {
  ErrorCollector errors;
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    std::vector<StageIdentity> seen;
    auto visit = [&](Op op) {
      if (!isa<FragmentOp>(op) || !FragmentOp(op).stageId()) return;
      StageIdentity id = identityOf(FragmentOp(op));
      for (const StageIdentity& other : seen) {
        if (!other.matches(id)) continue;
        errors.add(op, strCat("A valid program cannot have more than one "
                              "fragment with the same mesh, stage, transpose "
                              "count, call counter, split type and remat "
                              "flag, but found several with ",
                              describe(id)));
        return;
      }
      seen.push_back(id);
    };
    Module::walkBlock(func.body(), visit);
  }
  return errors.status();
}

}  // namespace shardkit::mpmd::mpmd_internal
