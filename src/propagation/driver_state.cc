// The driver's state: reading shardings from the module before propagating
// and writing them back after (driver.h).
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/attr_dict_rewrites.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/strings.h"
#include "src/propagation/driver.h"

namespace shardkit::propagation_internal {

absl::Status Driver::checkShapes() {
  absl::Status status = absl::OkStatus();
  // Types are uniqued and ops repeat them: the last good one is not checked
  // again.
  const void* last_good = nullptr;
  m_.walk([&](Op op) {
    if (!status.ok()) return;
    for (unsigned i = 0; i < op.numResults(); ++i) {
      Type t = op.result(i).type();
      if (t.identity() == last_good) continue;
      if (t.kind() == TypeKind::kTuple) {
        status = locatedError(
            op, strCat("Shardy propagation doesn't support tuples: ", t.str()));
      } else if ((t.isRankedTensor() && !t.hasStaticShape()) ||
                 t.kind() == TypeKind::kUnrankedTensor) {
        status = locatedError(
            op, strCat("Shardy propagation only supports ranked tensors with a "
                       "static shape. type: ",
                       t.str()));
      }
      if (!status.ok()) return;
      last_good = t.identity();
    }
  });
  return status;
}

void Driver::load() {
  slot_.assign(m_.valueIdBound(), kNoId);
  values_.assign(m_.valueIdBound(), ShardingPool::kNone);
  dirty_.assign(m_.valueIdBound(), 0);
  changed_at_.assign(m_.valueIdBound(), 0);
  last_step_.assign(m_.opIdBound(), LastStep{});
  entries_.assign(m_.opIdBound(), OpEntry{});
  in_worklist_.assign(m_.opIdBound(), 0);
  has_edges_ = m_.mayHaveOpsNamed(sdy::DataFlowEdgeOp::opName());
  absl::flat_hash_map<const TensorSharding*, ShardingId> stored_ids;
  // Engaged only for a sharding computed rather than stored (a manual
  // computation's argument), and emptied again.
  std::optional<TensorSharding> scratch;
  auto load_value = [&](Value v) {
    Value slot = shardableValue(v);
    if (!slot) return;
    slot_[v.id()] = slot.id();
    if (!(slot == v)) return;  // loaded when the walk reaches the slot
    const TensorSharding* s = findEdgeOwnerSharding(v, scratch);
    if (!s) return;
    if (scratch) {
      values_[v.id()] = pool_.intern(*s);
      scratch.reset();
      return;
    }
    // A stored sharding lives in an attribute many values share: interned
    // once per attribute.
    auto [it, inserted] = stored_ids.try_emplace(s);
    if (inserted) it->second = pool_.intern(*s);
    values_[v.id()] = it->second;
  };
  for (Op func_op : m_.functions()) {
    FuncOp func(func_op);
    FuncResults results{func, {}, {}};
    for (unsigned i = 0; i < func.numResults(); ++i) {
      const TensorSharding* s = findFuncResultSharding(func, i);
      results.shardings.push_back(s ? pool_.intern(*s) : ShardingPool::kNone);
      results.dirty.push_back(false);
    }
    funcs_.push_back(std::move(results));
  }
  std::vector<Op> group_ops;
  m_.walk([&](Op op) {
    forEachBlock(op, [&](Block block) {
      for (unsigned i = 0; i < block.numArguments(); ++i) {
        load_value(block.argument(i));
      }
    });
    for (unsigned i = 0; i < op.numResults(); ++i) load_value(op.result(i));
    has_func_edges_ = has_func_edges_ || isa<sdy::FuncDataFlowEdgeOp>(op);
    if (isa<sdy::ShardingGroupOp>(op) && op.numOperands() == 1) {
      group_ops.push_back(op);
    }
  });
  // After the walk: a group op may come before the edge op that holds its
  // value's sharding, so slots are only known now.
  for (Op op : group_ops) {
    if (Value slot = slotOf(op.operand(0))) {
      groups_.add(sdy::ShardingGroupOp(op).groupId(), slot);
    }
  }
}

void Driver::syncGroups() {
  std::vector<const TensorSharding*> shardings;
  for (const std::vector<Value>& members : groups_.all()) {
    shardings.clear();
    for (Value member : members) shardings.push_back(shardingOf(member));
    bool conflict = false;
    const TensorSharding* common = commonGroupSharding(shardings, conflict);
    if (common == nullptr) continue;
    ShardingId id = pool_.intern(*common);
    for (Value member : members) {
      if (values_[member.id()] == id) continue;
      values_[member.id()] = id;
      dirty_[member.id()] = 1;
    }
  }
}

std::vector<int64_t> Driver::userRounds() const {
  // Called right after load(): the pool holds the module's shardings.
  std::vector<const TensorSharding*> all;
  for (ShardingId id = 0; id < pool_.size(); ++id)
    all.push_back(&pool_.get(id));
  return userPriorityRounds(all);
}

void Driver::dropAllPriorities() {
  // By the ids the pool has now (those of the shardings it holds; the
  // shardings without priorities interned here come after them).
  constexpr ShardingId kNotYet = ShardingPool::kNone;
  std::vector<ShardingId> dropped(pool_.size(), kNotYet);
  auto drop = [&](ShardingId& id) {
    if (id == ShardingPool::kNone) return false;
    if (dropped[id] == kNotYet) {
      TensorSharding copy = pool_.get(id);
      dropped[id] = dropPriorities(copy) ? pool_.intern(std::move(copy)) : id;
    }
    if (dropped[id] == id) return false;
    id = dropped[id];
    return true;
  };
  for (size_t id = 0; id < values_.size(); ++id) {
    if (drop(values_[id])) dirty_[id] = 1;
  }
  for (FuncResults& f : funcs_) {
    for (size_t i = 0; i < f.shardings.size(); ++i) {
      if (drop(f.shardings[i])) f.dirty[i] = true;
    }
  }
}

void Driver::writeBack() {
  // The attributes of each distinct sharding, made once and shared.
  std::vector<std::optional<ShardingAttrs>> attrs(pool_.size());
  auto attrsOf = [&](ShardingId id) -> const ShardingAttrs& {
    if (!attrs[id]) attrs[id] = ShardingAttrs::of(pool_.get(id));
    return *attrs[id];
  };
  // Ops that shared a dictionary and get equal shardings share the result.
  AttrDictRewrites rewrites;
  for (size_t id = 0; id < dirty_.size(); ++id) {
    // Only slots (shardable values) hold shardings.
    if (dirty_[id] && values_[id] != ShardingPool::kNone) {
      setEdgeOwnerSharding(Value(&m_, static_cast<uint32_t>(id)),
                           pool_.get(values_[id]), attrsOf(values_[id]),
                           &rewrites);
    }
  }
  for (FuncResults& f : funcs_) {
    for (size_t i = 0; i < f.shardings.size(); ++i) {
      if (f.dirty[i] && f.shardings[i] != ShardingPool::kNone) {
        setFuncResultSharding(f.func, static_cast<unsigned>(i),
                              attrsOf(f.shardings[i]));
      }
    }
  }
  // Rules the registry made are attached only when asked for; without that,
  // every rule that isn't a custom rule goes (like the reference).
  if (options_.keep_sharding_rules) {
    for (size_t id = 0; id < entries_.size(); ++id) {
      const OpEntry& entry = entries_[id];
      if (entry.rule < 0 || !entry.rule_from_registry) continue;
      Op(&m_, static_cast<uint32_t>(id))
          .setAttr(kShardingRuleAttr,
                   Attribute::of(*classified_.rules.get(entry.rule)));
    }
    return;
  }
  if (classified_.saw_rule_attr) removeShardingRules(m_);
}

}  // namespace shardkit::propagation_internal
