// The verifier hooks of sdy.manual_computation and sdy.named_computation:
// their shardings against the operand and result types, and a manual
// computation's body types against the local shapes its manual axes imply.
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/core/verify.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/support/checked_math.h"
#include "shardkit/support/status_macros.h"
#include "src/dialect/verify_util.h"

namespace shardkit::ir_internal {
namespace {

// Manual axes must lead each dimension's axes.
absl::Status checkManualAxesFirst(const TensorSharding& sharding,
                                  const ManualAxes& manual, size_t i,
                                  std::string_view kind) {
  for (size_t d = 0; d < sharding.dim_shardings.size(); ++d) {
    const AxisRefVector& axes = sharding.dim_shardings[d].axes;
    bool seen_free = false;
    for (size_t a = 0; a < axes.size(); ++a) {
      bool is_manual = manual.contains(axes[a].name);
      if (is_manual && seen_free) {
        return verifyError(
            strCat(kind, " sharding at index ", i,
                   " must have all manual axes come before free axes in its "
                   "dimension sharding at index ",
                   d, ". Saw manual axis ", toString(axes[a]),
                   " after free axis ", toString(axes[a - 1])));
      }
      seen_free = seen_free || !is_manual;
    }
  }
  return absl::OkStatus();
}

// The type the body sees for a value of type `global` with `sharding`: each
// dimension divided by the size of its manual axes.
absl::StatusOr<Type> localType(Op op, Type global,
                               const TensorSharding& sharding,
                               const ManualAxes& manual, const Mesh& mesh,
                               std::string_view kind) {
  std::vector<int64_t> local_dims;
  for (size_t d = 0; d < global.shape().size(); ++d) {
    int64_t size = global.shape()[d];
    if (size == kDynamicSize) {
      local_dims.push_back(kDynamicSize);
      continue;
    }
    int64_t manual_size = 1;
    bool fits = true;
    for (const AxisRef& axis : sharding.dim_shardings[d].axes) {
      if (manual.contains(axis.name)) {
        fits = fits && checkedMul(manual_size, axis.size(mesh), manual_size);
      }
    }
    if (!fits || manual_size < 1 || size % manual_size != 0) {
      return verifyError(strCat(kind, " dimension size ", size,
                                " is not divisible by the manual axes size ",
                                manual_size));
    }
    local_dims.push_back(size / manual_size);
  }
  return op.module()->types().rankedTensor(local_dims, global.elementType(),
                                           global.encoding());
}

// The operands (or results) of a manual computation against the body's
// arguments (or returned values).
absl::Status verifyManualValues(Op op, const std::vector<Type>& globals,
                                const std::vector<Type>& locals,
                                const TensorShardingPerValue& shardings,
                                const ManualAxes& manual,
                                const VerifyContext& context,
                                std::string_view kind) {
  if (globals.empty() && locals.empty() && shardings.empty()) {
    return absl::OkStatus();
  }
  ShardingPerValueVerifyOptions options;
  options.check_common_mesh = false;
  options.sharding.bound_manual_axes = context.boundManualAxes();
  SK_RETURN_IF_ERROR(verifyTensorShardingPerValue(
      shardings, context.meshes(), shapesOf(globals), kind, options));
  if (globals.size() != locals.size()) {
    return verifyError(strCat("number of op ", kind, "s and region ", kind,
                              "s must match. Op has ", globals.size(), " op ",
                              kind, "s and ", locals.size(), " region ", kind,
                              "s"));
  }
  for (size_t i = 0; i < globals.size(); ++i) {
    const TensorSharding& sharding = shardings[i];
    SK_RETURN_IF_ERROR(checkManualAxesFirst(sharding, manual, i, kind));
    Type global = globals[i];
    if (!global.isRankedTensor()) continue;
    const Mesh* mesh = context.meshes().resolve(sharding);
    if (!mesh) continue;
    SK_ASSIGN_OR_RETURN(Type expected,
                        localType(op, global, sharding, manual, *mesh, kind));
    if (!(expected == locals[i])) {
      return verifyError(strCat(
          kind, " shape, corresponding sharding, and region ", kind,
          " shape at index ", i, " must match. Expected local shape '",
          expected.str(), "', actual local shape '", locals[i].str(), "'"));
    }
  }
  return absl::OkStatus();
}

std::vector<Type> argumentTypes(Block block) {
  std::vector<Type> types;
  for (Value v : block.arguments()) types.push_back(v.type());
  return types;
}

// The in and out shardings (ignoring empty meshes) share one mesh, which has
// every manual axis.
absl::Status verifyManualMesh(const TensorShardingPerValue& in,
                              const TensorShardingPerValue& out,
                              const ManualAxes& manual,
                              const VerifyContext& context) {
  const Mesh* common = nullptr;
  bool mismatch = false;
  for (const TensorShardingPerValue* list : {&in, &out}) {
    for (const TensorSharding& s : *list) {
      const Mesh* mesh = context.meshes().resolve(s);
      if (!mesh || mesh->empty()) continue;
      if (common && !(*common == *mesh)) mismatch = true;
      if (!common) common = mesh;
    }
  }
  if (mismatch && !manual.empty()) {
    return verifyError(
        "all in and out shardings must be bound to the same mesh or an empty "
        "mesh.");
  }
  for (const std::string& axis : manual) {
    if (common && !common->hasAxis(axis)) {
      return verifyError(strCat("unknown manual axis: \"", axis, "\""));
    }
  }
  return absl::OkStatus();
}

// `'tensor<8xf32>', 'tensor<4xf32>'`: types as MLIR's diagnostics list them.
std::string quotedTypes(const std::vector<Type>& types) {
  std::string out;
  for (size_t i = 0; i < types.size(); ++i) {
    strAppend(out, i ? ", '" : "'", types[i].str(), "'");
  }
  return out;
}

// The body's arguments are the operands (the reference words these errors
// without the op's name); the result types are inferred from the returned
// values, which MLIR reports as two errors.
absl::Status verifyNamedComputationTypes(Op op) {
  std::vector<Type> args = argumentTypes(op.region(0).front());
  std::vector<Type> operands = op.operandTypes();
  if (args.size() != operands.size()) {
    return locatedError(
        op, strCat("number of block arguments must match the number of "
                   "operands: ",
                   args.size(), " != ", operands.size()));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == operands[i]) continue;
    return locatedError(
        op, strCat("expected the type of the ", i,
                   "'th block argument to match the type of the corresponding "
                   "operand: '",
                   args[i].str(), "' vs '", operands[i].str(), "'"));
  }
  std::vector<Type> returned = bodyReturnTypes(op);
  if (returned == op.resultTypes()) return absl::OkStatus();
  std::vector<Diagnostic> errors = diagnosticsOf(
      opError(op, strCat("inferred type(s) ", quotedTypes(returned),
                         " are incompatible with return type(s) of operation ",
                         quotedTypes(op.resultTypes()))));
  for (Diagnostic& d :
       diagnosticsOf(opError(op, "failed to infer returned types"))) {
    errors.push_back(std::move(d));
  }
  return diagnosticStatus(errors);
}

}  // namespace

absl::Status verifyManualComputationOp(Op op, const VerifyContext& context) {
  sdy::ManualComputationOp mc(op);
  if (!mc.hasAttributesAndBody()) {
    return verifyError(
        "requires in_shardings, out_shardings, manual_axes and one body "
        "block");
  }
  const TensorShardingPerValue& in = mc.inShardings();
  const TensorShardingPerValue& out = mc.outShardings();
  const ManualAxes& manual = mc.manualAxes();
  for (const std::string& axis : manual) {
    for (const std::string& b : context.boundManualAxes()) {
      if (b == axis) {
        return verifyError(strCat("operates on axis \"", axis,
                                  "\" which is already bound by a parent ",
                                  sdy::ManualComputationOp::kName, " op"));
      }
    }
  }
  std::vector<Type> arg_types = argumentTypes(op.region(0).front());
  SK_RETURN_IF_ERROR(verifyManualValues(op, op.operandTypes(), arg_types, in,
                                        manual, context, "operand"));
  SK_RETURN_IF_ERROR(verifyManualValues(op, op.resultTypes(),
                                        bodyReturnTypes(op), out, manual,
                                        context, "result"));
  if (in.empty() && out.empty()) {
    return absl::OkStatus();
  }
  return verifyManualMesh(in, out, manual, context);
}

absl::Status verifyNamedComputationOp(Op op, const VerifyContext& context) {
  if (op.numRegions() != 1 || op.region(0).numBlocks() != 1) {
    return verifyError("requires one body block");
  }
  SK_RETURN_IF_ERROR(verifyNamedComputationTypes(op));
  for (auto [attr, types, kind] :
       {std::tuple{"in_shardings", op.operandTypes(), "in_shardings "},
        std::tuple{"out_shardings", op.resultTypes(), "out_shardings "}}) {
    if (const TensorShardingPerValue* s =
            op.attr(attr).as<TensorShardingPerValue>()) {
      ShardingPerValueVerifyOptions options;
      options.sharding.bound_manual_axes = context.boundManualAxes();
      // A named computation is a data-flow op: its values may live on
      // different meshes (import-func-calls gives it the callee's argument
      // shardings, one of them on a maximal mesh).
      options.check_common_mesh = false;
      SK_RETURN_IF_ERROR(withPrefix(
          kind, verifyTensorShardingPerValue(*s, context.meshes(),
                                             shapesOf(types), "", options)));
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::ir_internal
