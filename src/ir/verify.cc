// The module verifier: sdy attributes against their types and meshes, and
// the constraints of every sdy op.
#include "shardkit/ir/verify.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"
#include "shardkit/core/verify.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/sharding_site.h"

namespace shardkit {
namespace {

std::vector<TensorShapeView> shapesOf(const std::vector<Type>& types) {
  std::vector<TensorShapeView> shapes;
  shapes.reserve(types.size());
  for (Type t : types) shapes.push_back(t.shapeView());
  return shapes;
}

std::string_view message(const absl::Status& s) {
  return fromAbsl(s.message());
}

absl::Status withPrefix(Op op, std::string_view prefix, const absl::Status& s) {
  if (s.ok()) return s;
  return opError(op, strCat(prefix, message(s)));
}

class Verifier {
 public:
  explicit Verifier(Module& m) : m_(m), meshes_(m.meshTable()) {}

  absl::Status run() {
    verifyMeshOps();
    for (Op op : m_.body()) walk(op, {});
    if (errors_.empty()) return absl::OkStatus();
    return diagnosticStatus(errors_);
  }

 private:
  // Records the diagnostics of `status`; one without a location is at `op`.
  void report(Op op, const absl::Status& status) {
    for (Diagnostic& d : diagnosticsOf(status)) {
      if (d.location.empty()) d.location = locationOf(op);
      errors_.push_back(std::move(d));
    }
  }

  void verifyMeshOps() {
    absl::flat_hash_set<std::string> names;
    for (Op op : m_.body()) {
      if (op.name() != "sdy.mesh") continue;
      const std::string* name = op.attr("sym_name").asString();
      const Mesh* mesh = op.attr("mesh").asMesh();
      if (!name || !mesh) {
        report(op, opError(op, "requires 'sym_name' and 'mesh' attributes"));
        continue;
      }
      if (!names.insert(*name).second) {
        report(op, opError(op, strCat("redefinition of symbol named '", *name,
                                      "'")));
      }
      report(op, withPrefix(op, "", verifyMesh(*mesh)));
    }
  }

  // `bound` lists the manual axes of the enclosing manual computations.
  void walk(Op op, const std::vector<std::string>& bound) {
    absl::Status status = verifyOp(op, bound);
    report(op, status);
    std::vector<std::string> inner = bound;
    if (op.name() == "sdy.manual_computation") {
      if (const ManualAxes* axes = op.attr("manual_axes").asManualAxes()) {
        inner.insert(inner.end(), axes->names.begin(), axes->names.end());
      }
    }
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      Region region = op.region(r);
      for (unsigned b = 0; b < region.numBlocks(); ++b) {
        for (Op nested : region.block(b)) walk(nested, inner);
      }
    }
  }

  // Tuples other than a 1-tuple and unranked tensors cannot have a sharding.
  static absl::Status checkShardableTypes(Op op, const std::vector<Type>& types,
                                          std::string_view kind) {
    for (size_t i = 0; i < types.size(); ++i) {
      if (absl::Status s = checkShardableType(types[i]); !s.ok()) {
        return opError(op, strCat(kind, types.size() > 1 ? strCat(" ", i) : "",
                                  " - ", message(s)));
      }
    }
    return absl::OkStatus();
  }
  static absl::Status checkShardableType(Type type) {
    if (type.kind() == TypeKind::kTuple && type.elements().size() != 1) {
      return absl::InvalidArgumentError(toAbsl(strCat(
          "ops can only have a sharding for a tuple of size 1: ", type.str())));
    }
    if (type.kind() == TypeKind::kUnrankedTensor) {
      return absl::InvalidArgumentError(toAbsl(strCat(
          "only ranked tensors can have a sharding. type: ", type.str())));
    }
    return absl::OkStatus();
  }

  absl::Status verifySharding(const TensorSharding& s, Type type,
                              const std::vector<std::string>& bound) {
    SK_RETURN_IF_ERROR(checkShardableType(type));
    ShardingVerifyOptions options;
    options.bound_manual_axes = bound;
    return verifyTensorSharding(s, meshes_, type.shapeView(), options);
  }

  absl::Status verifyOp(Op op, const std::vector<std::string>& bound) {
    SK_RETURN_IF_ERROR(verifyCommonAttrs(op, bound));
    std::string_view name = op.name();
    if (name == "func.func") return verifyFunc(FuncOp(op), bound);
    if (name == "func.return") return verifyFuncReturn(op);
    if (name == "sdy.sharding_constraint" || name == "sdy.reshard") {
      return verifyConstraintOrReshard(op, bound);
    }
    if (name == "sdy.data_flow_edge") return verifyDataFlowEdge(op, bound);
    if (name == "sdy.propagation_barrier") {
      const PropagationDirection* d =
          op.attr("allowed_direction").asPropagationDirection();
      if (d && *d == PropagationDirection::kBoth) {
        return opError(
            op, "cannot specify `BOTH` as the direction, since it's redundant");
      }
      return absl::OkStatus();
    }
    if (name == "sdy.manual_computation")
      return verifyManualComputation(op, bound);
    if (name == "sdy.named_computation")
      return verifyNamedComputation(op, bound);
    if (isCollective(name)) return verifyCollective(op, bound);
    return absl::OkStatus();
  }

  // `sdy.sharding` and `sdy.sharding_rule` on any op.
  absl::Status verifyCommonAttrs(Op op, const std::vector<std::string>& bound) {
    if (Attribute a = op.discardableAttrs().get(kShardingAttr)) {
      const TensorShardingPerValue* s = a.asTensorShardingPerValue();
      if (!s) {
        return opError(op,
                       "should have a sharding attribute of type "
                       "TensorShardingPerValueAttr");
      }
      ShardingPerValueVerifyOptions options;
      options.sharding.bound_manual_axes = bound;
      options.check_common_mesh = false;
      SK_RETURN_IF_ERROR(checkShardableTypes(op, op.resultTypes(), "result"));
      SK_RETURN_IF_ERROR(withPrefix(
          op, "",
          verifyTensorShardingPerValue(*s, meshes_, shapesOf(op.resultTypes()),
                                       "result", options)));
    }
    if (Attribute a = op.discardableAttrs().get(kShardingRuleAttr)) {
      const OpShardingRule* rule = a.asOpShardingRule();
      if (!rule)
        return opError(
            op,
            "should have a sharding rule attribute of type OpShardingRuleAttr");
      SK_RETURN_IF_ERROR(
          withPrefix(op, "",
                     verifyOpShardingRule(*rule, shapesOf(op.operandTypes()),
                                          shapesOf(op.resultTypes()))));
    }
    return absl::OkStatus();
  }

  absl::Status verifyFunc(FuncOp func, const std::vector<std::string>& bound) {
    std::vector<Type> inputs = func.argumentTypes();
    std::vector<Type> results = func.resultTypes();
    Block body = func.body();
    if (body && body.numArguments() != inputs.size()) {
      return opError(func.op(),
                     "entry block arguments don't match the function type");
    }
    for (unsigned i = 0; body && i < inputs.size(); ++i) {
      if (!(body.argument(i).type() == inputs[i])) {
        return opError(func.op(),
                       strCat("type of entry block argument #", i, "('",
                              body.argument(i).type().str(),
                              "') must match the type of the corresponding "
                              "argument in function signature('",
                              inputs[i].str(), "')"));
      }
    }
    for (unsigned i = 0; i < inputs.size(); ++i) {
      if (Attribute a = func.argAttr(i, kShardingAttr)) {
        const TensorSharding* s = a.asTensorSharding();
        if (!s)
          return opError(
              func.op(),
              strCat("arg ", i,
                     " - sdy.sharding must be a TensorShardingAttr"));
        SK_RETURN_IF_ERROR(withPrefix(func.op(), strCat("arg ", i, " - "),
                                      verifySharding(*s, inputs[i], bound)));
      }
    }
    for (unsigned i = 0; i < results.size(); ++i) {
      if (Attribute a = func.resultAttr(i, kShardingAttr)) {
        const TensorSharding* s = a.asTensorSharding();
        if (!s)
          return opError(
              func.op(),
              strCat("result ", i,
                     " - sdy.sharding must be a TensorShardingAttr"));
        SK_RETURN_IF_ERROR(withPrefix(func.op(), strCat("result ", i, " - "),
                                      verifySharding(*s, results[i], bound)));
      }
    }
    // The return's operands are checked at the return (verifyFuncReturn).
    if (!func.returnOp() && body) {
      return opError(func.op(), "body must end with a 'func.return'");
    }
    return absl::OkStatus();
  }

  // A func.return directly in a function returns its result types.
  static absl::Status verifyFuncReturn(Op ret) {
    Op parent = ret.parentOp();
    if (!FuncOp::isa(parent)) return absl::OkStatus();
    FuncOp func(parent);
    std::vector<Type> results = func.resultTypes();
    if (ret.numOperands() != results.size()) {
      return opError(ret, strCat("has ", ret.numOperands(),
                                 " operands, but enclosing function (@",
                                 func.name(), ") returns ", results.size()));
    }
    for (unsigned i = 0; i < results.size(); ++i) {
      if (!(ret.operand(i).type() == results[i])) {
        return opError(
            ret, strCat("type of return operand ", i, " ('",
                        ret.operand(i).type().str(),
                        "') doesn't match function result type ('",
                        results[i].str(), "') in function @", func.name()));
      }
    }
    return absl::OkStatus();
  }

  absl::Status verifyConstraintOrReshard(
      Op op, const std::vector<std::string>& bound) {
    const TensorSharding* s = op.attr("sharding").asTensorSharding();
    if (!s || op.numOperands() != 1 || op.numResults() != 1) {
      return opError(op, "requires one operand, one result and a 'sharding'");
    }
    SK_RETURN_IF_ERROR(
        withPrefix(op, "", verifySharding(*s, op.result(0).type(), bound)));
    if (std::optional<TensorSharding> input = getSharding(op.operand(0))) {
      SK_RETURN_IF_ERROR(
          withPrefix(op, "", verifyUnreducedTransition(*input, *s)));
    } else {
      TensorSharding none;
      SK_RETURN_IF_ERROR(
          withPrefix(op, "", verifyUnreducedTransition(none, *s)));
    }
    return absl::OkStatus();
  }

  absl::Status verifyDataFlowEdge(Op op,
                                  const std::vector<std::string>& bound) {
    if (op.numOperands() != 1 || op.numResults() != 1) {
      return opError(op, "requires one operand and one result");
    }
    Type type = op.result(0).type();
    if (!type.hasStaticShape()) {
      return opError(op, strCat("expected sdy.data_flow_edge to have a "
                                "static-shaped result. type: ",
                                type.str()));
    }
    Value input = op.operand(0);
    if (!input.hasOneUse()) {
      return opError(
          op, "expected input of sdy.data_flow_edge to have a single user");
    }
    if (Op def = input.definingOp(); def && def.dialect() == "sdy" &&
                                     def.name() != "sdy.manual_computation" &&
                                     def.name() != "sdy.named_computation") {
      return opError(
          op,
          "expected input of sdy.data_flow_edge to not be defined by an "
          "SdyDialect op (other than an sdy.named_computation).");
    }
    if (const TensorSharding* s = op.attr("sharding").asTensorSharding()) {
      return withPrefix(op, "", verifySharding(*s, type, bound));
    }
    return absl::OkStatus();
  }

  absl::Status verifyManualComputation(Op op,
                                       const std::vector<std::string>& bound);
  absl::Status verifyNamedComputation(Op op,
                                      const std::vector<std::string>& bound);

  static bool isCollective(std::string_view name) {
    return name == "sdy.all_gather" || name == "sdy.all_slice" ||
           name == "sdy.all_reduce" || name == "sdy.reduce_scatter" ||
           name == "sdy.all_to_all" || name == "sdy.collective_permute" ||
           name == "sdy.sharded_to_unreduced" ||
           name == "sdy.replicated_to_unreduced";
  }
  absl::Status verifyCollective(Op op, const std::vector<std::string>& bound);

  Module& m_;
  MeshTable meshes_;
  std::vector<Diagnostic> errors_;

  friend absl::Status shardkit::verifyOp(Op, const MeshTable&);
};

// The values a manual computation's body returns.
std::vector<Type> bodyReturnTypes(Op op) {
  Region body = op.region(0);
  if (body.empty() || body.front().empty()) return {};
  Op ret = body.front().back();
  if (!ret.opName().info() || !ret.opName().info()->is_terminator) return {};
  return ret.operandTypes();
}

absl::Status verifyManualValues(Op op, const std::vector<Type>& globals,
                                const std::vector<Type>& locals,
                                const TensorShardingPerValue& shardings,
                                const ManualAxes& manual,
                                const MeshTable& meshes,
                                const std::vector<std::string>& bound,
                                std::string_view kind) {
  if (globals.empty() && locals.empty() && shardings.shardings.empty()) {
    return absl::OkStatus();
  }
  ShardingPerValueVerifyOptions options;
  options.check_common_mesh = false;
  options.sharding.bound_manual_axes = bound;
  SK_RETURN_IF_ERROR(
      withPrefix(op, "",
                 verifyTensorShardingPerValue(
                     shardings, meshes, shapesOf(globals), kind, options)));
  if (globals.size() != locals.size()) {
    return opError(op,
                   strCat("number of op ", kind, "s and region ", kind,
                          "s must match. Op has ", globals.size(), " op ", kind,
                          "s and ", locals.size(), " region ", kind, "s"));
  }
  for (size_t i = 0; i < globals.size(); ++i) {
    const TensorSharding& sharding = shardings.shardings[i];
    for (size_t d = 0; d < sharding.dim_shardings.size(); ++d) {
      const std::vector<AxisRef>& axes = sharding.dim_shardings[d].axes;
      bool seen_free = false;
      for (size_t a = 0; a < axes.size(); ++a) {
        bool is_manual = manual.contains(axes[a].name);
        if (is_manual && seen_free) {
          return opError(op,
                         strCat(kind, " sharding at index ", i,
                                " must have all manual axes come before free "
                                "axes in its dimension sharding at index ",
                                d, ". Saw manual axis ", toString(axes[a]),
                                " after free axis ", toString(axes[a - 1])));
        }
        seen_free = seen_free || !is_manual;
      }
    }
    Type global = globals[i];
    if (!global.isRankedTensor()) continue;
    const Mesh* mesh = meshes.resolve(sharding);
    if (!mesh) continue;
    std::vector<int64_t> local_dims;
    for (size_t d = 0; d < global.shape().size(); ++d) {
      int64_t size = global.shape()[d];
      if (size == kDynamicSize) {
        local_dims.push_back(kDynamicSize);
        continue;
      }
      int64_t manual_size = 1;
      for (const AxisRef& axis : sharding.dim_shardings[d].axes) {
        if (manual.contains(axis.name)) manual_size *= axis.size(*mesh);
      }
      if (size % manual_size != 0) {
        return opError(op, strCat(kind, " dimension size ", size,
                                  " is not divisible by the manual axes size ",
                                  manual_size));
      }
      local_dims.push_back(size / manual_size);
    }
    Type expected = op.module()->types().rankedTensor(
        local_dims, global.elementType(), global.encoding());
    if (!(expected == locals[i])) {
      return opError(
          op,
          strCat(kind, " shape, corresponding sharding, and region ", kind,
                 " shape at index ", i, " must match. Expected local shape ",
                 expected.str(), ", actual local shape ", locals[i].str()));
    }
  }
  return absl::OkStatus();
}

absl::Status Verifier::verifyManualComputation(
    Op op, const std::vector<std::string>& bound) {
  const TensorShardingPerValue* in =
      op.attr("in_shardings").asTensorShardingPerValue();
  const TensorShardingPerValue* out =
      op.attr("out_shardings").asTensorShardingPerValue();
  const ManualAxes* manual = op.attr("manual_axes").asManualAxes();
  if (!in || !out || !manual || op.numRegions() != 1 ||
      op.region(0).numBlocks() != 1) {
    return opError(
        op,
        "requires in_shardings, out_shardings, manual_axes and one body block");
  }
  for (const std::string& axis : manual->names) {
    for (const std::string& b : bound) {
      if (b == axis) {
        return opError(op, strCat("operates on axis \"", axis,
                                  "\" which is already bound by a parent "
                                  "sdy.manual_computation op"));
      }
    }
  }
  Block body = op.region(0).front();
  std::vector<Type> arg_types;
  for (Value v : body.arguments()) arg_types.push_back(v.type());
  bool no_shardings = in->shardings.empty() && out->shardings.empty();
  SK_RETURN_IF_ERROR(verifyManualValues(op, op.operandTypes(), arg_types, *in,
                                        *manual, meshes_, bound, "operand"));
  SK_RETURN_IF_ERROR(verifyManualValues(op, op.resultTypes(),
                                        bodyReturnTypes(op), *out, *manual,
                                        meshes_, bound, "result"));
  if (no_shardings) return absl::OkStatus();
  // A common mesh (ignoring empty meshes) for the manual axes to live in.
  const Mesh* common = nullptr;
  bool mismatch = false;
  for (const TensorShardingPerValue* list : {in, out}) {
    for (const TensorSharding& s : list->shardings) {
      const Mesh* mesh = meshes_.resolve(s);
      if (!mesh || mesh->empty()) continue;
      if (common && !(*common == *mesh)) mismatch = true;
      if (!common) common = mesh;
    }
  }
  if (mismatch && !manual->names.empty()) {
    return opError(
        op,
        "all in and out shardings must be bound to the same mesh or an "
        "empty mesh.");
  }
  for (const std::string& axis : manual->names) {
    if (common && !common->hasAxis(axis)) {
      return opError(op, strCat("unknown manual axis: \"", axis, "\""));
    }
  }
  return absl::OkStatus();
}

absl::Status Verifier::verifyNamedComputation(
    Op op, const std::vector<std::string>& bound) {
  if (op.numRegions() != 1 || op.region(0).numBlocks() != 1) {
    return opError(op, "requires one body block");
  }
  Block body = op.region(0).front();
  std::vector<Type> arg_types;
  for (Value v : body.arguments()) arg_types.push_back(v.type());
  if (arg_types != op.operandTypes()) {
    return opError(
        op,
        "expected the types of the body arguments to match the operand types");
  }
  if (bodyReturnTypes(op) != op.resultTypes()) {
    return opError(
        op,
        "expected the types of the returned values to match the result types");
  }
  for (auto [attr, types, kind] :
       {std::tuple{"in_shardings", op.operandTypes(), "in_shardings "},
        std::tuple{"out_shardings", op.resultTypes(), "out_shardings "}}) {
    if (const TensorShardingPerValue* s =
            op.attr(attr).asTensorShardingPerValue()) {
      ShardingPerValueVerifyOptions options;
      options.sharding.bound_manual_axes = bound;
      SK_RETURN_IF_ERROR(
          withPrefix(op, kind,
                     verifyTensorShardingPerValue(*s, meshes_, shapesOf(types),
                                                  "", options)));
    }
  }
  return absl::OkStatus();
}

absl::Status Verifier::verifyCollective(Op op,
                                        const std::vector<std::string>& bound) {
  const TensorSharding* result = op.attr("out_sharding").asTensorSharding();
  if (!result || op.numOperands() != 1 || op.numResults() != 1) {
    return opError(op,
                   "requires one operand, one result and an 'out_sharding'");
  }
  std::string_view name = op.name();
  SK_RETURN_IF_ERROR(
      withPrefix(op, "", verifySharding(*result, op.result(0).type(), bound)));
  const Mesh* mesh = meshes_.resolve(*result);
  std::optional<TensorSharding> operand = getSharding(op.operand(0));
  bool allow_missing =
      name == "sdy.all_reduce" || name == "sdy.reduce_scatter" ||
      name == "sdy.all_slice" || name == "sdy.replicated_to_unreduced";
  if (!operand && !allow_missing) {
    return opError(op, "collective on operand without sharding");
  }
  if (!operand)
    operand = TensorSharding::fullyOpen(result->mesh, result->rank());
  const Mesh* operand_mesh = meshes_.resolve(*operand);
  if (!mesh || !operand_mesh) return absl::OkStatus();
  bool different_meshes_ok = name == "sdy.collective_permute";
  SK_RETURN_IF_ERROR(
      withPrefix(op, "",
                 verifyCollectiveShardings(*operand, *operand_mesh, *result,
                                           *mesh, different_meshes_ok)));
  if (name == "sdy.all_gather" || name == "sdy.all_slice" ||
      name == "sdy.reduce_scatter" || name == "sdy.sharded_to_unreduced") {
    std::string_view attr = name == "sdy.all_gather"  ? "gathering_axes"
                            : name == "sdy.all_slice" ? "slicing_axes"
                            : name == "sdy.reduce_scatter"
                                ? "reduce_scatter_axes"
                                : "axes";
    const ListOfAxisRefLists* axes = op.attr(attr).asListOfAxisRefLists();
    if (!axes) return opError(op, strCat("requires '", attr, "'"));
    AxesPerDimCollective kind =
        name == "sdy.all_gather" || name == "sdy.sharded_to_unreduced"
            ? AxesPerDimCollective::kGather
            : AxesPerDimCollective::kSlice;
    return withPrefix(
        op, "",
        verifyAxesPerDimCollective(kind, *axes, *operand, *result, *mesh));
  }
  if (name == "sdy.all_to_all") {
    const AllToAllParamList* params = op.attr("params").asAllToAllParamList();
    if (!params) return opError(op, "requires 'params'");
    return withPrefix(op, "",
                      verifyAllToAll(*params, *operand, *result, *mesh));
  }
  if (name == "sdy.all_reduce") {
    const AxisRefList* axes = op.attr("reduction_axes").asAxisRefList();
    if (!axes) return opError(op, "requires 'reduction_axes'");
    return withPrefix(op, "",
                      verifyAllReduce(axes->axes, *operand, *result, *mesh));
  }
  if (name == "sdy.collective_permute") {
    return withPrefix(
        op, "",
        verifyCollectivePermute(*operand, *operand_mesh, *result, *mesh));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status verifyModule(Module& module) { return Verifier(module).run(); }

absl::Status verifyOp(Op op, const MeshTable& meshes) {
  (void)meshes;
  Verifier verifier(*op.module());
  return verifier.verifyOp(op, {});
}

}  // namespace shardkit
