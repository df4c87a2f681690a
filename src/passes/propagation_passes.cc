#include <string>
#include <utility>
#include <vector>

#include "shardkit/passes/pass.h"
#include "shardkit/passes/pipeline.h"
#include "shardkit/propagation/debug_info.h"
#include "shardkit/propagation/propagate.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

using OptionList = std::vector<PassOption>;
constexpr PassOptionKind kBool = PassOptionKind::kBool;

OptionList basicOptions() {
  return {
      {"keep-sharding-rules", "keep the op sharding rules propagation used",
       kBool},
      {"conservative-propagation",
       "never split axes or propagate non-divisible sharding axes", kBool},
      {"module-dump-directory", "accepted for compatibility; ignored"},
      {"debug-sharding-origins",
       "record the user sharding each axis came from (sdy.sharding_origins)",
       kBool},
      {"debug-propagation-edge-sharding",
       "record which operand or result gave each axis to which, per step "
       "(sdy.propagation_edges)",
       kBool},
  };
}

OptionList withStrategy(OptionList options) {
  options.push_back({"propagation-strategy",
                     "aggressive (default), basic or basic-then-aggressive",
                     PassOptionKind::kChoice,
                     {"aggressive", "basic", "basic-then-aggressive"}});
  return options;
}

OptionList withOpPriority(OptionList options) {
  options.push_back({"run-op-priority-propagation",
                     "run the op-priority rounds (default true)", kBool});
  return options;
}

// The export pipeline's options that -sdy-propagation-pipeline passes on,
// as the reference's PropagationOptions does.
const OptionList& exportOptions() {
  static const OptionList options = {
      {"enable-insert-explicit-collectives",
       "insert explicit reshards on every op and lower them to collectives, "
       "whose cost --comm-report gives (default false)",
       kBool},
      {"remove-all-gather-reduce-scatter-for-cmv1",
       "with explicit collectives, drop all-gathers into and reduce-scatters "
       "out of dots (default false)",
       kBool},
      {"avoid-export-for-partitioning",
       "keep sharding constraints and insert no reshards, so that the module "
       "can be propagated again (default false)",
       kBool},
      {"update-non-divisible-input-output-shardings",
       "make the main function's inputs and outputs evenly sharded "
       "(default true)",
       kBool},
  };
  return options;
}

// Reads the options every propagation pass shares.
absl::StatusOr<PropagationOptions> readOptions(const PassOptions& pass,
                                               PropagationStrategy strategy) {
  PropagationOptions options;
  options.strategy = strategy;
  SK_ASSIGN_OR_RETURN(options.keep_sharding_rules,
                      pass.getBool("keep-sharding-rules", false));
  SK_ASSIGN_OR_RETURN(options.conservative,
                      pass.getBool("conservative-propagation", false));
  SK_ASSIGN_OR_RETURN(options.debug.sharding_origins,
                      pass.getBool("debug-sharding-origins", false));
  SK_ASSIGN_OR_RETURN(options.debug.propagation_edges,
                      pass.getBool("debug-propagation-edge-sharding", false));
  if (pass.has("propagation-strategy")) {
    std::string value = pass.get("propagation-strategy");
    if (value == "aggressive") {
      options.strategy = PropagationStrategy::kAggressive;
    } else if (value == "basic") {
      options.strategy = PropagationStrategy::kBasic;
    } else if (value == "basic-then-aggressive") {
      options.strategy = PropagationStrategy::kBasicThenAggressive;
    } else {
      return absl::InvalidArgumentError(
          toAbsl(strCat("propagation-strategy must be 'aggressive', 'basic' or "
                        "'basic-then-aggressive', got '",
                        value, "'")));
    }
  }
  return options;
}

// How each propagation pass turns its options into PropagationOptions.
enum class Level { kBasic, kAggressive, kOpPriority, kUserPriority, kPipeline };

absl::Status runLevel(Module& module, const PassOptions& pass, Level level) {
  SK_ASSIGN_OR_RETURN(
      PropagationOptions options,
      readOptions(pass, level == Level::kBasic
                            ? PropagationStrategy::kBasic
                            : PropagationStrategy::kAggressive));
  if (level == Level::kBasic) options.strategy = PropagationStrategy::kBasic;
  if (level >= Level::kOpPriority) {
    SK_ASSIGN_OR_RETURN(options.op_priorities,
                        pass.getBool("run-op-priority-propagation", true));
  }
  options.user_priorities = level >= Level::kUserPriority;
  options.threads = pass.threads();
  if (level != Level::kPipeline) return propagate(module, options).status();

  PipelineOptions pipeline;
  SK_ASSIGN_OR_RETURN(pipeline.import_options.dedup_functions_fully,
                      pass.getBool("dedup-functions-fully", false));
  pipeline.propagation = options;
  ExportOptions& out = pipeline.export_options;
  out.threads = pass.threads();
  // The export pipeline's options the reference's PropagationOptions has.
  SK_ASSIGN_OR_RETURN(
      out.enable_insert_explicit_collectives,
      pass.getBool("enable-insert-explicit-collectives", false));
  SK_ASSIGN_OR_RETURN(
      out.remove_all_gather_reduce_scatter_for_cmv1,
      pass.getBool("remove-all-gather-reduce-scatter-for-cmv1", false));
  SK_ASSIGN_OR_RETURN(out.avoid_export_for_partitioning,
                      pass.getBool("avoid-export-for-partitioning", false));
  SK_ASSIGN_OR_RETURN(
      out.update_non_divisible_input_output_shardings,
      pass.getBool("update-non-divisible-input-output-shardings", true));
  return runPropagationPipeline(module, pipeline);
}

PassInfo propagationPass(const char* name, const char* description,
                         OptionList options, Level level) {
  if (level == Level::kPipeline) {
    options.push_back(
        {"dedup-functions-fully",
         "keep functions and calls and propagate through them instead of "
         "inlining each call (default false)",
         PassOptionKind::kBool});
    options.insert(options.end(), exportOptions().begin(),
                   exportOptions().end());
  }
  if (level != Level::kBasic) options = withStrategy(std::move(options));
  if (level >= Level::kOpPriority) options = withOpPriority(std::move(options));
  return PassInfo{name, description, std::move(options),
                  [level](Module& module, const PassOptions& pass) {
                    return runLevel(module, pass, level);
                  }};
}

}  // namespace

void registerPropagationPasses() {
  struct Row {
    const char* name;
    const char* description;
    Level level;
  };
  static constexpr Row kPasses[] = {
      {"sdy-basic-propagate",
       "Runs the basic sharding propagation algorithm (no conflict "
       "resolution).",
       Level::kBasic},
      {"sdy-aggressive-propagate",
       "Runs sharding propagation with the aggressive strategy, which "
       "resolves conflicts.",
       Level::kAggressive},
      {"sdy-op-priority-propagate",
       "Propagates in op-priority rounds (pass-through ops first), each a "
       "full aggressive propagation.",
       Level::kOpPriority},
      {"sdy-user-priority-propagate",
       "Propagates dimension shardings by user priority (p0 first), each "
       "round a full op-priority propagation.",
       Level::kUserPriority},
      {"sdy-propagation-pipeline",
       "Runs the import pipeline, user-priority propagation and the export "
       "pipeline.",
       Level::kPipeline},
  };
  for (const Row& row : kPasses) {
    registerPass(
        propagationPass(row.name, row.description, basicOptions(), row.level));
  }
}

void registerRemovePropagationDebugInfoPass() {
  registerPass(optionlessPass(
      "sdy-remove-propagation-debug-info",
      "Removes the propagation debug records (sharding origins and "
      "propagation edges) from ops, function arguments and results.",
      [](Module& module) {
        removePropagationDebugInfo(module);
        return absl::OkStatus();
      }));
}

}  // namespace shardkit
