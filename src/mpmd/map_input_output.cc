// -mpmd-map-input-output-to-mesh{input-assignment=I@MESH,...
// output-assignment=I@MESH,...}: the entry point's assigned inputs become
// mesh tensors, unassigned at the top of the body in argument order; its
// assigned outputs are assigned before the return. A mesh may carry a memory
// kind (`m1#pinned_host`).
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/assignment_options.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::IndexedAssignment;

constexpr std::string_view kUserInputOrigin = "user_in";
constexpr std::string_view kUserOutputOrigin = "user_out";

absl::Status optionError(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// The mesh tensor type `mesh` (maybe with `#memory_kind`) gives `local`.
absl::StatusOr<Type> meshTensorFor(FuncOp func, Type local,
                                   std::string_view mesh) {
  auto [name, memory_kind] = mpmd_internal::splitMemoryKind(mesh);
  std::optional<Topology> topology = topologyOf(func);
  if (!topology || !topology->find(name)) {
    return optionError(strCat("mesh '", name, "' of function @", func.name(),
                              " is not in its topology"));
  }
  if (!local.isRankedTensor()) {
    return optionError(strCat("cannot assign a value of type ", local.str(),
                              " of function @", func.name(), " to a mesh"));
  }
  MeshTensorType type = MeshTensorType::fullyReplicated(name, local);
  type.memory_kind = memory_kind;
  return type.toType(func->module()->types());
}

// The memory kind attribute of an argument or result is dropped once its
// type carries one.
void dropMemoryKindAttrs(FuncOp func) {
  auto drop = [](DictListAttr attrs, const std::vector<Type>& types) {
    for (unsigned i = 0; i < types.size(); ++i) {
      std::optional<MeshTensorType> type = MeshTensorType::of(types[i]);
      if (type && type->memory_kind && attrs.entry(i, kMemoryKindAttr))
        attrs.removeEntry(i, kMemoryKindAttr);
    }
  };
  drop(func.argAttrList(), func.argumentTypes());
  drop(func.resultAttrList(), func.resultTypes());
}

// Calls `fn(index, value, type)` for each assignment `index -> mesh` of the
// `count` values `value_at(i)` of `func` (its `kind` values, "input" or
// "output"), `type` the value's type on the mesh; an error for an index out
// of bounds or a value no mesh tensor holds.
template <typename ValueAt, typename Fn>
absl::Status forEachAssigned(FuncOp func, std::string_view kind,
                             const IndexedAssignment& assignment,
                             unsigned count, const ValueAt& value_at, Fn&& fn) {
  for (const auto& [index, mesh] : assignment) {
    if (index >= count) {
      return optionError(strCat(kind, " index ", index, " of function @",
                                func.name(), " is out of bounds"));
    }
    Value value = value_at(static_cast<unsigned>(index));
    SK_ASSIGN_OR_RETURN(Type type, meshTensorFor(func, value.type(), mesh));
    fn(static_cast<unsigned>(index), value, type);
  }
  return absl::OkStatus();
}

absl::Status mapFunction(FuncOp func, const IndexedAssignment& inputs,
                         const IndexedAssignment& outputs) {
  Block body = func.body();
  Op ret = func.returnOp();
  if (!body || !ret) return absl::OkStatus();
  Op last_unassign;
  SK_RETURN_IF_ERROR(forEachAssigned(
      func, "input", inputs, body.numArguments(),
      [&](unsigned i) { return body.argument(i); },
      [&](unsigned, Value arg, Type type) {
        std::vector<Value::Use> uses = arg.uses();
        arg.setType(type);
        OperationState state = UnassignOp::build(arg, kUserInputOrigin);
        last_unassign = last_unassign
                            ? mpmd_internal::createAfter(last_unassign, state)
                            : mpmd_internal::createAtStart(body, state);
        for (const Value::Use& use : uses)
          use.user().setOperand(use.operandIndex(), last_unassign.result(0));
      }));
  SK_RETURN_IF_ERROR(forEachAssigned(
      func, "output", outputs, ret.numOperands(),
      [&](unsigned i) { return ret.operand(i); },
      [&](unsigned index, Value output, Type type) {
        OperationState state = AssignOp::build(output, type, kUserOutputOrigin);
        ret.setOperand(index,
                       mpmd_internal::createBefore(ret, state).result(0));
      }));
  mpmd_internal::updateFunctionType(func);
  dropMemoryKindAttrs(func);
  return absl::OkStatus();
}

}  // namespace

absl::Status mapInputOutputToMesh(Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(IndexedAssignment inputs,
                      mpmd_internal::parseIndexedAssignment(
                          options.get("input-assignment"), "input-assignment"));
  SK_ASSIGN_OR_RETURN(
      IndexedAssignment outputs,
      mpmd_internal::parseIndexedAssignment(options.get("output-assignment"),
                                            "output-assignment"));
  for (FuncOp func : entryPointFunctions(module)) {
    SK_RETURN_IF_ERROR(mapFunction(func, inputs, outputs));
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
