// -mpmd-infer-mesh-rewrite-using-analysis{max-clones}: every meshless op is
// placed on a mesh. Walking each function from its end (so an op's users
// are placed first), an op used only through assigns is inlined into its
// only consumer fragment, cloned into each consumer fragment (at most
// max-clones of them, any number for an op without operands), or wrapped in
// a fragment per mesh it is assigned to. Callees are rewritten before their
// calls: their results and arguments become mesh tensors (copied per mesh
// when used on several). Use and source sets of placed ops are dropped.
#include "src/mpmd/infer_rewrite.h"

#include <algorithm>
#include <map>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/fragment_utils.h"
#include "src/mpmd/infer_mesh_util.h"
#include "src/mpmd/infer_pass_util.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// Moves `op` into `consumer` (or, with `clone`, copies it there): the values
// it uses from outside become new operands (assigned to the consumer's
// mesh), and the consumer's arguments that received its results use them
// directly.
void absorbIntoConsumer(FragmentOp consumer, Op op, bool clone) {
  std::string mesh(consumer.meshName());
  Block body = consumer.body();
  std::vector<Value> inputs;
  absl::flat_hash_set<Value> seen;
  std::vector<Value> free = freeValuesOf(op);
  bool has_free_values = !free.empty();
  for (Value v : free) {
    if (seen.insert(v).second) inputs.push_back(v);
  }
  for (Value v : op.operands()) {
    if (seen.insert(v).second) inputs.push_back(v);
  }
  unsigned original_args = body.numArguments();
  ValueMap map;
  for (Value input : inputs) map[input] = body.addArgument(input.type());
  std::vector<Value> results;
  if (clone) {
    Op copy = cloneOp(op, map);
    body.pushFront(copy);
    results = copy.results();
  } else {
    for (const auto& [input, arg] : map) {
      input.replaceUsesWithIf(arg, [&](const Value::Use& use) {
        return has_free_values ? use.user().isNestedIn(op) : use.user() == op;
      });
    }
    body.pushFront(op);
    results = op.results();
  }
  std::vector<bool> erase(body.numArguments(), false);
  for (unsigned r = 0; r < op.numResults(); ++r) {
    if (!op.result(r).type().isRankedTensor()) continue;
    for (const Value::Use& use : op.result(r).uses()) {
      for (const Value::Use& assign_use : use.user().result(0).uses()) {
        if (!(assign_use.user() == consumer.op())) continue;
        body.argument(assign_use.operandIndex()).replaceAllUsesWith(results[r]);
        erase[assign_use.operandIndex()] = true;
      }
    }
  }
  std::vector<Value> operands;
  for (unsigned i = 0; i < original_args && i < consumer->numOperands(); ++i) {
    if (!erase[i]) operands.push_back(consumer->operand(i));
  }
  for (unsigned i = body.numArguments(); i-- > 0;) {
    if (erase[i]) body.eraseArgument(i);
  }
  for (Value input : inputs) {
    operands.push_back(input.type().isRankedTensor()
                           ? createAssign(consumer, input, mesh)
                           : input);
  }
  consumer->setOperands(operands);
}

// A fragment per mesh `op` is assigned to, each replacing the uses of the
// assigns to that mesh.
void wrapBasedOnAssignUsers(Op op) {
  std::vector<std::string> meshes;
  for (unsigned r = 0; r < op.numResults(); ++r) {
    for (const auto& [mesh, assigns] : assignUsersByMesh(op.result(r))) {
      if (std::find(meshes.begin(), meshes.end(), mesh) == meshes.end())
        meshes.push_back(mesh);
    }
  }
  std::stable_sort(meshes.begin(), meshes.end(), meshNameLess);
  for (const std::string& mesh : meshes) {
    wrapOpWithFragment(op, mesh, kWrapMeshlessOps, [&](const Value::Use& use) {
      auto assign = dynCast<AssignOp>(use.user());
      return assign && assign.meshName() == mesh;
    });
  }
}

void eraseUsers(Op op) {
  std::vector<Op> users;
  for (unsigned r = 0; r < op.numResults(); ++r) {
    for (const Value::Use& use : op.result(r).uses()) {
      if (std::find(users.begin(), users.end(), use.user()) == users.end())
        users.push_back(use.user());
    }
  }
  for (Op user : users) user.erase();
}

}  // namespace

MeshGroups<AssignOp> assignUsersByMesh(Value value) {
  MeshGroups<AssignOp> groups;
  for (const Value::Use& use : value.uses()) {
    auto assign = dynCast<AssignOp>(use.user());
    if (assign) addToMeshGroup(groups, assign.meshName(), assign);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) {
                     return meshNameLess(a.first, b.first);
                   });
  return groups;
}

absl::Status assignOpBasedOnConsumers(Op op, int max_clones) {
  if (op.numResults() == 0) {
    return locatedError(op,
                        "all ops without results should have been assigned to "
                        "a mesh by now (run "
                        "-mpmd-infer-mesh-assign-mesh-func-leaves first)");
  }
  clearUseSetAndSrcSet(op);
  std::vector<Op> consumers;
  bool other_user = false;
  for (unsigned r = 0; r < op.numResults(); ++r) {
    for (const Value::Use& use : op.result(r).uses()) {
      if (!isa<AssignOp>(use.user())) {
        if (op.result(r).type().isRankedTensor()) {
          return locatedError(use.user(),
                              "a meshless op must only be used by assigns "
                              "here (run the use-set analysis first)");
        }
        continue;
      }
      for (const Value::Use& assign_use : use.user().result(0).uses()) {
        auto fragment = dynCast<FragmentOp>(assign_use.user());
        if (!fragment) {
          other_user = true;
        } else if (std::find(consumers.begin(), consumers.end(),
                             fragment.op()) == consumers.end()) {
          consumers.push_back(fragment);
        }
      }
    }
  }
  if (consumers.size() == 1 && !other_user) {
    std::vector<Op> users;
    for (unsigned r = 0; r < op.numResults(); ++r) {
      for (const Value::Use& use : op.result(r).uses())
        users.push_back(use.user());
    }
    absorbIntoConsumer(FragmentOp(consumers.front()), op, /*clone=*/false);
    for (Op user : users) {
      if (!user.isErased()) user.erase();
    }
    return absl::OkStatus();
  }
  if (consumers.empty() || other_user ||
      (static_cast<int>(consumers.size()) > max_clones &&
       op.numOperands() > 0)) {
    wrapBasedOnAssignUsers(op);
  } else {
    for (Op consumer : consumers)
      absorbIntoConsumer(FragmentOp(consumer), op, /*clone=*/true);
  }
  eraseUsers(op);
  op.erase();
  return absl::OkStatus();
}

absl::Status absorbMeshlessProducers(Block block, int max_clones) {
  Op op = block.empty() ? Op() : block.back();
  while (op) {
    Op previous = op.prevInBlock();
    if (isa<CallOp>(op)) {
      SK_RETURN_IF_ERROR(rewriteCall(op));
    } else if (auto for_op = dynCast<ForOp>(op)) {
      SK_RETURN_IF_ERROR(rewriteFor(for_op, max_clones));
    } else if (isMeshlessOp(op)) {
      SK_RETURN_IF_ERROR(assignOpBasedOnConsumers(op, max_clones));
    }
    op = previous;
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal

namespace shardkit::mpmd {

absl::Status inferMeshRewriteUsingAnalysis(Module& module,
                                           const PassOptions& options) {
  using namespace mpmd_internal;  // NOLINT
  SK_ASSIGN_OR_RETURN(int64_t max_clones, options.getInt("max-clones", 1));
  if (max_clones < 0) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("max-clones must not be negative, got ", max_clones)));
  }
  std::vector<FuncOp> funcs = mpmdFunctions(module);
  // Callees first: their calls are rewritten from the callees' new types.
  for (FuncOp func : funcs) {
    if (isEntryPointFunction(func) || !func.body()) continue;
    std::optional<Topology> topology = topologyOf(func);
    SK_RETURN_IF_ERROR(assignCalleeResults(func, *topology));
    SK_RETURN_IF_ERROR(
        absorbMeshlessProducers(func.body(), static_cast<int>(max_clones)));
    SK_RETURN_IF_ERROR(assignCalleeArgs(func));
  }
  for (FuncOp func : funcs) {
    if (isEntryPointFunction(func) && func.body()) {
      SK_RETURN_IF_ERROR(
          absorbMeshlessProducers(func.body(), static_cast<int>(max_clones)));
    }
  }
  for (FuncOp func : funcs) updateFunctionType(func);
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
