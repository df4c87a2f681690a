// The mpmd passes (docs/mpmd.md), registered with mpmd_opt's names by
// registerMpmdDialect (dialect.h). Each entry point runs one pass over a
// module; bad input or an impossible placement is an error with a location.
#ifndef SHARDKIT_MPMD_PASSES_H_
#define SHARDKIT_MPMD_PASSES_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"
#include "shardkit/passes/pass.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::mpmd {

// -inline: inlines func.call (never mpmd.call or mpmd.fragment_call), then
// canonicalizes and erases private functions that lost their last call.
absl::Status inlineCalls(Module& module);

// -mpmd-map-named-ops-to-mpmd-ops{assignment=NAME@MESH[/STAGE],...}: named
// computations become fragments on their meshes (assigns in, unassigns out),
// named tensors unassign(assign(x)) or nothing.
absl::Status mapNamedOpsToMpmdOps(Module& module, const PassOptions& options);

// -mpmd-inline-nested-user-exposed-ops{assignment=...}: inlines the named
// computations, named tensors, broadcasts and reduces nested in a named
// computation, checking their assignments against the parent's.
absl::Status inlineNestedUserExposedOps(Module& module,
                                        const PassOptions& options);

// -mpmd-introduce-transfers: assign(unassign(x)) becomes x or a transfer
// (one chain per value assigned to several meshes), a meshless sum of
// unassigns assigned to a mesh becomes a fragment there, and callees whose
// callers pass unassigns from one mesh assign the argument to it.
absl::Status introduceTransfers(Module& module);

// -mpmd-map-input-output-to-mesh{input-assignment=I@MESH,...
// output-assignment=...}: assigned inputs of the entry point become mesh
// tensors (unassigned at the top), assigned outputs are assigned.
absl::Status mapInputOutputToMesh(Module& module, const PassOptions& options);

// -mpmd-validate-named-ops-in-mpmd-func: reports (without failing) named ops
// outside mpmd functions and mpmd ops.
absl::Status validateNamedOpsInMpmdFunc(Module& module);

// -mpmd-copy-topology-from-main: mpmd.call callees get their caller's
// topology and become private.
absl::Status copyTopologyFromMain(Module& module);

// -mpmd-generate-sdy-meshes-from-topology: the sdy meshes become the
// topology's meshes and shardings are renamed to them.
absl::Status generateSdyMeshesFromTopology(Module& module);

// -mpmd-simplify-named-computations: duplicate, pass-through and unused
// operands and results of named computations are removed.
absl::Status simplifyNamedComputations(Module& module);

// ---- Mesh inference (docs/mpmd.md) ----

// -mpmd-infer-mesh-populate-use-set: use sets, from assigns backwards.
absl::Status inferMeshPopulateUseSet(Module& module);
// -mpmd-infer-mesh-populate-src-set: source sets, from unassigns and
// entry-point arguments forwards; annotates cross-mesh reductions.
absl::Status inferMeshPopulateSrcSet(Module& module);
// -mpmd-infer-mesh-assign-mesh-func-leaves{infer-transfers error-limit}:
// meshes for function outputs, unused inputs and ops, ops without results,
// and the operands of broadcasts and reduces.
absl::Status inferMeshAssignMeshForFuncLeaves(Module& module,
                                              const PassOptions& options);

// -mpmd-infer-mesh-convert-reduce-ops{infer-cross-mesh-reductions}:
// annotated reductions become mpmd.reduce ops, chains flattened.
absl::Status inferMeshConvertReduceOps(Module& module,
                                       const PassOptions& options);

// -mpmd-infer-mesh-rewrite-using-analysis{max-clones}: every meshless op is
// absorbed into or wrapped in fragments; callees and calls follow.
absl::Status inferMeshRewriteUsingAnalysis(Module& module,
                                           const PassOptions& options);
// -mpmd-infer-mesh-finalize{infer-transfers}: entry arguments on meshes,
// assign/unassign pairs become values or transfers, broadcasts transfers,
// reduces fragments; checks nothing is left unassigned.
absl::Status inferMeshFinalize(Module& module, const PassOptions& options);

// -mpmd-infer-mesh-validate-src-set-not-empty{error-limit} and
// -mpmd-infer-mesh-validate-no-additional-transfers-needed{error-limit}: the
// checks of mesh inference without infer-transfers.
absl::Status inferMeshValidateSrcSetNotEmpty(Module& module,
                                             const PassOptions& options);
absl::Status inferMeshValidateNoAdditionalTransfersNeeded(
    Module& module, const PassOptions& options);

// -mpmd-infer-mesh-pipeline{infer-transfers infer-cross-mesh-reductions}.
absl::Status inferMeshPipeline(Module& module, const PassOptions& options);

// -mpmd-erase-unused-callee-block-arguments: callee arguments that are only
// returned are dropped (their calls' results replaced by the operands).
absl::Status eraseUnusedCalleeBlockArguments(Module& module);

// -mpmd-import-pipeline{name-to-mesh-assignment enable-heterogeneous-meshes}:
// the whole import, up to and including mesh inference.
absl::Status importPipeline(Module& module, const PassOptions& options);

// -mpmd-insert-nameless-clone-of-negligible-ops: the users outside a named
// computation (but the function's return) of a result that a negligible op
// (no operands, one result) computes take a copy of that op placed right
// after the computation.
absl::Status insertNamelessCloneOfNegligibleOps(Module& module);

// ---- Sharding propagation (docs/mpmd.md, "Sharding propagation") ----

// -mpmd-populate-unreduced-out-sharding: a fragment result returned through
// an `sdy.sharding_constraint` with unreduced axes gets them on its
// out_sharding (a fragment without out_shardings gets fully closed ones).
absl::Status populateUnreducedOutSharding(Module& module);

// -mpmd-extract-reshards-from-inter-mesh-transfers: a transfer whose operand
// and result shardings differ keeps one of them, and a fragment on the
// producer's or the consumer's side does the resharding (functions with a
// homogeneous topology only).
absl::Status extractReshardsFromInterMeshTransfers(Module& module);

// -mpmd-convert-sdy-shardings-to-mpmd-types: the shardings in fragment,
// transfer, loop and function-argument attributes move into the mesh tensor
// types; every other `sdy.sharding` (but a host send's or recv's) is
// dropped. A transfer that reshards on one sdy mesh is reported.
absl::Status convertSdyShardingsToMpmdTypes(Module& module);

// -mpmd-enforce-user-shardings: the entry point's argument and result
// shardings (without sub-axes) become the in/out shardings of the fragments
// and transfers that take or produce them.
absl::Status enforceUserShardings(Module& module);

// -mpmd-convert-sdy-constants: `sdy.constant`s become `stablehlo.constant`s.
absl::Status convertSdyConstants(Module& module);

// -mpmd-fold-trivial-ops: select with a splat constant predicate and add of
// a splat zero fold away (the part of StableHLO's target-independent
// optimization the sharding pipeline needs).
absl::Status foldTrivialOps(Module& module);

// -mpmd-simplify-program: fragments lose duplicate, pass-through and unused
// results and operands.
absl::Status simplifyProgram(Module& module);

// -mpmd-sharding-propagation-pipeline: sdy propagation over the mpmd ops
// (sharding_propagation_pipeline.cc), then the passes above, in the
// reference's order.
absl::Status shardingPropagationPipeline(Module& module);

}  // namespace shardkit::mpmd

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_MPMD_PASSES_H_
