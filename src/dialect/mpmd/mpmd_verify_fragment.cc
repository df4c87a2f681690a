// The verifiers of the mpmd region and call ops whose inside and outside
// types correspond: fragment and fragment_call (mesh tensors outside, their
// global tensors inside), named_computation (the same types on both sides).
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/dialect/mpmd/mpmd_verify.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

absl::Status opMessage(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// The types of the values returned by the single block of `op`'s region.
absl::StatusOr<std::vector<Type>> returnedTypes(Op op,
                                                std::string_view terminator) {
  if (op.numRegions() != 1 || op.region(0).numBlocks() != 1) {
    return opMessage("expects one region with one block");
  }
  Block body = op.region(0).front();
  Op last = body.empty() ? Op() : body.back();
  if (!last || last.name() != terminator) {
    return opMessage(strCat("expects regions to end with '", terminator,
                            "', found '", last ? last.name() : "nothing", "'"));
  }
  return last.operandTypes();
}

// Types inside an op (its body's or its callee's) against the op's own, one
// to one: `inner_name`s against `outer_name`s in the messages.
struct TypeCorrespondence {
  std::vector<Type> inner;
  std::vector<Type> outer;
  std::string_view inner_name;
  std::string_view outer_name;
};
using SignatureCorrespondence = std::array<TypeCorrespondence, 2>;

// Block arguments against operands, returned values against results.
SignatureCorrespondence signatureCorrespondence(Op op, std::vector<Type> args,
                                                std::vector<Type> returned) {
  return {
      {{std::move(args), op.operandTypes(), "block argument", "operand"},
       {std::move(returned), op.resultTypes(), "returned value", "result"}}};
}

// The same for the single block of `op`'s region.
absl::StatusOr<SignatureCorrespondence> regionCorrespondence(Op op) {
  SK_ASSIGN_OR_RETURN(std::vector<Type> returned,
                      returnedTypes(op, ReturnOp::kName));
  Block body = op.region(0).front();
  std::vector<Type> args;
  for (unsigned i = 0; i < body.numArguments(); ++i)
    args.push_back(body.argument(i).type());
  return signatureCorrespondence(op, std::move(args), std::move(returned));
}

absl::Status countsMatch(Op op, const TypeCorrespondence& types) {
  size_t inner = types.inner.size();
  size_t outer = types.outer.size();
  if (inner == outer) return absl::OkStatus();
  return locatedError(
      op, strCat("number of ", types.inner_name, "s must match the number of ",
                 types.outer_name, "s respectively: ", inner, " != ", outer));
}

// A fragment or fragment call: each outer type is a mesh tensor of the op's
// mesh, valid for it, whose global type is the inner type.
absl::Status fragmentTypesMatch(Op op, std::string_view mesh_name,
                                const TypeCorrespondence& types) {
  SK_RETURN_IF_ERROR(countsMatch(op, types));
  const auto& [inner, outer, inner_name, outer_name] = types;
  for (size_t i = 0; i < inner.size(); ++i) {
    SK_ASSIGN_OR_RETURN(Mesh mesh, meshOf(op, mesh_name));
    std::optional<MeshTensorType> mesh_type = MeshTensorType::of(outer[i]);
    if (!mesh_type) {
      // A token passes through a fragment unchanged.
      if (outer[i].isToken() && inner[i] == outer[i]) continue;
      return opMessage(strCat(outer_name, " #", i,
                              " must be mesh tensor type, but got '",
                              outer[i].str(), "'"));
    }
    if (mesh_type->mesh_name != mesh_name) {
      return locatedError(op,
                          strCat("expected the mesh name of the ", outer_name,
                                 " to match that of the fragment op: ",
                                 mesh_type->mesh_name, " != ", mesh_name));
    }
    SK_RETURN_IF_ERROR(verifyForMesh(*mesh_type, mesh));
    if (mesh_type->globalTypeText() != inner[i].str()) {
      return locatedError(op, strCat("expected the type of the ", inner_name,
                                     " to be global tensor type ", outer_name,
                                     ": '", mesh_type->globalTypeText(),
                                     "', got: '", inner[i].str(), "'"));
    }
  }
  return absl::OkStatus();
}

absl::Status requireMeshAndOrigin(Op op) {
  if (!op.attr("mesh_name").asString())
    return opMessage("requires attribute 'mesh_name'");
  if (!op.attr("origin").asArray())
    return opMessage("requires attribute 'origin'");
  for (const Attribute& origin : *op.attr("origin").asArray()) {
    if (!userOriginOf(origin)) {
      return opMessage(
          "attribute 'origin' failed to satisfy constraint: array of origin "
          "infos");
    }
  }
  return absl::OkStatus();
}

// The single block's arguments against the operands, the returned values
// against the results: the same types.
absl::Status sameTypesMatch(Op op, const TypeCorrespondence& types) {
  SK_RETURN_IF_ERROR(countsMatch(op, types));
  const auto& [inner, outer, inner_name, outer_name] = types;
  for (size_t i = 0; i < inner.size(); ++i) {
    if (!(inner[i] == outer[i])) {
      return locatedError(
          op, strCat("expected the type of the ", inner_name,
                     " to match the type of ", outer_name, ": '",
                     inner[i].str(), "', got: '", outer[i].str(), "'"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status verifyFragmentOp(Op op, const VerifyContext&) {
  SK_RETURN_IF_ERROR(requireMeshAndOrigin(op));
  SK_RETURN_IF_ERROR(checkParent(op, {FuncOp::kName, ForOp::kName}));
  const Attribute& stage = op.attr("stage_id");
  if (stage && !stage.asInteger())
    return opMessage("attribute 'stage_id' must be a 64-bit integer");
  SK_ASSIGN_OR_RETURN(SignatureCorrespondence signature,
                      regionCorrespondence(op));
  for (const TypeCorrespondence& types : signature) {
    SK_RETURN_IF_ERROR(
        fragmentTypesMatch(op, FragmentOp(op).meshName(), types));
  }
  return absl::OkStatus();
}

absl::Status verifyFragmentCallOp(Op op, const VerifyContext&) {
  SK_RETURN_IF_ERROR(requireMeshAndOrigin(op));
  SK_RETURN_IF_ERROR(checkParent(op, {FuncOp::kName}));
  auto call = FragmentCallOp(op);
  FuncOp callee = calleeOf(op);
  if (!callee) {
    return locatedError(op, strCat("'", call.callee(),
                                   "' does not reference a valid function"));
  }
  for (const TypeCorrespondence& types : signatureCorrespondence(
           op, callee.argumentTypes(), callee.resultTypes())) {
    SK_RETURN_IF_ERROR(fragmentTypesMatch(op, call.meshName(), types));
  }
  SK_ASSIGN_OR_RETURN(Mesh call_mesh, meshOf(op, call.meshName()));
  const Mesh* callee_mesh = callee->attr(kMeshShapeAttr).as<Mesh>();
  if (!callee_mesh) {
    return locatedError(op, strCat("Function does not have a mesh_shape "
                                   "attribute: ",
                                   callee.name()));
  }
  if (!(call_mesh == *callee_mesh)) {
    return locatedError(
        op,
        strCat("Expected mesh of fragment call and callee function to "
               "match: #sdy.mesh",
               toString(call_mesh), " vs #sdy.mesh", toString(*callee_mesh)));
  }
  return absl::OkStatus();
}

absl::Status verifyNamedComputationOp(Op op, const VerifyContext&) {
  if (!userOriginOf(op.attr("origin")))
    return opMessage("requires attribute 'origin'");
  SK_ASSIGN_OR_RETURN(SignatureCorrespondence signature,
                      regionCorrespondence(op));
  for (const TypeCorrespondence& types : signature) {
    SK_RETURN_IF_ERROR(sameTypesMatch(op, types));
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd::mpmd_internal
