// The call, callee and loop rewrites of -mpmd-infer-mesh-rewrite-using-
// analysis: a callee is rewritten once for all its calls (a value used on
// several meshes gets one argument or result per mesh, the extra ones listed
// in `mpmd.copies`), then each call is rebuilt for the callee's new
// signature; an mpmd.for is rewritten in place around its placed body.
#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/infer_mesh_util.h"
#include "src/mpmd/infer_pass_util.h"
#include "src/mpmd/infer_rewrite.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

Attribute copiesAttr(size_t first, size_t count) {
  std::vector<int64_t> positions;
  for (size_t i = 0; i < count; ++i)
    positions.push_back(static_cast<int64_t>(first + i));
  return Attribute::i64Array(std::move(positions));
}

std::vector<int64_t> copiesOf(const Attribute& attr) {
  return attr.intList().value_or(std::vector<int64_t>{});
}

Type meshTensorOn(Value value, std::string_view mesh) {
  return MeshTensorType::fullyReplicated(mesh, value.type())
      .toType(value.module()->types());
}

}  // namespace

absl::Status assignCalleeResults(FuncOp callee, const Topology& topology) {
  Op ret = callee.returnOp();
  if (!ret) return absl::OkStatus();
  std::vector<Value> operands = ret.operands();
  for (unsigned i = 0; i < ret.numOperands(); ++i) {
    Value value = ret.operand(i);
    if (isMeshTensor(value.type())) continue;
    std::vector<std::string> meshes =
        useSetOf(callee.resultAttrList(), i).meshNames();
    // An unused result: a mesh it can come from, else the first mesh.
    if (meshes.empty()) {
      Op producer = value.definingOp();
      if (!producer) {
        return locatedError(ret,
                            strCat("result ", i, " of callee @", callee.name(),
                                   " returns an argument unchanged"));
      }
      MeshSet src = srcSetOf(producer);
      meshes.push_back(src.specified() && !src.empty() ? *src.prioritizedMesh()
                                                       : firstMesh(topology));
    }
    if (meshes.size() > 1) {
      callee.setResultAttr(i, kCopiesAttr,
                           copiesAttr(operands.size(), meshes.size() - 1));
    }
    for (size_t m = 0; m < meshes.size(); ++m) {
      Value assigned = createAssign(ret, value, meshes[m]);
      if (m == 0) {
        operands[i] = assigned;
      } else {
        operands.push_back(assigned);
      }
    }
  }
  ret.setOperands(operands);
  return absl::OkStatus();
}

absl::Status assignCalleeArgs(FuncOp callee) {
  Block body = callee.body();
  Op insert_after;
  auto unassignAtTop = [&](Value arg) {
    OperationState state = UnassignOp::build(arg);
    insert_after = insert_after ? createAfter(insert_after, state)
                                : createAtStart(body, state);
    return insert_after.result(0);
  };
  unsigned original = body.numArguments();
  for (unsigned i = 0; i < original; ++i) {
    Value arg = body.argument(i);
    if (isMeshTensor(arg.type())) continue;
    if (arg.useEmpty()) {
      return locatedError(callee,
                          strCat("argument ", i, " of callee @", callee.name(),
                                 " is unused; remove unused callee "
                                 "arguments first"));
    }
    auto groups = assignUsersByMesh(arg);
    if (groups.empty()) {
      return locatedError(callee,
                          strCat("argument ", i, " of callee @", callee.name(),
                                 " has no assign users"));
    }
    if (groups.size() > 1) {
      callee.setArgAttr(i, kCopiesAttr,
                        copiesAttr(body.numArguments(), groups.size() - 1));
    }
    Type local = arg.type();
    for (size_t g = 0; g < groups.size(); ++g) {
      Type mesh_type = MeshTensorType::fullyReplicated(groups[g].first, local)
                           .toType(callee->module()->types());
      Value mesh_arg = arg;
      if (g == 0) {
        arg.setType(mesh_type);
      } else {
        mesh_arg = body.addArgument(mesh_type);
      }
      Value unassigned = unassignAtTop(mesh_arg);
      for (AssignOp assign : groups[g].second)
        assign->setOperand(0, unassigned);
    }
  }
  return absl::OkStatus();
}

absl::Status rewriteCall(Op call) {
  FuncOp callee = calleeOf(call);
  if (!callee || !callee.body()) return absl::OkStatus();
  Block body = callee.body();
  std::vector<Value> operands(body.numArguments());
  Op last = call;
  auto after = [&](OperationState& state) {
    last = createAfter(last, state);
    return last.result(0);
  };
  for (unsigned i = 0; i < call.numOperands(); ++i) {
    Value operand = call.operand(i);
    if (isMeshTensor(operand.type())) {
      operands[i] = operand;
      continue;
    }
    OperationState assign = AssignOp::build(operand, body.argument(i).type());
    operands[i] = after(assign);
    for (int64_t copy : copiesOf(callee.argAttr(i, kCopiesAttr))) {
      OperationState clone =
          AssignOp::build(operand, body.argument(copy).type());
      operands[copy] = after(clone);
    }
  }
  OperationState state(CallOp::opName());
  state.operands = operands;
  state.result_types = callee.returnOp().operandTypes();
  state.inherent_attrs = call.inherentAttrs();
  state.discardable_attrs = call.discardableAttrs();
  Op new_call = createAfter(last, state);
  last = new_call;
  for (unsigned r = 0; r < call.numResults(); ++r) {
    std::vector<std::pair<Type, unsigned>> by_type = {
        {new_call.result(r).type(), r}};
    for (int64_t copy : copiesOf(callee.resultAttr(r, kCopiesAttr))) {
      Type type = new_call.result(copy).type();
      if (std::none_of(by_type.begin(), by_type.end(),
                       [&](const auto& p) { return p.first == type; }))
        by_type.emplace_back(type, static_cast<unsigned>(copy));
    }
    for (const Value::Use& use : call.result(r).uses()) {
      auto assign = dynCast<AssignOp>(use.user());
      if (!assign) continue;
      auto it = std::find_if(
          by_type.begin(), by_type.end(),
          [&](const auto& p) { return p.first == assign.result().type(); });
      if (it == by_type.end()) {
        return locatedError(assign,
                            "no result of the rewritten call has the "
                            "type this assign needs");
      }
      OperationState unassign = UnassignOp::build(new_call.result(it->second));
      unassign.location = assign->location();
      assign->setOperand(0, after(unassign));
    }
  }
  for (unsigned r = 0; r < call.numResults(); ++r) {
    if (!call.result(r).useEmpty()) {
      return locatedError(call,
                          "a call result is used by an op that is not "
                          "an assign");
    }
  }
  call.erase();
  return absl::OkStatus();
}

absl::Status rewriteFor(ForOp for_op, int max_clones) {
  Block body = for_op.body();
  Op ret = for_op.returnOp();
  // The values the body returns are assigned to the mesh they are used in.
  std::vector<Value> returned;
  for (unsigned i = 0; i < ret.numOperands(); ++i) {
    Value value = ret.operand(i);
    if (isMeshTensor(value.type())) continue;
    std::vector<std::string> meshes = useMeshes(value.definingOp());
    if (meshes.size() != 1) {
      return locatedError(for_op, strCat("result ", i,
                                         " of the loop must be used on one "
                                         "mesh, not ",
                                         meshes.size()));
    }
    returned.push_back(createAssign(ret, value, meshes[0]));
  }
  ret.setOperands(returned);
  SK_RETURN_IF_ERROR(absorbMeshlessProducers(body, max_clones));
  // Arguments on the mesh of their assign users.
  Op insert_after;
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    Value arg = body.argument(i);
    if (isMeshTensor(arg.type())) continue;
    auto groups = assignUsersByMesh(arg);
    if (groups.size() > 1) {
      return locatedError(for_op, strCat("argument ", i,
                                         " of the loop is used on several "
                                         "meshes"));
    }
    if (groups.empty()) continue;
    arg.setType(meshTensorOn(arg, groups[0].first));
    OperationState state = UnassignOp::build(arg);
    insert_after = insert_after ? createAfter(insert_after, state)
                                : createAtStart(body, state);
    for (AssignOp assign : groups[0].second)
      assign->setOperand(0, insert_after.result(0));
  }
  for (unsigned r = 0; r < for_op->numResults() && r < ret.numOperands(); ++r)
    for_op->result(r).setType(ret.operand(r).type());
  // Operands assigned to their arguments' meshes.
  for (unsigned i = 0; i < for_op->numOperands(); ++i) {
    Value operand = for_op->operand(i);
    if (isMeshTensor(operand.type())) continue;
    OperationState assign = AssignOp::build(operand, body.argument(i).type());
    for_op->setOperand(i, createBefore(for_op, assign).result(0));
  }
  // Results unassigned for their assign users.
  Op last = for_op;
  for (unsigned r = 0; r < for_op->numResults(); ++r) {
    for (const Value::Use& use : for_op->result(r).uses()) {
      auto assign = dynCast<AssignOp>(use.user());
      if (!assign) continue;
      OperationState unassign = UnassignOp::build(for_op->result(r));
      last = createAfter(last, unassign);
      assign->setOperand(0, last.result(0));
    }
  }
  clearForSets(for_op);
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
