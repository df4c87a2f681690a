// Helpers for the debug records propagation leaves (`sdy.sharding_origins`,
// `sdy.propagation_edges`; docs/propagation.md, "Why a tensor got its
// sharding") that passes outside propagation share.
#ifndef SHARDKIT_PROPAGATION_DEBUG_INFO_H_
#define SHARDKIT_PROPAGATION_DEBUG_INFO_H_

#include <cstdint>

#include "shardkit/core/propagation_edges.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

// The largest step index of every `sdy.propagation_edges` record in
// `module` (on ops, data-flow ops and function results), or -1. A pass that
// records steps numbers its own after it, so that the records of a pipeline
// read as one sequence.
int64_t lastRecordedPropagationStep(Module& module);

// Adds `step` to the `sdy.propagation_edges` of `op` (creating it).
void appendPropagationStep(Op op, PropagationStep step);

// Removes every propagation debug attribute (`sdy.sharding_origins`,
// `sdy.propagation_edges` and their `block_arg_`/`result_` forms, on ops,
// function arguments and results). The names constraints and manual
// computations got (`sdy.sharding_origin_name`) stay, as in the reference.
void removePropagationDebugInfo(Module& module);

}  // namespace shardkit

#endif  // SHARDKIT_PROPAGATION_DEBUG_INFO_H_
