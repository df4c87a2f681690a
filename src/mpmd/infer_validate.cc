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
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
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
    forEachBlock(op, [&](Block nested) { collectMeshless(nested, ops); });
    ops.push_back(op);
  }
}

bool isSubset(const std::vector<std::string>& a,
              const std::vector<std::string>& b) {
  return std::all_of(a.begin(), a.end(), [&](const std::string& x) {
    return std::find(b.begin(), b.end(), x) != b.end();
  });
}

// The ops and callee arguments that failed placement, so that an error
// whose cause was already reported at a user is counted but not repeated.
struct FailedPlacements {
  absl::flat_hash_set<Op> ops;
  absl::flat_hash_set<std::pair<Op, unsigned>> args;

  bool reportedAtUser(Value value) const {
    for (const Value::Use& use : value.uses()) {
      Op user = use.user();
      if (isa<CallOp>(user)) {
        FuncOp callee = calleeOf(user);
        if (callee && args.contains({callee, use.operandIndex()})) return true;
      } else if (isMeshlessOp(user) && ops.contains(user)) {
        return true;
      }
    }
    return false;
  }
  bool reportedAtUser(Op op) const {
    for (Value result : op.results()) {
      if (reportedAtUser(result)) return true;
    }
    return false;
  }
};

std::string noTransferMessage(std::string_view what,
                              const std::vector<std::string>& uses,
                              const MeshSet& src) {
  return strCat("Mesh assignment is not possible for ", what,
                " as it is used in {", joined(uses),
                "} but it can only be placed on {", joined(src.meshNames()),
                "} without introducing a transfer. Add an explicit transfer "
                "to fix this.\n",
                kInferTransfersHint);
}

// A meshless op (or assign) must be used only on meshes it can be placed on.
void checkOpPlacement(Op op, FailedPlacements& failed, ErrorBudget& errors) {
  MeshSet src = srcSetOf(op);
  std::vector<std::string> uses = useMeshes(op);
  if (!src.specified() || isSubset(uses, src.meshNames())) return;
  if (failed.reportedAtUser(op)) {
    errors.addUnreported();
  } else {
    errors.add(op, noTransferMessage("op", uses, src));
  }
  failed.ops.insert(op);
}

void checkArgPlacement(FuncOp func, unsigned i, FailedPlacements& failed,
                       ErrorBudget& errors) {
  MeshSet src = srcSetOf(func.argAttrList(), i);
  std::vector<std::string> uses = useSetOf(func.argAttrList(), i).meshNames();
  if (!src.specified() || isSubset(uses, src.meshNames())) return;
  failed.args.insert({func, i});
  if (failed.reportedAtUser(func.argument(i))) {
    errors.addUnreported();
    return;
  }
  errors.add(func, noTransferMessage(strCat("arg", i, " of ", CallOp::kName,
                                            " \"", func.name(), "\""),
                                     uses, src));
}

// A call whose result feeds a call of the same callee: that result and
// argument must be used on the same meshes.
void checkCallChain(Op op, ErrorBudget& errors) {
  FuncOp callee = calleeOf(op);
  for (unsigned r = 0; callee && r < op.numResults(); ++r) {
    for (const Value::Use& use : op.result(r).uses()) {
      auto user = dynCast<CallOp>(use.user());
      if (!user || user.callee() != CallOp(op).callee()) continue;
      if (useSetOf(callee.resultAttrList(), r)
              .sameMeshes(useSetOf(callee.argAttrList(), use.operandIndex()))) {
        continue;
      }
      errors.add(callee,
                 strCat("Mesh assignment is not possible for ", CallOp::kName,
                        " \"", callee.name(), "\" as it passes result ", r,
                        " to arg ", use.operandIndex(),
                        " but they have mismatching mesh "
                        "assignments."));
    }
  }
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
      MeshSet src = srcSetOf(func.argAttrList(), i);
      if (!src.empty()) continue;
      bool first = true;
      for (Op call : callersOf(func))
        first = first && !srcSetOfOperand(call, i).empty();
      if (!first) continue;
      errors.add(func, strCat("Mesh assignment is not possible for arg", i,
                              " of ", CallOp::kName, " \"", func.name(),
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
  FailedPlacements failed;
  for (FuncOp func : funcs) {
    if (!func.body()) continue;
    std::vector<Op> ops;
    collectMeshless(func.body(), ops);
    // Users before producers, so that a chain is reported at its last op.
    std::reverse(ops.begin(), ops.end());
    for (Op op : ops) {
      if (errors.exhausted()) break;
      if (isMeshlessOp(op) || isa<AssignOp>(op))
        checkOpPlacement(op, failed, errors);
      if (isa<CallOp>(op) && isCallInCallChain(op)) checkCallChain(op, errors);
    }
    for (unsigned i = 0; i < func.numArguments() && !errors.exhausted(); ++i)
      checkArgPlacement(func, i, failed, errors);
  }
  return errors.count() > 0 ? errors.failure() : absl::OkStatus();
}

}  // namespace shardkit::mpmd
