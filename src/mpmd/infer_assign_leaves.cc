// -mpmd-infer-mesh-assign-mesh-func-leaves{infer-transfers error-limit}:
// gives a mesh to the leaves of each mpmd function, from the use and source
// sets: entry-point outputs (an assign, preferring a mesh the value is used
// in), unused entry-point inputs (the first mesh), unused meshless ops (an
// assign of each result), ops without tensor results (wrapped in a fragment
// per source mesh, or once if side-effect free), the operands of broadcasts
// and reduces (an assign/unassign pair), and a callee's unused inputs and
// outputs (a use set). Other meshless ops lose their use sets, which are
// recomputed once the leaves are assigned.
#include <algorithm>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/fragment_utils.h"
#include "src/mpmd/infer_mesh_util.h"
#include "src/mpmd/infer_pass_util.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

using namespace mpmd_internal;  // NOLINT: the analysis helpers

class LeafAssigner {
 public:
  LeafAssigner(bool infer_transfers, ErrorBudget& errors)
      : infer_transfers_(infer_transfers), errors_(errors) {}

  absl::Status run(FuncOp func) {
    std::optional<Topology> topology = topologyOf(func);
    if (!topology) return absl::OkStatus();
    first_mesh_ = firstMesh(*topology);
    if (isEntryPointFunction(func)) {
      assignUnusedInputs(func, *topology);
      assignOutputs(func);
      SK_RETURN_IF_ERROR(assignBody(func));
      updateFunctionType(func);
    } else {
      SK_RETURN_IF_ERROR(assignBody(func));
      assignUnusedCalleeInputs(func);
      assignUnusedCalleeOutputs(func);
    }
    return absl::OkStatus();
  }

 private:
  // Unused inputs can be anywhere: the first mesh.
  void assignUnusedInputs(FuncOp func, const Topology& topology) {
    Block body = func.body();
    for (unsigned i = 0; i < body.numArguments(); ++i) {
      Value arg = body.argument(i);
      if (!arg.type().isRankedTensor() || !arg.useEmpty()) continue;
      arg.setType(MeshTensorType::fullyReplicated(first_mesh_, arg.type())
                      .toType(func->module()->types()));
    }
    (void)topology;
  }

  void assignOutputs(FuncOp func) {
    Op ret = func.returnOp();
    for (unsigned i = 0; ret && i < ret.numOperands(); ++i) {
      Value output = ret.operand(i);
      if (isMeshTensor(output.type())) continue;
      std::optional<std::string> mesh =
          meshForAssignment(ret, i, first_mesh_, useSetOf(output.definingOp()));
      if (!mesh) {
        if (!infer_transfers_) {
          errors_.add(ret, strCat("Func output ", i,
                                  " has no mesh to be assigned to."));
        }
        mesh = first_mesh_;
      }
      ret.setOperand(i,
                     createAssign(ret, output, *mesh, kInferredOutputOrigin));
    }
  }

  absl::Status assignBody(FuncOp func) {
    std::vector<Op> ops;
    collect(func.body(), ops);
    for (Op op : ops) {
      if (op.isErased()) continue;
      if (isMeshlessOp(op)) {
        bool tensor_result = false;
        for (Type type : op.resultTypes())
          tensor_result = tensor_result || type.isRankedTensor();
        if (!tensor_result) {
          SK_RETURN_IF_ERROR(assignResultless(op));
        } else if (unused(op)) {
          SK_RETURN_IF_ERROR(assignUnused(op));
        } else {
          clearUseSet(op);
        }
      } else if (isTerminalNodeInAnalysis(op)) {
        SK_RETURN_IF_ERROR(assignTerminalOperands(op));
        clearUseSet(op);
      }
    }
    clearFuncUseSets(func);
    return absl::OkStatus();
  }

  // The ops to look at, in order: meshless ops and terminal nodes, without
  // their regions; the regions of other mpmd ops but fragments.
  static void collect(Block block, std::vector<Op>& ops) {
    for (Op op : block) {
      if (isa<FragmentOp>(op)) continue;
      if (isMeshlessOp(op) || isTerminalNodeInAnalysis(op)) {
        ops.push_back(op);
      } else if (op.dialect() == "mpmd") {
        forEachBlock(op, [&](Block nested) { collect(nested, ops); });
      }
    }
  }

  static bool unused(Op op) {
    for (unsigned i = 0; i < op.numResults(); ++i) {
      if (!op.result(i).useEmpty()) return false;
    }
    return true;
  }

  absl::Status assignUnused(Op op) {
    std::string mesh = first_mesh_;
    MeshSet src = srcSetOf(op);
    if (src.empty()) {
      if (!infer_transfers_) {
        return locatedError(op,
                            "src_set must not be empty for this op. Try "
                            "setting `mpmd_infer_transfers` in the "
                            "partitioning options.");
      }
    } else if (src.specified()) {
      mesh = *src.prioritizedMesh();
    }
    Op after = op;
    for (unsigned i = 0; i < op.numResults(); ++i) {
      Value result = op.result(i);
      if (!result.type().isRankedTensor()) continue;
      OperationState state =
          AssignOp::build(result,
                          MeshTensorType::fullyReplicated(mesh, result.type())
                              .toType(op.module()->types()),
                          kInferredUnusedOrigin);
      after = createAfter(after, state);
    }
    clearUseSet(op);
    return absl::OkStatus();
  }

  // Wrapped in a fragment on each mesh it can be on (once if it has no side
  // effects), in mesh-name order.
  absl::Status assignResultless(Op op) {
    MeshSet src = srcSetOf(op);
    if (src.empty()) {
      return locatedError(op, "src_set must not be empty for resultless ops.");
    }
    std::vector<std::string> meshes =
        src.specified() ? src.meshNames()
                        : std::vector<std::string>{first_mesh_};
    clearUseSetAndSrcSet(op);
    std::stable_sort(meshes.begin(), meshes.end(), meshNameLess);
    for (const std::string& mesh : meshes) {
      wrapOpWithFragment(op, mesh, kWrapResultlessOps);
      if (isPure(op)) break;
    }
    op.erase();
    return absl::OkStatus();
  }

  // Each operand of a broadcast or reduce is assigned to a mesh it can be
  // on, preferring one it is used in, and unassigned for the op.
  absl::Status assignTerminalOperands(Op op) {
    MeshSet preferred = useSetOf(op);
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      Value operand = op.operand(i);
      std::optional<std::string> mesh =
          meshForAssignment(op, i, first_mesh_, preferred);
      if (!mesh) {
        if (!infer_transfers_) {
          return locatedError(
              op, strCat("operand ", i, " has no mesh to be assigned to"));
        }
        mesh = preferred.prioritizedMesh().value_or(first_mesh_);
      }
      Value assigned = createAssign(op, operand, *mesh, terminalNodeOrigin(op));
      OperationState unassign = UnassignOp::build(assigned);
      op.setOperand(i, createBefore(op, unassign).result(0));
    }
    return absl::OkStatus();
  }

  // Returns the mesh for an unused callee value from its source set, and
  // whether it had to be made up (an empty source set).
  std::pair<std::string, bool> meshFromSrcSet(const MeshSet& src) const {
    if (!src.specified()) return {first_mesh_, false};
    if (src.empty()) return {first_mesh_, true};
    return {*src.prioritizedMesh(), false};
  }

  void assignUnusedCalleeInputs(FuncOp callee) {
    Block body = callee.body();
    for (unsigned i = 0; i < body.numArguments(); ++i) {
      Value arg = body.argument(i);
      if (!arg.useEmpty() || !arg.type().isRankedTensor()) continue;
      auto [mesh, made_up] = meshFromSrcSet(srcSetOf(callee.argAttrList(), i));
      if (made_up && !infer_transfers_) {
        errors_.add(callee, strCat("Callee @", callee.name(), " unused input ",
                                   i, " has no mesh to be assigned to."));
        return;
      }
      setUseSet(callee.argAttrList(), i,
                MeshSet(MeshWithOrigins{
                    mesh, {std::string(kInferredUnusedCalleeInOrigin)}}));
    }
  }

  void assignUnusedCalleeOutputs(FuncOp callee) {
    std::vector<Op> calls = callersOf(callee);
    Op ret = callee.returnOp();
    if (calls.empty() || !ret) return;
    for (unsigned i = 0; i < ret.numOperands(); ++i) {
      bool used = false;
      for (Op call : calls) used = used || !call.result(i).useEmpty();
      if (used || isMeshTensor(ret.operand(i).type())) continue;
      auto [mesh, made_up] = meshFromSrcSet(srcSetOfOperand(ret, i));
      if (made_up && !infer_transfers_) {
        errors_.add(ret, strCat("Callee @", callee.name(), " unused output ", i,
                                " has no mesh to be assigned to."));
        return;
      }
      setUseSet(callee.resultAttrList(), i,
                MeshSet(MeshWithOrigins{
                    mesh, {std::string(kInferredUnusedCalleeOutOrigin)}}));
    }
  }

  bool infer_transfers_;
  ErrorBudget& errors_;
  std::string first_mesh_;
};

}  // namespace

absl::Status inferMeshAssignMeshForFuncLeaves(Module& module,
                                              const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool infer_transfers,
                      options.getBool("infer-transfers", false));
  SK_ASSIGN_OR_RETURN(ErrorBudget errors, ErrorBudget::fromOptions(options));
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    SK_RETURN_IF_ERROR(LeafAssigner(infer_transfers, errors).run(func));
    if (errors.exhausted()) return errors.failure();
  }
  errors.emitRemaining();
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
