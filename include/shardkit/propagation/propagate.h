// Sharding propagation over a whole Module: the strategy hierarchy of
// docs/propagation.md (user priorities → op priorities → aggressive → basic)
// driven by a worklist.
//
//   for each user priority round (if enabled)
//     for each op priority round (if enabled)
//       for each strategy (basic, aggressive, or basic then aggressive)
//         propagate to a fixed point:
//           function results → returned values, then every op (ops with a
//           sharding rule, propagation barriers, data-flow edges) from a
//           worklist, then returned values → function results.
//
// An op is revisited only when the sharding of one of its operands or results
// changes. A target of a data-flow edge is sharded through its
// `sdy.data_flow_edge` op (manual axes added/removed across a manual
// computation's edges); ops without a rule (calls, unknown ops, data-flow ops
// before `-sdy-add-data-flow-edges`) are skipped; members of a sharding group
// always receive the same sharding. docs/propagation.md, part 2, has the
// details.
#ifndef SHARDKIT_PROPAGATION_PROPAGATE_H_
#define SHARDKIT_PROPAGATION_PROPAGATE_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/statusor.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

enum class PropagationStrategy {
  kBasic,
  kAggressive,
  // A fixed point with the basic strategy, then one with the aggressive
  // strategy (in each op-priority round).
  kBasicThenAggressive,
};

// The debug records of propagation (docs/propagation.md), which
// PropagationOptions asks for and SinkDataFlowEdgesOptions moves.
struct DebugRecords {
  // Where each axis of each value came from (`sdy.sharding_origins`; the
  // `debug-sharding-origins` option).
  bool sharding_origins = false;
  // Which operand or result gave each axis to which others, step by step
  // (`sdy.propagation_edges`; `debug-propagation-edge-sharding`).
  bool propagation_edges = false;

  bool any() const { return sharding_origins || propagation_edges; }
  // Adds the records `other` names.
  DebugRecords& operator|=(const DebugRecords& other) {
    sharding_origins |= other.sharding_origins;
    propagation_edges |= other.propagation_edges;
    return *this;
  }
};

struct PropagationOptions {
  PropagationStrategy strategy = PropagationStrategy::kBasic;
  // Propagate in the op-priority rounds (pass-through ops first).
  bool op_priorities = false;
  // Propagate dimension shardings by user priority (p0 first).
  bool user_priorities = false;
  // Never split axes or propagate non-divisible axes.
  bool conservative = false;
  // Keep the `sdy.sharding_rule` attributes the registry created.
  bool keep_sharding_rules = false;
  // The debug records to leave on the module.
  DebugRecords debug = {};
  // With more than one thread, a module of at least `parallel_min_ops` ops
  // has its ops classified (their rules found) on a second thread while the
  // shardings are read. The result is the same as with one thread.
  int threads = 1;
  size_t parallel_min_ops = 4096;
};

struct PropagationStats {
  // Fixed-point computations run (one per priority round combination).
  int64_t rounds = 0;
  // Times an op (or data-flow edge, or function result) was propagated.
  int64_t op_visits = 0;
  // Visits skipped because they would repeat an op's last step: the same
  // parameters on unchanged shardings.
  int64_t skipped_visits = 0;
  // Shardings that changed.
  int64_t updates = 0;
};

// Propagates the module's shardings in place. Fails (InvalidArgument, with
// the op's location) on a value propagation cannot describe: a dynamically
// shaped or tuple result.
absl::StatusOr<PropagationStats> propagate(
    Module& module, const PropagationOptions& options = {});

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PROPAGATION_PROPAGATE_H_
