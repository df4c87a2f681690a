// -mpmd-map-named-ops-to-mpmd-ops{assignment=NAME@MESH[/STAGE],...}: each
// top-level named_computation becomes a fragment on its assigned mesh (and
// stage), its operands assigned to the mesh and its results unassigned; each
// named_tensor with an assignment becomes unassign(assign(x)) on its mesh,
// and one without is dropped.
//
// -mpmd-inline-nested-user-exposed-ops{assignment=...}: named computations,
// named tensors, broadcasts and reduces nested in a named computation are
// inlined, after checking that their assignment agrees with the parent's.
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/assignment_options.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::ErrorCollector;
using mpmd_internal::MeshStage;
using mpmd_internal::splitMemoryKind;
using mpmd_internal::UserAssignment;

// The bodies of the mpmd and spmd functions: where named ops are mapped.
std::vector<Block> distributedBodies(Module& module) {
  std::vector<Block> bodies;
  for (Op func_op : module.functions()) {
    FuncOp func(func_op);
    if ((isMpmdFunction(func) || isSpmdFunction(func)) && func.body())
      bodies.push_back(func.body());
  }
  return bodies;
}

absl::StatusOr<UserAssignment> assignmentOption(const PassOptions& options) {
  return mpmd_internal::parseUserAssignment(options.get("assignment"),
                                            "assignment");
}

std::optional<MeshStage> assignmentOf(const UserAssignment& assignment,
                                      std::string_view name) {
  auto it = assignment.find(name);
  if (it == assignment.end()) return std::nullopt;
  return it->second;
}

// Replaces `op` by a fragment on `target`'s mesh (and stage).
absl::Status mapNamedComputation(NamedComputationOp op,
                                 const MeshStage& target) {
  std::string mesh = splitMemoryKind(target.mesh).first;
  SK_RETURN_IF_ERROR(meshOf(op, mesh).status());
  std::string name = op.name();
  TypeContext& types = op->module()->types();
  // One assign per distinct operand.
  absl::flat_hash_map<Value, Value> assigned;
  std::vector<Value> operands;
  for (Value operand : op->operands()) {
    auto [it, inserted] = assigned.try_emplace(operand);
    if (inserted) {
      OperationState assign = AssignOp::build(
          operand,
          MeshTensorType::fullyReplicated(mesh, operand.type()).toType(types),
          name);
      it->second = mpmd_internal::createBefore(op, assign).result(0);
    }
    operands.push_back(it->second);
  }
  OperationState state(FragmentOp::opName());
  state.operands = std::move(operands);
  for (Value result : op->results()) {
    state.result_types.push_back(
        MeshTensorType::fullyReplicated(mesh, result.type()).toType(types));
  }
  state.addAttr("origin", Attribute::array({op->attr("origin")}));
  state.addAttr("mesh_name", Attribute::string(mesh));
  if (target.stage)
    state.addAttr("stage_id", Attribute::integer(*target.stage));
  state.num_regions = 1;
  Op fragment = mpmd_internal::createBefore(op, state);
  mpmd_internal::moveBody(op, fragment);
  for (unsigned i = 0; i < fragment.numResults(); ++i) {
    OperationState unassign = UnassignOp::build(fragment.result(i), name);
    op->result(i).replaceAllUsesWith(
        mpmd_internal::createBefore(op, unassign).result(0));
  }
  op->erase();
  return absl::OkStatus();
}

// The mesh tensor type `op`'s assignment gives its tensor, or nullopt when it
// has none. The stage of a named tensor is ignored.
absl::StatusOr<std::optional<Type>> namedTensorType(
    NamedTensorOp op, const UserAssignment& assignment) {
  std::optional<MeshStage> target = assignmentOf(assignment, op.name());
  if (!target) return std::optional<Type>();
  auto [mesh, memory_kind] = splitMemoryKind(target->mesh);
  SK_RETURN_IF_ERROR(meshOf(op, mesh).status());
  MeshTensorType type =
      MeshTensorType::fullyReplicated(mesh, op.tensor().type());
  type.memory_kind = memory_kind;
  return std::optional<Type>(type.toType(op->module()->types()));
}

absl::Status mapNamedTensor(NamedTensorOp op,
                            const UserAssignment& assignment) {
  SK_ASSIGN_OR_RETURN(std::optional<Type> type,
                      namedTensorType(op, assignment));
  Value replacement = op.tensor();
  if (type) {
    std::string name(op.name());
    OperationState assign = AssignOp::build(op.tensor(), *type, name);
    Value assigned = mpmd_internal::createBefore(op, assign).result(0);
    OperationState unassign = UnassignOp::build(assigned, name);
    replacement = mpmd_internal::createBefore(op, unassign).result(0);
  }
  op.result().replaceAllUsesWith(replacement);
  op->erase();
  return absl::OkStatus();
}

// The named ops of `block` and of the regions of its other ops (not inside
// named computations), in program order.
void collectNamedOps(Block block, std::vector<Op>& ops) {
  for (Op op : block) {
    if (isa<NamedComputationOp, NamedTensorOp>(op)) ops.push_back(op);
    if (isa<NamedComputationOp>(op)) continue;
    forEachBlock(op, [&](Block nested) { collectNamedOps(nested, ops); });
  }
}

// Replaces a nested named computation by its body.
void inlineNamedComputation(NamedComputationOp op) {
  std::vector<Value> results =
      mpmd_internal::inlineBlockBefore(op.body(), op, op->operands());
  for (unsigned i = 0; i < results.size(); ++i)
    op->result(i).replaceAllUsesWith(results[i]);
  op->erase();
}

// The ops nested in named computations, innermost first (a post-order walk).
void collectNested(Op op, std::vector<Op>& ops) {
  forEachBlock(op, [&](Block block) {
    for (Op nested : block) collectNested(nested, ops);
  });
  ops.push_back(op);
}

NamedComputationOp namedParentOf(Op op) {
  for (Op parent = op.parentOp(); parent; parent = parent.parentOp()) {
    if (auto named = dynCast<NamedComputationOp>(parent)) return named;
  }
  return NamedComputationOp();
}

}  // namespace

absl::Status mapNamedOpsToMpmdOps(Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(UserAssignment assignment, assignmentOption(options));
  ErrorCollector errors;
  for (Block body : distributedBodies(module)) {
    std::vector<Op> named_ops;
    collectNamedOps(body, named_ops);
    for (Op op : named_ops) {
      if (auto named = dynCast<NamedComputationOp>(op)) {
        std::optional<MeshStage> target =
            assignmentOf(assignment, named.name());
        if (!target) {
          errors.add(op, strCat("Top-level NamedComputation '", named.name(),
                                "' is not assigned to a mesh in the "
                                "user-defined named-to-mesh assignment."));
          continue;
        }
        SK_RETURN_IF_ERROR(mapNamedComputation(named, *target));
      } else {
        SK_RETURN_IF_ERROR(mapNamedTensor(NamedTensorOp(op), assignment));
      }
    }
  }
  return errors.status();
}

absl::Status inlineNestedUserExposedOps(Module& module,
                                        const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(UserAssignment assignment, assignmentOption(options));
  ErrorCollector errors;
  for (Block body : distributedBodies(module)) {
    std::vector<Op> ops;
    for (Op op : body) collectNested(op, ops);
    for (Op op : ops) {
      NamedComputationOp parent = namedParentOf(op);
      if (!parent ||
          !isa<NamedComputationOp, NamedTensorOp, BroadcastOp, ReduceOp>(op)) {
        continue;
      }
      std::optional<MeshStage> parent_target =
          assignmentOf(assignment, parent.name());
      if (!parent_target && isa<NamedComputationOp, NamedTensorOp>(op)) {
        errors.add(parent, strCat("Parent NamedComputation '", parent.name(),
                                  "' is not assigned to a mesh in the "
                                  "user-defined name-to-mesh assignment."));
        break;
      }
      if (auto named = dynCast<NamedComputationOp>(op)) {
        std::optional<MeshStage> target =
            assignmentOf(assignment, named.name());
        if (target && !(*target == *parent_target)) {
          errors.add(
              op, strCat("NamedComputation '", named.name(),
                         "' is nested in a NamedComputation '", parent.name(),
                         "' which has a different mesh or stage "
                         "assignment."));
        }
        inlineNamedComputation(named);
        continue;
      }
      if (auto tensor = dynCast<NamedTensorOp>(op)) {
        std::optional<MeshStage> target =
            assignmentOf(assignment, tensor.name());
        if (target &&
            splitMemoryKind(target->mesh).first != parent_target->mesh) {
          errors.add(
              op, strCat("NamedTensor '", tensor.name(),
                         "' is nested in a NamedComputation '", parent.name(),
                         "' which has a different mesh assignment."));
        }
      }
      op.result(0).replaceAllUsesWith(op.operand(0));
      op.erase();
    }
  }
  return errors.status();
}

}  // namespace shardkit::mpmd
