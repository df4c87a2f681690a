// -mpmd-uniquify-function-inputs-outputs{use-transfer-instead-of-fragment}:
// every result of an mpmd function becomes a value of its own, which can then
// get a sharding of its own, and none is a function argument (a sharding
// constraint needs an op result). A value returned at several positions, or
// an argument returned, is passed through a new inferred fragment per mesh
// (inferred_by "uniquify") that returns it once per position; with the
// option, through one transfer per extra position (and per argument).
#include <map>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/fragment_utils.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// The return positions of each returned value of one mesh, in order of first
// return.
struct MeshReturns {
  std::vector<Value> values;
  absl::flat_hash_map<Value, std::vector<unsigned>> positions;
};

void uniquifyWithFragment(const std::string& mesh, MeshReturns& returns,
                          Op ret) {
  std::vector<Value> operands;
  std::vector<Type> result_types;
  std::vector<const std::vector<unsigned>*> slots;
  for (Value v : returns.values) {
    const std::vector<unsigned>& at = returns.positions[v];
    if (at.size() == 1 && !v.isBlockArgument()) continue;
    operands.push_back(v);
    slots.push_back(&at);
    result_types.insert(result_types.end(), at.size(), v.type());
  }
  if (operands.empty()) return;
  Op fragment = createFragment(ret, mesh, operands, result_types,
                               [&](Block, const std::vector<Value>& args) {
                                 std::vector<Value> returned;
                                 for (size_t i = 0; i < args.size(); ++i)
                                   returned.insert(returned.end(),
                                                   slots[i]->size(), args[i]);
                                 return returned;
                               });
  fragment.setAttr(kInferredByAttr,
                   Attribute::array({Attribute::string("uniquify")}));
  unsigned next = 0;
  for (const std::vector<unsigned>* at : slots)
    for (unsigned position : *at)
      ret.setOperand(position, fragment.result(next++));
}

void uniquifyWithTransfers(Op ret) {
  absl::flat_hash_set<Value> seen;
  for (unsigned i = 0; i < ret.numOperands(); ++i) {
    Value v = ret.operand(i);
    if (seen.insert(v).second && !v.isBlockArgument()) continue;
    OperationState state = TransferOp::build(v, v.type());
    ret.setOperand(i, createBefore(ret, state).result(0));
  }
}

}  // namespace

absl::Status uniquifyFunctionInputsOutputs(Module& module,
                                           const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(
      bool use_transfers,
      options.getBool("use-transfer-instead-of-fragment", false));
  for (FuncOp func : mpmdFunctions(module)) {
    Op ret = func.returnOp();
    if (!func.body() || !ret) continue;
    if (use_transfers) {
      uniquifyWithTransfers(ret);
      continue;
    }
    std::vector<std::string> meshes;
    std::map<std::string, MeshReturns> per_mesh;
    for (unsigned i = 0; i < ret.numOperands(); ++i) {
      Value v = ret.operand(i);
      if (!isMeshTensor(v.type())) {
        return locatedError(ret,
                            "expected every result of an mpmd function "
                            "to be a mesh tensor");
      }
      std::string mesh = meshNameOf(v.type());
      auto [it, added] = per_mesh.try_emplace(mesh);
      if (added) meshes.push_back(mesh);
      std::vector<unsigned>& at = it->second.positions[v];
      if (at.empty()) it->second.values.push_back(v);
      at.push_back(i);
    }
    for (const std::string& mesh : meshes)
      uniquifyWithFragment(mesh, per_mesh[mesh], ret);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
