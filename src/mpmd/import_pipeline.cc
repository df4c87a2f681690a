// The pipelines of the mpmd import (docs/mpmd.md walks through them):
//
// -mpmd-infer-mesh-pipeline{infer-transfers infer-cross-mesh-reductions}:
//   use sets, source sets, cross-mesh reductions, (checks), the leaves, use
//   sets again, (checks), the rewrite and the finalization.
// -mpmd-import-pipeline{name-to-mesh-assignment enable-heterogeneous-meshes}:
//   a program with named computations and named tensors placed on the
//   topology's meshes: inline func calls, canonicalize, topology to callees,
//   (sdy meshes from the topology), simplify named computations, inline
//   nested named ops, validate, named ops to fragments, transfers, unused
//   callee arguments, mesh inference.
//
// Also -mpmd-erase-unused-callee-block-arguments, which the import needs
// before mesh inference: a callee argument only returned is dropped, its
// calls' results replaced by the operand.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/passes/canonicalize.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/assignment_options.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

PassOptions withOption(std::string key, std::string value) {
  PassOptions options;
  options.set(std::move(key), std::move(value));
  return options;
}

std::string boolText(bool value) { return value ? "true" : "false"; }

// Erases `callee` and its calls when no call's result is used any more.
bool eraseCalleeIfUnused(FuncOp callee) {
  std::vector<Op> sites;
  for (FuncOp func : mpmdFunctions(*callee->module())) {
    if (!func.body()) continue;
    auto visit = [&](Op op) {
      if (isa<CallOp>(op) && calleeOf(op).op() == callee.op())
        sites.push_back(op);
    };
    Module::walkBlock(func.body(), visit);
  }
  for (Op call : sites)
    for (unsigned i = 0; i < call.numResults(); ++i)
      if (!call.result(i).useEmpty()) return false;
  for (auto it = sites.rbegin(); it != sites.rend(); ++it) it->erase();
  callee->erase();
  return true;
}

void eraseUnusedArguments(FuncOp callee) {
  std::vector<Op> calls = callersOf(callee);
  Block body = callee.body();
  Op ret = callee.returnOp();
  if (calls.empty() || !ret) return;
  std::vector<bool> erase_args(body.numArguments(), false);
  std::vector<bool> erase_results(ret.numOperands(), false);
  std::vector<std::pair<unsigned, unsigned>> replacements;  // result, operand
  for (unsigned a = 0; a < body.numArguments(); ++a) {
    bool only_returned = true;
    for (const Value::Use& use : body.argument(a).uses())
      only_returned = only_returned && use.user() == ret;
    if (!only_returned) continue;
    erase_args[a] = true;
    for (const Value::Use& use : body.argument(a).uses()) {
      erase_results[use.operandIndex()] = true;
      replacements.emplace_back(use.operandIndex(), a);
    }
  }
  if (std::none_of(erase_args.begin(), erase_args.end(),
                   [](bool b) { return b; })) {
    return;
  }
  for (Op call : calls) {
    for (auto [result, operand] : replacements)
      call.result(result).replaceAllUsesWith(call.operand(operand));
  }
  // A callee that only passes arguments through is not needed at all.
  if (std::all_of(erase_results.begin(), erase_results.end(),
                  [](bool b) { return b; }) &&
      eraseCalleeIfUnused(callee)) {
    return;
  }
  for (unsigned r = ret.numOperands(); r-- > 0;) {
    if (erase_results[r]) ret.eraseOperand(r);
  }
  for (unsigned a = body.numArguments(); a-- > 0;) {
    if (erase_args[a]) body.eraseArgument(a);
  }
  for (Op call : calls) {
    OperationState state(call.opName());
    for (unsigned i = 0; i < call.numOperands(); ++i) {
      if (!erase_args[i]) state.operands.push_back(call.operand(i));
    }
    for (unsigned r = 0; r < call.numResults(); ++r) {
      if (!erase_results[r])
        state.result_types.push_back(call.result(r).type());
    }
    state.inherent_attrs = call.inherentAttrs();
    state.discardable_attrs = call.discardableAttrs();
    Op new_call = mpmd_internal::createBefore(call, state);
    unsigned next = 0;
    for (unsigned r = 0; r < call.numResults(); ++r) {
      if (!erase_results[r])
        call.result(r).replaceAllUsesWith(new_call.result(next++));
    }
    call.erase();
  }
  mpmd_internal::updateFunctionType(callee);
}

}  // namespace

absl::Status eraseUnusedCalleeBlockArguments(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (func->isErased()) continue;  // erased as a pass-through callee
    if (!isEntryPointFunction(func) && func.body()) eraseUnusedArguments(func);
  }
  return absl::OkStatus();
}

absl::Status inferMeshPipeline(Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool infer_transfers,
                      options.getBool("infer-transfers", false));
  SK_ASSIGN_OR_RETURN(bool cross_mesh,
                      options.getBool("infer-cross-mesh-reductions", false));
  // Inferring transfers is more permissive: reductions are inferred too.
  cross_mesh = cross_mesh || infer_transfers;
  PassOptions transfers =
      withOption("infer-transfers", boolText(infer_transfers));
  SK_RETURN_IF_ERROR(inferMeshPopulateUseSet(module));
  SK_RETURN_IF_ERROR(inferMeshPopulateSrcSet(module));
  SK_RETURN_IF_ERROR(inferMeshConvertReduceOps(
      module, withOption("infer-cross-mesh-reductions", boolText(cross_mesh))));
  if (!infer_transfers)
    SK_RETURN_IF_ERROR(inferMeshValidateSrcSetNotEmpty(module, {}));
  SK_RETURN_IF_ERROR(inferMeshAssignMeshForFuncLeaves(module, transfers));
  SK_RETURN_IF_ERROR(inferMeshPopulateUseSet(module));
  if (!infer_transfers) {
    SK_RETURN_IF_ERROR(
        inferMeshValidateNoAdditionalTransfersNeeded(module, {}));
  }
  SK_RETURN_IF_ERROR(inferMeshRewriteUsingAnalysis(module, {}));
  return inferMeshFinalize(module, transfers);
}

absl::Status importPipeline(Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool heterogeneous,
                      options.getBool("enable-heterogeneous-meshes", false));
  SK_ASSIGN_OR_RETURN(bool merge_after_scheduling,
                      options.getBool("merge-after-scheduling", false));
  std::string names = options.get("name-to-mesh-assignment");
  // A malformed assignment is reported under the pipeline's option name,
  // before anything changes.
  SK_RETURN_IF_ERROR(
      mpmd_internal::parseUserAssignment(names, "name-to-mesh-assignment")
          .status());
  PassOptions assignment = withOption("assignment", names);
  SK_RETURN_IF_ERROR(inlineCalls(module));
  SK_RETURN_IF_ERROR(canonicalize(module));
  SK_RETURN_IF_ERROR(copyTopologyFromMain(module));
  if (heterogeneous) SK_RETURN_IF_ERROR(generateSdyMeshesFromTopology(module));
  SK_RETURN_IF_ERROR(mpmd_internal::importCommonPrefix(module));
  SK_RETURN_IF_ERROR(simplifyNamedComputations(module));
  SK_RETURN_IF_ERROR(mapInputOutputToMesh(module, {}));
  SK_RETURN_IF_ERROR(inlineNestedUserExposedOps(module, assignment));
  SK_RETURN_IF_ERROR(validateNamedOpsInMpmdFunc(module));
  SK_RETURN_IF_ERROR(mapNamedOpsToMpmdOps(module, assignment));
  SK_RETURN_IF_ERROR(introduceTransfers(module));
  SK_RETURN_IF_ERROR(eraseUnusedCalleeBlockArguments(module));
  SK_RETURN_IF_ERROR(inferMeshPipeline(module, {}));
  return mpmd_internal::importCommonSuffix(module, merge_after_scheduling);
}

}  // namespace shardkit::mpmd
