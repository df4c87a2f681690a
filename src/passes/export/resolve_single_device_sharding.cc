// -sdy-resolve-single-device-sharding: an op whose results live on a single
// device (a sharding on a maximal mesh, `<[], device_ids=[N]>`) runs on
// every device under `stablehlo.if (device id == N)`; the other devices
// produce zeros (or a fresh token), and an `sdy.all_reduce` over the global
// mesh's axes gives every device the result, replicated.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

class SingleDeviceResolver {
 public:
  SingleDeviceResolver(Module& module, const ResolveSingleDeviceOptions& opts)
      : module_(module), options_(opts), meshes_(module.meshTable()) {}

  absl::Status run() {
    std::string_view global = meshes_.globalMeshName();
    if (global.empty()) return absl::OkStatus();
    global_ = std::string(global);
    for (FuncOp func : functionDefinitions(module_)) {
      std::vector<Op> ops;
      ir_internal::collectPostOrder(func.body(), ops);
      for (Op op : ops) {
        if (op.dialect() == "sdy" || op.hasTrait(OpTrait::kTerminator)) {
          continue;
        }
        SK_ASSIGN_OR_RETURN(std::optional<int64_t> device, deviceOf(op));
        if (device) SK_RETURN_IF_ERROR(resolve(op, *device));
      }
    }
    return absl::OkStatus();
  }

 private:
  std::optional<int64_t> singleDeviceId(const TensorSharding& sharding) const {
    const Mesh* mesh = meshes_.resolve(sharding);
    if (mesh == nullptr) return std::nullopt;
    return mesh->maximalDeviceId();
  }

  // The device all single-device results of `op` name, if any. Its other
  // tensor results must be replicated: the op runs on that device alone.
  absl::StatusOr<std::optional<int64_t>> deviceOf(Op op) const {
    std::optional<int64_t> device;
    bool other_sharded = false;
    for (Value result : op.results()) {
      if (!result.type().isRankedTensor()) continue;
      std::optional<TensorSharding> sharding = getSharding(result);
      if (!sharding) continue;
      if (std::optional<int64_t> id = singleDeviceId(*sharding)) {
        if (device && *device != *id) {
          return opError(op, "has conflicting single-device result shardings");
        }
        device = id;
      } else if (shardsADimension(*sharding)) {
        other_sharded = true;
      }
    }
    if (device && other_sharded) {
      return opError(op,
                     "has a single-device result and a result sharded "
                     "across devices");
    }
    return device;
  }

  // Whether a dimension of `sharding` is sharded (its replicated and
  // unreduced axes aside, as the reference's isFullyReplicated reads it).
  static bool shardsADimension(const TensorSharding& sharding) {
    for (const DimensionSharding& dim : sharding.dim_shardings) {
      if (!dim.axes.empty()) return true;
    }
    return false;
  }

  Op create(OperationState& state, Op anchor, uint32_t loc) {
    state.location = loc;
    Op op = module_.createOp(state);
    anchor.parentBlock().insertBefore(anchor, op);
    return op;
  }

  Type scalar(std::string_view element) {
    return module_.types().rankedTensor({}, element);
  }

  // `device id == device`, built before `anchor`.
  Value deviceGuard(Op anchor, int64_t device) {
    uint32_t loc = anchor.location();
    bool partitions = options_.replica_count <= 1;
    OperationState id(partitions ? stablehlo::PartitionIdOp::opName()
                                 : stablehlo::ReplicaIdOp::opName());
    id.result_types = {scalar("ui32")};
    Value current = create(id, anchor, loc).result(0);
    OperationState convert(stablehlo::ConvertOp::opName());
    convert.operands = {current};
    convert.result_types = {scalar("i64")};
    current = create(convert, anchor, loc).result(0);
    OperationState constant(stablehlo::ConstantOp::opName());
    constant.result_types = {scalar("i64")};
    constant.addAttr("value", Attribute::elements(strCat("dense<", device, ">"),
                                                  scalar("i64")));
    Value target = create(constant, anchor, loc).result(0);
    OperationState compare(stablehlo::CompareOp::opName());
    compare.operands = {current, target};
    compare.result_types = {scalar("i1")};
    compare.addAttr("comparison_direction",
                    Attribute::opaque("#stablehlo<comparison_direction EQ>"));
    return create(compare, anchor, loc).result(0);
  }

  // A zero of `type` (a fresh token for a token) in `block`, before `anchor`.
  absl::StatusOr<Value> zeroOf(Type type, Op anchor, Op op) {
    if (type.isToken()) {
      OperationState token(stablehlo::CreateTokenOp::opName());
      token.result_types = {type};
      return create(token, anchor, op.location()).result(0);
    }
    if (!type.isRankedTensor()) {
      return opError(op, strCat("cannot run on a single device: result type ",
                                type.str(), " has no zero value"));
    }
    OperationState constant(stablehlo::ConstantOp::opName());
    constant.result_types = {type};
    constant.addAttr(
        "value", Attribute::elements(zeroLiteral(type.elementType()), type));
    return create(constant, anchor, op.location()).result(0);
  }

  static std::string zeroLiteral(std::string_view element) {
    if (element == "i1") return "dense<false>";
    if (element.starts_with("complex")) {
      return "dense<(0.000000e+00,0.000000e+00)>";
    }
    if (element.starts_with("f") || element.starts_with("bf") ||
        element.starts_with("tf")) {
      return "dense<0.000000e+00>";
    }
    return "dense<0>";
  }

  absl::Status resolve(Op op, int64_t device);

  Module& module_;
  ResolveSingleDeviceOptions options_;
  MeshTable meshes_;
  std::string global_;
};

absl::Status SingleDeviceResolver::resolve(Op op, int64_t device) {
  // The device id is the replica id or the partition id, not both.
  if (options_.replica_count > 1 && options_.partition_count > 1) {
    return opError(op,
                   "Shardy partitioner does not support replica_count > 1 && "
                   "partition_count > 1 yet.");
  }
  Value guard = deviceGuard(op, device);
  OperationState if_state(stablehlo::IfOp::opName());
  if_state.operands = {guard};
  if_state.result_types = op.resultTypes();
  if_state.num_regions = 2;
  Op if_op = create(if_state, op, op.location());

  // The then branch runs the op itself, on the values before they were
  // moved to the device.
  Block then_block = if_op.region(0).addBlock();
  std::vector<Op> device_reshards;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    auto reshard = dynCast<sdy::ReshardOp>(op.operand(i).definingOp());
    if (!reshard || !singleDeviceId(reshard.sharding())) continue;
    op.setOperand(i, reshard.input());
    device_reshards.push_back(reshard);
  }
  OperationState then_return(stablehlo::ReturnOp::opName());
  then_return.operands = op.results();
  then_return.location = op.location();
  Op then_ret = module_.createOp(then_return);
  then_block.pushBack(then_ret);
  op.moveBefore(then_ret);
  op.removeAttr(kShardingAttr);

  Block else_block = if_op.region(1).addBlock();
  OperationState else_return(stablehlo::ReturnOp::opName());
  else_return.location = op.location();
  Op else_ret = module_.createOp(else_return);
  else_block.pushBack(else_ret);
  std::vector<Value> zeros;
  for (Type type : op.resultTypes()) {
    SK_ASSIGN_OR_RETURN(Value zero, zeroOf(type, else_ret, op));
    zeros.push_back(zero);
  }
  else_ret.setOperands(zeros);

  // Every device gets the result: the others contribute zeros to a sum.
  AxisRefVector axes;
  for (const MeshAxis& axis : meshes_.find(global_)->axes) {
    axes.emplace_back(axis.name);
  }
  Op anchor = if_op;
  for (unsigned i = 0; i < op.numResults(); ++i) {
    Value result = op.result(i);
    Value replacement = if_op.result(i);
    if (result.type().isRankedTensor()) {
      TensorSharding replicated = TensorSharding::fullyClosed(
          MeshOrRef::ref(global_), result.type().rank());
      OperationState reduce(sdy::AllReduceOp::opName());
      reduce.operands = {replacement};
      reduce.result_types = {result.type()};
      reduce.addAttr("reduction_axes", Attribute::of(AxisRefList(axes)));
      reduce.addAttr("out_sharding", Attribute::of(replicated));
      reduce.location = op.location();
      Op all_reduce = module_.createOp(reduce);
      anchor.parentBlock().insertAfter(anchor, all_reduce);
      anchor = all_reduce;
      replacement = all_reduce.result(0);
      // A reshard back to the replicated sharding is the all-reduce itself.
      for (const Value::Use& use : result.uses()) {
        auto reshard = dynCast<sdy::ReshardOp>(use.user());
        if (reshard && reshard.sharding() == replicated) {
          reshard.result().replaceAllUsesWith(replacement);
          reshard->erase();
        }
      }
    }
    result.replaceUsesWithIf(replacement, [&](const Value::Use& use) {
      return !(use.user() == then_ret);
    });
  }
  for (Op reshard : device_reshards) {
    if (reshard.result(0).useEmpty()) reshard.erase();
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status resolveSingleDeviceSharding(
    Module& module, const ResolveSingleDeviceOptions& options) {
  return SingleDeviceResolver(module, options).run();
}

void registerResolveSingleDeviceShardingPass() {
  registerPass(PassInfo{
      "sdy-resolve-single-device-sharding",
      "Runs every op whose results live on a single device under a guard on "
      "the device id, and all-reduces its results to every device.",
      {{"replica-count", "number of replicas (default 1)",
        PassOptionKind::kInt},
       {"partition-count", "number of partitions (default 1)",
        PassOptionKind::kInt}},
      [](Module& module, const PassOptions& pass) -> absl::Status {
        ResolveSingleDeviceOptions options;
        SK_ASSIGN_OR_RETURN(options.replica_count,
                            pass.getInt("replica-count", 1));
        SK_ASSIGN_OR_RETURN(options.partition_count,
                            pass.getInt("partition-count", 1));
        return resolveSingleDeviceSharding(module, options);
      }});
}

}  // namespace shardkit
