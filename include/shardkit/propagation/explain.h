// --explain-op: why propagation does what it does to one op. Draws
// docs/propagation.md's factor table of the op — one column per factor of its
// sharding rule (with the factor's size and kind), one row per operand and
// result (per source and target for a data-flow edge) with the axes that shard
// each factor, and the tensor's explicitly replicated axes — as the IR has it
// now and after one propagation step of that op alone.
//
//   factor table of %2 = stablehlo.dot_general in @main
//   rule: ([i, k], [k, j])->([i, j]) {i=8, j=32, k=16} reduction={k}
//   mesh: @mesh = <["a"=2, "b"=2, "c"=2]>
//
//   before:
//   | tensor       | i: 8, pass-through | j: 32, pass-through | k: 16,
//   reduction | replicated |
//   |--------------|--------------------|---------------------|------------------|------------|
//   | operand 0 %0 | {"a"}              | -                   | {"b", ?} | |
//   ...
//   after one aggressive step:
//   ...
//   updated: result 0 %2 = <@mesh, [{?}, {"c", "a", ?}]>
//
// A cell is written like a dimension sharding: the factor's axes, `?` when
// more may be added, `{}` when the factor is closed; `-` when the tensor
// doesn't map the factor. Overflow axes follow as `+overflow{...}`.
//
// Then why each tensor has its axes, from the records a propagation with
// debug-sharding-origins / debug-propagation-edge-sharding left
// (docs/propagation.md): per factor, each axis with the user sharding it
// came from, and the steps that changed the op:
//
//   where each axis came from (sdy.sharding_origins):
//   | tensor          | i: 8            | j: 4             |
//   | operand 0 %arg0 | "a" <- self     | -                |
//   | result 0 %0     | "a" <- input: 0 | "c" <- output: 0 |
//
//   steps that changed this op (sdy.propagation_edges):
//     step 1: "a" = operand-0 -> [result-0]
//
// (or how to get them, when the module has none for the op's tensors).
//
// The step is one call of the per-op engine (propagate_op.h) with the given
// strategy, in both directions (a barrier's allowed direction), without the
// user- or op-priority rounds.
#ifndef SHARDKIT_PROPAGATION_EXPLAIN_H_
#define SHARDKIT_PROPAGATION_EXPLAIN_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"
#include "shardkit/propagation/propagate.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

struct ExplainOptions {
  // kBasic steps with the basic strategy, anything else with the aggressive
  // one.
  PropagationStrategy strategy = PropagationStrategy::kAggressive;
  // Ask the registry for conservative rules and never propagate sub-axes.
  bool conservative = false;
};

// The first op, in pre-order, whose name is `selector` (e.g.
// `stablehlo.dot_general`), or, when `selector` starts with '%', that has a
// result printed as `selector` (`%3`, `%1#0`, `%c_2`: the names shardkit-opt
// prints, numbered per function). Null if there is none.
Op findExplainedOp(Module& module, std::string_view selector);

// The explanation of `op` (see the top of this file). An op propagation
// skips, or whose shardings have no common mesh, gets a one-line reason
// instead of tables. InvalidArgument if the op's rule doesn't fit it.
absl::StatusOr<std::string> explainOp(Op op,
                                      const ExplainOptions& options = {});

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PROPAGATION_EXPLAIN_H_
