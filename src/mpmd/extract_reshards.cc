// -mpmd-extract-reshards-from-inter-mesh-transfers: MPMD runtimes move a
// tensor between meshes as it is, so a transfer whose operand and result
// are sharded differently (after sdy propagation, in their attributes) gets
// its resharding moved into a fragment on one side:
//   - at the producer when the destination is on host, or (neither on host)
//     when the local piece at the source is larger: the producing fragment
//     computes the destination's sharding directly (a new reshard fragment
//     when the value is a function argument, a transfer result, or also
//     returned or transferred elsewhere);
//   - otherwise at the consumer: the transfer keeps the source's sharding,
//     consuming fragments take it as their in_sharding, and returned or
//     transferred uses go through a reshard fragment.
// Only functions whose topology's meshes are all alike are rewritten.
#include <optional>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/ir/walk.h"
#include "shardkit/mpmd/passes.h"
#include "src/mpmd/fragment_utils.h"
#include "src/mpmd/sharding_utils.h"

namespace shardkit::mpmd {
namespace {

constexpr std::string_view kExtractReshards = "extract_reshards";

// The elements of the piece of `type` each device holds under `sharding`.
int64_t localElements(const MeshTensorType& type,
                      const std::optional<TensorSharding>& sharding,
                      const Mesh& mesh) {
  int64_t elements = 1;
  for (size_t i = 0; i < type.dims.size(); ++i) {
    int64_t dim = type.dims[i];
    if (sharding && i < sharding->dim_shardings.size()) {
      int64_t shards = 1;
      for (const AxisRef& axis : sharding->dim_shardings[i].axes) {
        shards *= std::max<int64_t>(axis.size(mesh), 1);
      }
      dim = (dim + shards - 1) / shards;
    }
    elements *= dim;
  }
  return elements;
}

bool isTransferOrReturn(Op op) { return isa<TransferOp, func::ReturnOp>(op); }

// A fragment on `mesh` right before `anchor` that returns its one argument
// `value` as `result_type` with `sharding` (when given) as its out_sharding.
Op createReshard(Op anchor, std::string_view mesh, Value value,
                 Type result_type, const std::optional<TensorSharding>& sh) {
  Op reshard = mpmd_internal::createFragment(
      anchor, mesh, {value}, {result_type},
      [](Block, const std::vector<Value>& args) { return args; });
  reshard.setLocation(value.isBlockArgument() ? anchor.location()
                                              : value.definingOp().location());
  reshard.setAttr(
      kInferredByAttr,
      Attribute::array({Attribute::string(std::string(kExtractReshards))}));
  if (sh) setSharding(reshard.result(0), *sh);
  return reshard;
}

void replaceUsesIf(Value from, Value to, Op except, bool (*pred)(Op user)) {
  std::vector<std::pair<Op, unsigned>> uses;
  for (const Value::Use& use : from.uses()) {
    if (use.user() != except && pred(use.user())) {
      uses.emplace_back(use.user(), use.operandIndex());
    }
  }
  for (auto [user, index] : uses) user.setOperand(index, to);
}

struct TransferSides {
  Op transfer;
  MeshTensorType src, dst;
  std::optional<TensorSharding> src_sharding, dst_sharding;
};

void reshardAtProducer(const TransferSides& t) {
  Value value = t.transfer.operand(0);
  MeshTensorType new_src = t.src.withSharding(nullptr);
  Type new_type = new_src.toType(value.module()->types());
  Op def = value.definingOp();
  if (!isa<FragmentOp>(def)) {
    // A function argument keeps the function's signature, a transfer result
    // its sharding: a new fragment reshards it.
    Op reshard = createReshard(t.transfer, t.src.mesh_name, value, new_type,
                               t.dst_sharding);
    t.transfer.setOperand(0, reshard.result(0));
    return;
  }
  // Returned or transferred elsewhere, the value keeps its sharding there.
  bool other_use = false;
  for (const Value::Use& use : value.uses()) {
    other_use |= use.user() != t.transfer && isTransferOrReturn(use.user());
  }
  if (other_use) {
    Op reshard = createReshard(t.transfer, t.src.mesh_name, value, value.type(),
                               t.src_sharding);
    replaceUsesIf(value, reshard.result(0), t.transfer, isTransferOrReturn);
  }
  value.setType(new_type);
  setSharding(value, t.dst_sharding
                         ? *t.dst_sharding
                         : TensorSharding::fullyClosed(t.src_sharding->mesh,
                                                       value.type().rank()));
}

void reshardAtConsumer(const TransferSides& t) {
  Op transfer = t.transfer;
  Value result = transfer.result(0);
  TypeContext& types = transfer.module()->types();
  result.setType(t.dst.withSharding(nullptr).toType(types));
  if (t.src_sharding) {
    setSharding(result, *t.src_sharding);
  } else {
    transfer.removeAttr(kShardingAttr);
  }
  bool other_use = false;
  for (const Value::Use& use : result.uses()) {
    Op user = use.user();
    if (isa<FragmentOp>(user) && t.src_sharding) {
      FragmentOp fragment(user);
      setSharding(fragment.body().argument(use.operandIndex()),
                  *t.src_sharding);
    }
    other_use |= isTransferOrReturn(user);
  }
  if (!other_use) return;
  Op reshard = createReshard(transfer.nextInBlock(), t.dst.mesh_name, result,
                             result.type(), t.dst_sharding);
  replaceUsesIf(result, reshard.result(0), reshard, isTransferOrReturn);
}

void handleTransfer(Op transfer, const Mesh& mesh) {
  std::optional<MeshTensorType> src =
      MeshTensorType::of(transfer.operand(0).type());
  std::optional<MeshTensorType> dst =
      MeshTensorType::of(transfer.result(0).type());
  if (!src || !dst) return;
  if (src->isOnHost() && dst->isOnHost()) {
    emitNonFatal(locatedError(
        transfer, "Resharding on host not supported with an mpmd.transfer."));
    return;
  }
  TransferSides t{transfer, *src, *dst, getSharding(transfer.operand(0)),
                  getSharding(transfer.result(0))};
  if (mpmd_internal::equivalentShardings(
          t.src_sharding ? &*t.src_sharding : nullptr,
          t.dst_sharding ? &*t.dst_sharding : nullptr)) {
    return;
  }
  bool at_producer =
      dst->isOnHost() ||
      (!src->isOnHost() && localElements(*src, t.src_sharding, mesh) >
                               localElements(*dst, t.dst_sharding, mesh));
  if (at_producer) {
    reshardAtProducer(t);
  } else {
    reshardAtConsumer(t);
  }
}

}  // namespace

absl::Status extractReshardsFromInterMeshTransfers(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    std::optional<Topology> topology = topologyOf(func);
    if (!topology || topology->meshes.empty() || !topology->isHomogeneous()) {
      continue;
    }
    const Mesh& mesh = topology->meshes.front().mesh;
    std::vector<Op> ops;
    ir_internal::collectPreOrder(func.body(), ops);
    for (Op op : ops) {
      if (isa<TransferOp>(op)) handleTransfer(op, mesh);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
