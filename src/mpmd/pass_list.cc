// The mpmd passes, registered with their mpmd_opt names and options.
#include <string>
#include <utility>

#include "shardkit/mpmd/passes.h"
#include "shardkit/passes/pass.h"
#include "src/mpmd/common_passes.h"
#include "src/mpmd/registration.h"

namespace shardkit::mpmd::mpmd_internal {

void registerPasses() {
  registerPass(optionlessPass(
      "inline",
      "Inlines func.call ops (never mpmd.call or mpmd.fragment_call), then "
      "canonicalizes and erases private functions left without calls",
      inlineCalls));
  const PassOption kAssignment = {
      "assignment",
      "names of computations and tensors to meshes and optional stages, "
      "e.g. 'n0@m0,n1@m1/1' (a mesh may carry '#memory_kind')",
      PassOptionKind::kString};
  registerPass({"mpmd-map-named-ops-to-mpmd-ops",
                "Replaces each named computation by a fragment on its assigned "
                "mesh and each named tensor by an assign/unassign pair",
                {kAssignment},
                mapNamedOpsToMpmdOps});
  registerPass({"mpmd-inline-nested-user-exposed-ops",
                "Inlines named computations, named tensors, broadcasts and "
                "reduces nested in a named computation, checking their "
                "assignment matches the parent's",
                {kAssignment},
                inlineNestedUserExposedOps});
  registerPass(optionlessPass(
      "mpmd-introduce-transfers",
      "Replaces assign(unassign(x)) by x or by transfers, assigns meshless "
      "sums to the mesh that uses them, and pushes unassigns into callees",
      introduceTransfers));
  registerPass({"mpmd-map-input-output-to-mesh",
                "Assigns the entry point's inputs and outputs to meshes",
                {{"input-assignment",
                  "function input indices to meshes, e.g. '0@m0,1@m1'"},
                 {"output-assignment",
                  "function output indices to meshes, e.g. '0@m0,1@m1'"}},
                mapInputOutputToMesh});
  registerPass(optionlessPass(
      "mpmd-validate-named-ops-in-mpmd-func",
      "Reports named computations and named tensors outside mpmd functions "
      "and mpmd ops",
      validateNamedOpsInMpmdFunc));
  registerPass(optionlessPass(
      "mpmd-copy-topology-from-main",
      "Gives the callees of mpmd.call the topology of their caller and makes "
      "them private",
      copyTopologyFromMain));
  registerPass(optionlessPass(
      "mpmd-generate-sdy-meshes-from-topology",
      "Replaces the module's sdy meshes by the topology's meshes and renames "
      "shardings to them",
      generateSdyMeshesFromTopology));
  registerPass(optionlessPass(
      "mpmd-simplify-named-computations",
      "Removes duplicate, pass-through and unused operands and results of "
      "named computations",
      simplifyNamedComputations));
  registerPass(optionlessPass(
      "mpmd-infer-mesh-populate-use-set",
      "Mesh inference: the use set of each value (the meshes it is used in), "
      "propagated back from assigns",
      inferMeshPopulateUseSet));
  registerPass(optionlessPass(
      "mpmd-infer-mesh-populate-src-set",
      "Mesh inference: the source set of each value (the meshes it can come "
      "from), propagated forward from unassigns and entry-point arguments",
      inferMeshPopulateSrcSet));
  const PassOption kInferTransfers = {
      "infer-transfers",
      "create transfers where needed instead of failing (default false)",
      PassOptionKind::kBool};
  const PassOption kErrorLimit = {
      "error-limit", "errors to report before failing, -1 for all (default 5)",
      PassOptionKind::kInt};
  registerPass({"mpmd-infer-mesh-assign-mesh-func-leaves",
                "Mesh inference: assigns meshes to function outputs, unused "
                "inputs and ops, ops without results, and the operands of "
                "broadcasts and reduces",
                {kInferTransfers, kErrorLimit},
                inferMeshAssignMeshForFuncLeaves});
  registerPass({"mpmd-infer-mesh-convert-reduce-ops",
                "Mesh inference: turns reductions annotated as cross-mesh into "
                "cross-mesh reduce ops, flattening chains",
                {{"infer-cross-mesh-reductions",
                  "convert every annotated reduction, not only those a user "
                  "marked with a none-reduce (default false)",
                  PassOptionKind::kBool}},
                inferMeshConvertReduceOps});
  registerPass({"mpmd-infer-mesh-rewrite-using-analysis",
                "Mesh inference: absorbs each meshless op into its consumer "
                "fragments or wraps it in fragments, rewriting calls, callees "
                "and loops",
                {{"max-clones",
                  "how many consumer fragments an op may be cloned into "
                  "(default 1: never cloned)",
                  PassOptionKind::kInt}},
                inferMeshRewriteUsingAnalysis});
  registerPass({"mpmd-infer-mesh-finalize",
                "Mesh inference: puts entry arguments on meshes, turns "
                "assign/unassign pairs, broadcasts and reduces into transfers "
                "and fragments, and checks nothing is left meshless",
                {kInferTransfers},
                inferMeshFinalize});
  registerPass({"mpmd-infer-mesh-validate-src-set-not-empty",
                "Mesh inference: checks every meshless op can be placed "
                "without a new transfer",
                {kErrorLimit},
                inferMeshValidateSrcSetNotEmpty});
  registerPass({"mpmd-infer-mesh-validate-no-additional-transfers-needed",
                "Mesh inference: checks every meshless op is used only where "
                "it can be placed",
                {kErrorLimit},
                inferMeshValidateNoAdditionalTransfersNeeded});
  registerPass({"mpmd-infer-mesh-pipeline",
                "Mesh inference: places every meshless op of the mpmd "
                "functions on a mesh",
                {kInferTransfers,
                 {"infer-cross-mesh-reductions",
                  "turn reductions across meshes into cross-mesh reduces "
                  "(default false; implied by infer-transfers)",
                  PassOptionKind::kBool}},
                inferMeshPipeline});
  registerPass(optionlessPass(
      "mpmd-erase-unused-callee-block-arguments",
      "Drops callee arguments that are only returned, replacing the calls' "
      "results by the operands",
      eraseUnusedCalleeBlockArguments));
  registerPass({"mpmd-import-pipeline",
                "Imports an mpmd program: named computations and tensors onto "
                "their assigned meshes, transfers, then mesh inference",
                {{"name-to-mesh-assignment",
                  "names of computations and tensors to meshes and optional "
                  "stages, e.g. 'n0@m0,n1@m1/1'"},
                 {"enable-heterogeneous-meshes",
                  "generate the sdy meshes from the topology (default false)",
                  PassOptionKind::kBool},
                 {"merge-after-scheduling",
                  "leave inferred fragments unmerged, for after scheduling "
                  "(default false)",
                  PassOptionKind::kBool}},
                importPipeline});
  registerExportPasses();
  registerOptimizePasses();
  registerCommonPasses();
  registerPass(optionlessPass(
      "mpmd-insert-nameless-clone-of-negligible-ops",
      "Clones the negligible ops (no operands, one result) a named "
      "computation returns right after it, for its users outside",
      insertNamelessCloneOfNegligibleOps));
  registerShardingPropagationPasses();
}

}  // namespace shardkit::mpmd::mpmd_internal
