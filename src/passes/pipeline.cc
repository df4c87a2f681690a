// The pipelines with typed options, and text pass pipelines.
#include "shardkit/passes/pipeline.h"

#include <utility>
#include <vector>

#include "shardkit/internal/phase_timing.h"
#include "shardkit/passes/call_passes.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/passes/symbol_dce.h"
#include "shardkit/support/nearest_name.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/scanner.h"

namespace shardkit {

// The import pipeline, propagation and the export pipeline, with the call
// passes between them (call_passes.h): with dedup-functions-fully, calls are
// followed through function data-flow edges; otherwise the named computations
// the import made of them become functions again, one per distinct sharding.
absl::Status runPropagationPipeline(Module& module,
                                    const PipelineOptions& options) {
  bool dedup = options.import_options.dedup_functions_fully;
  SK_TIMED_RETURN_IF_ERROR("sdy-import-pipeline",
                           runImportPipeline(module, options.import_options));
  if (dedup) {
    SK_TIMED_RETURN_IF_ERROR("sdy-add-func-data-flow-edges",
                             addFuncDataFlowEdges(module));
  }
  SK_TIMED_RETURN_IF_ERROR("sdy-pre-order-funcs", preOrderFuncs(module));
  PropagationOptions propagation = options.propagation;
  propagation.user_priorities = true;
  SK_TIMED_RETURN_IF_ERROR("sdy-user-priority-propagate",
                           propagate(module, propagation).status());
  // Propagation has already dropped the rules unless asked to keep them.
  ExportOptions export_options = options.export_options;
  export_options.keep_sharding_rules = true;
  export_options.sink.debug |= propagation.debug;
  export_options.keep_propagation_debug_info = true;
  if (dedup) {
    SK_TIMED_RETURN_IF_ERROR("sdy-propagate-to-func-results",
                             propagateToFuncResults(module));
    SK_TIMED_RETURN_IF_ERROR("sdy-sink-func-data-flow-edges",
                             sinkFuncDataFlowEdges(module));
  } else {
    // The computations' shardings are on their edges until these are sunk;
    // the functions made of them take the computations' shardings.
    SK_TIMED_RETURN_IF_ERROR("sdy-sink-data-flow-edges",
                             sinkDataFlowEdges(module, export_options.sink));
    // Sunk once: a second sink would overwrite the records with empty ones.
    export_options.sink = SinkDataFlowEdgesOptions();
    SK_TIMED_RETURN_IF_ERROR("sdy-export-named-computations",
                             exportNamedComputations(module));
    SK_TIMED_RETURN_IF_ERROR("sdy-propagate-to-func-results",
                             propagateToFuncResults(module));
  }
  SK_TIMED_RETURN_IF_ERROR(
      "sdy-unflatten-call-graph",
      unflattenCallGraph(module, /*dedup_functions_fully=*/false));
  SK_TIMED_RETURN_IF_ERROR("symbol-dce", symbolDce(module));
  SK_TIMED_RETURN_IF_ERROR("sdy-insert-func-call-reshards",
                           insertFuncCallReshards(module));
  TimedPhase phase("sdy-export-pipeline");
  return runExportPipeline(module, export_options);
}

absl::StatusOr<std::vector<PipelinePass>> parsePassPipeline(
    std::string_view pipeline) {
  std::string_view text = trimSpaces(pipeline);
  constexpr std::string_view kWrapper = "builtin.module(";
  if (text.starts_with(kWrapper) && text.ends_with(")")) {
    text = text.substr(kWrapper.size(), text.size() - kWrapper.size() - 1);
  }
  absl::StatusOr<std::vector<std::string_view>> parts = splitTopLevel(text);
  if (!parts.ok()) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("invalid pass pipeline '", pipeline,
                      "': ", fromAbsl(parts.status().message()))));
  }
  std::vector<PipelinePass> passes;
  for (std::string_view part : *parts) {
    std::string_view name = part;
    PassOptions options;
    if (size_t brace = part.find('{'); brace != std::string_view::npos) {
      if (!part.ends_with("}")) {
        return absl::InvalidArgumentError(
            toAbsl(strCat("invalid pass pipeline entry '", part,
                          "': options go in braces at its end")));
      }
      name = trimSpaces(part.substr(0, brace));
      SK_ASSIGN_OR_RETURN(options, PassOptions::parse(part.substr(
                                       brace + 1, part.size() - brace - 2)));
    }
    if (!name.empty() && name.front() == '-') name.remove_prefix(1);
    const PassInfo* pass = findPass(name);
    if (!pass) {
      std::string message =
          strCat("unknown pass '", name, "' in pipeline '", pipeline, "'");
      std::vector<std::string> names;
      for (const PassInfo* p : allPasses()) names.push_back(p->name);
      if (std::string near = nearestName(name, names); !near.empty()) {
        strAppend(message, "; did you mean '", near, "'?");
      }
      return absl::InvalidArgumentError(toAbsl(message));
    }
    SK_RETURN_IF_ERROR(validatePassOptions(*pass, options));
    passes.push_back({std::string(name), std::move(options)});
  }
  return passes;
}

absl::Status runPassPipeline(Module& module, std::string_view pipeline) {
  // Every pass and option is checked before the first pass runs.
  SK_ASSIGN_OR_RETURN(std::vector<PipelinePass> passes,
                      parsePassPipeline(pipeline));
  for (const PipelinePass& pass : passes) {
    SK_RETURN_IF_ERROR(runPass(module, pass.name, pass.options));
  }
  return absl::OkStatus();
}

}  // namespace shardkit
