// The mpmd dialect's op table (inherent attributes, traits and verifier hook
// of each op) and the accessors of its typed handles.
#include "shardkit/dialect/mpmd/mpmd_ops.h"

#include <mutex>
#include <string>
#include <utility>

#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/sdy/data_flow_shapes.h"
#include "src/dialect/mpmd/mpmd_verify.h"

namespace shardkit::mpmd {
namespace {

void registerOp(std::string_view name,
                std::initializer_list<std::string_view> inherent,
                OpTraits traits, OpInfo::VerifyFn verify) {
  registerOpInfo(name, OpInfo::of(inherent, traits, verify));
}

void registerTable() {
  using namespace mpmd_internal;  // NOLINT: the verifier hooks
  constexpr OpTrait kPure = OpTrait::kPure;
  // A fragment's shardings: `in_shardings` of its body arguments and
  // `out_shardings` of its results, the edges of a computation
  // (sharding_site.h); a loop's: `sdy.sharding` of its results.
  OpInfo fragment = OpInfo::of(
      {"origin", "mesh_name", "stage_id", "in_shardings", "out_shardings"},
      OpTrait::kIsolatedFromAbove | OpTrait::kDataFlowEdges, verifyFragmentOp);
  fragment.result_sharding_attr = "out_shardings";
  registerOpInfo(FragmentOp::kName, std::move(fragment));
  registerDataFlowShape(FragmentOp::kName, DataFlowShape::kComputation);
  registerOp(FragmentCallOp::kName, {"origin", "mesh_name", "callee"}, {},
             verifyFragmentCallOp);
  registerOp(NamedComputationOp::kName, {"origin"}, OpTrait::kIsolatedFromAbove,
             verifyNamedComputationOp);
  registerOp(ReturnOp::kName, {}, OpTrait::kTerminator, nullptr);
  registerOp(TransferOp::kName, {}, kPure, verifyTransferOp);
  registerOp(AssignOp::kName, {"origin"}, kPure, verifyAssignOp);
  registerOp(UnassignOp::kName, {"origin"}, kPure, verifyUnassignOp);
  registerOp(BroadcastOp::kName, {}, kPure, verifySameTypeOp);
  registerOp(NamedTensorOp::kName, {"name"}, kPure, verifyNamedTensorOp);
  registerOp(ReduceOp::kName, {"reduction"}, kPure, verifyReduceOp);
  registerOp(CallOp::kName, {"callee"}, {}, verifyCallOp);
  registerOp(ForOp::kName, {"iterations", "unroll_factor"},
             OpTrait::kDataFlowEdges, verifyForOp);
  registerDataFlowShape(ForOp::kName, DataFlowShape::kLoop);
}

}  // namespace

void registerMpmdOps() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerMeshTensorView();
    registerTable();
  });
}

OperationState AssignOp::build(Value tensor, Type result,
                               std::string_view origin) {
  OperationState state(opName());
  state.operands = {tensor};
  state.result_types = {result};
  if (!origin.empty())
    state.addAttr("origin", Attribute::string(std::string(origin)));
  return state;
}

OperationState UnassignOp::build(Value tensor, std::string_view origin) {
  OperationState state(opName());
  state.operands = {tensor};
  std::optional<MeshTensorType> type = MeshTensorType::of(tensor.type());
  state.result_types = {type ? type->globalType(tensor.module()->types())
                             : tensor.type()};
  if (!origin.empty())
    state.addAttr("origin", Attribute::string(std::string(origin)));
  return state;
}

OperationState TransferOp::build(Value tensor, Type result) {
  OperationState state(opName());
  state.operands = {tensor};
  state.result_types = {result};
  return state;
}

bool TransferOp::isIntraMesh() const {
  std::optional<MeshTensorType> in = MeshTensorType::of(tensor().type());
  std::optional<MeshTensorType> out = MeshTensorType::of(result().type());
  return in && out && in->mesh_name == out->mesh_name &&
         in->memory_kind == out->memory_kind;
}

std::string_view NamedTensorOp::name() const {
  return stringAttrOrEmpty(op_, "name");
}

ReductionType ReduceOp::reductionType() const {
  return reductionOf(op_.attr("reduction")).value_or(ReductionType::kNone);
}

std::vector<UserOrigin> FragmentOp::origins() const {
  std::vector<UserOrigin> result;
  if (const std::vector<Attribute>* origins = op_.attr("origin").asArray()) {
    for (const Attribute& origin : *origins) {
      if (std::optional<UserOrigin> value = userOriginOf(origin))
        result.push_back(*value);
    }
  }
  return result;
}

bool FragmentOp::isUserFragment() const {
  const std::vector<Attribute>* origins = op_.attr("origin").asArray();
  return origins && !origins->empty();
}

std::optional<int64_t> FragmentOp::stageId() const {
  return op_.attr("stage_id").intValue();
}

const TensorShardingPerValue* FragmentOp::inShardings() const {
  return op_.attr("in_shardings").as<TensorShardingPerValue>();
}

const TensorShardingPerValue* FragmentOp::outShardings() const {
  return op_.attr("out_shardings").as<TensorShardingPerValue>();
}

UserOrigin NamedComputationOp::origin() const {
  return userOriginOf(op_.attr("origin")).value_or(UserOrigin());
}

int64_t ForOp::iterations() const {
  return op_.attr("iterations").intValue().value_or(0);
}

std::optional<int64_t> ForOp::unrollFactor() const {
  return op_.attr("unroll_factor").intValue();
}

}  // namespace shardkit::mpmd
