// -sdy-verify-unreduced-axes: unreduced axes may only be dropped by sdy ops
// (a reshard or a collective), never by a StableHLO op, a return or a call.
#include <algorithm>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/status_macros.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

constexpr std::string_view kNotBlessed =
    "' without a blessed operation (e.g., sdy.reshard). This is an invalid "
    "transition from unreduced to reduced.";

using Axes = AxisRefVector;

void appendUnreduced(const TensorSharding* sharding, Axes& axes) {
  if (sharding) {
    axes.insert(axes.end(), sharding->unreduced_axes.begin(),
                sharding->unreduced_axes.end());
  }
}
void appendUnreduced(Value value, Axes& axes) {
  std::optional<TensorSharding> sharding = getSharding(value);
  appendUnreduced(sharding ? &*sharding : nullptr, axes);
}
Axes unreducedOf(Value value) {
  Axes axes;
  appendUnreduced(value, axes);
  return axes;
}

bool contains(const Axes& axes, const AxisRef& axis) {
  return std::find(axes.begin(), axes.end(), axis) != axes.end();
}

// Every axis of `from` must be in `to`.
absl::Status checkSubset(const Axes& from, const Axes& to, Op op) {
  for (const AxisRef& axis : from) {
    if (!contains(to, axis)) {
      return opError(
          op, strCat("dropped unreduced axis '", axis.name, kNotBlessed));
    }
  }
  return absl::OkStatus();
}

// `a` and `b` must list the same axes in the same order; the error names the
// axes in only one of them.
absl::Status checkEqual(const Axes& a, const Axes& b, Op op,
                        std::string_view suffix) {
  if (a == b) return absl::OkStatus();
  std::vector<std::string> names;
  for (const AxisRef& axis : a) {
    if (!contains(b, axis)) names.push_back(axis.name);
  }
  for (const AxisRef& axis : b) {
    if (!contains(a, axis)) names.push_back(axis.name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string joined;
  for (const std::string& name : names) {
    strAppend(joined, joined.empty() ? "" : ", ", name);
  }
  return opError(op,
                 strCat("has unreduced axes mismatch for '", joined, suffix));
}

absl::Status checkCall(Op call, Module& module) {
  // The symbol index, not a scan of the functions for every call.
  FuncOp callee =
      dynCast<FuncOp>(module.lookupSymbol(func::CallOp(call).callee()));
  if (!callee) return absl::OkStatus();
  for (unsigned i = 0; i < call.numOperands() && i < callee.numArguments();
       ++i) {
    Axes declared;
    std::optional<TensorSharding> arg = getFuncArgSharding(callee, i);
    appendUnreduced(arg ? &*arg : nullptr, declared);
    SK_RETURN_IF_ERROR(checkEqual(unreducedOf(call.operand(i)), declared, call,
                                  strCat("' at call argument ", i, ".")));
  }
  for (unsigned i = 0; i < call.numResults() && i < callee.numResults(); ++i) {
    Axes declared;
    appendUnreduced(findFuncResultSharding(callee, i), declared);
    SK_RETURN_IF_ERROR(checkEqual(declared, unreducedOf(call.result(i)), call,
                                  strCat("' at call result ", i, ".")));
  }
  return absl::OkStatus();
}

// A function's return must pass on exactly the unreduced axes the function
// declares for each result that has a sharding.
absl::Status checkReturn(Op op) {
  auto func = dynCast<FuncOp>(op.parentOp());
  if (!func) return absl::OkStatus();
  for (unsigned i = 0; i < op.numOperands() && i < func.numResults(); ++i) {
    const TensorSharding* declared = findFuncResultSharding(func, i);
    if (!declared) continue;
    Axes expected;
    appendUnreduced(declared, expected);
    SK_RETURN_IF_ERROR(checkEqual(
        unreducedOf(op.operand(i)), expected, op,
        strCat("' at return value ", i, std::string(kNotBlessed).substr(1))));
  }
  return absl::OkStatus();
}

std::vector<TensorSharding> shardingsOf(const std::vector<Value>& values) {
  std::vector<TensorSharding> shardings;
  for (Value v : values) {
    if (std::optional<TensorSharding> s = getSharding(v)) {
      shardings.push_back(std::move(*s));
    }
  }
  return shardings;
}

// The reduction a stablehlo.reduce's body applies, if it is one op.
std::optional<ReductionKind> bodyReduction(Op op) {
  if (op.numRegions() == 0 || op.region(0).empty()) return std::nullopt;
  Op first = op.region(0).front().front();
  if (isa<stablehlo::AddOp>(first)) return ReductionKind::kSum;
  if (isa<stablehlo::MaxOp>(first)) return ReductionKind::kMax;
  if (isa<stablehlo::MinOp>(first)) return ReductionKind::kMin;
  return std::nullopt;
}

struct TransitionRules {
  bool may_drop = false;                           // reshards
  ReductionKind introduced = ReductionKind::kSum;  // kind new axes must have
};

// The unreduced axes of `op`'s operands becoming those of its results: none
// dropped (unless `rules.may_drop`), none whose reduction changes, none new
// of another kind than `rules.introduced`. Shardings on different meshes are
// not compared.
absl::Status checkTransition(Op op, const TransitionRules& rules) {
  std::vector<TensorSharding> ins = shardingsOf(op.operands());
  std::vector<TensorSharding> outs = shardingsOf(op.results());
  for (const TensorSharding& in : ins) {
    for (const TensorSharding& out : outs) {
      if (in.meshName() != out.meshName()) return absl::OkStatus();
    }
  }
  Axes in_axes, out_axes;
  for (const TensorSharding& in : ins) appendUnreduced(&in, in_axes);
  for (const TensorSharding& out : outs) appendUnreduced(&out, out_axes);
  auto kindOf = [](const std::vector<TensorSharding>& shardings,
                   const AxisRef& axis) {
    for (const TensorSharding& s : shardings) {
      if (contains(s.unreduced_axes, axis)) return s.unreduced_kind;
    }
    return ReductionKind::kSum;
  };
  for (const AxisRef& axis : in_axes) {
    if (contains(out_axes, axis)) {
      ReductionKind from = kindOf(ins, axis), to = kindOf(outs, axis);
      if (from != to) {
        return opError(op, strCat("cannot change the reduction operator of "
                                  "kept unreduced axes from ",
                                  toString(from), " to ", toString(to), "."));
      }
    } else if (!rules.may_drop) {
      return checkSubset(in_axes, out_axes, op);
    }
  }
  for (const AxisRef& axis : out_axes) {
    ReductionKind kind = kindOf(outs, axis);
    if (!contains(in_axes, axis) && kind != rules.introduced) {
      return opError(op, strCat("cannot introduce '", toString(kind),
                                "' unreduced axes. Expected '",
                                toString(rules.introduced), "'."));
    }
  }
  return absl::OkStatus();
}

// An all-reduce reduces its operand's unreduced axes by summing.
absl::Status checkAllReduce(Op op, bool operand_must_be_sharded) {
  std::optional<TensorSharding> in = getSharding(op.operand(0));
  if (!in) {
    if (!operand_must_be_sharded) return absl::OkStatus();
    return opError(op, "operand must be sharded.");
  }
  if (!in->unreduced_axes.empty() &&
      in->unreduced_kind != ReductionKind::kSum) {
    return opError(op, strCat("cannot reduce '", toString(in->unreduced_kind),
                              "' unreduced axes. Expected 'sum'."));
  }
  return absl::OkStatus();
}

absl::Status checkOp(Op op) {
  if (isa<sdy::AllReduceOp>(op)) return checkAllReduce(op, true);
  if (isa<stablehlo::AllReduceOp>(op)) return checkAllReduce(op, false);
  if (isa<sdy::ReshardOp, sdy::ShardingConstraintOp>(op)) {
    return checkTransition(op, {.may_drop = true});
  }
  if (op.dialect() == "sdy" && !isa<sdy::ManualComputationOp>(op)) {
    return absl::OkStatus();
  }
  TransitionRules rules;
  if (isa<stablehlo::ReduceOp>(op)) {
    rules.introduced = bodyReduction(op).value_or(ReductionKind::kSum);
  }
  return checkTransition(op, rules);
}

absl::Status checkFunction(FuncOp func, Module& module) {
  std::vector<Op> ops;
  if (Block body = func.body()) ir_internal::collectPostOrder(body, ops);
  for (Op op : ops) {
    if (isa<func::CallOp>(op)) {
      SK_RETURN_IF_ERROR(checkCall(op, module));
    } else if (isa<func::ReturnOp>(op)) {
      SK_RETURN_IF_ERROR(checkReturn(op));
    } else if (!op.hasTrait(OpTrait::kTerminator)) {
      SK_RETURN_IF_ERROR(checkOp(op));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status verifyUnreducedAxes(Module& module) {
  // Like a function pass: each function reports its first error.
  std::vector<Diagnostic> errors;
  for (Op op : module.functions()) {
    absl::Status status = checkFunction(FuncOp(op), module);
    for (Diagnostic& d : diagnosticsOf(status)) errors.push_back(std::move(d));
  }
  return errors.empty() ? absl::OkStatus() : diagnosticStatus(errors);
}

void registerVerifyUnreducedAxesPass() {
  registerPass(optionlessPass(
      "sdy-verify-unreduced-axes",
      "Checks that only sdy ops drop unreduced axes: StableHLO ops keep "
      "their operands' unreduced axes, returns and calls match them exactly.",
      [](Module& module) { return verifyUnreducedAxes(module); }));
}

}  // namespace shardkit
