// The import passes (the reference's docs/sdy_import_passes.md): the clean-up
// and preparation a module gets before sharding propagation. Each runs on a
// whole module and is registered under the flag name sdy_opt gives it.
//
//   -sdy-lift-inlined-meshes          liftInlinedMeshes
//   -sdy-remove-size-one-axes         removeSizeOneAxes
//   -sdy-explicit-gather-scatter-batching  explicitGatherScatterBatching
//   -sdy-constant-splitter            splitConstants(kConstants)
//   -sdy-constant-or-scalar-splitter  splitConstants(kConstantsOrScalars)
//   -sdy-manual-axes-cleanup          cleanupManualAxes
//   -sdy-add-data-flow-edges          addDataFlowEdges
//   -sdy-apply-sharding-constraints   applyShardingConstraints
//   -sdy-sharding-group-import        importShardingGroups
//   -sdy-import-pipeline              runImportPipeline (the above and the
//                                     call passes, in order)
#ifndef SHARDKIT_PASSES_IMPORT_PASSES_H_
#define SHARDKIT_PASSES_IMPORT_PASSES_H_

#include <string>

#include "absl/status/status.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Wraps every statically shaped edge owner (results of stablehlo.while, case
// and optimization_barrier; region arguments and results of named and manual
// computations) in an `sdy.data_flow_edge` that carries the owner's current
// sharding (for a manual computation's region argument, its in_sharding
// without the manual axes). All other uses of the owner then use the edge.
// An owner that already has an edge is left alone.
absl::Status addDataFlowEdges(Module& module);

// Copies the sharding of an `sdy.sharding_constraint` (and of each
// in_sharding of an `sdy.manual_computation`) to its input when the input has
// no sharding, the sharding is fully closed and no other constraint or manual
// computation uses the input with another sharding. When the input is on a
// data-flow edge, the constraint is moved right after the input and takes over
// all its uses instead (only unreduced axes go onto the edge). A chain of
// constraints also takes over the later uses of the chain's input in its
// block.
//
// With `debug_propagation_edges`, each copy is recorded as a propagation step
// (docs/propagation.md) on the constraint (`sdy.propagation_edges`, the
// constraint's axes going from result-0 to operand-0), or on the body
// argument's `sdy.data_flow_edge` for an in_sharding; steps continue after
// the last one recorded in the module, and propagation continues after them.
struct ApplyShardingConstraintsOptions {
  bool debug_propagation_edges = false;
};
absl::Status applyShardingConstraints(
    Module& module, const ApplyShardingConstraintsOptions& options = {});

enum class ConstantSplitMode {
  // Constant sub-computations: constants, iotas, and broadcasts, slices and
  // elementwise ops of them. Every use but the last gets its own copy.
  kConstants,
  // Also reshapes of constants and broadcasts of scalars ("scalar
  // expansions"); every user gets its own copy, scalars are shared, and the
  // originals are erased.
  kConstantsOrScalars,
};
// Splits constant sub-computations so that each has a single user (so
// propagation does not tie unrelated uses of a constant together), after
// turning every `stablehlo.constant` into an `sdy.constant`.
absl::Status splitConstants(Module& module, ConstantSplitMode mode);

// Replaces inlined meshes in shardings (and in StableHLO
// `replica_group_mesh_axes`) by references to `sdy.mesh` symbols, merging
// identical meshes: a new mesh is named `maximal_mesh_<id>`, `empty_mesh` or
// `mesh`, uniqued with `_0`, `_1`, ... Every mesh then gets a
// `stablehlo.mesh` attribute describing it.
absl::Status liftInlinedMeshes(Module& module);

// -sdy-remove-size-one-axes: drops every axis of size 1 from the dimension,
// replicated and unreduced axes of every sharding (named and inlined meshes
// alike; the meshes themselves keep them), and the priority of a closed
// dimension left without axes. Only modules with a mesh symbol that has an
// axis of size 1 are touched, as in the reference; manual axes are kept.
// Sub-axes a removed axis kept apart are merged (the reference leaves an
// invalid sharding there).
TensorSharding removeSizeOneAxes(const TensorSharding& sharding,
                                 const Mesh& mesh);
absl::Status removeSizeOneAxes(Module& module);

// -sdy-explicit-gather-scatter-batching: a gather or scatter that indexes
// operand dimension 0 with an iota along indices dimension 0 (row-wise
// indexing) gets explicit batching dimensions 0/0, and the iota component is
// removed from its indices; unused side-effect-free ops are then erased, as
// the reference's greedy patterns do (see the .cc for what is recognised).
absl::Status explicitGatherScatterBatching(Module& module);

// For every manual computation: sorts its manual axes in mesh order and adds
// the parts of manual axes an in/out sharding does not use to its replicated
// axes (replacing an empty mesh by the computation's common mesh).
absl::Status cleanupManualAxes(Module& module);

// Merges sharding groups that share a value, renumbers them 0..N-1 in order
// of first appearance, and drops duplicate (value, group) ops. Errors if a
// group mixes values of different shapes or of different manual computations.
absl::Status importShardingGroups(Module& module);

struct ImportPipelineOptions {
  // `dedup-functions-fully`: keep the functions and their calls (propagation
  // then follows calls through `sdy.func_data_flow_edge` ops) instead of
  // giving every call its own copy of its callee inlined as an
  // `sdy.named_computation`.
  bool dedup_functions_fully = false;
  // First read GSPMD `mhlo.sharding` attributes into sdy shardings
  // (-sdy-import-gspmd-shardings; docs/gspmd.md).
  bool gspmd_shardings = false;
  // The mesh those shardings are expressed on; empty: the module's only
  // non-maximal mesh.
  std::string gspmd_mesh;
};

// Optionally the GSPMD import; symbol-dce,
// propagate-sharding-from-func-to-call, then (unless dedup-functions-fully)
// flatten-call-graph, symbol-dce, import-func-calls, symbol-dce; then
// lift-inlined-meshes, remove-size-one-axes, constant-or-scalar-splitter,
// manual-axes-cleanup, add-data-flow-edges, apply-sharding-constraints,
// sharding-group-import (call_passes.h has the call passes).
absl::Status runImportPipeline(Module& module,
                               const ImportPipelineOptions& options = {});

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_IMPORT_PASSES_H_
