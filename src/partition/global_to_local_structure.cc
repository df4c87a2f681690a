// -sdy-convert-global-to-local: functions, calls and returns, the computation
// ops (a manual computation is inlined, a named computation keeps its body
// with local types) and sdy.constant.
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/partition/local_shape.h"
#include "shardkit/support/status_macros.h"
#include "src/partition/global_to_local.h"

namespace shardkit::partition {
namespace {

// The local type of a function's argument or result of type `global` whose
// attributes hold `sharding` (the attribute, possibly null).
absl::StatusOr<Type> localTypeFromAttr(GlobalToLocal& c, Op at, Type global,
                                       const Attribute& sharding) {
  const TensorSharding* s = sharding.as<TensorSharding>();
  Type local = localType(c.types(), global, s, c.meshOf(s));
  if (!local) {
    return c.invariantError(
        at, "Failed to compute local type due to non-divisible sharding");
  }
  return local;
}

}  // namespace

absl::Status convertFunc(GlobalToLocal& c, Op raw) {
  FuncOp func(raw);
  std::vector<Type> inputs = func.argumentTypes();
  std::vector<Type> results = func.resultTypes();
  if (!func.isDeclaration()) {
    Block body = func.body();
    for (unsigned i = 0; i < body.numArguments(); ++i) {
      SK_ASSIGN_OR_RETURN(Type local, c.localType(body.argument(i)));
      body.argument(i).setType(local);
      if (i < inputs.size()) inputs[i] = local;
    }
  } else {
    for (unsigned i = 0; i < inputs.size(); ++i) {
      SK_ASSIGN_OR_RETURN(inputs[i],
                          localTypeFromAttr(c, func, inputs[i],
                                            func.argAttr(i, kShardingAttr)));
    }
  }
  for (unsigned i = 0; i < results.size(); ++i) {
    SK_ASSIGN_OR_RETURN(results[i],
                        localTypeFromAttr(c, func, results[i],
                                          func.resultAttr(i, kShardingAttr)));
  }
  func->setAttr("function_type",
                Attribute::type(c.types().function(inputs, results)));
  return absl::OkStatus();
}

// The reference rebuilds the return from its converted operands: only the
// operands stay.
absl::Status convertFuncReturn(GlobalToLocal& /*c*/, Op op) {
  op.discardableAttrs() = AttrDict();
  return absl::OkStatus();
}

// The reference rebuilds a call from its callee and converted operands, with
// its result types converted as types (not as values): they keep their
// global types, and the call keeps no other attribute.
absl::Status convertCall(GlobalToLocal& /*c*/, Op op) {
  // A copy, not a reference: the dictionary it lives in is reset below.
  // NOLINTNEXTLINE(performance-unnecessary-copy-initialization)
  Attribute callee = op.attr("callee");
  op.discardableAttrs() = AttrDict();
  op.inherentAttrs() = AttrDict();
  op.setAttr("callee", callee);
  return absl::OkStatus();
}

absl::Status convertManualComputation(GlobalToLocal& c, Op raw) {
  sdy::ManualComputationOp op(raw);
  Block body = op.body();
  // The body's arguments are the operands: both have the local type of the
  // tensor under the manual and free axes.
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    SK_ASSIGN_OR_RETURN(Type local, c.localType(body.argument(i)));
    body.argument(i).setType(local);
  }
  Op ret = op.returnOp();
  for (Op inner : body.ops()) {
    if (inner == ret) break;
    inner.moveBefore(op);
  }
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    body.argument(i).replaceAllUsesWith(op->operand(i));
  }
  std::vector<Value> results = ret.operands();
  ret.erase();
  c.replace(op, results);
  return absl::OkStatus();
}

absl::Status convertNamedComputation(GlobalToLocal& c, Op raw) {
  sdy::NamedComputationOp op(raw);
  SK_RETURN_IF_ERROR(c.localizeInPlace(op));
  Block body = op.body();
  for (unsigned i = 0; body && i < body.numArguments(); ++i) {
    SK_ASSIGN_OR_RETURN(Type local, c.localType(body.argument(i)));
    body.argument(i).setType(local);
  }
  // Rebuilt from its name, operands and shardings: nothing else stays.
  op->discardableAttrs() = AttrDict();
  return absl::OkStatus();
}

absl::Status convertSdyConstant(GlobalToLocal& c, Op raw) {
  sdy::ConstantOp op(raw);
  const ElementsValue* value = op.value().asElements();
  if (value == nullptr) {
    return c.invariantError(op, "expected an elements attribute as value");
  }
  Type global = c.globalType(op.output());
  SK_ASSIGN_OR_RETURN(Type local, c.localType(op.output()));
  HloEmitter e(c.module(), op);
  const bool splat = value->literal.starts_with("dense<") &&
                     value->literal.find('[') == std::string::npos &&
                     !value->literal.starts_with("dense<\"");
  if (local == global || splat) {
    c.replace(op, {e.constant(local, value->literal)});
    return absl::OkStatus();
  }
  const TensorSharding* sharding = c.sharding(op.output());
  const Mesh* mesh = c.meshOf(sharding);
  if (mesh == nullptr) {
    return c.patternError(op, "failed to resolve mesh for constant");
  }
  Value whole = e.constant(global, value->literal);
  std::vector<AxisRefVector> axes;
  for (const DimensionSharding& dim : sharding->dim_shardings) {
    axes.push_back(dim.axes);
  }
  SK_ASSIGN_OR_RETURN(Value slice,
                      c.sliceForAxes(e, whole, *mesh, axes, local));
  c.replace(op, {slice});
  return absl::OkStatus();
}

}  // namespace shardkit::partition
