// The walk of the fragment merging passes.
#include "src/mpmd/merge_fragments_driver.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/merge_fragment_ops.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// Positions of the body's ops, kept up to date across merges without
// renumbering: a merged fragment takes the position of the op it replaces.
using OrderMap = absl::flat_hash_map<Op, int64_t>;

class FragmentMerger {
 public:
  FragmentMerger(Block body, const MergePolicy& policy)
      : body_(body), policy_(policy) {
    int64_t i = 0;
    for (Op op : body_) order_[op] = ++i;
  }

  void run() {
    std::vector<Op> ops = body_.ops();
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      Op op = *it;
      if (op.isErased() || !isa<FragmentOp>(op)) continue;
      if (unused(op) && isPure(op)) {
        op.erase();
        continue;
      }
      // A fragment used by several fragments merges with them one by one.
      for (Op last = op; last;) last = mergeOnce(last);
    }
  }

 private:
  // Ops missing from the map (none are expected) fall back to a scan.
  bool before(Op a, Op b) const {
    auto ia = order_.find(a), ib = order_.find(b);
    if (ia == order_.end() || ib == order_.end()) return isBeforeInBlock(a, b);
    return ia->second < ib->second;
  }

  static bool unused(Op op) {
    for (unsigned i = 0; i < op.numResults(); ++i)
      if (!op.result(i).useEmpty()) return false;
    return true;
  }

  // The users of `op` in the body, each once.
  std::vector<Op> usersOf(Op op) const {
    std::vector<Op> users;
    absl::flat_hash_set<Op> seen;
    for (unsigned i = 0; i < op.numResults(); ++i) {
      for (const Value::Use& use : op.result(i).uses()) {
        Op user = ancestorInBlock(body_, use.user());
        if (user && seen.insert(user).second) users.push_back(user);
      }
    }
    return users;
  }

  Op candidate(Op producer) const {
    if (policy_.sideways) return sidewaysCandidate(producer);
    std::vector<Op> fragments;
    for (Op user : usersOf(producer))
      if (isa<FragmentOp>(user)) fragments.push_back(user);
    std::stable_sort(fragments.begin(), fragments.end(),
                     [&](Op a, Op b) { return before(a, b); });
    for (Op user : fragments) {
      if (policy_.allow(FragmentOp(producer), FragmentOp(user))) return user;
      if (!policy_.any_consumer) break;
    }
    return Op();
  }

  Op sidewaysCandidate(Op producer) const {
    std::string_view mesh = FragmentOp(producer).meshName();
    for (Op op = producer.nextInBlock(); op; op = op.nextInBlock()) {
      if (isa<FragmentOp>(op) && FragmentOp(op).meshName() == mesh) {
        return policy_.allow(FragmentOp(producer), FragmentOp(op)) ? op : Op();
      }
      // The transferred value could feed the next fragment on the mesh.
      if (isa<TransferOp>(op) && meshNameOf(op.result(0).type()) == mesh)
        return Op();
    }
    return Op();
  }

  bool canMergeAtConsumer(Op producer, Op consumer) const {
    for (Op user : usersOf(producer))
      if (before(user, consumer)) return false;
    return true;
  }

  bool canMergeAtProducer(Op producer, Op consumer) const {
    for (Value v : consumer.operands()) {
      Op def = v.definingOp();
      if (def && def != producer && !before(def, producer)) return false;
    }
    return true;
  }

  // Merges `producer` with its candidate; returns the merged fragment, or
  // null when there was nothing to merge.
  Op mergeOnce(Op producer) {
    Op consumer = candidate(producer);
    if (!consumer) return Op();
    bool at_consumer = canMergeAtConsumer(producer, consumer);
    if (!at_consumer) {
      if (!canMergeAtProducer(producer, consumer)) return Op();
      consumer.moveAfter(producer);
    }
    int64_t position = at_consumer ? order_[consumer] : order_[producer];
    Op merged = mergeFragmentsKeepingAttrs(producer, consumer);
    order_[merged] = position;
    return merged;
  }

  Block body_;
  const MergePolicy& policy_;
  OrderMap order_;
};

}  // namespace

void mergeFragmentsInFunc(FuncOp func, const MergePolicy& policy) {
  if (!func.body()) return;
  FragmentMerger(func.body(), policy).run();
}

}  // namespace shardkit::mpmd::mpmd_internal
