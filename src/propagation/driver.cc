// The driver's worklist, rounds and steps (driver.h).
#include "src/propagation/driver.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/factor_propagation/common_mesh.h"
#include "shardkit/internal/phase_timing.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/tensor_view.h"
#include "shardkit/rules/registry.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace propagation_internal {
bool Driver::preclassifies() const {
  return options_.threads > 1 && m_.numOps() >= options_.parallel_min_ops &&
         !debug_.enabled() && !anyRuleFunctionRegistered();
}

void Driver::push(Op op) {
  if (!op || op == current_ || in_worklist_[op.id()]) return;
  in_worklist_[op.id()] = 1;
  worklist_.push_back(op.id());
}

// Queues the users of `v`. A use as a source of a data-flow edge queues the
// edge op instead, and a use by a terminator queues the terminator's parent.
void Driver::notifyUsers(Value v) {
  v.forEachUse([&](const Value::Use& use) {
    Op user = use.user();
    if (Op edge = has_edges_ ? dataFlowEdgeOp(
                                   edgeOwnerOfSource(user, use.operandIndex()))
                             : Op()) {
      push(edge);
      return;
    }
    if (calls_) {
      func_edges_.clear();
      appendFuncEdgesOfSource(user, use.operandIndex(), *calls_, func_edges_);
      for (Op edge : func_edges_) push(edge);
    }
    if (user.hasTrait(OpTrait::kTerminator)) {
      push(user.parentOp());
    } else {
      push(user);
    }
  });
}

// Queues every op the new sharding of `slot` may affect: its defining op (or
// the op owning the block), its users, and for an edge op also the users of
// the edge's other targets (e.g. a while body's argument).
void Driver::notifyShardingModified(Value slot) {
  if (slot.isBlockArgument()) {
    push(slot.ownerBlock().parentOp());
  } else {
    Op def = slot.definingOp();
    if (isa<sdy::DataFlowEdgeOp>(def)) {
      if (std::optional<DataFlowEdge> edge = dataFlowEdgeOf(def.operand(0))) {
        for (Value target : edge->non_owner_targets) notifyUsers(target);
      }
    }
    push(def);
  }
  notifyUsers(slot);
}

void Driver::updateGroupMembers(Value slot, ShardingId sharding, bool notify) {
  for (Value member : groups_.membersOf(slot)) {
    if (member == slot) continue;
    values_[member.id()] = sharding;
    dirty_[member.id()] = 1;
    touch(member.id());
    if (notify) notifyShardingModified(member);
  }
}

void Driver::updateSlot(Value slot, ShardingId id, bool notify) {
  if (values_[slot.id()] == id) return;
  values_[slot.id()] = id;
  dirty_[slot.id()] = 1;
  touch(slot.id());
  ++stats_.updates;
  if (notify) notifyShardingModified(slot);
  updateGroupMembers(slot, id, notify);
}

const RoundInfo& Driver::findRoundInfo(const StepParams& params,
                                       int64_t num_factors) {
  int32_t* index;
  if (params.round_rule_index >= 0) {
    size_t i = roundByRuleIndex(params);
    if (i >= round_by_rule_.size()) {
      constexpr size_t kKinds = static_cast<size_t>(OpPriorityKind::kLast) + 1;
      round_by_rule_.resize(
          std::max(i + 1, classified_.rules.size() * kKinds * 2), -1);
    }
    index = &round_by_rule_[i];
  } else {
    index = &round_by_key_
                 .try_emplace(RoundKey{params.priority, num_factors,
                                       params.shared_operand},
                              -1)
                 .first->second;
  }
  if (*index < 0) {
    *index = static_cast<int32_t>(round_infos_.size());
    RoundInfo& info = round_infos_.emplace_back();
    for (int64_t f = 0; f < num_factors; ++f) {
      info.directions.push_back(opPriorityDirection(*op_round_, params.priority,
                                                    params.round_rule, f,
                                                    params.shared_operand));
    }
    for (size_t d = 0; d < info.any.size(); ++d) {
      auto direction = static_cast<PropagationDirection>(d);
      info.any[d] = std::any_of(info.directions.begin(), info.directions.end(),
                                [&](PropagationDirection f) {
                                  return intersect(f, direction) !=
                                         PropagationDirection::kNone;
                                });
      info.code[d] = stepCode(direction, info.directions);
    }
  }
  return round_infos_[*index];
}

uint64_t Driver::stepCode(
    PropagationDirection direction,
    absl::Span<const PropagationDirection> factors) const {
  constexpr size_t kMaxFactors = 30;  // two bits each after the two flags
  uint64_t code = (aggressive_ ? 1 : 0) | (op_round_ ? 2 : 0);
  if (factors.size() > kMaxFactors) return LastStep::kNone;
  for (size_t f = 0; f < factors.size(); ++f) {
    PropagationDirection d = intersect(direction, factors[f]);
    code |= static_cast<uint64_t>(d) << (2 + 2 * f);
  }
  return code;
}

bool Driver::repeatsLastStep(Op op, uint64_t code) {
  LastStep& last = last_step_[op.id()];
  bool unchanged = code != LastStep::kNone && last.code == code &&
                   last.user_round == user_round_;
  for (size_t i = 0; unchanged && i < slots_.size(); ++i) {
    unchanged = slots_[i] == kNoId || changed_at_[slots_[i]] <= last.started_at;
  }
  if (unchanged) return true;
  last = LastStep{code, user_round_, clock_};
  return false;
}

absl::Status Driver::step(Op op, const StepParams& params) {
  if (params.direction == PropagationDirection::kNone) return absl::OkStatus();
  const OpShardingRule& rule = *params.rule;
  factor_directions_ = {};
  uint64_t code;
  if (op_round_ && !params.ignores_op_rounds) {
    const RoundInfo& round = roundInfo(params, rule.numFactors());
    auto d = static_cast<size_t>(params.direction);
    // Nothing may move in this round.
    if (!round.any[d] && rule.numFactors() > 0) return absl::OkStatus();
    factor_directions_ = round.directions;
    code = round.code[d];
  } else {
    code = stepCode(params.direction, {});
  }
  if (repeatsLastStep(op, code)) {
    ++stats_.skipped_visits;
    return absl::OkStatus();
  }
  ++stats_.op_visits;
  StepKey& key = key_;
  key.shardings.resize(slots_.size());
  ShardingId* ids = key.shardings.data();
  bool maximal = false;
  for (size_t i = 0; i < slots_.size(); ++i) {
    uint32_t slot = slots_[i];
    ShardingId id = slot != kNoId ? values_[slot] : ShardingPool::kNone;
    maximal = maximal || onMaximalMesh(id);
    ids[i] = id;
  }
  if (maximal || slots_.empty()) return absl::OkStatus();
  // An edge's view of its target depends on the edge op itself, and a code
  // that doesn't fit doesn't name the factor directions: neither is
  // memoized.
  bool memoize = code != LastStep::kNone && !params.edge && !debug_.enabled();
  key.rule = &rule;
  key.code = code;
  key.user_round = user_round_.value_or(-1);
  key.direction = static_cast<uint8_t>(params.direction);
  key.elementwise = params.elementwise;
  key.conservative = params.conservative;
  absl::Span<const StepUpdate> updates;
  if (!memoize || !memo_.find(key, updates)) {
    SK_RETURN_IF_ERROR(computeStep(op, params, key.shardings));
    updates = step_updates_;
    if (memoize) memo_.insert(key, updates);
  }
  uint64_t clock_before = clock_;
  applyUpdates(params, updates);
  if (debug_.enabled() && clock_ != clock_before) {
    size_t num_operands = rule.operand_mappings.size();
    std::vector<Value> slots;
    for (uint32_t slot : slots_) slots.push_back(slotValue(slot));
    absl::Span<const Value> all(slots);
    recordStep(op, Op(), rule, all.subspan(0, num_operands),
               all.subspan(num_operands));
  }
  return absl::OkStatus();
}

absl::Status Driver::projectBeforeStep(
    const OpShardingRule& rule, absl::Span<const TensorSharding* const> all,
    size_t num_operands) {
  debug_mesh_ = nullptr;
  absl::Span<const TensorSharding* const> operands =
      all.subspan(0, num_operands);
  absl::Span<const TensorSharding* const> results = all.subspan(num_operands);
  SK_ASSIGN_OR_RETURN(std::optional<CommonMesh> common,
                      findCommonMesh(operands, results, meshes_));
  if (!common) return absl::OkStatus();
  ProjectionOptions options;
  options.priority_round = user_round_;
  SK_RETURN_IF_ERROR(
      debug_before_.assign(operands, results, rule, *common->mesh, options));
  debug_mesh_ = common->mesh;
  return absl::OkStatus();
}

void Driver::recordStep(Op op, Op func, const OpShardingRule& rule,
                        absl::Span<const Value> operands,
                        absl::Span<const Value> results) {
  if (!debug_mesh_) return;
  debug_.record(RecordedStep{op, func, operands, results, &rule, debug_mesh_,
                             &debug_before_, &workspace_.projection});
}

absl::Status Driver::computeStep(Op op, const StepParams& params,
                                 absl::Span<const ShardingId> ids) {
  const OpShardingRule& rule = *params.rule;
  ptrs_.clear();
  for (ShardingId id : ids) ptrs_.push_back(pool_.find(id));
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
  if (debug_.enabled()) {
    absl::Status status = projectBeforeStep(rule, all, num_operands);
    if (!status.ok()) return opError(op, fromAbsl(status.message()));
  }
  OpShardings shardings{all.subspan(0, num_operands),
                        all.subspan(num_operands)};
  absl::StatusOr<PropagateOpResult> result =
      propagateOpShardings(shardings, rule, meshes_, options, &workspace_);
  if (!result.ok()) return opError(op, fromAbsl(result.status().message()));
  step_updates_.clear();
  for (ShardingUpdate& update : result->updates) {
    step_updates_.push_back({static_cast<uint32_t>(update.tensor),
                             pool_.intern(std::move(update.sharding))});
  }
  return absl::OkStatus();
}

void Driver::applyUpdates(const StepParams& params,
                          absl::Span<const StepUpdate> updates) {
  uint32_t last = static_cast<uint32_t>(slots_.size()) - 1;
  for (const StepUpdate& update : updates) {
    Value slot = slotValue(slots_[update.tensor]);
    if (!slot) continue;  // the value has no place for a sharding
    if (params.edge && update.tensor == last) {
      // The edge's own sharding keeps what propagation may not change.
      updateSlot(
          slot,
          edgeShardingAfterPropagation(params.edge, pool_.get(update.sharding)),
          /*notify=*/true);
      continue;
    }
    updateSlot(slot, update.sharding, /*notify=*/true);
  }
}

absl::Status Driver::visit(Op op) {
  OpEntry& entry = entries_[op.id()];
  if (!entry.classified && !preclassification_.adopt(op, entry, classified_)) {
    SK_RETURN_IF_ERROR(classified_.classify(op, entry, options_.conservative));
  }
  scratch_slots_.clear();
  slots_ = scratch_slots_;
  StepParams params;
  params.priority = entry.priority;
  params.shared_operand = entry.shared_operand;
  params.elementwise = entry.elementwise;
  switch (entry.role) {
    case OpRole::kSkip:
      return absl::OkStatus();
    case OpRole::kRule: {
      params.rule = params.round_rule = classified_.rules.get(entry.rule);
      params.round_rule_index = entry.rule;
      params.conservative = options_.conservative;
      useRuleSlots(op, entry);
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
              op.attr("allowed_direction").as<PropagationDirection>()) {
        params.direction = *d;
      }
      params.rule = &identity_.get(type.shape(), 1, 1);
      // As in the reference, a barrier's allowed direction is all that
      // restricts it.
      params.ignores_op_rounds = true;
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
      // A mesh tensor (an mpmd fragment's result) propagates as the tensor
      // it holds.
      if (!edge || edge->sources.empty() || !tensorViewOf(type)) {
        return absl::OkStatus();
      }
      params.rule = &identity_.get(type.shape(), edge->sources.size(), 1);
      params.edge = op;
      for (Value source : edge->sources) addSlot(source);
      addSlot(op.result(0));
      return step(op, params);
    }
    case OpRole::kFuncEdge:
      return visitFuncEdge(op, params);
  }
  return absl::OkStatus();
}

void Driver::recordRuleSlots(Op op, OpEntry& entry) {
  entry.first_slot = static_cast<uint32_t>(rule_slots_.size());
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    rule_slots_.push_back(slot_[op.operand(i).id()]);
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    rule_slots_.push_back(slot_[op.result(i).id()]);
  }
  entry.num_slots =
      static_cast<uint32_t>(rule_slots_.size()) - entry.first_slot;
}

bool Driver::resolveMaximal(ShardingId id) {
  if (id >= maximal_.size()) maximal_.resize(pool_.size(), kUnknown);
  const Mesh* mesh = meshes_.resolve(pool_.get(id));
  maximal_[id] = mesh && mesh->isMaximal() ? kYes : kNo;
  return maximal_[id] == kYes;
}

// Like a data-flow edge, without a view to change: a function and its calls
// see a value the same way.
absl::Status Driver::visitFuncEdge(Op op, StepParams& params) {
  if (!calls_ || op.numOperands() != 1 || op.numResults() != 1) {
    return absl::OkStatus();
  }
  Type type = op.result(0).type();
  if (!tensorViewOf(type)) return absl::OkStatus();
  std::vector<OperandRef> sources = funcEdgeSourceUses(op, *calls_);
  if (sources.empty()) return absl::OkStatus();
  params.rule = &identity_.get(type.shape(), sources.size(), 1);
  for (const OperandRef& source : sources) addSlot(source.get());
  addSlot(op.result(0));
  return step(op, params);
}

// Between each function's returned values and its result shardings, like an
// identity op. Nothing is queued: this runs before all ops are queued and
// after the worklist is done. A new result sharding is the function's alone:
// the reference also gives it to the other members of the returned value's
// sharding group (not to the value itself), which splits the group; shardkit
// keeps every member of a group alike instead.
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
      if (!slot || !tensorViewOf(type) || !type.hasStaticShape()) continue;
      ++stats_.op_visits;
      if (onMaximalMesh(values_[slot.id()]) || onMaximalMesh(f.shardings[i])) {
        continue;
      }
      const TensorSharding* operand[] = {shardingOf(slot)};
      const TensorSharding* result[] = {pool_.find(f.shardings[i])};
      const OpShardingRule& rule = identity_.get(type.shape(), 1, 1);
      if (debug_.enabled()) {
        const TensorSharding* both[] = {operand[0], result[0]};
        absl::Status status = projectBeforeStep(rule, both, 1);
        if (!status.ok())
          return opError(f.func.op(), fromAbsl(status.message()));
      }
      uint64_t clock_before = clock_;
      bool result_updated = false;
      PropagateOpOptions options;
      options.strategy = &strategy();
      options.priority_round = user_round_;
      absl::StatusOr<PropagateOpResult> r = propagateOpShardings(
          OpShardings{operand, result}, rule, meshes_, options, &workspace_);
      if (!r.ok()) return opError(f.func.op(), fromAbsl(r.status().message()));
      if (const TensorSharding* s = r->operandUpdate(0)) {
        updateSlot(slot, *s, /*notify=*/false);
      }
      if (const TensorSharding* s = r->resultUpdate(0)) {
        f.shardings[i] = pool_.intern(*s);
        f.dirty[i] = true;
        ++stats_.updates;
        result_updated = true;
      }
      if (debug_.enabled() && (result_updated || clock_ != clock_before)) {
        Value both[] = {slot};
        recordStep(Op(), f.func.op(), rule, both, both);
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Driver::fixpoint() {
  ++stats_.rounds;
  SK_RETURN_IF_ERROR(propagateFuncResults());
  round_infos_.clear();
  std::fill(round_by_rule_.begin(), round_by_rule_.end(), -1);
  round_by_key_.clear();
  worklist_.assign(order_.rbegin(), order_.rend());
  for (uint32_t id : order_) in_worklist_[id] = 1;
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

// Top-down: the first op is processed first; ops queued while propagating
// are processed next (last queued first), as MLIR's greedy driver does. Steps
// create no ops, so the order is the same in every fixed point.
void Driver::collectOrder() {
  order_.clear();
  auto collect = [&](Op op) {
    if (!op.hasTrait(OpTrait::kSymbol)) order_.push_back(op.id());
  };
  if (calls_) {
    // Calls are followed: each function's ops before its callers', so that
    // what a callee's body dictates reaches its calls first.
    std::vector<FuncOp> order = calls_->callersFirst();
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      Module::walkOp(*it, collect);
    }
  } else {
    m_.walk(collect);
  }
}

absl::StatusOr<PropagationStats> Driver::run() {
  {
    TimedPhase phase("load");
    SK_RETURN_IF_ERROR(checkShapes());
    resolveGroupConflicts(m_,
                          [](Value member) -> std::optional<TensorSharding> {
                            return getSharding(member);
                          });
    // The module does not change from here until the write-back.
    if (preclassifies()) preclassification_.start(m_, options_.conservative);
    load();
  }
  if (has_func_edges_) {
    SK_ASSIGN_OR_RETURN(CallGraph calls, CallGraph::build(m_));
    calls_.emplace(std::move(calls));
  }
  syncGroups();
  collectOrder();
  debug_.prepare();
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
  preclassification_.finish();
  for (const std::optional<int64_t>& user_round : user_rounds) {
    user_round_ = user_round;
    for (const std::optional<int64_t>& op_round : op_rounds) {
      op_round_ = op_round;
      for (bool a : aggressive) {
        aggressive_ = a;
        SK_TIMED_RETURN_IF_ERROR("fixed point", fixpoint());
      }
    }
  }
  preclassification_.release();
  if (options_.user_priorities) dropAllPriorities();
  TimedPhase phase("write back");
  writeBack();
  debug_.save();
  warnOpsWithoutRule();
  return stats_;
}

}  // namespace propagation_internal

absl::StatusOr<PropagationStats> propagate(Module& module,
                                           const PropagationOptions& options) {
  propagation_internal::Driver driver(module, options);
  return driver.run();
}

}  // namespace shardkit
