// Internal to the propagation layer: what the driver knows of each op before
// stepping it (its OpEntry), and the rules of the classified ops, shared by
// the ops of one signature. Ops are classified at their first visit; on a
// large module a thread classifies them ahead while the driver loads the
// shardings (Preclassification), and the first visit adopts the result.
#ifndef SHARDKIT_SRC_PROPAGATION_OP_CLASSIFICATION_H_
#define SHARDKIT_SRC_PROPAGATION_OP_CLASSIFICATION_H_

#include <cstdint>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/factor_propagation/priorities.h"
#include "shardkit/ir/graph.h"
#include "src/propagation/op_classes.h"
#include "src/rules/rule_cache.h"

namespace shardkit::propagation_internal {

struct OpEntry {
  bool classified = false;
  OpRole role = OpRole::kSkip;
  OpPriorityKind priority = OpPriorityKind::kOther;
  // Some non-scalar operand has other uses (opPriorityDirection).
  bool shared_operand = false;
  bool elementwise = false;
  bool rule_from_registry = false;
  // The op has an `sdy.sharding_rule` attribute.
  bool has_rule_attr = false;
  int32_t rule = -1;  // index into ClassifiedRules::rules
  // A rule op's slots (its operands', then its results'), `num_slots` of
  // them from this index of Driver::rule_slots_ on; kNoSlots until its
  // first visit.
  static constexpr uint32_t kNoSlots = UINT32_MAX;
  uint32_t first_slot = kNoSlots;
  uint32_t num_slots = 0;
};

// The rules of the ops classified so far, in the order they were first
// needed.
struct ClassifiedRules {
  // The step memo identifies rules by address (RuleTable keeps them). Only
  // registry rules are recorded by signature.
  RuleTable rules;
  // The entry of the first op of each rule (by rules index): what the ops
  // of one signature share.
  std::vector<OpEntry> rule_ops;
  bool saw_rule_attr = false;  // some classified op has an sdy.sharding_rule

  // Classifies `op` into `entry`, adding its rule unless an op of the same
  // signature brought it. Fails as classifyOp does, with `entry` partly
  // set.
  absl::Status classify(Op op, OpEntry& entry, bool conservative);
};

// Classifies the ops of a module on a thread of its own, into rules of its
// own, while the module does not change; an op's first visit then adopts its
// classification (adopt), in the visits' order, so that the driver's rules
// are numbered as if it had classified each op itself.
class Preclassification {
 public:
  Preclassification() = default;
  Preclassification(const Preclassification&) = delete;
  Preclassification& operator=(const Preclassification&) = delete;
  ~Preclassification() { finish(); }

  // Starts classifying every op of `module` that is not a symbol. The
  // module must not change until finish().
  void start(Module& module, bool conservative);
  // Waits for the classification to end (nothing if it never started).
  void finish();
  // Moves the classification of `op` (after finish()) into `entry` and its
  // rule into `into`; false, changing nothing, for an op it did not
  // classify or whose classification failed (classify it again to get the
  // error).
  bool adopt(Op op, OpEntry& entry, ClassifiedRules& into);
  // Frees what is left once every op that will be visited was.
  void release() {
    finish();
    rules_ = ClassifiedRules();
    entries_ = {};
    adopted_ = {};
  }

 private:
  void run(Module& module, bool conservative);

  std::thread thread_;
  ClassifiedRules rules_;
  std::vector<OpEntry> entries_;  // by op id; classified: adoptable
  std::vector<int32_t> adopted_;  // rules_ index -> index in the adopter
};

}  // namespace shardkit::propagation_internal

#endif  // SHARDKIT_SRC_PROPAGATION_OP_CLASSIFICATION_H_
