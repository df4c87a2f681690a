// The checks of mesh inference without infer-transfers (each with an
// `error-limit`):
//
// -mpmd-infer-mesh-validate-src-set-not-empty: every meshless op can be
//   placed somewhere without a new transfer (a non-empty source set), and no
//   reduction is left that needs to be a cross-mesh one. Only the first op of
//   a chain of such errors is reported.
// -mpmd-infer-mesh-validate-no-additional-transfers-needed: every meshless
//   op (and callee argument) is used only on meshes it can be placed on;
//   calls chained into calls of the same callee pass results to arguments
//   used on the same meshes.
#include <algorithm>
#include <string>
#include <vector>

#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/ops.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/mpmd/utils.h"
#include "src/mpmd/infer_mesh_util.h"
#include "src/mpmd/infer_pass_util.h"

namespace shardkit::mpmd {
namespace {

using namespace mpmd_internal;  // NOLINT: the analysis helpers

constexpr std::string_view kInferTransfersHint =
    "To handle this automatically, set `mpmd_infer_transfers` in the "
    "partitioning options.";

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names)
    strAppend(out, out.empty() ? "" : ",", name);
  return out;
}

bool isFirstWithEmptySrcSet(Op op) {
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    if (srcSetOfOperand(op, i).empty()) return false;
  }
  return true;
}

bool isFirstInReductionChain(Op op) {
  for (Value operand : op.operands()) {
    if (isReduceAnnotated(operand.definingOp())) return false;
  }
  return true;
}

void checkSrcSetNotEmpty(Op op, ErrorBudget& errors) {
  MeshSet src = srcSetOf(op);
  bool annotated = isReduceAnnotated(op);
  if (!src.specified() || (!src.empty() && !annotated)) return;
  if ((src.empty() && !isFirstWithEmptySrcSet(op)) ||
      (annotated && !isFirstInReductionChain(op))) {
    return;
  }
  errors.add(op, strCat("Mesh assignment is not possible for op as its "
                        "operands are on conflicting meshes and thus we need "
                        "to transfer some of the operands. Add an explicit "
                        "transfer to fix this.\n",
                        annotated ? "To handle this automatically, set "
                                    "`mpmd_infer_cross_mesh_reductions` in "
                                    "the partitioning options."
                                  : kInferTransfersHint));
}

void collectMeshless(Block block, std::vector<Op>& ops) {
  for (Op op : block) {
    if (isa<FragmentOp>(op)) continue;
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      for (unsigned b = 0; b < op.region(r).numBlocks(); ++b)
        collectMeshless(op.region(r).block(b), ops);
    }
    ops.push_back(op);
  }
}

bool isSubset(const std::vector<std::string>& a,
              const std::vector<std::string>& b) {
  return std::all_of(a.begin(), a.end(), [&](const std::string& x) {
    return std::find(b.begin(), b.end(), x) != b.end();
  });
}

}  // namespace

absl::Status inferMeshValidateSrcSetNotEmpty(Module& module,
                                             const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(ErrorBudget errors, ErrorBudget::fromOptions(options));
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    std::vector<Op> ops;
    collectMeshless(func.body(), ops);
    for (Op op : ops) {
      if (errors.exhausted()) break;
      if (isMeshlessOp(op)) checkSrcSetNotEmpty(op, errors);
    }
    for (unsigned i = 0; i < func.numArguments() && !errors.exhausted(); ++i) {
      MeshSet src = argSrcSet(func, i);
      if (!src.empty()) continue;
      bool first = true;
      for (Op call : callersOf(func))
        first = first && !srcSetOfOperand(call, i).empty();
      if (!first) continue;
      errors.add(func, strCat("Mesh assignment is not possible for arg", i,
                              " of mpmd.call \"", func.name(),
                              "\" as its caller operands are on conflicting "
                              "meshes and thus we need to transfer some of "
                              "the operands. Add an explicit transfer to fix "
                              "this.\n",
                              kInferTransfersHint));
    }
  }
  return errors.count() > 0 ? errors.failure() : absl::OkStatus();
}

absl::Status inferMeshValidateNoAdditionalTransfersNeeded(
    Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(ErrorBudget errors, ErrorBudget::fromOptions(options));
  std::vector<FuncOp> funcs = mpmdFunctions(module);
  // Callees first, then entry points.
  std::stable_partition(funcs.begin(), funcs.end(),
                        [](FuncOp f) { return !isEntryPointFunction(f); });
  for (FuncOp func : funcs) {
    if (!func.body()) continue;
    std::vector<Op> ops;
    collectMeshless(func.body(), ops);
    std::reverse(ops.begin(), ops.end());
    for (Op op : ops) {
      if (errors.exhausted()) break;
      if (isMeshlessOp(op) || isa<AssignOp>(op)) {
        MeshSet src = srcSetOf(op);
        std::vector<std::string> uses = useMeshes(op);
        if (src.specified() && !isSubset(uses, src.meshNames())) {
          errors.add(op,
                     strCat("Mesh assignment is not possible for op as "
                            "it is used in {",
                            joined(uses), "} but it can only be placed on {",
                            joined(src.meshNames()),
                            "} without introducing a transfer. Add an "
                            "explicit transfer to fix this.\n",
                            kInferTransfersHint));
        }
      }
      if (isa<CallOp>(op) && isCallInCallChain(op)) {
        FuncOp callee = calleeOf(op);
        for (unsigned r = 0; callee && r < op.numResults(); ++r) {
          for (const Value::Use& use : op.result(r).uses()) {
            auto user = dynCast<CallOp>(use.user());
            if (!user || user.callee() != CallOp(op).callee()) continue;
            if (!resultUseSet(callee, r).sameMeshes(
                    argUseSet(callee, use.operandIndex()))) {
              errors.add(callee, strCat("Mesh assignment is not possible for ",
                                        CallOp::kName, " \"", callee.name(),
                                        "\" as it passes result ", r,
                                        " to arg ", use.operandIndex(),
                                        " but they have mismatching mesh "
                                        "assignments."));
            }
          }
        }
      }
    }
    for (unsigned i = 0; i < func.numArguments() && !errors.exhausted(); ++i) {
      MeshSet src = argSrcSet(func, i);
      std::vector<std::string> uses = argUseSet(func, i).meshNames();
      if (!src.specified() || isSubset(uses, src.meshNames())) continue;
      errors.add(
          func, strCat("Mesh assignment is not possible for arg", i,
                       " of mpmd.call \"", func.name(), "\" as it is used in {",
                       joined(uses), "} but it can only be placed on {",
                       joined(src.meshNames()),
                       "} without introducing a transfer. Add an "
                       "explicit transfer to fix this.\n",
                       kInferTransfersHint));
    }
  }
  return errors.count() > 0 ? errors.failure() : absl::OkStatus();
}

}  // namespace shardkit::mpmd
