// The propagation driver: a worklist over the module's ops that calls the
// per-op step (propagate_op.h) and re-queues the neighbours of every value
// whose sharding changed, inside the user-priority and op-priority rounds.
//
// Shardings live in a side table indexed by the id of each value's slot (the
// value that holds its sharding, value_slots.h): read from the IR once,
// written back once at the end.
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"
#include "shardkit/ir/data_flow.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/sharding_access.h"
#include "shardkit/propagation/aggressive_factor_propagation.h"
#include "shardkit/propagation/basic_factor_propagation.h"
#include "shardkit/propagation/propagate.h"
#include "shardkit/propagation/propagate_op.h"
#include "src/propagation/op_classes.h"
#include "src/propagation/rule_cache.h"
#include "src/propagation/sharding_pool.h"
#include "src/propagation/value_slots.h"

namespace shardkit {
namespace {

using ShardingId = ShardingPool::Id;

struct OpEntry {
  bool classified = false;
  OpRole role = OpRole::kSkip;
  OpPriorityKind priority = OpPriorityKind::kOther;
  bool elementwise = false;
  bool rule_from_registry = false;
  int32_t rule = -1;  // index into Driver::rules_
};

// What an op's last step saw: its parameters (as one word, see
// Driver::stepCode) and the update counter when it started. A step is a pure
// function of its tensors' shardings and its parameters, so a step with the
// same parameters whose tensors haven't changed since would change nothing.
struct LastStep {
  static constexpr uint64_t kNone = ~uint64_t{0};
  uint64_t code = kNone;
  std::optional<int64_t> user_round;
  uint64_t started_at = 0;
};

struct FuncResults {
  FuncOp func;
  std::vector<ShardingId> shardings;
  std::vector<bool> dirty;
};

// How one step propagates; the tensors are in Driver::slots_.
struct StepParams {
  const OpShardingRule* rule = nullptr;
  // The rule whose factor types the op-priority rounds look at; null for an
  // identity (edges, barriers: every factor passes through).
  const OpShardingRule* round_rule = nullptr;
  OpPriorityKind priority = OpPriorityKind::kOther;
  bool elementwise = false;
  bool conservative = false;
  PropagationDirection direction = PropagationDirection::kBoth;
  // The sdy.data_flow_edge whose result is the last tensor, if any: its
  // sharding is seen through edgeShardingBeforePropagation.
  Op edge;
};

class Driver {
 public:
  Driver(Module& m, const PropagationOptions& options)
      : m_(m), options_(options), meshes_(m.meshTable()) {}

  absl::StatusOr<PropagationStats> run();

 private:
  absl::Status checkShapes();
  void load();
  // Records the value of an `sdy.sharding_group` op in its group.
  void addToGroup(Op group_op);
  absl::Status classify(Op op, OpEntry& entry);
  std::vector<int64_t> userRounds() const;
  absl::Status fixpoint();
  absl::Status propagateFuncResults();
  absl::Status visit(Op op);
  void addSlot(Value v) { slots_.push_back(slotOf(v)); }
  absl::Status step(Op op, const StepParams& params);
  // The step's parameters packed in a word (the factor directions of the
  // current op-priority round, the strategy), or LastStep::kNone if they
  // don't fit.
  uint64_t stepCode(const StepParams& params) const;
  // Whether `op`'s step can be skipped as a repeat of its last one; records
  // this step otherwise.
  bool repeatsLastStep(Op op, uint64_t code);
  // Marks `slot` changed.
  void touch(uint32_t slot) { changed_at_[slot] = ++clock_; }
  // Sets the sharding of `slot` and of the members of its sharding group
  // (if it really changes), queueing the affected ops when `notify`.
  void updateSlot(Value slot, TensorSharding sharding, bool notify);
  // Gives the members of `slot`'s group other than `slot` the sharding.
  void updateGroupMembers(Value slot, ShardingId sharding, bool notify);
  void notifyShardingModified(Value slot);
  void notifyUsers(Value v);
  void push(Op op);
  void dropAllPriorities();
  void writeBack();

  const FactorPropagation& strategy() const {
    if (aggressive_) return aggressiveFactorPropagation();
    return basicFactorPropagation();
  }
  Value slotOf(Value v) const {
    uint32_t slot = slot_[v.id()];
    return slot == kNoId ? Value() : Value(&m_, slot);
  }
  const TensorSharding* shardingOf(Value slot) const {
    return slot ? pool_.find(values_[slot.id()]) : nullptr;
  }
  // A sharding on a maximal mesh pins its op to one device: nothing
  // propagates through an op that has one.
  bool onMaximalMesh(const TensorSharding* s) const {
    const Mesh* mesh = s ? meshes_.resolve(*s) : nullptr;
    return mesh && mesh->isMaximal();
  }

  Module& m_;
  PropagationOptions options_;
  MeshTable meshes_;
  std::vector<uint32_t> slot_;       // value id -> slot value id (or kNoId)
  ShardingPool pool_;
  std::vector<ShardingId> values_;  // slot id -> sharding
  std::vector<uint8_t> dirty_;
  std::vector<uint64_t> changed_at_;  // slot id -> clock_ at its last update
  uint64_t clock_ = 0;
  std::vector<LastStep> last_step_;   // op id -> its last step
  std::vector<FuncResults> funcs_;
  std::vector<OpEntry> entries_;
  std::vector<OpShardingRule> rules_;
  RuleCache rule_cache_;  // registry rules by op signature -> rules_ index
  IdentityRules identity_;
  absl::flat_hash_map<int64_t, int> group_index_;  // group id -> groups_ index
  absl::flat_hash_map<uint32_t, int> group_of_;    // slot id -> groups_ index
  std::vector<std::vector<Value>> groups_;
  std::vector<uint32_t> worklist_;
  std::vector<uint8_t> in_worklist_;
  Op current_;
  std::optional<int64_t> user_round_;
  std::optional<int64_t> op_round_;
  bool aggressive_ = false;  // the strategy of the current fixed point
  bool saw_rule_attr_ = false;  // some op has an `sdy.sharding_rule`
  PropagationWorkspace workspace_;
  std::vector<PropagationDirection> factor_directions_;
  std::vector<Value> slots_;
  std::vector<const TensorSharding*> ptrs_;
  PropagationStats stats_;
};

absl::Status Driver::checkShapes() {
  absl::Status status = absl::OkStatus();
  m_.walk([&](Op op) {
    if (!status.ok()) return;
    for (unsigned i = 0; i < op.numResults(); ++i) {
      Type t = op.result(i).type();
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
  auto load_value = [&](Value v) {
    Value slot = shardingSlot(v);
    if (!slot) return;
    slot_[v.id()] = slot.id();
    if (!(slot == v)) return;  // loaded when the walk reaches the slot
    if (std::optional<TensorSharding> s = loadSlotSharding(v)) {
      values_[v.id()] = pool_.intern(std::move(*s));
    }
  };
  for (Op func_op : m_.functions()) {
    FuncOp func(func_op);
    FuncResults results{func, {}, {}};
    for (unsigned i = 0; i < func.numResults(); ++i) {
      const TensorSharding* s =
          func.resultAttr(i, kShardingAttr).asTensorSharding();
      results.shardings.push_back(s ? pool_.intern(*s) : ShardingPool::kNone);
      results.dirty.push_back(false);
    }
    funcs_.push_back(std::move(results));
  }
  std::vector<Op> group_ops;
  m_.walk([&](Op op) {
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      Region region = op.region(r);
      for (unsigned b = 0; b < region.numBlocks(); ++b) {
        for (Value arg : region.block(b).arguments()) load_value(arg);
      }
    }
    for (unsigned i = 0; i < op.numResults(); ++i) load_value(op.result(i));
    if (op.name() == "sdy.sharding_group" && op.numOperands() == 1) {
      group_ops.push_back(op);
    }
  });
  // After the walk: a group op may come before the edge op that holds its
  // value's sharding, so slots are only known now.
  for (Op op : group_ops) addToGroup(op);
}

void Driver::addToGroup(Op group_op) {
  Value v = slotOf(group_op.operand(0));
  if (!v) return;
  int64_t id = group_op.attr("group_id").intValue().value_or(0);
  auto [it, inserted] =
      group_index_.emplace(id, static_cast<int>(groups_.size()));
  if (inserted) groups_.emplace_back();
  if (group_of_.emplace(v.id(), it->second).second)
    groups_[it->second].push_back(v);
}

absl::Status Driver::classify(Op op, OpEntry& entry) {
  entry.classified = true;
  entry.priority = opPriorityKind(op);
  entry.elementwise = isElementwiseOp(op);
  // Ops with the same signature share the registry's rule (an op's own
  // `sdy.sharding_rule` takes precedence, so those are never looked up).
  if (op.hasAttr(kShardingRuleAttr)) {
    saw_rule_attr_ = true;
  } else {
    if (std::optional<int32_t> cached = rule_cache_.find(op)) {
      entry.role = OpRole::kRule;
      entry.rule = *cached;
      entry.rule_from_registry = true;
      return absl::OkStatus();
    }
  }
  SK_ASSIGN_OR_RETURN(OpRoleInfo info, classifyOp(op, options_.conservative));
  entry.role = info.role;
  if (info.rule) {
    entry.rule = static_cast<int32_t>(rules_.size());
    entry.rule_from_registry = info.from_registry;
    rules_.push_back(*std::move(info.rule));
    if (info.from_registry) rule_cache_.insert(op, entry.rule);
  }
  return absl::OkStatus();
}

std::vector<int64_t> Driver::userRounds() const {
  // Called right after load(): the pool holds the module's shardings.
  std::vector<const TensorSharding*> all;
  for (ShardingId id = 0; id < pool_.size(); ++id) all.push_back(&pool_.get(id));
  return userPriorityRounds(all);
}

void Driver::push(Op op) {
  if (!op || op == current_ || in_worklist_[op.id()]) return;
  in_worklist_[op.id()] = 1;
  worklist_.push_back(op.id());
}

// Queues the users of `v`. A use as a source of a data-flow edge queues the
// edge op instead, and a use by a terminator queues the terminator's parent.
void Driver::notifyUsers(Value v) {
  for (const Value::Use& use : v.uses()) {
    Op user = use.user();
    if (std::optional<Value> owner =
            edgeOwnerOfSource(user, use.operandIndex())) {
      if (Op edge = dataFlowEdgeOpOf(*owner)) {
        push(edge);
        continue;
      }
    }
    const OpInfo* info = user.opName().info();
    if (info && info->is_terminator) {
      push(user.parentOp());
    } else {
      push(user);
    }
  }
}

// Queues every op the new sharding of `slot` may affect: its defining op (or
// the op owning the block), its users, and for an edge op also the users of
// the edge's other targets (e.g. a while body's argument).
void Driver::notifyShardingModified(Value slot) {
  if (slot.isBlockArgument()) {
    push(slot.ownerBlock().parentOp());
  } else {
    Op def = slot.definingOp();
    if (def.name() == "sdy.data_flow_edge") {
      if (std::optional<DataFlowEdge> edge = dataFlowEdgeOf(def.operand(0))) {
        for (Value target : edge->non_owner_targets) notifyUsers(target);
      }
    }
    push(def);
  }
  notifyUsers(slot);
}

void Driver::updateGroupMembers(Value slot, ShardingId sharding,
                                bool notify) {
  auto group = group_of_.find(slot.id());
  if (group == group_of_.end()) return;
  for (Value member : groups_[group->second]) {
    if (member == slot) continue;
    values_[member.id()] = sharding;
    dirty_[member.id()] = 1;
    touch(member.id());
    if (notify) notifyShardingModified(member);
  }
}

void Driver::updateSlot(Value slot, TensorSharding sharding, bool notify) {
  ShardingId id = pool_.intern(std::move(sharding));
  if (values_[slot.id()] == id) return;
  values_[slot.id()] = id;
  dirty_[slot.id()] = 1;
  touch(slot.id());
  ++stats_.updates;
  if (notify) notifyShardingModified(slot);
  updateGroupMembers(slot, id, notify);
}

uint64_t Driver::stepCode(const StepParams& params) const {
  constexpr size_t kMaxFactors = 30;  // two bits each after the two flags
  uint64_t code = (aggressive_ ? 1 : 0) | (op_round_ ? 2 : 0);
  if (factor_directions_.size() > kMaxFactors) return LastStep::kNone;
  for (size_t f = 0; f < factor_directions_.size(); ++f) {
    PropagationDirection d = intersect(params.direction, factor_directions_[f]);
    code |= static_cast<uint64_t>(d) << (2 + 2 * f);
  }
  return code;
}

bool Driver::repeatsLastStep(Op op, uint64_t code) {
  LastStep& last = last_step_[op.id()];
  bool unchanged = code != LastStep::kNone && last.code == code &&
                   last.user_round == user_round_;
  for (size_t i = 0; unchanged && i < slots_.size(); ++i) {
    unchanged = !slots_[i] || changed_at_[slots_[i].id()] <= last.started_at;
  }
  if (unchanged) return true;
  last = LastStep{code, user_round_, clock_};
  return false;
}

absl::Status Driver::step(Op op, const StepParams& params) {
  if (params.direction == PropagationDirection::kNone) return absl::OkStatus();
  const OpShardingRule& rule = *params.rule;
  factor_directions_.clear();
  if (op_round_) {
    bool any = false;
    for (int64_t f = 0; f < rule.numFactors(); ++f) {
      PropagationDirection d = opPriorityDirection(*op_round_, params.priority,
                                                   params.round_rule, f);
      any = any || intersect(d, params.direction) != PropagationDirection::kNone;
      factor_directions_.push_back(d);
    }
    // Nothing may move in this round.
    if (!any && rule.numFactors() > 0) return absl::OkStatus();
  }
  if (repeatsLastStep(op, stepCode(params))) {
    ++stats_.skipped_visits;
    return absl::OkStatus();
  }
  ++stats_.op_visits;
  ptrs_.clear();
  bool maximal = false;
  for (Value slot : slots_) {
    const TensorSharding* s = shardingOf(slot);
    maximal = maximal || onMaximalMesh(s);
    ptrs_.push_back(s);
  }
  if (maximal || ptrs_.empty()) return absl::OkStatus();
  std::optional<TensorSharding> edge_view;
  if (params.edge) {
    edge_view = edgeShardingBeforePropagation(params.edge, ptrs_.back());
    ptrs_.back() = edge_view ? &*edge_view : nullptr;
  }
  PropagateOpOptions options;
  options.strategy = &strategy();
  options.direction = params.direction;
  options.conservative = params.conservative;
  options.is_elementwise = params.elementwise;
  options.priority_round = user_round_;
  if (op_round_) options.factor_directions = factor_directions_;
  absl::Span<const TensorSharding* const> all(ptrs_);
  size_t num_operands = std::min(ptrs_.size(), rule.operand_mappings.size());
  OpShardings shardings{all.subspan(0, num_operands),
                        all.subspan(num_operands)};
  absl::StatusOr<PropagateOpResult> result =
      propagateOpShardings(shardings, rule, meshes_, options, &workspace_);
  if (!result.ok()) return opError(op, fromAbsl(result.status().message()));
  int64_t last = static_cast<int64_t>(slots_.size()) - 1;
  for (ShardingUpdate& update : result->updates) {
    Value slot = slots_[update.tensor];
    if (!slot) continue;  // the value has no place for a sharding
    if (params.edge && update.tensor == last) {
      update.sharding =
          edgeShardingAfterPropagation(params.edge, update.sharding);
    }
    updateSlot(slot, std::move(update.sharding), /*notify=*/true);
  }
  return absl::OkStatus();
}

absl::Status Driver::visit(Op op) {
  OpEntry& entry = entries_[op.id()];
  if (!entry.classified) SK_RETURN_IF_ERROR(classify(op, entry));
  slots_.clear();
  StepParams params;
  params.priority = entry.priority;
  params.elementwise = entry.elementwise;
  switch (entry.role) {
    case OpRole::kSkip:
      return absl::OkStatus();
    case OpRole::kRule: {
      params.rule = params.round_rule = &rules_[entry.rule];
      params.conservative = options_.conservative;
      for (unsigned i = 0; i < op.numOperands(); ++i) addSlot(op.operand(i));
      for (unsigned i = 0; i < op.numResults(); ++i) addSlot(op.result(i));
      return step(op, params);
    }
    case OpRole::kBarrier: {
      if (op.numOperands() != 1 || op.numResults() != 1) {
        return absl::OkStatus();
      }
      Type type = op.result(0).type();
      if (!type.isRankedTensor()) return absl::OkStatus();
      params.direction = PropagationDirection::kNone;
      if (const PropagationDirection* d =
              op.attr("allowed_direction").asPropagationDirection()) {
        params.direction = *d;
      }
      params.rule = &identity_.get(type.shape(), 1, 1);
      addSlot(op.operand(0));
      addSlot(op.result(0));
      return step(op, params);
    }
    case OpRole::kEdge: {
      if (op.numOperands() != 1 || op.numResults() != 1) {
        return absl::OkStatus();
      }
      std::optional<DataFlowEdge> edge = dataFlowEdgeOf(op.operand(0));
      Type type = op.result(0).type();
      if (!edge || edge->sources.empty() || !type.isRankedTensor()) {
        return absl::OkStatus();
      }
      params.rule = &identity_.get(type.shape(), edge->sources.size(), 1);
      params.edge = op;
      for (Value source : edge->sources) addSlot(source);
      addSlot(op.result(0));
      return step(op, params);
    }
  }
  return absl::OkStatus();
}

// Between each function's returned values and its result shardings, like an
// identity op. Nothing is queued: this runs before all ops are queued and
// after the worklist is done. A new result sharding also goes to the other
// members of the returned value's sharding group, as in the reference.
absl::Status Driver::propagateFuncResults() {
  for (FuncResults& f : funcs_) {
    // The results of a private function (a callee) are not propagated.
    if (f.func.visibility() == "private") continue;
    Op ret = f.func.returnOp();
    if (!ret) continue;
    for (unsigned i = 0; i < ret.numOperands() && i < f.shardings.size(); ++i) {
      Value value = ret.operand(i);
      Value slot = slotOf(value);
      Type type = value.type();
      // Tokens and other non-tensors have no sharding.
      if (!slot || !type.isRankedTensor() || !type.hasStaticShape()) continue;
      ++stats_.op_visits;
      const TensorSharding* operand[] = {shardingOf(slot)};
      const TensorSharding* result[] = {pool_.find(f.shardings[i])};
      if (onMaximalMesh(operand[0]) || onMaximalMesh(result[0])) continue;
      PropagateOpOptions options;
      options.strategy = &strategy();
      options.priority_round = user_round_;
      absl::StatusOr<PropagateOpResult> r = propagateOpShardings(
          OpShardings{operand, result}, identity_.get(type.shape(), 1, 1),
          meshes_, options, &workspace_);
      if (!r.ok()) return opError(f.func.op(), fromAbsl(r.status().message()));
      if (const TensorSharding* s = r->operandUpdate(0)) {
        updateSlot(slot, *s, /*notify=*/false);
      }
      if (const TensorSharding* s = r->resultUpdate(0)) {
        f.shardings[i] = pool_.intern(*s);
        f.dirty[i] = true;
        ++stats_.updates;
        updateGroupMembers(slot, f.shardings[i], /*notify=*/false);
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Driver::fixpoint() {
  ++stats_.rounds;
  SK_RETURN_IF_ERROR(propagateFuncResults());
  // Top-down: the first op is processed first; ops queued while propagating
  // are processed next (last queued first), as MLIR's greedy driver does.
  worklist_.clear();
  auto collect = [&](Op op) {
    if (op.name() == "func.func" || op.name() == "sdy.mesh") return;
    in_worklist_[op.id()] = 1;
    worklist_.push_back(op.id());
  };
  m_.walk(collect);
  std::reverse(worklist_.begin(), worklist_.end());
  while (!worklist_.empty()) {
    Op op(&m_, worklist_.back());
    worklist_.pop_back();
    in_worklist_[op.id()] = 0;
    if (op.isErased()) continue;
    current_ = op;
    absl::Status status = visit(op);
    current_ = Op();
    SK_RETURN_IF_ERROR(status);
  }
  return propagateFuncResults();
}

void Driver::dropAllPriorities() {
  absl::flat_hash_map<ShardingId, ShardingId> dropped;
  auto drop = [&](ShardingId& id) {
    if (id == ShardingPool::kNone) return false;
    auto [it, inserted] = dropped.try_emplace(id, id);
    if (inserted) {
      TensorSharding copy = pool_.get(id);
      if (dropPriorities(copy)) it->second = pool_.intern(std::move(copy));
    }
    if (it->second == id) return false;
    id = it->second;
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
  ShardingAttrCache attrs;
  for (size_t id = 0; id < dirty_.size(); ++id) {
    if (dirty_[id] && values_[id] != ShardingPool::kNone) {
      storeSlotSharding(Value(&m_, static_cast<uint32_t>(id)),
                        pool_.get(values_[id]), &attrs);
    }
  }
  for (FuncResults& f : funcs_) {
    for (size_t i = 0; i < f.shardings.size(); ++i) {
      if (f.dirty[i] && f.shardings[i] != ShardingPool::kNone) {
        f.func.setResultAttr(static_cast<unsigned>(i), kShardingAttr,
                             attrs.single(pool_.get(f.shardings[i])));
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
                   Attribute::opShardingRule(rules_[entry.rule]));
    }
    return;
  }
  if (saw_rule_attr_) removeShardingRules(m_);
}

absl::StatusOr<PropagationStats> Driver::run() {
  SK_RETURN_IF_ERROR(checkShapes());
  load();
  std::vector<std::optional<int64_t>> user_rounds = {std::nullopt};
  if (options_.user_priorities) {
    user_rounds.clear();
    for (int64_t r : userRounds()) user_rounds.push_back(r);
  }
  std::vector<std::optional<int64_t>> op_rounds = {std::nullopt};
  if (options_.op_priorities) {
    op_rounds.clear();
    for (int64_t r = 0; r < kNumOpPriorityRounds; ++r) op_rounds.push_back(r);
  }
  std::vector<bool> aggressive = {options_.strategy !=
                                  PropagationStrategy::kBasic};
  if (options_.strategy == PropagationStrategy::kBasicThenAggressive) {
    aggressive = {false, true};
  }
  for (const std::optional<int64_t>& user_round : user_rounds) {
    user_round_ = user_round;
    for (const std::optional<int64_t>& op_round : op_rounds) {
      op_round_ = op_round;
      for (bool a : aggressive) {
        aggressive_ = a;
        SK_RETURN_IF_ERROR(fixpoint());
      }
    }
  }
  if (options_.user_priorities) dropAllPriorities();
  writeBack();
  return stats_;
}

}  // namespace

absl::StatusOr<PropagationStats> propagate(Module& module,
                                           const PropagationOptions& options) {
  Driver driver(module, options);
  return driver.run();
}

}  // namespace shardkit
