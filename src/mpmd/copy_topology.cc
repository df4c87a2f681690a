// -mpmd-copy-topology-from-main: the functions an mpmd function calls with
// mpmd.call get its topology and become private (a public function with a
// topology is an entry point). A module without meshes gets the global
// `@mesh` of the topology's axes when its meshes are all alike.
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"

namespace shardkit::mpmd {
namespace {

void addGlobalMeshIfMissing(Module& module) {
  for (Op op : module.body()) {
    if (isa<sdy::MeshOp>(op)) return;
  }
  std::vector<FuncOp> funcs = mpmdFunctions(module);
  if (funcs.empty()) return;
  std::optional<Topology> topology = topologyOf(funcs.front());
  if (!topology || !topology->isHomogeneous()) return;
  OperationState state(sdy::MeshOp::opName());
  state.addAttr("sym_name", Attribute::string("mesh"));
  state.addAttr("mesh", Attribute::of(topology->meshes.front().mesh));
  Op mesh = module.createOp(state);
  module.body().pushFront(mesh);
}

}  // namespace

absl::Status copyTopologyFromMain(Module& module) {
  addGlobalMeshIfMissing(module);
  // A callee that gets a topology passes it on to its own callees when its
  // turn comes.
  for (Op op : module.functions()) {
    FuncOp func(op);
    if (!isMpmdFunction(func) || !func.body()) continue;
    Attribute topology = func->attr(kTopologyAttr);
    auto visit = [&](Op nested) {
      if (!isa<CallOp>(nested)) return;
      if (FuncOp callee = calleeOf(nested)) {
        callee->setAttr(kTopologyAttr, topology);
        callee->setAttr("sym_visibility", Attribute::string("private"));
      }
    };
    Module::walkBlock(func.body(), visit);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
