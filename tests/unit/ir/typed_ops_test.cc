// Typed op handles, op traits and verifier hooks (op_base.h, op_name.h).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/dialect/verify_module.h"
#include "tests/unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

// Every typed handle names a registered kind, and its OpName is the one the
// registry hands out (so isa compares the same interned entry).
template <typename... Ts>
void checkRegistered() {
  (
      [] {
        INFO(Ts::kName);
        OpName registered = OpName::registered(Ts::kName);
        CHECK(registered.isRegistered());
        CHECK(Ts::opName().entry() == registered.entry());
        CHECK(Ts::opName().str() == Ts::kName);
        CHECK(isa<Ts>(registered));
      }(),
      ...);
}

TEST_CASE("every typed handle is registered under its name") {
  checkRegistered<sdy::MeshOp, sdy::ShardingConstraintOp, sdy::ReshardOp,
                  sdy::DataFlowEdgeOp, sdy::PropagationBarrierOp,
                  sdy::ShardingGroupOp, sdy::ConstantOp, sdy::ReturnOp,
                  sdy::ManualComputationOp, sdy::NamedComputationOp,
                  sdy::AllGatherOp, sdy::AllSliceOp, sdy::AllReduceOp,
                  sdy::ReduceScatterOp, sdy::AllToAllOp,
                  sdy::CollectivePermuteOp, sdy::ShardedToUnreducedOp,
                  sdy::ReplicatedToUnreducedOp>();
  checkRegistered<FuncOp, func::CallOp, func::ReturnOp>();
  checkRegistered<
      stablehlo::WhileOp, stablehlo::ConstantOp, stablehlo::CustomCallOp,
      stablehlo::CaseOp, stablehlo::OptimizationBarrierOp, stablehlo::ReturnOp,
      stablehlo::AddOp, stablehlo::MaxOp, stablehlo::MinOp, stablehlo::ClampOp,
      stablehlo::SelectOp, stablehlo::BitcastConvertOp,
      stablehlo::BroadcastInDimOp, stablehlo::ConcatenateOp,
      stablehlo::DynamicSliceOp, stablehlo::DynamicUpdateSliceOp,
      stablehlo::IotaOp, stablehlo::PadOp, stablehlo::ReshapeOp,
      stablehlo::ReverseOp, stablehlo::SliceOp, stablehlo::TransposeOp>();
  checkRegistered<
      stablehlo::BatchNormGradOp, stablehlo::BatchNormInferenceOp,
      stablehlo::BatchNormTrainingOp, stablehlo::CholeskyOp,
      stablehlo::ConvolutionOp, stablehlo::DotOp, stablehlo::DotGeneralOp,
      stablehlo::FftOp, stablehlo::GatherOp, stablehlo::ReduceOp,
      stablehlo::ReduceWindowOp, stablehlo::RngBitGeneratorOp,
      stablehlo::ScatterOp, stablehlo::SelectAndScatterOp, stablehlo::SortOp,
      stablehlo::TriangularSolveOp, stablehlo::AllGatherOp,
      stablehlo::AllReduceOp, stablehlo::AllToAllOp,
      stablehlo::CollectiveBroadcastOp, stablehlo::CollectivePermuteOp,
      stablehlo::CrossReplicaSumOp, stablehlo::ReduceScatterOp>();
}

constexpr std::string_view kModule = R"(
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"y"}]> : tensor<8x8xf32>
  %2 = sdy.propagation_barrier %1 allowed_direction=FORWARD : tensor<8x8xf32>
  sdy.sharding_group %2 group_id=7 : tensor<8x8xf32>
  %3 = sdy.all_gather [{}, {"y"}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
  %4 = sdy.manual_computation(%3) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
    sdy.return %arg1 : tensor<4x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %5 = sdy.named_computation<"g">(%4) (%arg1: tensor<8x8xf32>) {
    sdy.return %arg1 : tensor<8x8xf32>
  } : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %6 = stablehlo.add %5, %5 : tensor<8x8xf32>
  return %6 : tensor<8x8xf32>
}
)";

// The ops of @f's body, in order.
std::vector<Op> bodyOps(Module& m) {
  return FuncOp(m.lookupSymbol("f")).body().ops();
}

TEST_CASE("isa and dynCast tell kinds apart by their interned name") {
  std::unique_ptr<Module> m = testing::parseOrDie(kModule);
  std::vector<Op> ops = bodyOps(*m);
  REQUIRE(ops.size() == 9);
  CHECK(isa<sdy::ShardingConstraintOp>(ops[0]));
  CHECK(!isa<sdy::ReshardOp>(ops[0]));
  CHECK(isa<sdy::ReshardOp, sdy::ShardingConstraintOp>(ops[0]));
  CHECK(!isa<sdy::ReshardOp, sdy::DataFlowEdgeOp>(ops[0]));
  CHECK(!dynCast<sdy::ReshardOp>(ops[0]));
  CHECK(dynCast<sdy::ReshardOp>(ops[1]).op() == ops[1]);
  CHECK(isa<stablehlo::AddOp>(ops[7]));
  CHECK(isa<func::ReturnOp>(ops[8]));
  CHECK(!isa<stablehlo::ReturnOp>(ops[8]));
  CHECK(isa<sdy::MeshOp>(m->body().front()));
  CHECK(isa<FuncOp>(m->lookupSymbol("f")));
  // Null ops and values without a defining op are no kind.
  CHECK(!isa<sdy::ReshardOp>(Op()));
  CHECK(
      !dynCast<FuncOp>(FuncOp(m->lookupSymbol("f")).argument(0).definingOp()));
  // An unregistered op that borrows a registered dialect's prefix.
  OpName unknown = m->opName("sdy.not_an_op");
  CHECK(!unknown.isRegistered());
  CHECK(!isa<sdy::ReshardOp, sdy::MeshOp>(unknown));
}

TEST_CASE("typed accessors read and write the ops' attributes") {
  std::unique_ptr<Module> m = testing::parseOrDie(kModule);
  std::vector<Op> ops = bodyOps(*m);
  auto mesh = dynCast<sdy::MeshOp>(m->body().front());
  CHECK(mesh.symName() == "mesh");
  CHECK(mesh.mesh().axes.size() == 2);

  auto constraint = dynCast<sdy::ShardingConstraintOp>(ops[0]);
  CHECK(toString(constraint.sharding()) == "<@mesh, [{\"x\"}, {}]>");
  CHECK(constraint.input() == FuncOp(m->lookupSymbol("f")).argument(0));
  CHECK(constraint.result() == ops[0].result(0));
  constraint.setSharding(TensorSharding::fullyOpen(MeshOrRef::ref("mesh"), 2));
  CHECK(toString(constraint.sharding()) == "<@mesh, [{?}, {?}]>");
  // The handle forwards Op's methods.
  CHECK(constraint->numOperands() == 1);

  CHECK(toString(sdy::ReshardOp(ops[1]).sharding()) ==
        "<@mesh, [{}, {\"y\"}]>");
  CHECK(sdy::PropagationBarrierOp(ops[2]).allowedDirection() ==
        PropagationDirection::kForward);
  CHECK(sdy::ShardingGroupOp(ops[3]).groupId() == 7);
  CHECK(sdy::ShardingGroupOp(ops[3]).input() == ops[2].result(0));

  auto gather = dynCast<sdy::AllGatherOp>(ops[4]);
  CHECK(toString(gather.axes()) == "[{}, {\"y\"}]");
  CHECK(toString(gather.outSharding()) == "<@mesh, [{}, {}]>");
  CHECK(gather.tensor() == ops[1].result(0));

  auto manual = dynCast<sdy::ManualComputationOp>(ops[5]);
  CHECK(manual.manualAxes().items == std::vector<std::string>{"x"});
  CHECK(manual.inShardings().size() == 1);
  CHECK(manual.outShardings().size() == 1);
  CHECK(manual.body().numArguments() == 1);
  CHECK(isa<sdy::ReturnOp>(manual.body().back()));

  auto named = dynCast<sdy::NamedComputationOp>(ops[6]);
  CHECK(named.name() == "g");
  CHECK(named->name() == "sdy.named_computation");
  CHECK(named.inShardings() == nullptr);
}

TEST_CASE("accessors of missing attributes give empty values") {
  Module m;
  Type t = m.types().rankedTensor({4}, "f32");
  OperationState state(sdy::ReshardOp::opName());
  state.result_types = {t};
  auto reshard = dynCast<sdy::ReshardOp>(m.createOp(state));
  REQUIRE(reshard);
  CHECK(reshard.sharding().dim_shardings.empty());
  OperationState group(sdy::ShardingGroupOp::opName());
  CHECK(sdy::ShardingGroupOp(m.createOp(group)).groupId() == 0);
  OperationState edge(sdy::DataFlowEdgeOp::opName());
  CHECK(sdy::DataFlowEdgeOp(m.createOp(edge)).sharding() == nullptr);
  OperationState barrier(sdy::PropagationBarrierOp::opName());
  CHECK(sdy::PropagationBarrierOp(m.createOp(barrier)).allowedDirection() ==
        PropagationDirection::kNone);
}

bool hasTrait(std::string_view name, OpTrait trait) {
  return OpName::registered(name).hasTrait(trait);
}

TEST_CASE("op traits come from the registration tables") {
  // Elementwise: StableHLO's Elementwise ops and sdy's identities.
  for (std::string_view name :
       {"stablehlo.add", "stablehlo.tanh", "stablehlo.compare",
        "stablehlo.select", "stablehlo.clamp", "sdy.sharding_constraint",
        "sdy.reshard", "sdy.propagation_barrier"}) {
    INFO(name);
    CHECK(hasTrait(name, OpTrait::kElementwise));
  }
  for (std::string_view name :
       {"stablehlo.dot_general", "stablehlo.reshape",
        "stablehlo.broadcast_in_dim", "sdy.data_flow_edge", "func.call"}) {
    INFO(name);
    CHECK(!hasTrait(name, OpTrait::kElementwise));
  }
  for (std::string_view name :
       {"sdy.return", "func.return", "stablehlo.return"}) {
    CHECK(hasTrait(name, OpTrait::kTerminator));
  }
  CHECK(hasTrait("func.func", OpTrait::kSymbol));
  CHECK(hasTrait("sdy.mesh", OpTrait::kSymbol));
  CHECK(hasTrait("func.func", OpTrait::kIsolatedFromAbove));
  CHECK(hasTrait("sdy.manual_computation", OpTrait::kIsolatedFromAbove));
  CHECK(!hasTrait("stablehlo.while", OpTrait::kIsolatedFromAbove));
  for (std::string_view name :
       {"stablehlo.while", "stablehlo.case", "stablehlo.optimization_barrier",
        "sdy.manual_computation", "sdy.named_computation"}) {
    CHECK(hasTrait(name, OpTrait::kDataFlowEdges));
  }
  CHECK(!hasTrait("sdy.data_flow_edge", OpTrait::kDataFlowEdges));
  for (std::string_view name :
       {"sdy.all_gather", "sdy.all_slice", "sdy.all_reduce",
        "sdy.reduce_scatter", "sdy.all_to_all", "sdy.collective_permute",
        "sdy.sharded_to_unreduced", "sdy.replicated_to_unreduced"}) {
    CHECK(hasTrait(name, OpTrait::kCollective));
  }
  CHECK(!hasTrait("stablehlo.all_gather", OpTrait::kCollective));
  CHECK(hasTrait("sdy.reshard", OpTrait::kReshardLike));
  CHECK(!hasTrait("sdy.data_flow_edge", OpTrait::kReshardLike));
  CHECK(hasTrait("stablehlo.transpose", OpTrait::kPriorityPassThrough));
  CHECK(hasTrait("sdy.data_flow_edge", OpTrait::kPriorityPassThrough));
  CHECK(hasTrait("stablehlo.dynamic_slice",
                 OpTrait::kPriorityForwardPassThrough));
  CHECK(hasTrait("stablehlo.broadcast_in_dim", OpTrait::kPriorityBroadcast));
  // Unknown ops have no traits.
  Module m;
  CHECK(!m.opName("mydialect.foo").hasTrait(OpTrait::kTerminator));
}

TEST_CASE("OpTraits is a set") {
  OpTraits set = OpTrait::kElementwise | OpTrait::kCollective;
  CHECK(set.has(OpTrait::kElementwise));
  CHECK(set.has(OpTrait::kCollective));
  CHECK(!set.has(OpTrait::kTerminator));
  CHECK(OpTraits().empty());
  CHECK((set | OpTrait::kTerminator).has(OpTrait::kTerminator));
}

absl::Status rejectOddOperands(Op op, const VerifyContext&) {
  if (op.numOperands() % 2 == 0) return absl::OkStatus();
  return absl::InvalidArgumentError("expects an even number of operands");
}

TEST_CASE("a registered verifier hook runs in verifyModule") {
  OpInfo info;
  info.traits = OpTrait::kElementwise;
  info.verify = rejectOddOperands;
  OpName name = registerOpInfo("typed_ops_test.pair", info);
  CHECK(name.hasTrait(OpTrait::kElementwise));
  std::string error = testing::parseError(
      "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  \"typed_ops_test.pair\"(%arg0, %arg0) : (tensor<4xf32>, "
      "tensor<4xf32>) -> ()\n"
      "  \"typed_ops_test.pair\"(%arg0) : (tensor<4xf32>) -> ()\n"
      "  return %arg0 : tensor<4xf32>\n"
      "}\n");
  CHECK(error ==
        "test.mlir:3:3: error: 'typed_ops_test.pair' op expects an even "
        "number of operands");
  // The builtin sdy ops carry their hooks.
  for (std::string_view op :
       {"sdy.sharding_constraint", "sdy.reshard", "sdy.data_flow_edge",
        "sdy.propagation_barrier", "sdy.manual_computation",
        "sdy.named_computation", "sdy.all_gather", "sdy.all_to_all",
        "func.func", "func.return"}) {
    INFO(op);
    CHECK(OpName::registered(op).info()->verify != nullptr);
  }
}

TEST_CASE("a registered signature is checked before the verifier hook") {
  OpInfo info;
  info.verify = rejectOddOperands;
  info.signature = {OpSignature::atLeast(1), OpSignature::exactly(1),
                    OpSignature::exactly(0),
                    OpSignature::TypeRule::kResultsMatchOperands};
  registerOpInfo("typed_ops_test.first", info);
  auto error_of = [](std::string_view op) {
    return testing::parseError(
        "func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<2xf32>) {\n" +
        std::string(op) + "\n  return\n}\n");
  };
  // Three operands: the hook would reject them, but the counts pass and
  // the types are checked first.
  CHECK(error_of("  %0 = \"typed_ops_test.first\"(%arg1, %arg0, %arg0) : "
                 "(tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) -> "
                 "tensor<4xf32>") ==
        "test.mlir:2:3: error: 'typed_ops_test.first' op requires result 0 "
        "('tensor<4xf32>') to have the type of operand 0 ('tensor<2xf32>')");
  CHECK(error_of("  \"typed_ops_test.first\"() : () -> ()") ==
        "test.mlir:2:3: error: 'typed_ops_test.first' op expected 1 or more "
        "operands, but found 0");
  CHECK(error_of("  %0 = \"typed_ops_test.first\"(%arg0, %arg0, %arg0) : "
                 "(tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> "
                 "tensor<4xf32>") ==
        "test.mlir:2:3: error: 'typed_ops_test.first' op expects an even "
        "number of operands");
  // Result i has the type of operand i: a result past the operands fails,
  // even where the counts are left open.
  OpInfo open;
  open.signature.types = OpSignature::TypeRule::kResultsMatchOperands;
  registerOpInfo("typed_ops_test.open", open);
  CHECK(error_of("  %0:2 = \"typed_ops_test.open\"(%arg0) : "
                 "(tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)") ==
        "test.mlir:2:3: error: 'typed_ops_test.open' op requires result 1 to "
        "have the type of operand 1, but found 1 operand");
  // The default signature declares nothing.
  CHECK(OpInfo().signature.operands.kind == OpSignature::Arity::kAny);
  CHECK(OpName::registered("stablehlo.atan2").info()->signature.operands.n ==
        2);
}

}  // namespace
}  // namespace shardkit
