// -mpmd-convert-sdy-shardings-to-mpmd-types: after sdy propagation the
// shardings of mesh tensors sit in op attributes (a fragment's in_shardings
// and out_shardings, a transfer's or loop's `sdy.sharding`, a function
// argument's `sdy.sharding`). This pass moves them into the
// `!mpmd.mesh_tensor` types, which later passes read, and drops every other
// `sdy.sharding` (host send/recv keep theirs). A transfer whose two sides
// then disagree on one sdy mesh is reported without failing the pass.
#include <optional>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/host_transfer_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/ir/walk.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/sharding_utils.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::setTypeSharding;

const TensorSharding* entryOf(const TensorShardingPerValue* list, size_t i) {
  return list && i < list->size() ? &(*list)[i] : nullptr;
}

void convertFragment(FragmentOp fragment) {
  Op op = fragment;
  if (const TensorShardingPerValue* in = fragment.inShardings()) {
    TensorShardingPerValue copy = *in;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      setTypeSharding(op.operand(i), entryOf(&copy, i));
    }
    op.removeAttr("in_shardings");
  }
  if (const TensorShardingPerValue* out = fragment.outShardings()) {
    TensorShardingPerValue copy = *out;
    for (unsigned i = 0; i < op.numResults(); ++i) {
      setTypeSharding(op.result(i), entryOf(&copy, i));
    }
    op.removeAttr("out_shardings");
  }
}

// A loop's operand, its body argument and its result share the sharding of
// the edge: the operand's own, then the result's `sdy.sharding` entry.
void convertLoop(Op loop) {
  Block body = loop.numRegions() ? loop.region(0).front() : Block();
  for (unsigned i = 0; i < loop.numOperands(); ++i) {
    std::optional<TensorSharding> sharding = getSharding(loop.operand(i));
    setTypeSharding(loop.operand(i), sharding);
    if (body && i < body.numArguments()) {
      setTypeSharding(body.argument(i), sharding);
    }
  }
  for (unsigned i = 0; i < loop.numResults(); ++i) {
    setTypeSharding(loop.result(i), getSharding(loop.result(i)));
  }
}

void convertOp(Op op) {
  if (auto fragment = dynCast<FragmentOp>(op)) {
    convertFragment(fragment);
  } else if (isa<TransferOp>(op)) {
    setTypeSharding(op.operand(0), getSharding(op.operand(0)));
    setTypeSharding(op.result(0), getSharding(op.result(0)));
  } else if (isa<ForOp>(op)) {
    convertLoop(op);
  }
  if (!isa<stablehlo::SendOp, stablehlo::RecvOp>(op)) {
    op.removeAttr(kShardingAttr);
  }
}

std::optional<TensorSharding> typeSharding(Value value) {
  std::optional<MeshTensorType> type = MeshTensorType::of(value.type());
  return type ? type->sharding : std::nullopt;
}

// The first transfer whose operand and result are sharded differently on
// one sdy mesh, reported without failing.
void reportResharding(FuncOp func) {
  std::vector<Op> ops;
  ir_internal::collectPreOrder(func.body(), ops);
  for (Op op : ops) {
    if (!isa<TransferOp>(op)) continue;
    std::optional<TensorSharding> in = typeSharding(op.operand(0));
    std::optional<TensorSharding> out = typeSharding(op.result(0));
    if (!in || !out || in->meshName() != out->meshName() ||
        mpmd_internal::equivalentShardings(&*in, &*out)) {
      continue;
    }
    emitNonFatal(locatedError(
        op, strCat("Transfer op has different shardings for the operand and "
                   "result on the same mesh, operand sharding: #sdy.sharding",
                   toString(*in), ", result sharding: #sdy.sharding",
                   toString(*out))));
    return;
  }
}

void convertFunction(FuncOp func) {
  // Nested ops first (MLIR's post-order walk): a fragment inside a loop
  // types the loop's body arguments before the loop reads them.
  std::vector<Op> ops;
  ir_internal::collectPostOrder(func.body(), ops);
  for (Op op : ops) convertOp(op);
  for (unsigned i = 0; i < func.numArguments(); ++i) {
    setTypeSharding(func.argument(i), getSharding(func.argument(i)));
  }
  func.argAttrList().removeEntryEverywhere(kShardingAttr);
  func.resultAttrList().removeEntryEverywhere(kShardingAttr);
  func->removeAttr(kShardingAttr);
  mpmd_internal::updateFunctionType(func);
  reportResharding(func);
}

}  // namespace

absl::Status convertSdyShardingsToMpmdTypes(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (func.body()) convertFunction(func);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
