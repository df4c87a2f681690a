// The verifier hooks of the sdy ops that carry a sharding: sharding
// constraints and reshards, data-flow edges, propagation barriers and the
// collectives. (Manual and named computations: sdy_verify_computations.cc.)
#include <optional>

#include "absl/status/statusor.h"
#include "shardkit/core/verify.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/support/status_macros.h"
#include "src/dialect/verify_util.h"

namespace shardkit::ir_internal {

namespace {

// The sharding of `value`, looking through propagation barriers (which keep
// their operand's sharding).
std::optional<TensorSharding> shardingBypassingBarriers(Value value) {
  while (Op def = value.definingOp()) {
    if (!isa<sdy::PropagationBarrierOp>(def) || def.numOperands() != 1) break;
    value = def.operand(0);
  }
  return getSharding(value);
}

}  // namespace

// A reshard or sharding constraint may introduce `sum` unreduced axes and
// drop any; shardings on different meshes are not compared.
absl::Status verifyReshardLikeOp(Op op, const VerifyContext& context) {
  const Attribute& attr = op.attr("sharding");
  const TensorSharding* s = attr.as<TensorSharding>();
  if (!s || op.numOperands() != 1 || op.numResults() != 1) {
    return verifyError("requires one operand, one result and a 'sharding'");
  }
  SK_RETURN_IF_ERROR(context.verifySharding(attr, op.result(0).type()));
  std::optional<TensorSharding> input =
      shardingBypassingBarriers(op.operand(0));
  if (!input) return absl::OkStatus();
  const Mesh* mesh = context.meshes().resolve(*s);
  const Mesh* input_mesh = context.meshes().resolve(*input);
  if (!mesh || !input_mesh || !(*mesh == *input_mesh)) {
    return absl::OkStatus();
  }
  return verifyUnreducedTransition(*input, *s, *mesh);
}

absl::Status verifyDataFlowEdgeOp(Op op, const VerifyContext& context) {
  if (op.numOperands() != 1 || op.numResults() != 1) {
    return verifyError("requires one operand and one result");
  }
  Type type = op.result(0).type();
  if (!type.hasStaticShape()) {
    return verifyError(strCat(
        "expected sdy.data_flow_edge to have a static-shaped result. type: '",
        type.str(), "'"));
  }
  Value input = op.operand(0);
  if (!input.hasOneUse()) {
    return verifyError(
        "expected input of sdy.data_flow_edge to have a single user");
  }
  if (Op def = input.definingOp();
      def && def.dialect() == "sdy" &&
      !isa<sdy::ManualComputationOp, sdy::NamedComputationOp>(def)) {
    return verifyError(
        "expected input of sdy.data_flow_edge to not be defined by an "
        "SdyDialect op (other than an sdy.named_computation).");
  }
  if (const Attribute& attr = op.attr("sharding"); attr.as<TensorSharding>()) {
    return context.verifySharding(attr, type);
  }
  return absl::OkStatus();
}

// The input is what the edge stands for: a call result, or an argument of a
// block of a function. Its sharding is the common `sdy.sharding`.
absl::Status verifyFuncDataFlowEdgeOp(Op op, const VerifyContext&) {
  if (op.numOperands() != 1 || op.numResults() != 1) {
    return verifyError("requires one operand and one result");
  }
  Type type = op.result(0).type();
  if (!type.hasStaticShape()) {
    return verifyError(
        strCat("expected sdy.func_data_flow_edge to have a static-shaped "
               "result. type: '",
               type.str(), "'"));
  }
  Value input = op.operand(0);
  if (!input.hasOneUse()) {
    return verifyError(
        "expected operand of sdy.func_data_flow_edge to have a single user");
  }
  if (!input.isBlockArgument()) {
    if (!isa<func::CallOp>(input.definingOp())) {
      return verifyError(
          "expected operand of sdy.func_data_flow_edge to be a result of call "
          "op.");
    }
    return absl::OkStatus();
  }
  // Any block of a function, as in the reference.
  if (!isa<FuncOp>(input.ownerBlock().parentOp())) {
    return verifyError(
        "expected operand of sdy.func_data_flow_edge to be a block argument "
        "of a func op.");
  }
  return absl::OkStatus();
}

absl::Status verifyPropagationBarrierOp(Op op, const VerifyContext&) {
  const PropagationDirection* d =
      op.attr("allowed_direction").as<PropagationDirection>();
  if (d && *d == PropagationDirection::kBoth) {
    return verifyError(
        "cannot specify `BOTH` as the direction. Not blocking propagation "
        "direction makes the op redundant.");
  }
  return absl::OkStatus();
}

namespace {

// What every collective checks, and the shardings its own checks need.
struct CollectiveShardings {
  TensorSharding operand;
  const TensorSharding* result = nullptr;
  const Mesh* mesh = nullptr;
};

struct CollectiveRules {
  // The operand may have no sharding (then it counts as fully open).
  bool allow_missing_operand_sharding = false;
  // The operand and result may live on different meshes.
  bool different_meshes_ok = false;
};

// The shardings of a collective, or nullopt when a mesh cannot be resolved
// (nothing more to check). In the reference's order: the operand has a
// sharding (unless allowed), the result sharding is valid, then the meshes
// and ranks agree.
absl::StatusOr<std::optional<CollectiveShardings>> checkCollective(
    Op op, const VerifyContext& context, CollectiveRules rules) {
  const Attribute& attr = op.attr("out_sharding");
  const TensorSharding* result = attr.as<TensorSharding>();
  if (!result || op.numOperands() != 1 || op.numResults() != 1) {
    return verifyError(
        "requires one operand, one result and an 'out_sharding'");
  }
  std::optional<TensorSharding> operand = getSharding(op.operand(0));
  if (!operand && !rules.allow_missing_operand_sharding) {
    return verifyError("collective on operand without sharding");
  }
  SK_RETURN_IF_ERROR(context.verifySharding(attr, op.result(0).type()));
  const Mesh* mesh = context.meshes().resolve(*result);
  if (!operand) {
    operand = TensorSharding::fullyOpen(result->mesh, result->rank());
  }
  const Mesh* operand_mesh = context.meshes().resolve(*operand);
  if (!mesh || !operand_mesh) return std::nullopt;
  SK_RETURN_IF_ERROR(verifyCollectiveShardings(
      *operand, *operand_mesh, *result, *mesh, rules.different_meshes_ok));
  return CollectiveShardings{*std::move(operand), result, mesh};
}

// The reduction of an all_reduce or reduce_scatter (`sum` unless printed).
ReductionKind reductionOf(Op op) {
  const std::string* name = op.attr("reduction").asString();
  if (!name) return ReductionKind::kSum;
  return parseReductionKind(*name).value_or(ReductionKind::kSum);
}

// The per-dimension axes `attr` of a collective, or an error.
absl::StatusOr<const ListOfAxisRefLists*> axesPerDim(Op op,
                                                     std::string_view attr) {
  const ListOfAxisRefLists* axes = op.attr(attr).as<ListOfAxisRefLists>();
  if (!axes) return verifyError(strCat("requires '", attr, "'"));
  return axes;
}

// A collective whose `attr` lists axes per dimension.
absl::Status verifyAxesPerDim(Op op, const VerifyContext& context,
                              CollectiveRules rules, std::string_view attr,
                              AxesPerDimCollective kind) {
  SK_ASSIGN_OR_RETURN(std::optional<CollectiveShardings> s,
                      checkCollective(op, context, rules));
  if (!s) return absl::OkStatus();
  SK_ASSIGN_OR_RETURN(const ListOfAxisRefLists* axes, axesPerDim(op, attr));
  return verifyAxesPerDimCollective(kind, *axes, s->operand, *s->result,
                                    *s->mesh);
}

}  // namespace

absl::Status verifyAllGatherOp(Op op, const VerifyContext& context) {
  return verifyAxesPerDim(op, context, {}, "gathering_axes",
                          AxesPerDimCollective::kGather);
}

absl::Status verifyAllSliceOp(Op op, const VerifyContext& context) {
  return verifyAxesPerDim(op, context, {.allow_missing_operand_sharding = true},
                          "slicing_axes", AxesPerDimCollective::kSlice);
}

absl::Status verifyReduceScatterOp(Op op, const VerifyContext& context) {
  SK_ASSIGN_OR_RETURN(
      std::optional<CollectiveShardings> s,
      checkCollective(op, context, {.allow_missing_operand_sharding = true}));
  if (!s) return absl::OkStatus();
  SK_ASSIGN_OR_RETURN(const ListOfAxisRefLists* axes,
                      axesPerDim(op, "reduce_scatter_axes"));
  return verifyReduceScatter(*axes, reductionOf(op), s->operand, *s->result,
                             *s->mesh);
}

absl::Status verifyShardedToUnreducedOp(Op op, const VerifyContext& context) {
  SK_ASSIGN_OR_RETURN(std::optional<CollectiveShardings> s,
                      checkCollective(op, context, {}));
  if (!s) return absl::OkStatus();
  SK_ASSIGN_OR_RETURN(const ListOfAxisRefLists* axes, axesPerDim(op, "axes"));
  return verifyShardedToUnreduced(*axes, s->operand, *s->result, *s->mesh);
}

absl::Status verifyAllToAllOp(Op op, const VerifyContext& context) {
  SK_ASSIGN_OR_RETURN(std::optional<CollectiveShardings> s,
                      checkCollective(op, context, {}));
  if (!s) return absl::OkStatus();
  const AllToAllParamList* params = op.attr("params").as<AllToAllParamList>();
  if (!params) return verifyError("requires 'params'");
  return verifyAllToAll(*params, s->operand, *s->result, *s->mesh);
}

absl::Status verifyAllReduceOp(Op op, const VerifyContext& context) {
  SK_ASSIGN_OR_RETURN(
      std::optional<CollectiveShardings> s,
      checkCollective(op, context, {.allow_missing_operand_sharding = true}));
  if (!s) return absl::OkStatus();
  const AxisRefList* axes = op.attr("reduction_axes").as<AxisRefList>();
  if (!axes) return verifyError("requires 'reduction_axes'");
  return verifyAllReduce(axes->items, reductionOf(op), s->operand, *s->result,
                         *s->mesh);
}

absl::Status verifyCollectivePermuteOp(Op op, const VerifyContext& context) {
  SK_ASSIGN_OR_RETURN(
      std::optional<CollectiveShardings> s,
      checkCollective(op, context, {.different_meshes_ok = true}));
  if (!s) return absl::OkStatus();
  const Mesh* operand_mesh = context.meshes().resolve(s->operand);
  return verifyCollectivePermute(s->operand, *operand_mesh, *s->result,
                                 *s->mesh);
}

// The operand must have a sharding (the reference's default for collectives).
absl::Status verifyReplicatedToUnreducedOp(Op op,
                                           const VerifyContext& context) {
  SK_ASSIGN_OR_RETURN(std::optional<CollectiveShardings> s,
                      checkCollective(op, context, {}));
  if (!s) return absl::OkStatus();
  const AxisRefList* axes = op.attr("axes").as<AxisRefList>();
  if (!axes) return verifyError("requires 'axes'");
  return verifyReplicatedToUnreduced(axes->items, s->operand, *s->result,
                                     *s->mesh);
}

}  // namespace shardkit::ir_internal
