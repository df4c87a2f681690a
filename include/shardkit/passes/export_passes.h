// Export passes that undo the import's scaffolding after propagation.
//
//   -sdy-sink-data-flow-edges            sinkDataFlowEdges
//   -sdy-constant-merger                 mergeConstants(kConstants)
//   -sdy-constant-or-scalar-merger       mergeConstants(kConstantsOrScalars)
//   -sdy-remove-sharding-groups          removeShardingGroups
//   -sdy-sharding-constraint-to-reshard  shardingConstraintsToReshards
//   -sdy-close-shardings                 closeShardings
//   -sdy-drop-sharding-rules             dropShardingRules
//   -sdy-drop-sharding-and-mesh          dropShardingAndMesh
//   -sdy-update-non-divisible-input-output-shardings, ...
//   -sdy-export-pipeline                 runExportPipeline
#ifndef SHARDKIT_PASSES_EXPORT_PASSES_H_
#define SHARDKIT_PASSES_EXPORT_PASSES_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"
#include "shardkit/propagation/propagate.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

struct SinkDataFlowEdgesOptions {
  // The debug records to move from the edges to their data-flow op, as the
  // reference does. `sharding_origins` (`sink-debug-sharding-origins`): the
  // edges' `sdy.sharding_origins` go to `sdy.block_arg_sharding_origins` or
  // `sdy.result_sharding_origins` (the records of the edges that have one,
  // in owner order; set, possibly empty, on every data-flow op).
  // `propagation_edges` (`sink-debug-propagation-edge-sharding`): likewise
  // for the non-empty `sdy.propagation_edges`
  // (`sdy.block_arg_propagation_edges`, `sdy.result_propagation_edges`).
  DebugRecords debug = {};
};

// The inverse of addDataFlowEdges: the sharding of every
// `sdy.data_flow_edge` goes back to its owner's data-flow op (owners of the
// same op without one get a fully open sharding on the first edge's mesh; an
// op none of whose edges has a sharding is left alone), and the edge op is
// replaced by its input.
absl::Status sinkDataFlowEdges(Module& module,
                               const SinkDataFlowEdgesOptions& options = {});

// Same for the edges of one data-flow op: their shardings go to `op`, and
// their `sdy.data_flow_edge` ops are replaced by their inputs.
void sinkDataFlowEdgesOf(Op op, const SinkDataFlowEdgesOptions& options = {});

// Closes every dimension of every sharding in the module and drops every
// replicated axis (manual axes of a manual computation too); unreduced axes
// stay.
absl::Status closeShardings(Module& module);

// Erases every `sdy.sharding_group` op.
absl::Status removeShardingGroups(Module& module);

// Replaces every `sdy.sharding_constraint` by an `sdy.reshard` to the same
// sharding.
absl::Status shardingConstraintsToReshards(Module& module);

// Removes every `sdy.sharding_rule` attribute but custom rules.
absl::Status dropShardingRules(Module& module);

enum class ConstantMergeMode {
  // Constants (`sdy.constant`, `stablehlo.constant`) only.
  kConstants,
  // Also broadcasts of the same scalar to the same type.
  kConstantsOrScalars,
};

// The inverse of the constant splitter: a constant (or, per `mode`, a scalar
// broadcast) with the same attributes, shardings included, as an earlier one
// in the same block is replaced by that one.
absl::Status mergeConstants(Module& module, ConstantMergeMode mode);

struct ExportOptions {
  SinkDataFlowEdgesOptions sink;
  // The reference sinks the debug records asked for by `sink`, dumps the
  // module to its dump directory and then removes them; shardkit has no dump
  // directory, so a caller that wants the records in the output (as
  // runPropagationPipeline does) keeps them.
  bool keep_propagation_debug_info = false;
  // `keep-sharding-rules`: leave the `sdy.sharding_rule` attributes.
  bool keep_sharding_rules = false;
  // `avoid-export-for-partitioning`: keep sharding groups and constraints and
  // insert no reshards, so that the module can be propagated again.
  bool avoid_export_for_partitioning = false;
  // `enable-insert-explicit-collectives`: the full version of explicit
  // reshards, lowered to collectives.
  bool enable_insert_explicit_collectives = false;
  // `remove-all-gather-reduce-scatter-for-cmv1` (with explicit collectives).
  bool remove_all_gather_reduce_scatter_for_cmv1 = false;
  // `update-non-divisible-input-output-shardings`: even shardings, without
  // sub-axes in the main function's open dimensions, at the boundary.
  bool update_non_divisible_input_output_shardings = true;
  // `dedup-functions-fully`, for -sdy-unflatten-call-graph.
  bool dedup_functions_fully = false;
  // `inline-meshes`: end with -sdy-inline-meshes. The reference's
  // -sdy-export-pipeline does; its propagation pipeline keeps the mesh
  // symbols.
  bool inline_meshes = false;
  // Threads explicit reshards may use (InsertExplicitReshardsOptions).
  int threads = 1;
};

// The export pipeline after propagation, in the reference's order:
// unflattening the call graph (and dropping functions nobody calls), constant
// merging, sinking the data-flow edges, removing sharding groups, constraints
// to reshards, even input/output shardings, closing the shardings, explicit
// reshards (and collectives), collective clean-up, dropping the sharding
// rules. docs/export.md lists the steps.
absl::Status runExportPipeline(Module& module,
                               const ExportOptions& options = {});

// -sdy-update-non-divisible-input-output-shardings: the shardings of every
// function's arguments and results, of call results and of manual
// computations' operands and results are cut to the longest prefix that
// shards them evenly (evenlySharded, core/sharding_math.h).
absl::Status updateNonDivisibleInputOutputShardings(Module& module);

// -sdy-remove-sub-axes-in-input-output-shardings: in the main function's
// argument and result shardings, every open dimension loses its first
// sub-axis and the axes after it.
absl::Status removeSubAxesInInputOutputShardings(Module& module);

// The function called `main`, or the module's only function; an error
// otherwise.
absl::StatusOr<FuncOp> mainFunction(Module& module);

// -sdy-drop-sharding-and-mesh: removes every `sdy.sharding` attribute (of
// ops, function arguments and results) and every `sdy.mesh` op (an op that
// still names a mesh then fails verification, as in the reference).
absl::Status dropShardingAndMesh(Module& module);

// -sdy-remove-all-gather-reduce-scatter-for-cmv1: removes an sdy.all_gather
// whose only user is a dot and an sdy.reduce_scatter of a dot's result that
// has no unreduced axes (the dot takes its out sharding).
absl::Status removeAllGatherReduceScatterForCmv1(Module& module);

// -sdy-check-collectives (shardkit's own): for every value that feeds sdy
// collectives, distributes a tensor of host data (element i = i) as the
// value's sharding demands (unreduced over the axes the collectives right
// after it reduce: its op left partial values there), runs every collective
// hanging off it on the per-device buffers (sim/simulator.h), and checks
// after each one that every device holds what the collective's out sharding
// demands. The first collective where they differ (or whose out sharding is
// not the one it produces) is an error at that op. Long dimensions are
// simulated at a size with the same remainder modulo their shard counts;
// values too large even so, dynamic or of unknown meshes are not checked.
absl::Status checkCollectives(Module& module);

struct ResolveSingleDeviceOptions {
  // `replica-count` and `partition-count`: the device id is the partition id
  // unless there are several replicas (and one partition).
  int64_t replica_count = 1;
  int64_t partition_count = 1;
};

// -sdy-resolve-single-device-sharding: every op (outside the sdy dialect)
// with a result on a single device N (a maximal mesh) runs inside
// `stablehlo.if (device id == N)`, the other devices returning zeros (fresh
// tokens for tokens); each tensor result is then all-reduced over the global
// mesh's axes (MeshTable::globalMeshName), which also replaces reshards of it
// to the global mesh, replicated. The reshards that moved its operands to the
// device are bypassed. Nothing happens without a global mesh.
absl::Status resolveSingleDeviceSharding(
    Module& module, const ResolveSingleDeviceOptions& options = {});

// -sdy-unflatten-call-graph: every call calls one chosen copy among the
// copies of its callee's original function (`sdy.original_func_name`) with
// the same manual axes and, unless `dedup_functions_fully`, the same argument
// and result shardings. With `dedup_functions_fully` the copy kept is the one
// with the most calls among those sharded alike, and calls are redirected
// without resharding (as the reference does). The copies' flattening
// attributes are removed.
absl::Status unflattenCallGraph(Module& module, bool dedup_functions_fully);

// -sdy-export-named-computations: each sdy.named_computation (innermost
// first) becomes a call of a new private function at the end of the module,
// named after the computation (made unique as MLIR's symbol table does) and
// marked with `sdy.original_func_name`; the function's arguments carry the
// in shardings, the call the computation's attributes and out shardings.
absl::Status exportNamedComputations(Module& module);

// -sdy-verify-unreduced-axes: an error at every op outside the sdy dialect
// that drops an unreduced axis of its operands, and at every return or call
// whose unreduced axes differ from those declared on the other side.
absl::Status verifyUnreducedAxes(Module& module);

// -sdy-inline-meshes: every sharding that refers to an sdy.mesh gets that
// mesh inline (`mesh<[...]>`); the sdy.mesh ops are removed.
absl::Status inlineMeshes(Module& module);

struct InsertExplicitReshardsOptions {
  // `enable-full-version`: reshard every op with a sharding rule; otherwise
  // only calls and concatenates whose operands are sharded unlike the result.
  bool enable_full_version = false;
  // With more than one thread, a function of at least `parallel_min_ops`
  // ops is first read on that many threads, without changing anything, for
  // the first op whose visit may change it; the ops before it are not
  // visited again. The module comes out as with one thread.
  int threads = 1;
  size_t parallel_min_ops = 8192;
};

// -sdy-insert-explicit-reshards: for every op with a (non-custom) sharding
// rule whose operands and results do not agree with one sharding per factor,
// picks the factor shardings (findCommonAxes,
// factor_propagation/explicit_reshards.h), reshards the operands to them and
// the results from them back to their shardings, and all-reduces results
// over the axes of sharded reduction factors. Sources of data-flow edges,
// call operands and function results are resharded to the sharding their
// target has.
absl::Status insertExplicitReshards(
    Module& module, const InsertExplicitReshardsOptions& options);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_EXPORT_PASSES_H_
