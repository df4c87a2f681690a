// Internal to the propagation layer: the records behind the
// `debug-sharding-origins` and `debug-propagation-edge-sharding` options
// (docs/propagation.md, "Why a tensor got its sharding").
//
// The driver calls record() after every step that changed a sharding (an op,
// a data-flow edge, a propagation barrier, or a function result and its
// returned value) with the step's factor table before and after. From the
// two tables the recorder finds, per tensor, the axes the step added and the
// operand or result they came from, and keeps
//   - per value (its shardable value): the user sharding each axis came from
//     (`input: 0`, `output: 1`, `constraint_2`, `mc_0_input: 1`, ...), the
//     origin of the source's axis carried over;
//   - per op: the step's edges `axis = source -> [targets]`.
// save() writes them as the reference does: `sdy.sharding_origins` (a
// dictionary per value, on the op, its `sdy.data_flow_edge`, or the function
// argument or result attributes), `sdy.propagation_edges` and
// `sdy.sharding_origin_name` on constraints and manual computations.
#ifndef SHARDKIT_SRC_PROPAGATION_DEBUG_RECORDS_H_
#define SHARDKIT_SRC_PROPAGATION_DEBUG_RECORDS_H_

#include <cstdint>
#include <map>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/propagation_edges.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/factor_propagation/sharding_projection.h"
#include "shardkit/ir/graph.h"

namespace shardkit::propagation_internal {

// The user sharding an axis came from.
struct ShardingOrigin {
  enum class Kind { kInput, kOutput, kConstraint, kMcInput, kMcOutput };
  Kind kind = Kind::kInput;
  int64_t index = 0;      // function argument/result or computation operand
  int64_t source_id = 0;  // the constraint's or manual computation's number
};

// `input: 0`, `output: 1`, `constraint_3`, `mc_0_input: 2`, `mc_1_output: 0`.
std::string originName(const ShardingOrigin& origin);

// One step, as the driver hands it over. `operands` and `results` are the
// shardable values of the step's tensors (null where a tensor has none); for
// a function result, both are the returned value and `func` is the function.
struct RecordedStep {
  Op op;
  Op func;
  absl::Span<const Value> operands;
  absl::Span<const Value> results;
  const OpShardingRule* rule = nullptr;
  const Mesh* mesh = nullptr;
  const ShardingProjection* before = nullptr;
  const ShardingProjection* after = nullptr;
};

class DebugRecorder {
 public:
  DebugRecorder(Module& module, bool origins, bool edges)
      : m_(module), origins_(origins), edges_(edges) {}

  bool enabled() const { return origins_ || edges_; }

  // Records the user shardings as origins (and names the constraints and
  // manual computations); edge steps continue after the last step already
  // recorded in the module (e.g. by -sdy-apply-sharding-constraints).
  void prepare();
  // A step that changed at least one sharding.
  void record(const RecordedStep& step);
  // Writes the records onto the module.
  void save();

 private:
  using AxisOrigins = std::map<AxisRef, ShardingOrigin>;
  struct Edge {
    EdgeValueRef source;
    EdgeValueRef target;
    int64_t step = 0;
  };
  using AxisEdges = std::map<AxisRef, Edge>;

  void addOrigins(Value value, const TensorSharding* sharding,
                  ShardingOrigin origin);
  const ShardingOrigin* findOrigin(Value value, const AxisRef& axis) const;
  // The axes each tensor of `step` gained, and from which tensor.
  std::vector<AxisEdges> newAxisEdges(const RecordedStep& step,
                                      int64_t index) const;
  void saveOrigins();
  void saveEdges();

  Module& m_;
  bool origins_;
  bool edges_;
  int64_t next_step_ = 0;
  absl::flat_hash_map<Value, AxisOrigins> value_origins_;
  // Per op: every edge of every step (in the order recorded).
  absl::flat_hash_map<Op, std::vector<std::pair<AxisRef, Edge>>> op_edges_;
  // Per function: the first edge of each axis between its results and
  // returned values, all kept for result 0 as the reference does.
  absl::flat_hash_map<Op, AxisEdges> func_edges_;
};

}  // namespace shardkit::propagation_internal

#endif  // SHARDKIT_SRC_PROPAGATION_DEBUG_RECORDS_H_
