// Internal to the propagation layer: the driver behind propagate()
// (propagate.h). A worklist over the module's ops calls the per-op step
// (propagate_op.h) and re-queues the neighbours of every value whose sharding
// changed, inside the user-priority and op-priority rounds.
//
// Shardings live in a side table indexed by the id of each value's slot (its
// shardable value, shardkit/dialect/sdy/sharding_site.h), interned in a
// ShardingPool: read from the IR once (driver_state.cc), written back once at
// the end.
#ifndef SHARDKIT_SRC_PROPAGATION_DRIVER_H_
#define SHARDKIT_SRC_PROPAGATION_DRIVER_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/dialect/func/call_graph.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/factor_propagation/aggressive_factor_propagation.h"
#include "shardkit/factor_propagation/basic_factor_propagation.h"
#include "shardkit/factor_propagation/priorities.h"
#include "shardkit/factor_propagation/propagate_op.h"
#include "shardkit/internal/large_array.h"
#include "shardkit/propagation/propagate.h"
#include "src/propagation/debug_records.h"
#include "src/propagation/op_classes.h"
#include "src/propagation/op_classification.h"
#include "src/propagation/sharding_groups.h"
#include "src/propagation/sharding_pool.h"
#include "src/propagation/step_memo.h"

namespace shardkit::propagation_internal {

using ShardingId = ShardingPool::Id;

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

// What the current op-priority round allows an op with a given rule, kind
// and operand sharing: each factor's direction, and for each direction of a
// step (by PropagationDirection's value) whether any factor may move and the
// step's code (Driver::stepCode).
struct RoundInfo {
  std::vector<PropagationDirection> directions;
  std::array<bool, 4> any{};
  std::array<uint64_t, 4> code{};
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
  // The index of `round_rule` in ClassifiedRules::rules, or -1 (identities).
  int32_t round_rule_index = -1;
  OpPriorityKind priority = OpPriorityKind::kOther;
  bool shared_operand = false;
  // Propagates in every op-priority round as in the last (a barrier only
  // follows its allowed direction).
  bool ignores_op_rounds = false;
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
      : m_(m),
        options_(options),
        meshes_(m.meshTable()),
        debug_(m, options.debug.sharding_origins,
               options.debug.propagation_edges) {}

  absl::StatusOr<PropagationStats> run();

 private:
  absl::Status checkShapes();
  // After the write-back: an advisory warning (diagnostic.h) for each op
  // name whose ops have no sharding rule yet touch sharded values, so
  // propagation stopped at them (rule_warnings.cc).
  void warnOpsWithoutRule();
  void load();
  // Gives the members of each sharding group their common sharding.
  void syncGroups();
  // Whether a thread classifies the ops while the driver loads: with
  // threads to spare, on a module large enough, and when no rule function
  // of the embedder's (registry.h) would run on it.
  bool preclassifies() const;
  std::vector<int64_t> userRounds() const;
  absl::Status fixpoint();
  absl::Status propagateFuncResults();
  absl::Status visit(Op op);
  // The step of an `sdy.func_data_flow_edge` (sources from the call graph).
  absl::Status visitFuncEdge(Op op, StepParams& params);
  // Adds `v`'s slot to the step's tensors, for ops other than rule ops
  // (whose slots are kept in rule_slots_).
  void addSlot(Value v) {
    scratch_slots_.push_back(slot_[v.id()]);
    slots_ = scratch_slots_;
  }
  // Points slots_ at `op`'s slots in rule_slots_, first recording them.
  void useRuleSlots(Op op, OpEntry& entry) {
    if (entry.first_slot == OpEntry::kNoSlots) recordRuleSlots(op, entry);
    slots_ = absl::MakeConstSpan(rule_slots_.data() + entry.first_slot,
                                 entry.num_slots);
  }
  void recordRuleSlots(Op op, OpEntry& entry);
  // The value of slot id `slot`; null for kNoId (no place for a sharding).
  Value slotValue(uint32_t slot) const {
    return slot == kNoId ? Value() : Value(&m_, slot);
  }
  absl::Status step(Op op, const StepParams& params);
  // Runs propagateOpShardings on the tensors of `slots_` (their shardings
  // `ids`), interning its updates into `step_updates_`.
  absl::Status computeStep(Op op, const StepParams& params,
                           absl::Span<const ShardingId> ids);
  // Gives the slots of a step's tensors their new shardings.
  void applyUpdates(const StepParams& params,
                    absl::Span<const StepUpdate> updates);
  // With debug records on: the factor table the current step starts from
  // (`debug_before_`), and the step's record once it changed something.
  absl::Status projectBeforeStep(const OpShardingRule& rule,
                                 absl::Span<const TensorSharding* const> all,
                                 size_t num_operands);
  void recordStep(Op op, Op func, const OpShardingRule& rule,
                  absl::Span<const Value> operands,
                  absl::Span<const Value> results);
  // What the current op-priority round allows the step (opPriorityDirection
  // of each factor), computed once per fixed point and kind of op.
  const RoundInfo& roundInfo(const StepParams& params, int64_t num_factors) {
    if (params.round_rule_index >= 0) {
      size_t i = roundByRuleIndex(params);
      if (i < round_by_rule_.size() && round_by_rule_[i] >= 0) {
        return round_infos_[round_by_rule_[i]];
      }
    }
    return findRoundInfo(params, num_factors);
  }
  // roundInfo's lookup and, the first time, its computation.
  const RoundInfo& findRoundInfo(const StepParams& params, int64_t num_factors);
  // Where round_by_rule_ holds the round info of a rule op's step.
  static size_t roundByRuleIndex(const StepParams& params) {
    constexpr size_t kKinds = static_cast<size_t>(OpPriorityKind::kLast) + 1;
    return (static_cast<size_t>(params.round_rule_index) * kKinds +
            static_cast<size_t>(params.priority)) *
               2 +
           (params.shared_operand ? 1 : 0);
  }
  // A step's parameters packed in a word (its direction, the factor
  // directions of the current op-priority round, the strategy), or
  // LastStep::kNone if they don't fit.
  uint64_t stepCode(PropagationDirection direction,
                    absl::Span<const PropagationDirection> factors) const;
  // The ops of the module in the order a fixed point first visits them.
  void collectOrder();
  // Whether `op`'s step can be skipped as a repeat of its last one; records
  // this step otherwise.
  bool repeatsLastStep(Op op, uint64_t code);
  // Marks `slot` changed.
  void touch(uint32_t slot) { changed_at_[slot] = ++clock_; }
  // Sets the sharding of `slot` and of the members of its sharding group
  // (if it really changes), queueing the affected ops when `notify`.
  void updateSlot(Value slot, TensorSharding sharding, bool notify) {
    updateSlot(slot, pool_.intern(std::move(sharding)), notify);
  }
  void updateSlot(Value slot, ShardingId id, bool notify);
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
  Value slotOf(Value v) const { return slotValue(slot_[v.id()]); }
  const TensorSharding* shardingOf(Value slot) const {
    return slot ? pool_.find(values_[slot.id()]) : nullptr;
  }
  // A sharding on a maximal mesh pins its op to one device: nothing
  // propagates through an op that has one.
  // Resolved once per distinct sharding.
  bool onMaximalMesh(ShardingId id) {
    if (id < maximal_.size() && maximal_[id] != kUnknown) {
      return maximal_[id] == kYes;
    }
    return id != ShardingPool::kNone && resolveMaximal(id);
  }
  bool resolveMaximal(ShardingId id);

  Module& m_;
  PropagationOptions options_;
  MeshTable meshes_;
  // The tables indexed by value or op id, in huge pages where the system
  // has them (internal/large_array.h).
  core_detail::LargeVector<uint32_t> slot_;  // value id -> slot (or kNoId)
  ShardingPool pool_;
  core_detail::LargeVector<ShardingId> values_;  // slot id -> sharding
  enum : uint8_t { kUnknown, kNo, kYes };
  std::vector<uint8_t> maximal_;  // sharding id -> onMaximalMesh
  StepMemo memo_;
  StepKey key_;  // the current step's, reused to keep its storage
  std::vector<StepUpdate> step_updates_;
  core_detail::LargeVector<uint8_t> dirty_;
  // slot id -> clock_ at its last update
  core_detail::LargeVector<uint64_t> changed_at_;
  uint64_t clock_ = 0;
  core_detail::LargeVector<LastStep> last_step_;  // op id -> its last step
  std::vector<FuncResults> funcs_;
  // The call graph, when the module has `sdy.func_data_flow_edge` ops.
  std::optional<CallGraph> calls_;
  std::vector<Op> func_edges_;  // scratch of notifyUsers
  core_detail::LargeVector<OpEntry> entries_;
  ClassifiedRules classified_;
  IdentityRules identity_;
  SlotGroups groups_;
  std::vector<uint32_t> worklist_;
  core_detail::LargeVector<uint8_t> in_worklist_;
  Op current_;
  std::optional<int64_t> user_round_;
  std::optional<int64_t> op_round_;
  bool aggressive_ = false;      // the strategy of the current fixed point
  bool has_func_edges_ = false;  // some op is an `sdy.func_data_flow_edge`
  // The module may have an `sdy.data_flow_edge` (Module::mayHaveOpsNamed).
  bool has_edges_ = false;
  PropagationWorkspace workspace_;
  // The current step's factor directions (in round_infos_), or none.
  absl::Span<const PropagationDirection> factor_directions_;
  // roundInfo of the current fixed point, found by the rule's index, the
  // kind of op and operand sharing (round_by_rule_: dense, -1 if not yet
  // computed) or, for identities, by the number of factors (round_by_key_).
  std::vector<RoundInfo> round_infos_;
  std::vector<int32_t> round_by_rule_;
  using RoundKey = std::tuple<OpPriorityKind, int64_t, bool>;
  absl::flat_hash_map<RoundKey, int32_t> round_by_key_;
  std::vector<uint32_t> order_;  // collectOrder
  // The current step's tensors, as slot ids (kNoId: no place for a
  // sharding): in rule_slots_ for a rule op, in scratch_slots_ otherwise.
  // The slots of an op do not change while propagating (values get their
  // slots in load(), and the module is not changed until writeBack()).
  absl::Span<const uint32_t> slots_;
  std::vector<uint32_t> scratch_slots_;
  core_detail::LargeVector<uint32_t> rule_slots_;
  std::vector<const TensorSharding*> ptrs_;
  PropagationStats stats_;
  DebugRecorder debug_;
  ShardingProjection debug_before_;
  const Mesh* debug_mesh_ = nullptr;
  // Last: destroyed first, it waits for its thread, which reads the module.
  Preclassification preclassification_;
};

}  // namespace shardkit::propagation_internal

#endif  // SHARDKIT_SRC_PROPAGATION_DRIVER_H_
