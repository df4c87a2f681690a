// Internal to the mpmd layer: what the optimize passes (docs/mpmd.md,
// "Optimize") ask of fragments: forward or backward, microbatch (call
// counter), scheduling unit, the mesh's place in the pipeline, and data-flow
// dependencies between ops of one block.
#ifndef SHARDKIT_SRC_MPMD_OPTIMIZE_UTILS_H_
#define SHARDKIT_SRC_MPMD_OPTIMIZE_UTILS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/ir/graph.h"
#include "src/mpmd/fragment_utils.h"

namespace shardkit::mpmd::mpmd_internal {

// A forward fragment's origins all have transpose count 0; a backward one's
// all 1.
bool isForwardFragment(Op fragment);
bool isBackwardFragment(Op fragment);
// A user fragment with a call counter and a single transpose count of 0 or 1:
// what the pipeline schedules order.
bool isSchedulingUnit(Op fragment);

// The meshes of the topology of the function enclosing `op`, and the index
// of the fragment's mesh among them (-1 if absent).
int numMeshes(Op op);
int meshIndex(Op fragment);

// `forward` may be rematerialized for `backward`: forward and backward
// fragments with the same call counter and stage, `backward` not right after
// `forward`.
bool canRemat(Op forward, Op backward);

// True if `target` (an op of the block of `source`) uses, directly or through
// other ops of the block, a result of `source`.
bool dependsOn(Op target, Op source);

// The ops of `block` whose results `op` uses (directly or in its regions),
// each once.
std::vector<Op> producersInBlock(Block block, Op op);

// Extra edges for sortTopologically: op -> the ops that must come before it.
using ControlDeps = absl::flat_hash_map<Op, std::vector<Op>>;

// Reorders the ops of `block` (its terminator stays last) so that every op
// comes after the producers of its operands and its `extra` predecessors, as
// MLIR's sortTopologically does: sweeps over the unscheduled ops in order,
// scheduling each that is ready; a sweep that schedules nothing (a cycle)
// schedules the first unscheduled op. A block without terminator is left
// alone.
void sortTopologically(Block block, const ControlDeps& extra);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_OPTIMIZE_UTILS_H_
