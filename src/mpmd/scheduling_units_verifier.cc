// -mpmd-scheduling-units-verifier: a pipeline schedule expects every mesh
// (other than `#cpu` meshes) to run one forward and one backward scheduling
// unit per microbatch. The number of microbatches is the largest call
// counter, plus one when counters start at 0; a function without call
// counters is not microbatched and not checked. Each mesh whose forward or
// backward count differs gets a warning at the function.
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/optimize_passes.h"
#include "src/mpmd/export_utils.h"
#include "src/mpmd/optimize_utils.h"

namespace shardkit::mpmd {
namespace {

int64_t numMicrobatches(FuncOp func) {
  int64_t max_counter = 0;
  bool zero_based = false;
  auto visit = [&](Op op) {
    if (!isa<FragmentOp>(op)) return;
    if (std::optional<int64_t> c = mpmd_internal::callCounterOf(op)) {
      zero_based = zero_based || *c == 0;
      max_counter = std::max(max_counter, *c);
    }
  };
  Module::walkBlock(func.body(), visit);
  return max_counter + (zero_based ? 1 : 0);
}

void warnCount(FuncOp func, std::string_view phase, const std::string& mesh,
               int64_t expected, int64_t got) {
  if (expected == got) return;
  mpmd_internal::ErrorCollector unused;
  mpmd_internal::reportAt(
      func,
      "Number of " + std::string(phase) + " scheduling units in mesh " + mesh +
          " does not match expected number for " + std::to_string(expected) +
          " microbatches. Got " + std::to_string(got) + ".",
      /*fail=*/false, unused);
}

void verifyFunction(FuncOp func) {
  int64_t microbatches = numMicrobatches(func);
  std::optional<Topology> topology = topologyOf(func);
  if (microbatches == 0 || !topology) return;
  for (const NamedMesh& mesh : topology->meshes) {
    if (mesh.name.ends_with("#cpu")) continue;
    int64_t forward = 0, backward = 0;
    for (Op op : func.body()) {
      if (!mpmd_internal::isSchedulingUnit(op) ||
          FragmentOp(op).meshName() != mesh.name) {
        continue;
      }
      (mpmd_internal::isForwardFragment(op) ? forward : backward)++;
    }
    warnCount(func, "forward", mesh.name, microbatches, forward);
    warnCount(func, "backward", mesh.name, microbatches, backward);
  }
}

}  // namespace

absl::Status verifySchedulingUnits(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (func.body()) verifyFunction(func);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
