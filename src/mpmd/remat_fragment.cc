// -mpmd-remat-fragment{merge-remat-fragments}: activation rematerialization.
// For each forward fragment and each backward fragment using its results
// that canRemat allows (same call counter and stage, not adjacent), a copy
// of the forward fragment is made right before the backward one, which then
// uses the copy's results: the forward results need not stay alive until
// the backward pass. The copy is marked `remat`. With merge-remat-fragments,
// the copy is merged into the backward fragment instead (origins of both,
// the backward fragment's other attributes), and the merged fragment is
// marked `remat`.
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/clone.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/optimize_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/optimize_utils.h"

namespace shardkit::mpmd {
namespace {

constexpr std::string_view kRematAttr = "remat";

// A copy of `forward` before `backward`, whose uses in `backward` it takes.
Op cloneBefore(Op forward, Op backward) {
  ValueMap map;
  Op copy = cloneOp(forward, map);
  backward.parentBlock().insertBefore(backward, copy);
  for (unsigned i = 0; i < backward.numOperands(); ++i) {
    Value v = backward.operand(i);
    if (!v.isBlockArgument() && v.definingOp() == forward) {
      backward.setOperand(i, copy.result(v.index()));
    }
  }
  return copy;
}

Attribute concatOrigins(Op a, Op b) {
  std::vector<Attribute> origins;
  for (Op op : {a, b}) {
    if (const std::vector<Attribute>* list = op.attr(kOriginAttr).asArray()) {
      origins.insert(origins.end(), list->begin(), list->end());
    }
  }
  return Attribute::array(std::move(origins));
}

// Merges `producer` (used only by `consumer`) into `consumer`: the operands
// of both (the consumer's that the producer makes dropped), the producer's
// body then the consumer's. Returns the merged fragment.
Op mergeInto(Op producer, Op consumer) {
  OperationState state(consumer.opName());
  state.inherent_attrs = consumer.inherentAttrs();
  state.discardable_attrs = consumer.discardableAttrs();
  state.result_types = consumer.resultTypes();
  state.num_regions = 1;
  state.operands = producer.operands();
  for (Value v : consumer.operands()) {
    if (v.isBlockArgument() || v.definingOp() != producer) {
      state.operands.push_back(v);
    }
  }
  Op merged = mpmd_internal::createBefore(consumer, state);
  merged.setAttr(kOriginAttr, concatOrigins(producer, consumer));
  Block body = merged.region(0).addBlock();
  ValueMap map;
  Block producer_body = producer.region(0).front();
  for (unsigned i = 0; i < producer_body.numArguments(); ++i) {
    map[producer_body.argument(i)] =
        body.addArgument(producer_body.argument(i).type());
  }
  for (Op op : producer_body) {
    if (op == producer_body.back()) break;
    body.pushBack(cloneOp(op, map));
  }
  Op producer_ret = producer_body.back();
  Block consumer_body = consumer.region(0).front();
  for (unsigned i = 0; i < consumer.numOperands(); ++i) {
    Value v = consumer.operand(i);
    Value arg = consumer_body.argument(i);
    map[arg] = (!v.isBlockArgument() && v.definingOp() == producer)
                   ? mapped(map, producer_ret.operand(v.index()))
                   : body.addArgument(arg.type());
  }
  for (Op op : consumer_body) body.pushBack(cloneOp(op, map));
  for (unsigned r = 0; r < consumer.numResults(); ++r) {
    consumer.result(r).replaceAllUsesWith(merged.result(r));
  }
  consumer.erase();
  producer.erase();
  return merged;
}

void rematFunction(FuncOp func, bool merge) {
  std::vector<Op> forwards;
  for (Op op : func.body()) {
    if (isa<FragmentOp>(op) && mpmd_internal::isForwardFragment(op)) {
      forwards.push_back(op);
    }
  }
  for (Op forward : forwards) {
    std::vector<Op> backwards;
    for (Value result : forward.results()) {
      for (const Value::Use& use : result.uses()) {
        Op user = use.user();
        if (isa<FragmentOp>(user) && mpmd_internal::canRemat(forward, user) &&
            std::find(backwards.begin(), backwards.end(), user) ==
                backwards.end()) {
          backwards.push_back(user);
        }
      }
    }
    std::sort(backwards.begin(), backwards.end(),
              [](Op a, Op b) { return mpmd_internal::isBeforeInBlock(a, b); });
    for (Op backward : backwards) {
      Op copy = cloneBefore(forward, backward);
      Op marked = merge ? mergeInto(copy, backward) : copy;
      marked.setAttr(kRematAttr, Attribute::unit());
    }
  }
}

}  // namespace

absl::Status rematFragments(Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool merge,
                      options.getBool("merge-remat-fragments", false));
  for (FuncOp func : mpmdFunctions(module)) {
    if (func.body()) rematFunction(func, merge);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
