// The mpmd export passes (docs/mpmd.md, "Export"): they take a program whose
// computations are all fragments on meshes and transfers between them, mark
// what the runtime needs (host memory, aliasing and donation, reserved
// memory), check it, and turn each distinct fragment into a function called
// with mpmd.fragment_call. Registered with mpmd_opt's names by
// registerMpmdDialect (dialect.h).
#ifndef SHARDKIT_MPMD_EXPORT_PASSES_H_
#define SHARDKIT_MPMD_EXPORT_PASSES_H_

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"
#include "shardkit/passes/pass.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::mpmd {

// -mpmd-mark-offloaded-input-output: fragment operands and results in host
// memory get `mhlo.memory_kind = "pinned_host"` in their arg_attrs/res_attrs;
// entry arguments and results whose memory kind disagrees with their users
// or producers are errors.
absl::Status markOffloadedInputOutput(Module& module);

// -mpmd-mark-aliasing-and-donation: a fragment operand used for the last time
// is aliased with a result of the same type, memory and layout
// (`tf.aliasing_output = N`) or else donated (`jax.buffer_donor = true`);
// entry arguments only when the user marked them.
absl::Status markAliasingAndDonation(Module& module);

// -mpmd-mark-fragment-reserved-memory: each fragment gets
// `reserved_hbm_bytes`, the bytes of device memory other live values hold on
// its mesh while it runs.
absl::Status markFragmentReservedMemory(Module& module);

// -mpmd-validate-no-backward-deps{fail-on-backward-deps}: in a forward-only
// program (no transposed origins), a fragment call consuming a value of a
// fragment call on a later mesh is reported (a warning, or an error).
absl::Status validateNoBackwardDeps(Module& module, const PassOptions& options);

// -mpmd-validate-no-reshards{fail-on-reshard-only-fragments}: fragment calls
// whose callee only returns its arguments are reported.
absl::Status validateNoReshards(Module& module, const PassOptions& options);

// -mpmd-validate-no-param-transfers{fail-on-param-transfers param-pattern}:
// cross-mesh transfers of values whose name location contains the pattern
// are reported.
absl::Status validateNoParamTransfers(Module& module,
                                      const PassOptions& options);

// -mpmd-validate-no-inferred-fragments{fail-on-inferred-fragments}: fragments
// without user origins are reported.
absl::Status validateNoInferredFragments(Module& module,
                                         const PassOptions& options);

// -mpmd-lower-to-fragment-calls{verbose-logging}: each group of equal
// fragments (same mesh, attribute lists and body) becomes one function
// `p<N>_<name>.<module>`, and each fragment a fragment_call of it.
absl::Status lowerToFragmentCalls(Module& module, const PassOptions& options);

// -mpmd-delay-inferred-fragments: inferred fragments move down to right
// before their first user.
absl::Status delayInferredFragments(Module& module);

// -mpmd-delay-transfers-from-cpu: transfers from CPU meshes or host memory
// move down to right before their first user.
absl::Status delayTransfersFromCpu(Module& module);

// -mpmd-mark-input-output-with-layouts: `mhlo.layout_mode` of entry
// arguments and results carried to the fragments using and producing them
// (default where transfers or several fragments are involved).
absl::Status markInputOutputWithLayouts(Module& module);

// -mpmd-sink-create-token-into-fragments: fragments using a token created
// outside get their own stablehlo.create_token.
absl::Status sinkCreateTokenIntoFragments(Module& module);

// -mpmd-export-pipeline: the export passes in order, ending with the
// lowering to fragment calls and the checks on them.
absl::Status exportPipeline(Module& module, const PassOptions& options);

}  // namespace shardkit::mpmd

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_MPMD_EXPORT_PASSES_H_
