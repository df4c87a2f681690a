// Calls, control flow and values that are not tensors: func.call, while,
// if, case, map, optimization_barrier, tuple, get_tuple_element, tokens,
// composite, the process ids, custom_call (an error), and the sdy ops of a
// global program, which leave its values as they are (reshard, sharding
// constraints and barriers, data-flow edges, the collectives), sdy.constant
// and named computations.
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/evaluator.h"

namespace shardkit::interp {
namespace {

absl::StatusOr<Op> lookupFunction(OpContext& ctx, std::string_view name) {
  Op func = ctx.op().module()->lookupSymbol(name);
  if (!isa<FuncOp>(func)) {
    return evalError(strCat("calls @", name, ", which is not a function"));
  }
  return func;
}

absl::StatusOr<Results> call(OpContext& ctx) {
  std::string_view callee = func::CallOp(ctx.op()).callee();
  SK_ASSIGN_OR_RETURN(Op func, lookupFunction(ctx, callee));
  return ctx.eval().callFunction(func, ctx.operands());
}

// stablehlo.composite: its decomposition function on its operands.
absl::StatusOr<Results> composite(OpContext& ctx) {
  const std::string* name = ctx.op().attr("decomposition").asSymbolRef();
  if (name == nullptr) return evalError("requires a decomposition function");
  SK_ASSIGN_OR_RETURN(Op func, lookupFunction(ctx, *name));
  return ctx.eval().callFunction(func, ctx.operands());
}

// A region's scalar i1 result (while's condition).
absl::StatusOr<bool> predicate(const Results& results) {
  if (results.size() != 1 || !results[0].isTensor() ||
      results[0].tensor().rank() != 0 ||
      !isBool(results[0].tensor().elementType())) {
    return evalError("condition must return a tensor<i1>");
  }
  return results[0].tensor().intAt(0) != 0;
}

absl::StatusOr<Results> whileLoop(OpContext& ctx) {
  stablehlo::WhileOp op(ctx.op());
  if (ctx.op().numRegions() != 2) return evalError("requires two regions");
  Results values = ctx.operands();
  for (int64_t i = 0;; ++i) {
    SK_ASSIGN_OR_RETURN(Results cond,
                        ctx.eval().runRegion(op.cond(), values, &ctx.scope()));
    SK_ASSIGN_OR_RETURN(bool go_on, predicate(cond));
    if (!go_on) break;
    if (i >= ctx.eval().options().max_while_iterations) {
      return evalError(
          strCat("ran more than ", ctx.eval().options().max_while_iterations,
                 " iterations (RunOptions::max_while_iterations)"));
    }
    SK_ASSIGN_OR_RETURN(values,
                        ctx.eval().runRegion(op.body(), values, &ctx.scope()));
  }
  return values;
}

// A rank-0 tensor's integer value (if's predicate, case's index).
absl::StatusOr<int64_t> scalarOperand(OpContext& ctx, bool boolean) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  if (ctx.numOperands() != 1 || ctx.tensor(0).rank() != 0 ||
      ctx.tensor(0).kind() != ElementKind::kInteger ||
      isBool(ctx.tensor(0).elementType()) != boolean) {
    return evalError(boolean ? "requires a tensor<i1> predicate"
                             : "requires an integer scalar index");
  }
  return ctx.tensor(0).intAt(0);
}

absl::StatusOr<Results> ifOp(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(int64_t pred, scalarOperand(ctx, true));
  if (ctx.op().numRegions() != 2) return evalError("requires two regions");
  return ctx.eval().runRegion(ctx.op().region(pred ? 0 : 1), {}, &ctx.scope());
}

// case: branch `index`, or the last one when the index is out of range.
absl::StatusOr<Results> caseOp(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(int64_t index, scalarOperand(ctx, false));
  int64_t n = ctx.op().numRegions();
  if (n == 0) return evalError("requires at least one branch");
  if (index < 0 || index >= n) index = n - 1;
  return ctx.eval().runRegion(ctx.op().region(static_cast<unsigned>(index)), {},
                              &ctx.scope());
}

// map: the computation on the elements at each index of the operands.
absl::StatusOr<Results> map(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  if (ctx.numOperands() == 0 || ctx.op().numRegions() != 1) {
    return evalError("requires operands and a computation");
  }
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> dims, ctx.intsAttr("dimensions"));
  const Tensor& first = ctx.tensor(0);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != static_cast<int64_t>(i)) {
      return evalError("dimensions must be [0, ..., rank - 1]");
    }
  }
  if (static_cast<int64_t>(dims.size()) != first.rank()) {
    return evalError("dimensions must be [0, ..., rank - 1]");
  }
  for (size_t k = 0; k < ctx.numOperands(); ++k) {
    if (ctx.tensor(k).shape() != first.shape()) {
      return evalError("operands must have one shape");
    }
  }
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  if (r.shape() != first.shape()) return evalError("result shape mismatch");
  std::vector<Tensor> args(ctx.numOperands());
  for (int64_t i = 0; i < r.numElements(); ++i) {
    for (size_t k = 0; k < args.size(); ++k) {
      args[k] = Tensor(ctx.tensor(k).elementType(), {});
      args[k].copyElement(0, ctx.tensor(k), i);
    }
    SK_ASSIGN_OR_RETURN(
        std::vector<Tensor> out,
        ctx.eval().runTensorRegion(ctx.op().region(0), args, &ctx.scope()));
    if (out.size() != 1 || out[0].rank() != 0 ||
        out[0].elementType() != r.elementType()) {
      return evalError(
          "computation must return one scalar of the result's "
          "element type");
    }
    r.copyElement(i, out[0], 0);
  }
  return Results{std::move(r)};
}

absl::StatusOr<Results> identity(OpContext& ctx) { return ctx.operands(); }

absl::StatusOr<Results> tuple(OpContext& ctx) {
  return Results{RuntimeValue::tuple(ctx.operands())};
}

absl::StatusOr<Results> getTupleElement(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(int64_t index, ctx.intAttr("index"));
  const RuntimeValue& t = ctx.operand(0);
  if (!t.isTuple() || index < 0 ||
      index >= static_cast<int64_t>(t.elements().size())) {
    return evalError(
        strCat("index ", index, " is not an element of ", t.typeText()));
  }
  return Results{t.elements()[index]};
}

absl::StatusOr<Results> token(OpContext&) {
  return Results{RuntimeValue::token()};
}

template <bool kPartition>
absl::StatusOr<Results> processId(OpContext& ctx) {
  const ProcessContext& p = ctx.eval().process();
  if (p.grid == nullptr) {
    return evalError(
        strCat("is only supported when run via ", "interpreter.run_parallel"));
  }
  SK_ASSIGN_OR_RETURN(Tensor r, ctx.resultTensor(0));
  if (r.rank() != 0 || r.kind() != ElementKind::kInteger) {
    return evalError("result must be an integer scalar");
  }
  r.setInt(0, kPartition ? p.partition_id : p.replica_id);
  return Results{std::move(r)};
}

absl::StatusOr<Results> customCall(OpContext& ctx) {
  return evalError(strCat("@",
                          stablehlo::CustomCallOp(ctx.op()).callTargetName(),
                          " cannot be interpreted: custom calls are "
                          "implementation-defined"));
}

absl::StatusOr<Results> sdyConstant(OpContext& ctx) {
  SK_ASSIGN_OR_RETURN(Tensor t, ctx.elementsAttr("value"));
  return Results{std::move(t)};
}

absl::StatusOr<Results> namedComputation(OpContext& ctx) {
  if (ctx.op().numRegions() != 1) return evalError("requires a body");
  return ctx.eval().runRegion(ctx.op().region(0), ctx.operands(), nullptr);
}

absl::StatusOr<Results> nothing(OpContext&) { return Results{}; }

}  // namespace

void addControlKernels(KernelTable& t) {
  using namespace stablehlo;  // NOLINT: the op handles
  t.add<func::CallOp>(&call);
  t.add<CompositeOp>(&composite);
  t.add<WhileOp>(&whileLoop);
  t.add<IfOp>(&ifOp);
  t.add<CaseOp>(&caseOp);
  t.add<MapOp>(&map);
  t.add<OptimizationBarrierOp>(&identity);
  t.add<TupleOp>(&tuple);
  t.add<GetTupleElementOp>(&getTupleElement);
  t.add<AfterAllOp>(&token);
  t.add<CreateTokenOp>(&token);
  t.add<PartitionIdOp>(&processId<true>);
  t.add<ReplicaIdOp>(&processId<false>);
  t.add<CustomCallOp>(&customCall);
  // A global program's sdy ops: the value stays what it is.
  t.add<sdy::ReshardOp>(&identity);
  t.add<sdy::ShardingConstraintOp>(&identity);
  t.add<sdy::PropagationBarrierOp>(&identity);
  t.add<sdy::DataFlowEdgeOp>(&identity);
  t.add<sdy::FuncDataFlowEdgeOp>(&identity);
  t.add<sdy::ShardingGroupOp>(&nothing);
  t.add<sdy::ConstantOp>(&sdyConstant);
  t.add<sdy::NamedComputationOp>(&namedComputation);
  // sdy's collectives change how a value is sharded, never the value: on a
  // global program each is the identity.
  t.add<sdy::AllGatherOp>(&identity);
  t.add<sdy::AllSliceOp>(&identity);
  t.add<sdy::AllToAllOp>(&identity);
  t.add<sdy::CollectivePermuteOp>(&identity);
  t.add<sdy::AllReduceOp>(&identity);
  t.add<sdy::ReduceScatterOp>(&identity);
  t.add<sdy::ShardedToUnreducedOp>(&identity);
  t.add<sdy::ReplicatedToUnreducedOp>(&identity);
}

}  // namespace shardkit::interp
