// -mpmd-fragment-dedup: a value passed to a fragment twice is read through its
// first block argument, and a result returning the same value with the same
// type as an earlier one is replaced by that one. The duplicates become
// unused (fragment-dce drops them).
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "src/mpmd/common_passes.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

void dedupOperands(Op fragment) {
  Block body = fragment.region(0).front();
  absl::flat_hash_map<Value, unsigned> first;
  for (unsigned i = 0; i < fragment.numOperands(); ++i) {
    auto [it, inserted] = first.try_emplace(fragment.operand(i), i);
    if (!inserted)
      body.argument(i).replaceAllUsesWith(body.argument(it->second));
  }
}

void dedupResults(Op fragment) {
  Op ret = fragment.region(0).front().back();
  absl::flat_hash_map<std::pair<Value, Type>, unsigned> first;
  for (unsigned i = 0; i < fragment.numResults(); ++i) {
    auto key = std::make_pair(ret.operand(i), fragment.result(i).type());
    auto [it, inserted] = first.try_emplace(key, i);
    if (!inserted)
      fragment.result(i).replaceAllUsesWith(fragment.result(it->second));
  }
}

}  // namespace

absl::Status fragmentDedup(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    auto visit = [](Op op) {
      if (!isa<FragmentOp>(op)) return;
      dedupOperands(op);
      dedupResults(op);
    };
    Module::walkBlock(func.body(), visit);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
