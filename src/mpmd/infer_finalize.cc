// -mpmd-infer-mesh-finalize{infer-transfers}: the last step of mesh
// inference.
//
// 1. Each entry-point argument that is still a local tensor takes the first
//    (by name) mesh of its assign users (and their memory kind).
// 2. To a fixed point, from the end: assign(unassign(x)) on x's mesh is x;
//    on another mesh it reuses a transfer of x to that type, or (for an
//    entry-point argument, or anything with infer-transfers) becomes one
//    chain of transfers through the meshes x is assigned to; a broadcast
//    becomes transfers of its operand to the meshes it is assigned to; an
//    mpmd.reduce becomes a fragment reducing the operands on each mesh, then,
//    on each mesh it is used in, a fragment reducing the transferred partial
//    results.
// 3. Function types follow their bodies; no meshless op, assign, unassign or
//    broadcast may be left; use and source sets are dropped.
#include <algorithm>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/passes/canonicalize.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/fragment_utils.h"
#include "src/mpmd/infer_mesh_util.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/reduction_utils.h"
#include "src/mpmd/registration.h"
#include "src/mpmd/transfer_utils.h"

namespace shardkit::mpmd {
namespace {

using namespace mpmd_internal;  // NOLINT: the analysis helpers

absl::Status assignEntryArguments(FuncOp func) {
  Block body = func.body();
  Op insert_after;
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    Value arg = body.argument(i);
    if (isMeshTensor(arg.type()) || arg.useEmpty()) continue;
    std::vector<std::string> kinds;
    bool undefined_kind = false;
    std::string mesh;
    for (const Value::Use& use : arg.uses()) {
      auto assign = dynCast<AssignOp>(use.user());
      if (!assign) {
        return locatedError(use.user(),
                            strCat("argument ", i, " of @", func.name(),
                                   " must only be used by assigns here"));
      }
      std::optional<MeshTensorType> type =
          MeshTensorType::of(assign.result().type());
      if (type->memory_kind) {
        if (std::find(kinds.begin(), kinds.end(), *type->memory_kind) ==
            kinds.end())
          kinds.push_back(*type->memory_kind);
      } else {
        undefined_kind = true;
      }
      if (mesh.empty() || meshNameLess(type->mesh_name, mesh))
        mesh = type->mesh_name;
    }
    if (undefined_kind && !kinds.empty()) {
      return locatedError(
          func, strCat("Argument ", i,
                       " has different memory kinds assigned to it. Found at "
                       "least one user with undefined memory kind and at "
                       "least one user with a memory kind."));
    }
    if (kinds.size() > 1) {
      return locatedError(func, strCat("Argument ", i,
                                       " has different memory kinds assigned "
                                       "to it."));
    }
    std::vector<Value::Use> uses = arg.uses();
    MeshTensorType type = MeshTensorType::fullyReplicated(mesh, arg.type());
    if (!kinds.empty()) type.memory_kind = kinds.front();
    arg.setType(type.toType(func->module()->types()));
    OperationState state = UnassignOp::build(arg);
    insert_after = insert_after ? createAfter(insert_after, state)
                                : createAtStart(body, state);
    for (const Value::Use& use : uses)
      use.user().setOperand(use.operandIndex(), insert_after.result(0));
  }
  return absl::OkStatus();
}

UnassignOp unassignOperand(Op assign) {
  return dynCast<UnassignOp>(assign.operand(0).definingOp());
}

bool assignOfUnassignSameMesh(Op op, PatternRewriter& rewriter) {
  UnassignOp unassign = unassignOperand(op);
  if (!unassign || unassign.meshName() != AssignOp(op).meshName()) return false;
  rewriter.replaceOp(op, unassign.tensor());
  return true;
}

bool dedupWithTransfer(Op op, PatternRewriter& rewriter) {
  UnassignOp unassign = unassignOperand(op);
  if (!unassign || unassign.meshName() == AssignOp(op).meshName()) return false;
  for (const Value::Use& use : unassign.tensor().uses()) {
    auto transfer = dynCast<TransferOp>(use.user());
    if (!transfer || !(transfer.result().type() == op.result(0).type()))
      continue;
    Op ancestor = ancestorInBlock(transfer->parentBlock(), op);
    if (!ancestor) continue;
    if (isBeforeInBlock(ancestor, transfer)) {
      transfer->moveBefore(ancestor);
      rewriter.notifyChanged(transfer);
    }
    rewriter.replaceOp(op, transfer.result());
    return true;
  }
  return false;
}

bool chainCrossMeshAssigns(Op op, PatternRewriter& rewriter,
                           bool only_entry_arguments) {
  UnassignOp unassign = unassignOperand(op);
  if (!unassign || unassign.meshName() == AssignOp(op).meshName()) return false;
  if (only_entry_arguments) {
    Value source = unassign.tensor();
    if (!source.isBlockArgument() ||
        !isa<FuncOp>(source.ownerBlock().parentOp()) ||
        !isEntryPointFunction(enclosingFunc(unassign))) {
      return false;
    }
  }
  replaceAssignsWithChainedTransfers(crossMeshAssignUsers(unassign),
                                     unassign.tensor(), rewriter);
  return true;
}

bool broadcastToTransfers(Op op, PatternRewriter& rewriter) {
  auto unassign = dynCast<UnassignOp>(op.operand(0).definingOp());
  if (!unassign) return false;
  std::vector<AssignOp> assigns;
  for (const Value::Use& use : op.result(0).uses()) {
    if (auto assign = dynCast<AssignOp>(use.user())) assigns.push_back(assign);
  }
  if (assigns.empty()) return false;
  std::stable_sort(assigns.begin(), assigns.end(), [](AssignOp a, AssignOp b) {
    return meshNameLess(a.meshName(), b.meshName());
  });
  replaceAssignsWithChainedTransfers(assigns, unassign.tensor(), rewriter);
  return true;
}

// A fragment on `mesh` reducing `values` (left to right) with `type`.
Value reduceFragment(Op anchor, const std::vector<Value>& values,
                     std::string_view mesh, ReductionType type) {
  Op fragment = createFragment(anchor, mesh, values, {values.front().type()},
                               [&](Block body, const std::vector<Value>& args) {
                                 Value accumulator = args.front();
                                 for (size_t i = 1; i < args.size(); ++i) {
                                   accumulator = createReduction(
                                       type, accumulator, args[i], body,
                                       anchor.location());
                                 }
                                 return std::vector<Value>{accumulator};
                               });
  fragment.setAttr(
      kInferredByAttr,
      Attribute::array({Attribute::string(std::string(kConvertReduceOps))}));
  return fragment.result(0);
}

bool lowerReduce(Op op, PatternRewriter& rewriter) {
  ReductionType type = ReduceOp(op).reductionType();
  // Every user must be an assign to a mesh the reduce is used on.
  std::vector<std::string> use_meshes = useMeshes(op);
  for (const Value::Use& use : op.result(0).uses()) {
    auto assign = dynCast<AssignOp>(use.user());
    if (!assign || std::find(use_meshes.begin(), use_meshes.end(),
                             assign.meshName()) == use_meshes.end()) {
      return false;
    }
  }
  if (op.result(0).useEmpty()) return false;
  // Partial reductions, one per mesh of the operands (in order of first use).
  MeshGroups<Value> by_mesh;
  for (Value operand : op.operands()) {
    auto unassign = dynCast<UnassignOp>(operand.definingOp());
    if (!unassign) return false;
    addToMeshGroup(by_mesh, unassign.meshName(), unassign.tensor());
  }
  Op anchor = op.nextInBlock();
  std::vector<Value> partials;
  for (const auto& [mesh, values] : by_mesh) {
    partials.push_back(values.size() == 1
                           ? values.front()
                           : reduceFragment(anchor, values, mesh, type));
  }
  for (const std::string& mesh : use_meshes) {
    std::vector<AssignOp> users;
    for (const Value::Use& use : op.result(0).uses()) {
      auto assign = dynCast<AssignOp>(use.user());
      if (assign && assign.meshName() == mesh) users.push_back(assign);
    }
    if (users.empty()) continue;
    Type target = users.front().result().type();
    std::vector<Value> moved;
    for (Value partial : partials) {
      if (partial.type() == target) {
        moved.push_back(partial);
      } else {
        OperationState transfer = TransferOp::build(partial, target);
        moved.push_back(createBefore(anchor, transfer).result(0));
      }
    }
    Value result = reduceFragment(anchor, moved, mesh, type);
    for (AssignOp user : users)
      rewriter.replaceAllUsesWith(user.result(), result);
  }
  return true;
}

absl::Status verifyAssignment(FuncOp func) {
  std::vector<Diagnostic> errors;
  auto error = [&](Op op, std::string_view message) {
    for (Diagnostic& d : diagnosticsOf(locatedError(op, message)))
      errors.push_back(std::move(d));
  };
  std::vector<Type> inputs = func.argumentTypes();
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!isMeshTensor(inputs[i]))
      error(func, strCat("function input ", i,
                         " is not a MeshTensorType, but "
                         "a ",
                         inputs[i].str()));
  }
  std::vector<Type> results = func.resultTypes();
  for (size_t i = 0; i < results.size(); ++i) {
    if (!isMeshTensor(results[i]))
      error(func, strCat("function output ", i,
                         " is not a MeshTensorType, but a ", results[i].str()));
  }
  auto visit = [&](Op op) {
    if (isa<AssignOp, UnassignOp, BroadcastOp>(op)) {
      error(op,
            "assigns, unassigns or broadcasts are not allowed after mesh "
            "inference.");
    }
    if (isMeshlessOp(op))
      error(op, "no more meshless ops are expected at this point.");
    clearUseSetAndSrcSet(op);
  };
  Module::walkBlock(func.body(), visit);
  return errors.empty() ? absl::OkStatus() : diagnosticStatus(errors);
}

}  // namespace

absl::Status inferMeshFinalize(Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool infer_transfers,
                      options.getBool("infer-transfers", false));
  for (FuncOp func : entryPointFunctions(module)) {
    if (func.body()) SK_RETURN_IF_ERROR(assignEntryArguments(func));
  }
  PatternSet patterns;
  std::vector<RewritePattern>& assign = patterns[std::string(AssignOp::kName)];
  assign = {assignOfUnassignSameMesh, dedupWithTransfer,
            [](Op op, PatternRewriter& rewriter) {
              return chainCrossMeshAssigns(op, rewriter, true);
            }};
  if (infer_transfers) {
    assign.push_back([](Op op, PatternRewriter& rewriter) {
      return chainCrossMeshAssigns(op, rewriter, false);
    });
  }
  patterns[std::string(BroadcastOp::kName)] = {broadcastToTransfers};
  patterns[std::string(ReduceOp::kName)] = {lowerReduce};
  patterns[std::string(FragmentOp::kName)] = {eraseDeadFragment};
  GreedyRewriteConfig config;
  config.top_down = false;
  config.mlir_worklist = true;
  applyPatternsGreedily(module, patterns, config);
  std::vector<Diagnostic> errors;
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    updateFunctionType(func);
    for (Diagnostic& d : diagnosticsOf(verifyAssignment(func)))
      errors.push_back(std::move(d));
    clearFuncUseAndSrcSets(func);
  }
  return errors.empty() ? absl::OkStatus() : diagnosticStatus(errors);
}

}  // namespace shardkit::mpmd
