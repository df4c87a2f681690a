// The pipelines as C++ functions with typed options, and pass pipelines
// given as text. An embedder calls these instead of naming passes:
//
//   PipelineOptions options;
//   options.propagation.strategy = PropagationStrategy::kBasic;
//   absl::Status status = runPropagationPipeline(module, options);
#ifndef SHARDKIT_PASSES_PIPELINE_H_
#define SHARDKIT_PASSES_PIPELINE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/propagation/propagate.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// -sdy-import-pipeline: runImportPipeline(module, ImportPipelineOptions)
// (import_passes.h); -sdy-export-pipeline: runExportPipeline(module,
// ExportOptions) (export_passes.h).

struct PipelineOptions {
  ImportPipelineOptions import_options;
  // The propagation between import and export (propagate.h), by
  // `propagation-strategy`, `run-op-priority-propagation`,
  // `conservative-propagation`, `keep-sharding-rules`,
  // `debug-sharding-origins` and `debug-propagation-edge-sharding`. The
  // pipeline always propagates by user priority; its debug records are sunk
  // onto the data-flow ops with their edges and kept in the output.
  PropagationOptions propagation = {
      .strategy = PropagationStrategy::kAggressive,
      .op_priorities = true,
      .user_priorities = true};
  ExportOptions export_options;
};

// -sdy-propagation-pipeline: the import pipeline, user-priority propagation
// (op-priority rounds unless disabled) with the call passes around it
// (call_passes.h), the export pipeline.
absl::Status runPropagationPipeline(Module& module,
                                    const PipelineOptions& options = {});

// Runs a pass pipeline written as text: pass names separated by commas, each
// optionally followed by its options in braces, as mlir-opt's
// --pass-pipeline writes them (without the `builtin.module(...)` wrapper,
// which is accepted too):
//   "sdy-propagation-pipeline"
//   "sdy-add-data-flow-edges,sdy-basic-propagate{keep-sharding-rules=true}"
// An unknown pass or option is an error before any pass runs; each pass is
// run with runPass, which verifies the module after it.
absl::Status runPassPipeline(Module& module, std::string_view pipeline);

// One entry of a parsed pass pipeline: a registered pass and its options.
struct PipelinePass {
  std::string name;
  PassOptions options;
};

// Parses a pass pipeline as runPassPipeline reads it, checking every pass
// name (an unknown one gets the nearest registered name as a suggestion)
// and every option; runs nothing.
absl::StatusOr<std::vector<PipelinePass>> parsePassPipeline(
    std::string_view pipeline);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_PIPELINE_H_
