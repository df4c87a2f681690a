// The propagation driver: a worklist over the module's ops that calls the
// per-op step (propagate_op.h) and re-queues the neighbours of every value
// whose sharding changed, inside the user-priority and op-priority rounds.
//
// Shardings are read from the IR once into a side table indexed by value id
// (shared, immutable TensorShardings) and written back once at the end.
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
#include "shardkit/rules/registry.h"
#include "src/propagation/op_classes.h"

namespace shardkit {
namespace {

using ShardingPtr = std::shared_ptr<const TensorSharding>;

struct OpEntry {
  enum Kind : uint8_t { kUnclassified, kSkip, kRule, kBarrier, kEdge };
  Kind kind = kUnclassified;
  OpPriorityKind priority = OpPriorityKind::kOther;
  bool elementwise = false;
  int32_t rule = -1;  // index into Driver::rules_
};

struct FuncResults {
  FuncOp func;
  std::vector<ShardingPtr> shardings;
  std::vector<bool> dirty;
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
  absl::Status propagateFuncResults(bool notify);
  absl::Status visit(Op op);
  absl::Status step(Op op, const OpShardingRule& rule, const OpShardingRule* round_rule,
                    const std::vector<Value>& operands, const std::vector<Value>& results,
                    OpPriorityKind priority, bool elementwise,
                    PropagationDirection direction);
  void setValueSharding(Value v, const ShardingPtr& sharding, bool notify);
  void notifyShardingModified(Value v);
  void notifyUsers(Value v);
  void push(Op op);
  void dropAllPriorities();
  void writeBack();

  const FactorPropagation& strategy() const {
    if (options_.strategy == PropagationStrategy::kAggressive) {
      return aggressiveFactorPropagation();
    }
    return basicFactorPropagation();
  }
  const TensorSharding* shardingOf(Value v) const {
    return values_[v.id()].get();
  }

  Module& m_;
  PropagationOptions options_;
  MeshTable meshes_;
  std::vector<ShardingPtr> values_;
  std::vector<uint8_t> dirty_;
  std::vector<FuncResults> funcs_;
  std::vector<OpEntry> entries_;
  std::vector<OpShardingRule> rules_;
  std::vector<uint8_t> rule_from_registry_;
  IdentityRules identity_;
  absl::flat_hash_map<int64_t, int> group_index_;  // group id -> groups_ index
  absl::flat_hash_map<uint32_t, int> group_of_;    // value id -> groups_ index
  std::vector<std::vector<Value>> groups_;
  std::vector<uint32_t> worklist_;
  std::vector<uint8_t> in_worklist_;
  Op current_;
  std::optional<int64_t> user_round_;
  std::optional<int64_t> op_round_;
  PropagationWorkspace workspace_;
  std::vector<PropagationDirection> factor_directions_;
  std::vector<const TensorSharding*> operand_ptrs_;
  std::vector<const TensorSharding*> result_ptrs_;
  PropagationStats stats_;
};

absl::Status Driver::checkShapes() {
  absl::Status status = absl::OkStatus();
  m_.walk([&](Op op) {
    if (!status.ok()) return;
    for (unsigned i = 0; i < op.numResults(); ++i) {
      Type t = op.result(i).type();
      if (t.kind() == TypeKind::kTuple) {
        status = locatedError(op, strCat("Shardy propagation doesn't support tuples: ",
                                         t.str()));
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
  values_.assign(m_.valueIdBound(), nullptr);
  dirty_.assign(m_.valueIdBound(), 0);
  entries_.assign(m_.opIdBound(), OpEntry{});
  in_worklist_.assign(m_.opIdBound(), 0);
  auto load_value = [&](Value v) {
    if (std::optional<TensorSharding> s = getSharding(v)) {
      values_[v.id()] = std::make_shared<const TensorSharding>(std::move(*s));
    }
  };
  for (Op func_op : m_.functions()) {
    FuncOp func(func_op);
    FuncResults results{func, {}, {}};
    for (unsigned i = 0; i < func.numResults(); ++i) {
      const TensorSharding* s = func.resultAttr(i, kShardingAttr).asTensorSharding();
      results.shardings.push_back(s ? std::make_shared<const TensorSharding>(*s) : nullptr);
      results.dirty.push_back(false);
    }
    funcs_.push_back(std::move(results));
  }
  m_.walk([&](Op op) {
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      Region region = op.region(r);
      for (unsigned b = 0; b < region.numBlocks(); ++b) {
        for (Value arg : region.block(b).arguments()) load_value(arg);
      }
    }
    for (unsigned i = 0; i < op.numResults(); ++i) load_value(op.result(i));
    if (op.name() == "sdy.sharding_group" && op.numOperands() == 1) addToGroup(op);
  });
}

void Driver::addToGroup(Op group_op) {
  int64_t id = group_op.attr("group_id").intValue().value_or(0);
  auto [it, inserted] = group_index_.emplace(id, static_cast<int>(groups_.size()));
  if (inserted) groups_.emplace_back();
  Value v = group_op.operand(0);
  if (group_of_.emplace(v.id(), it->second).second) groups_[it->second].push_back(v);
}

absl::Status Driver::classify(Op op, OpEntry& entry) {
  std::string_view name = op.name();
  entry.priority = opPriorityKind(op);
  entry.elementwise = isElementwiseOp(op);
  if (name == "sdy.data_flow_edge") {
    entry.kind = OpEntry::kEdge;
    return absl::OkStatus();
  }
  if (name == "sdy.propagation_barrier") {
    entry.kind = OpEntry::kBarrier;
    return absl::OkStatus();
  }
  const OpInfo* info = op.opName().info();
  if ((info && info->is_terminator) || name == "func.func" || name == "sdy.mesh") {
    entry.kind = OpEntry::kSkip;
    return absl::OkStatus();
  }
  std::optional<OpShardingRule> rule;
  bool from_registry = false;
  if (name == "sdy.sharding_constraint" || name == "sdy.reshard") {
    if (op.numResults() == 1 && op.result(0).type().isRankedTensor()) {
      rule = identity_.get(op.result(0).type().shape(), 1, 1);
    }
  } else if (const OpShardingRule* attached =
                 op.attr(kShardingRuleAttr).asOpShardingRule()) {
    rule = *attached;
  } else {
    RuleOptions rule_options;
    rule_options.conservative_propagation = options_.conservative;
    absl::StatusOr<std::optional<OpShardingRule>> registry =
        shardingRuleFor(op, rule_options);
    if (!registry.ok()) return opError(op, fromAbsl(registry.status().message()));
    rule = *std::move(registry);
    from_registry = rule.has_value();
  }
  if (!rule) {
    entry.kind = OpEntry::kSkip;
    return absl::OkStatus();
  }
  entry.kind = OpEntry::kRule;
  entry.rule = static_cast<int32_t>(rules_.size());
  rules_.push_back(*std::move(rule));
  rule_from_registry_.push_back(from_registry);
  return absl::OkStatus();
}

std::vector<int64_t> Driver::userRounds() const {
  std::vector<const TensorSharding*> all;
  for (const ShardingPtr& s : values_) {
    if (s) all.push_back(s.get());
  }
  for (const FuncResults& f : funcs_) {
    for (const ShardingPtr& s : f.shardings) {
      if (s) all.push_back(s.get());
    }
  }
  return userPriorityRounds(all);
}

void Driver::push(Op op) {
  if (!op || op == current_ || in_worklist_[op.id()]) return;
  in_worklist_[op.id()] = 1;
  worklist_.push_back(op.id());
}

void Driver::notifyUsers(Value v) {
  for (const Value::Use& use : v.uses()) {
    Op user = use.user();
    if (std::optional<Value> owner = edgeOwnerOfSource(user, use.operandIndex())) {
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

void Driver::notifyShardingModified(Value v) {
  if (v.isBlockArgument()) {
    push(v.ownerBlock().parentOp());
  } else {
    Op def = v.definingOp();
    if (def.name() == "sdy.data_flow_edge") {
      if (std::optional<DataFlowEdge> edge = dataFlowEdgeOf(def.operand(0))) {
        for (Value target : edge->non_owner_targets) notifyUsers(target);
      }
    }
    push(def);
  }
  notifyUsers(v);
}

void Driver::setValueSharding(Value v, const ShardingPtr& sharding, bool notify) {
  values_[v.id()] = sharding;
  dirty_[v.id()] = 1;
  ++stats_.updates;
  if (notify) notifyShardingModified(v);
  auto group = group_of_.find(v.id());
  if (group == group_of_.end()) return;
  for (Value member : groups_[group->second]) {
    if (member == v) continue;
    values_[member.id()] = sharding;
    dirty_[member.id()] = 1;
    if (notify) notifyShardingModified(member);
  }
}

absl::Status Driver::step(Op op, const OpShardingRule& rule,
                          const OpShardingRule* round_rule,
                          const std::vector<Value>& operands,
                          const std::vector<Value>& results,
                          OpPriorityKind priority, bool elementwise,
                          PropagationDirection direction) {
  ++stats_.op_visits;
  operand_ptrs_.clear();
  result_ptrs_.clear();
  // A sharding on a maximal mesh pins the op to one device: nothing
  // propagates through it.
  bool maximal = false;
  auto add = [&](Value v, std::vector<const TensorSharding*>& ptrs) {
    const TensorSharding* s = shardingOf(v);
    if (const Mesh* mesh = s ? meshes_.resolve(*s) : nullptr) {
      maximal = maximal || mesh->isMaximal();
    }
    ptrs.push_back(s);
  };
  for (Value v : operands) add(v, operand_ptrs_);
  for (Value v : results) add(v, result_ptrs_);
  if (maximal) return absl::OkStatus();
  PropagateOpOptions options;
  options.strategy = &strategy();
  options.direction = direction;
  options.conservative = options_.conservative;
  options.is_elementwise = elementwise;
  options.priority_round = user_round_;
  if (op_round_) {
    factor_directions_.clear();
    for (int64_t f = 0; f < rule.numFactors(); ++f) {
      factor_directions_.push_back(
          opPriorityDirection(*op_round_, priority, round_rule, f));
    }
    options.factor_directions = factor_directions_;
  }
  OpShardings shardings{operand_ptrs_, result_ptrs_};
  absl::StatusOr<PropagateOpResult> result =
      propagateOpShardings(shardings, rule, meshes_, options, &workspace_);
  if (!result.ok()) return opError(op, fromAbsl(result.status().message()));
  for (ShardingUpdate& update : result->updates) {
    Value v = update.tensor < static_cast<int64_t>(operands.size())
                  ? operands[update.tensor]
                  : results[update.tensor - operands.size()];
    setValueSharding(v, std::make_shared<const TensorSharding>(std::move(update.sharding)),
                     /*notify=*/true);
  }
  return absl::OkStatus();
}

absl::Status Driver::visit(Op op) {
  OpEntry& entry = entries_[op.id()];
  if (entry.kind == OpEntry::kUnclassified) SK_RETURN_IF_ERROR(classify(op, entry));
  switch (entry.kind) {
    case OpEntry::kUnclassified:
    case OpEntry::kSkip:
      return absl::OkStatus();
    case OpEntry::kRule: {
      const OpShardingRule& rule = rules_[entry.rule];
      return step(op, rule, &rule, op.operands(), op.results(), entry.priority,
                  entry.elementwise, PropagationDirection::kBoth);
    }
    case OpEntry::kBarrier: {
      Type type = op.result(0).type();
      if (!type.isRankedTensor()) return absl::OkStatus();
      PropagationDirection d = PropagationDirection::kNone;
      if (const PropagationDirection* a = op.attr("allowed_direction").asPropagationDirection()) {
        d = *a;
      }
      return step(op, identity_.get(type.shape(), 1, 1), nullptr, op.operands(),
                  op.results(), entry.priority, false, d);
    }
    case OpEntry::kEdge: {
      std::optional<DataFlowEdge> edge = dataFlowEdgeOf(op.operand(0));
      Type type = op.result(0).type();
      if (!edge || edge->sources.empty() || !type.isRankedTensor()) {
        return absl::OkStatus();
      }
      return step(op, identity_.get(type.shape(), edge->sources.size(), 1), nullptr,
                  edge->sources, {op.result(0)}, entry.priority, false,
                  PropagationDirection::kBoth);
    }
  }
  return absl::OkStatus();
}

absl::Status Driver::propagateFuncResults(bool notify) {
  for (FuncResults& f : funcs_) {
    // The results of a private function (a callee) are not propagated.
    if (f.func.visibility() == "private") continue;
    Op ret = f.func.returnOp();
    if (!ret) continue;
    for (unsigned i = 0; i < ret.numOperands() && i < f.shardings.size(); ++i) {
      Value value = ret.operand(i);
      Type type = value.type();
      if (!type.hasStaticShape()) continue;  // tokens, dynamic shapes
      ++stats_.op_visits;
      const TensorSharding* operand[] = {shardingOf(value)};
      const TensorSharding* result[] = {f.shardings[i].get()};
      PropagateOpOptions options;
      options.strategy = &strategy();
      options.priority_round = user_round_;
      absl::StatusOr<PropagateOpResult> r = propagateOpShardings(
          OpShardings{operand, result}, identity_.get(type.shape(), 1, 1), meshes_,
          options, &workspace_);
      if (!r.ok()) return opError(f.func.op(), fromAbsl(r.status().message()));
      if (const TensorSharding* s = r->operandUpdate(0)) {
        setValueSharding(value, std::make_shared<const TensorSharding>(*s), notify);
      }
      if (const TensorSharding* s = r->resultUpdate(0)) {
        f.shardings[i] = std::make_shared<const TensorSharding>(*s);
        f.dirty[i] = true;
        ++stats_.updates;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Driver::fixpoint() {
  ++stats_.rounds;
  SK_RETURN_IF_ERROR(propagateFuncResults(/*notify=*/false));
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
  return propagateFuncResults(/*notify=*/false);
}

void Driver::dropAllPriorities() {
  for (size_t id = 0; id < values_.size(); ++id) {
    if (!values_[id]) continue;
    TensorSharding copy = *values_[id];
    if (dropPriorities(copy)) {
      values_[id] = std::make_shared<const TensorSharding>(std::move(copy));
      dirty_[id] = 1;
    }
  }
  for (FuncResults& f : funcs_) {
    for (size_t i = 0; i < f.shardings.size(); ++i) {
      if (!f.shardings[i]) continue;
      TensorSharding copy = *f.shardings[i];
      if (dropPriorities(copy)) {
        f.shardings[i] = std::make_shared<const TensorSharding>(std::move(copy));
        f.dirty[i] = true;
      }
    }
  }
}

void Driver::writeBack() {
  for (size_t id = 0; id < dirty_.size(); ++id) {
    if (dirty_[id] && values_[id]) {
      setSharding(Value(&m_, static_cast<uint32_t>(id)), *values_[id]);
    }
  }
  for (FuncResults& f : funcs_) {
    for (size_t i = 0; i < f.shardings.size(); ++i) {
      if (f.dirty[i] && f.shardings[i]) {
        f.func.setResultAttr(static_cast<unsigned>(i), kShardingAttr,
                             Attribute::tensorSharding(*f.shardings[i]));
      }
    }
  }
  // Rules the registry made are dropped unless asked for; custom rules a
  // user wrote stay.
  for (size_t id = 0; id < entries_.size(); ++id) {
    const OpEntry& entry = entries_[id];
    if (entry.kind != OpEntry::kRule || !rule_from_registry_[entry.rule]) continue;
    if (options_.keep_sharding_rules) {
      Op(&m_, static_cast<uint32_t>(id))
          .setAttr(kShardingRuleAttr, Attribute::opShardingRule(rules_[entry.rule]));
    }
  }
  if (!options_.keep_sharding_rules) {
    m_.walk([](Op op) {
      const OpShardingRule* rule = op.attr(kShardingRuleAttr).asOpShardingRule();
      if (rule && !rule->is_custom_rule) op.removeAttr(kShardingRuleAttr);
    });
  }
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
  for (const std::optional<int64_t>& user_round : user_rounds) {
    user_round_ = user_round;
    for (const std::optional<int64_t>& op_round : op_rounds) {
      op_round_ = op_round;
      SK_RETURN_IF_ERROR(fixpoint());
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
