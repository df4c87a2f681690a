#include "shardkit/factor_propagation/priorities.h"

#include <algorithm>

#include "shardkit/support/enum_table.h"

namespace shardkit {
namespace {

// The directions of each kind in the first rounds.
constexpr EnumTable<OpPriorityKind, PropagationDirection>
    kPassThroughDirections = {{
        {OpPriorityKind::kPassThrough, PropagationDirection::kBoth},
        {OpPriorityKind::kForwardPassThrough, PropagationDirection::kForward},
        {OpPriorityKind::kBroadcast, PropagationDirection::kNone},
        {OpPriorityKind::kOther, PropagationDirection::kNone},
    }};

PropagationDirection roundDirection(int64_t round, OpPriorityKind kind,
                                    const OpShardingRule* rule, int64_t factor,
                                    bool shared_operand) {
  bool broadcast = kind == OpPriorityKind::kBroadcast;
  switch (round) {
    case 0:
      return shared_operand ? PropagationDirection::kNone
                            : kPassThroughDirections[kind];
    case 1:
      return kPassThroughDirections[kind];
    case 2:
      if (rule != nullptr &&
          rule->factorType(factor) != FactorType::kPassThrough) {
        return PropagationDirection::kNone;
      }
      return broadcast ? PropagationDirection::kBackward
                       : PropagationDirection::kBoth;
    case 3:
      return broadcast ? PropagationDirection::kBackward
                       : PropagationDirection::kBoth;
    default:
      return PropagationDirection::kBoth;
  }
}

}  // namespace

PropagationDirection opPriorityDirection(int64_t round, OpPriorityKind kind,
                                         const OpShardingRule* rule,
                                         int64_t factor, bool shared_operand) {
  PropagationDirection direction = PropagationDirection::kNone;
  for (int64_t r = 0; r <= round && r < kNumOpPriorityRounds; ++r) {
    direction =
        unite(direction, roundDirection(r, kind, rule, factor, shared_operand));
  }
  return direction;
}

std::vector<int64_t> userPriorityRounds(
    absl::Span<const TensorSharding* const> shardings) {
  std::vector<int64_t> rounds = {kDefaultPriority};
  for (const TensorSharding* sharding : shardings) {
    if (sharding == nullptr) continue;
    for (const DimensionSharding& dim : sharding->dim_shardings) {
      rounds.push_back(dim.priorityOrDefault());
    }
  }
  std::sort(rounds.begin(), rounds.end());
  rounds.erase(std::unique(rounds.begin(), rounds.end()), rounds.end());
  return rounds;
}

bool dropPriorities(TensorSharding& sharding) {
  bool any = false;
  for (DimensionSharding& dim : sharding.dim_shardings) {
    any = any || dim.priority.has_value();
    dim.priority.reset();
  }
  return any;
}

}  // namespace shardkit
