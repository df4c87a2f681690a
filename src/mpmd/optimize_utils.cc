// What the optimize passes ask of fragments (optimize_utils.h).
#include "src/mpmd/optimize_utils.h"

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "src/mpmd/fragment_utils.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {

bool isForwardFragment(Op fragment) {
  return singleTransposeCount(fragment) == std::optional<int64_t>(0);
}

bool isBackwardFragment(Op fragment) {
  return singleTransposeCount(fragment) == std::optional<int64_t>(1);
}

bool isSchedulingUnit(Op fragment) {
  if (!isa<FragmentOp>(fragment) || !FragmentOp(fragment).isUserFragment() ||
      !callCounterOf(fragment)) {
    return false;
  }
  return isForwardFragment(fragment) || isBackwardFragment(fragment);
}

int numMeshes(Op op) {
  std::optional<Topology> topology = topologyOf(enclosingFunc(op));
  return topology ? static_cast<int>(topology->meshes.size()) : 0;
}

int meshIndex(Op fragment) {
  std::optional<Topology> topology = topologyOf(enclosingFunc(fragment));
  if (!topology) return -1;
  std::string_view mesh = FragmentOp(fragment).meshName();
  for (size_t i = 0; i < topology->meshes.size(); ++i) {
    if (topology->meshes[i].name == mesh) return static_cast<int>(i);
  }
  return -1;
}

bool canRemat(Op forward, Op backward) {
  std::optional<int64_t> fwd_counter = callCounterOf(forward);
  std::optional<int64_t> bwd_counter = callCounterOf(backward);
  return isForwardFragment(forward) && isBackwardFragment(backward) &&
         fwd_counter && bwd_counter && *fwd_counter == *bwd_counter &&
         forward.nextInBlock() != backward &&
         FragmentOp(forward).stageId() == FragmentOp(backward).stageId();
}

std::vector<Op> producersInBlock(Block block, Op op) {
  std::vector<Op> producers;
  absl::flat_hash_set<Op> seen;
  auto add = [&](Value v) {
    if (v.isBlockArgument()) return;
    Op producer = ancestorInBlock(block, v.definingOp());
    if (producer && producer != op && seen.insert(producer).second) {
      producers.push_back(producer);
    }
  };
  for (Value v : op.operands()) add(v);
  if (op.numRegions() > 0) {
    for (Value v : freeValuesOf(op)) add(v);
  }
  return producers;
}

bool dependsOn(Op target, Op source) {
  Block block = source.parentBlock();
  std::vector<Op> stack = {target};
  absl::flat_hash_set<Op> visited;
  while (!stack.empty()) {
    Op op = stack.back();
    stack.pop_back();
    if (!visited.insert(op).second) continue;
    for (Op producer : producersInBlock(block, op)) {
      if (producer == source) return true;
      // Ops before `source` cannot depend on it.
      if (isBeforeInBlock(source, producer)) stack.push_back(producer);
    }
  }
  return false;
}

void sortTopologically(Block block, const ControlDeps& extra) {
  std::vector<Op> pending = block.ops();
  Op terminator = pending.empty() ? Op() : pending.back();
  if (terminator && terminator.hasTrait(OpTrait::kTerminator)) {
    pending.pop_back();
  } else {
    return;  // mpmd bodies end in a terminator; nothing to anchor on
  }
  absl::flat_hash_set<Op> unscheduled(pending.begin(), pending.end());
  absl::flat_hash_map<Op, std::vector<Op>> producers;
  for (Op op : pending) producers[op] = producersInBlock(block, op);
  auto ready = [&](Op op) {
    for (Op p : producers[op]) {
      if (unscheduled.contains(p)) return false;
    }
    auto it = extra.find(op);
    if (it == extra.end()) return true;
    for (Op p : it->second) {
      if (unscheduled.contains(p)) return false;
    }
    return true;
  };
  std::vector<Op> order;
  while (!pending.empty()) {
    std::vector<Op> rest;
    for (Op op : pending) {
      if (ready(op)) {
        order.push_back(op);
        unscheduled.erase(op);
      } else {
        rest.push_back(op);
      }
    }
    if (rest.size() == pending.size()) {
      order.push_back(rest.front());
      unscheduled.erase(rest.front());
      rest.erase(rest.begin());
    }
    pending = std::move(rest);
  }
  Op anchor = terminator;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    it->moveBefore(anchor);
    anchor = *it;
  }
}

}  // namespace shardkit::mpmd::mpmd_internal
