// Export passes that undo the import's scaffolding after propagation.
//
//   -sdy-sink-data-flow-edges            sinkDataFlowEdges
//   -sdy-constant-merger                 mergeConstants(kConstants)
//   -sdy-constant-or-scalar-merger       mergeConstants(kConstantsOrScalars)
//   -sdy-remove-sharding-groups          removeShardingGroups
//   -sdy-sharding-constraint-to-reshard  shardingConstraintsToReshards
//   -sdy-close-shardings                 closeShardings
//   -sdy-drop-sharding-rules             dropShardingRules
//   -sdy-export-pipeline                 runExportPipeline
#ifndef SHARDKIT_PASSES_EXPORT_PASSES_H_
#define SHARDKIT_PASSES_EXPORT_PASSES_H_

#include "absl/status/status.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

struct SinkDataFlowEdgesOptions {
  // `sink-debug-sharding-origins`: move the edges' `sdy.sharding_origins` to
  // the data-flow op (`sdy.block_arg_sharding_origins`,
  // `sdy.result_sharding_origins`: the records of the edges that have one, in
  // owner order; set, possibly empty, on every data-flow op), as the
  // reference does.
  bool sink_debug_sharding_origins = false;
  // `sink-debug-propagation-edge-sharding`: likewise for the non-empty
  // `sdy.propagation_edges` (`sdy.block_arg_propagation_edges`,
  // `sdy.result_propagation_edges`).
  bool sink_debug_propagation_edge_sharding = false;
};

// The inverse of addDataFlowEdges: the sharding of every
// `sdy.data_flow_edge` goes back to its owner's data-flow op (owners of the
// same op without one get a fully open sharding on the first edge's mesh; an
// op none of whose edges has a sharding is left alone), and the edge op is
// replaced by its input.
absl::Status sinkDataFlowEdges(Module& module,
                               const SinkDataFlowEdgesOptions& options = {});

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
  // `keep-sharding-rules`: leave the `sdy.sharding_rule` attributes.
  bool keep_sharding_rules = false;
};

// The export pipeline after propagation: constant merging, sinking the
// data-flow edges, removing sharding groups, constraints to reshards, closing
// the shardings, and dropping the sharding rules. (The reference's partitioner
// steps, explicit reshards and collectives, are not part of it.)
absl::Status runExportPipeline(Module& module,
                               const ExportOptions& options = {});

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

// Registers the passes above (called from pass_list.cc).
void registerExportPasses();
void registerUnflattenCallGraphPass();
void registerExportNamedComputationsPass();
void registerVerifyUnreducedAxesPass();
void registerInlineMeshesPass();
void registerInsertExplicitReshardsPass();

}  // namespace shardkit

#endif  // SHARDKIT_PASSES_EXPORT_PASSES_H_
