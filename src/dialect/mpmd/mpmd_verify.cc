// The verifiers of the mpmd ops that move tensors between meshes and of the
// small ops: transfer, assign, unassign, broadcast, named_tensor, reduce,
// call and for. Messages and their form (with or without the op's name) are
// the reference's.
#include "src/dialect/mpmd/mpmd_verify.h"

#include <string>
#include <tuple>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

absl::Status opMessage(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// The memory kind a value carries as an attribute rather than in its type:
// an argument attribute of the function, a transfer's attribute, or a result
// attribute of a fragment, call or loop.
const std::string* memoryKindInAttributes(Value value) {
  if (value.isBlockArgument()) {
    auto func = dynCast<FuncOp>(value.ownerBlock().parentOp());
    return func ? func.argAttr(value.index(), kMemoryKindAttr).asString()
                : nullptr;
  }
  Op producer = value.definingOp();
  if (isa<TransferOp>(producer)) {
    return producer.attr(kMemoryKindAttr).asString();
  }
  if (!isa<FragmentOp, CallOp, FragmentCallOp, ForOp>(producer)) return nullptr;
  const std::vector<Attribute>* res_attrs =
      producer.attr("res_attrs").asArray();
  if (!res_attrs || value.index() >= res_attrs->size()) return nullptr;
  const std::vector<NamedAttribute>* dict =
      (*res_attrs)[value.index()].asDict();
  if (!dict) return nullptr;
  for (const NamedAttribute& entry : *dict) {
    if (entry.name == kMemoryKindAttr) return entry.value.asString();
  }
  return nullptr;
}

absl::Status checkMemoryKind(Op op, const MeshTensorType& type) {
  if (!type.memory_kind || *type.memory_kind == kMemoryKindPinnedHost ||
      *type.memory_kind == kMemoryKindDevice) {
    return absl::OkStatus();
  }
  return locatedError(
      op,
      strCat("memory kind must be either '", kMemoryKindPinnedHost, "' or '",
             kMemoryKindDevice, "'. Found '", *type.memory_kind, "'."));
}

// assign and unassign: the mesh tensor is valid, fully replicated, and its
// global type is the local type.
absl::Status verifyAssignmentTypes(Op op, Type local, Value mesh_value,
                                   std::string_view what) {
  if (!local.isRankedTensor()) {
    return opMessage(strCat(what,
                            " #0 must be tensor of any type values, but "
                            "got '",
                            local.str(), "'"));
  }
  SK_ASSIGN_OR_RETURN(
      MeshTensorType mesh_type,
      requireMeshTensor(mesh_value, what == "operand" ? "result" : "operand",
                        0));
  SK_RETURN_IF_ERROR(checkParent(op, {FuncOp::kName, ForOp::kName}));
  SK_RETURN_IF_ERROR(verifyForTopology(op, mesh_type));
  if (!mesh_type.isFullyReplicated()) {
    return locatedError(op,
                        strCat("MeshTensorType should be fully replicated: '",
                               mesh_type.str(), "'"));
  }
  if (mesh_type.globalTypeText() != local.str()) {
    return locatedError(
        op, strCat("mismatch between the given local type '", local.str(),
                   "' and mesh_type ranked tensor type: '",
                   mesh_type.globalTypeText(), "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status checkParent(Op op,
                         std::initializer_list<std::string_view> parents) {
  Op parent = op.parentOp();
  for (std::string_view name : parents) {
    if (parent && parent.name() == name) return absl::OkStatus();
  }
  if (parents.size() == 1) {
    return opMessage(strCat("expects parent op '", *parents.begin(), "'"));
  }
  std::string names;
  for (std::string_view name : parents) {
    strAppend(names, names.empty() ? "" : ", ", name);
  }
  return opMessage(strCat("expects parent op to be one of '", names, "'"));
}

absl::StatusOr<MeshTensorType> requireMeshTensor(Value value,
                                                 std::string_view what,
                                                 unsigned index) {
  std::optional<MeshTensorType> type = MeshTensorType::of(value.type());
  if (!type) {
    return opMessage(strCat(what, " #", index,
                            " must be mesh tensor type, but got '",
                            value.type().str(), "'"));
  }
  return *type;
}

absl::Status verifyForTopology(Op op, const MeshTensorType& type) {
  SK_ASSIGN_OR_RETURN(Mesh mesh, meshOf(op, type.mesh_name));
  return verifyForMesh(type, mesh);
}

absl::Status verifyTransferOp(Op op, const VerifyContext&) {
  SK_ASSIGN_OR_RETURN(MeshTensorType in,
                      requireMeshTensor(op.operand(0), "operand", 0));
  SK_ASSIGN_OR_RETURN(MeshTensorType out,
                      requireMeshTensor(op.result(0), "result", 0));
  SK_RETURN_IF_ERROR(checkParent(op, {FuncOp::kName}));
  SK_RETURN_IF_ERROR(verifyForTopology(op, in));
  SK_RETURN_IF_ERROR(verifyForTopology(op, out));
  if (in.globalTypeText() != out.globalTypeText()) {
    return locatedError(
        op,
        strCat("cannot perform transfer between given types '", in.str(),
               "' and '", out.str(), "': global tensor types are different"));
  }
  SK_RETURN_IF_ERROR(checkMemoryKind(op, in));
  SK_RETURN_IF_ERROR(checkMemoryKind(op, out));
  // Memory kinds belong in the types: an attribute pinning either side to the
  // host is not supported.
  const std::string* in_kind = memoryKindInAttributes(op.operand(0));
  if (in_kind && *in_kind == kMemoryKindPinnedHost) {
    return locatedError(op,
                        "Transfers from host with attributes are not "
                        "supported. Memory kinds must be expressed in the "
                        "type.");
  }
  const std::string* out_kind = memoryKindInAttributes(op.result(0));
  if (out_kind && *out_kind == kMemoryKindPinnedHost) {
    return locatedError(op,
                        "Transfers to host with attributes are not supported. "
                        "Memory kinds must expressed be in the type.");
  }
  return absl::OkStatus();
}

absl::Status verifyAssignOp(Op op, const VerifyContext&) {
  return verifyAssignmentTypes(op, op.operand(0).type(), op.result(0),
                               "operand");
}

absl::Status verifyUnassignOp(Op op, const VerifyContext&) {
  return verifyAssignmentTypes(op, op.result(0).type(), op.operand(0),
                               "result");
}

absl::Status verifySameTypeOp(Op op, const VerifyContext&) {
  for (Type type : op.operandTypes()) {
    if (!type.isRankedTensor() && type.kind() != TypeKind::kUnrankedTensor)
      return opMessage(
          strCat("operand #0 must be tensor of any type values, "
                 "but got '",
                 type.str(), "'"));
  }
  std::vector<Type> types = op.operandTypes();
  std::vector<Type> results = op.resultTypes();
  types.insert(types.end(), results.begin(), results.end());
  for (Type type : types) {
    if (!(type == types.front())) {
      return opMessage("requires the same type for all operands and results");
    }
  }
  return absl::OkStatus();
}

absl::Status verifyNamedTensorOp(Op op, const VerifyContext& context) {
  if (!op.attr("name").asString())
    return opMessage("requires attribute 'name'");
  return verifySameTypeOp(op, context);
}

absl::Status verifyReduceOp(Op op, const VerifyContext& context) {
  if (op.numResults() != 1) {
    return opMessage(strCat("requires one result, but got ", op.numResults()));
  }
  const Attribute& reduction = op.attr("reduction");
  if (reduction && !reductionOf(reduction)) {
    return opMessage(
        "attribute 'reduction' failed to satisfy constraint: Denotes a "
        "reduction.");
  }
  SK_RETURN_IF_ERROR(verifySameTypeOp(op, context));
  if (ReduceOp(op).reductionType() == ReductionType::kNone &&
      op.numOperands() != 1) {
    return locatedError(op,
                        "ReduceOp must have exactly one operand if the "
                        "reduction type is none");
  }
  return absl::OkStatus();
}

absl::Status verifyCallOp(Op op, const VerifyContext&) {
  auto call = CallOp(op);
  if (const Attribute& counter = op.attr(kCallCounterAttr)) {
    // Only an integer attribute is checked, as in the reference.
    const IntegerValue* value = counter.asInteger();
    if (value && value->type != "ui32") {
      return locatedError(op, strCat("call_counter must be an uint32, got '",
                                     value->type, "'"));
    }
  }
  Op parent = op.parentOp();
  if (!isa<FuncOp, ForOp>(parent)) {
    return locatedError(
        op, strCat("Mpmd CallOp on \"", call.callee(),
                   "\" can only be used in a function or for_op block but was "
                   "called from inside op ",
                   parent ? parent.name() : "module"));
  }
  FuncOp parent_func = enclosingFunc(op);
  if (isMpmdFunction(parent_func) && !isEntryPointFunction(parent_func)) {
    return locatedError(
        op, strCat("Mpmd CallOp on \"", call.callee(),
                   "\" in an Mpmd function can only be used directly by the "
                   "entrypoint function, i.e. the main function, but was "
                   "called from \"",
                   parent_func.name(), "\"."));
  }
  FuncOp callee = calleeOf(op);
  if (!callee) {
    return locatedError(op, strCat("No function was found for function ref '",
                                   call.callee(), "'"));
  }
  // The callee's signature against the call's operands, then its results
  // (as far as both go: the counts are checked elsewhere).
  for (auto [expected, actual, what] :
       {std::tuple{callee.argumentTypes(), op.operandTypes(), "operand"},
        std::tuple{callee.resultTypes(), op.resultTypes(), "result"}}) {
    for (size_t i = 0; i < actual.size() && i < expected.size(); ++i) {
      if (!(expected[i] == actual[i])) {
        return locatedError(
            op, strCat("Type mismatch. Expected call ", what, " to have type '",
                       expected[i].str(), "' but got '", actual[i].str(), "'"));
      }
    }
  }
  if (isMpmdFunction(callee) && callee.visibility() == "public") {
    return locatedError(
        op,
        "MPMD CallOp callee with topology must also have visibility set to "
        "private, as public functions with topologies are assumed to be entry "
        "point functions.");
  }
  return absl::OkStatus();
}

absl::Status verifyForOp(Op op, const VerifyContext&) {
  auto for_op = ForOp(op);
  Block body = for_op.body();
  if (!body || body.numArguments() != op.numOperands() + 1) {
    return locatedError(op, "wrong number of arguments for region");
  }
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    if (!(op.operand(i).type() == body.argument(i).type())) {
      return locatedError(op,
                          strCat("wrong argument type at argument no. ", i));
    }
  }
  Type index = body.argument(op.numOperands()).type();
  if (index.isRankedTensor() &&
      (index.rank() != 0 ||
       (index.elementType() != "i32" && index.elementType() != "ui32" &&
        index.elementType() != "si32"))) {
    return locatedError(op,
                        "index must have a 32-bit integer rank-0 tensor type");
  }
  Op terminator = for_op.returnOp();
  if (!terminator || terminator.operandTypes() != op.resultTypes()) {
    return locatedError(op, "type mismatch for result of region");
  }
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    if (!(op.operand(i).type() == op.result(i).type())) {
      return opMessage(
          "requires the same type for all operand and result pairs");
    }
    if (isMeshTensor(op.operand(i).type()) !=
        isMeshTensor(op.operand(0).type())) {
      return locatedError(op, "type ids in operands/results are not identical");
    }
  }
  int64_t iterations = for_op.iterations();
  if (iterations <= 0) {
    return locatedError(op, "number of iterations must be greater than zero");
  }
  int64_t factor = for_op.unrollFactor().value_or(1);
  if (factor == 0 || iterations % factor != 0) {
    return locatedError(op,
                        strCat("number of iterations ", iterations,
                               " isn't divisible by unroll factor ", factor));
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
