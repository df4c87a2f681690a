// Helpers for the propagation debug records
// (shardkit/propagation/debug_info.h).
#include "shardkit/propagation/debug_info.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"

namespace shardkit {
namespace {

constexpr std::array<std::string_view, 6> kDebugAttrs = {
    kPropagationEdgesAttr,           kPropagationEdgesAttrs.block_arg,
    kPropagationEdgesAttrs.result,   kShardingOriginsAttr,
    kShardingOriginsAttrs.block_arg, kShardingOriginsAttrs.result};

int64_t lastStepOf(const Attribute& attr) {
  int64_t last = -1;
  if (const PropagationEdges* edges = attr.as<PropagationEdges>()) {
    last = edges->lastStep();
  } else if (const std::vector<Attribute>* list = attr.asArray()) {
    for (const Attribute& element : *list) {
      last = std::max(last, lastStepOf(element));
    }
  }
  return last;
}

}  // namespace

int64_t lastRecordedPropagationStep(Module& module) {
  int64_t last = -1;
  module.walk([&](Op op) {
    last = std::max({last, lastStepOf(op.attr(kPropagationEdgesAttr)),
                     lastStepOf(op.attr(kPropagationEdgesAttrs.block_arg)),
                     lastStepOf(op.attr(kPropagationEdgesAttrs.result))});
    if (!isa<FuncOp>(op)) return;
    FuncOp func(op);
    for (unsigned i = 0; i < func.numResults(); ++i) {
      last =
          std::max(last, lastStepOf(func.resultAttr(i, kPropagationEdgesAttr)));
    }
  });
  return last;
}

void appendPropagationStep(Op op, PropagationStep step) {
  PropagationEdges edges;
  if (const PropagationEdges* old =
          op.attr(kPropagationEdgesAttr).as<PropagationEdges>()) {
    edges = *old;
  }
  edges.steps.push_back(std::move(step));
  op.setAttr(kPropagationEdgesAttr, Attribute::of(std::move(edges)));
}

void removePropagationDebugInfo(Module& module) {
  module.walk([&](Op op) {
    if (isa<FuncOp>(op)) {
      FuncOp func(op);
      for (std::string_view name : kDebugAttrs) {
        func.argAttrList().removeEntryEverywhere(name);
        func.resultAttrList().removeEntryEverywhere(name);
      }
      return;
    }
    for (std::string_view name : kDebugAttrs) op.removeAttr(name);
  });
}

}  // namespace shardkit
