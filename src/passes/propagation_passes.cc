#include "shardkit/passes/propagation_passes.h"

#include <string>
#include <utility>
#include <vector>

#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"
#include "shardkit/passes/pass.h"
#include "shardkit/propagation/propagate.h"

namespace shardkit {
namespace {

using OptionList = std::vector<std::pair<std::string, std::string>>;

OptionList basicOptions() {
  return {
      {"keep-sharding-rules", "keep the op sharding rules propagation used"},
      {"conservative-propagation",
       "never split axes or propagate non-divisible sharding axes"},
      {"module-dump-directory", "accepted for compatibility; ignored"},
      {"debug-sharding-origins", "accepted for compatibility; ignored"},
      {"debug-propagation-edge-sharding", "accepted for compatibility; ignored"},
  };
}

OptionList withStrategy(OptionList options) {
  options.push_back({"propagation-strategy",
                     "aggressive (default), basic or basic-then-aggressive"});
  return options;
}

OptionList withOpPriority(OptionList options) {
  options.push_back({"run-op-priority-propagation",
                     "run the op-priority rounds (default true)"});
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
  if (pass.has("propagation-strategy")) {
    std::string value = pass.get("propagation-strategy");
    if (value == "aggressive") {
      options.strategy = PropagationStrategy::kAggressive;
    } else if (value == "basic") {
      options.strategy = PropagationStrategy::kBasic;
    } else if (value == "basic-then-aggressive") {
      options.strategy = PropagationStrategy::kBasicThenAggressive;
    } else {
      return absl::InvalidArgumentError(toAbsl(strCat(
          "propagation-strategy must be 'aggressive', 'basic' or "
          "'basic-then-aggressive', got '", value, "'")));
    }
  }
  return options;
}

absl::Status runPropagation(Module& module, const PropagationOptions& options) {
  return propagate(module, options).status();
}

// The import and export pipelines are separate passes; the propagation
// pipeline refuses to run (before touching the module) rather than skip one
// that isn't registered.
constexpr const char* kImportPipeline = "sdy-import-pipeline";
constexpr const char* kExportPipeline = "sdy-export-pipeline";

absl::Status runPropagationPipeline(Module& module,
                                    const PropagationOptions& options) {
  for (const char* name : {kImportPipeline, kExportPipeline}) {
    if (!findPass(name)) {
      return absl::FailedPreconditionError(toAbsl(strCat(
          "sdy-propagation-pipeline needs the pass '-", name,
          "', which is not registered")));
    }
  }
  SK_RETURN_IF_ERROR(runPass(module, kImportPipeline, {}));
  SK_RETURN_IF_ERROR(runPropagation(module, options));
  return runPass(module, kExportPipeline, {});
}

}  // namespace

void registerPropagationPasses() {
  registerPass({"sdy-basic-propagate",
                "Runs the basic sharding propagation algorithm (no conflict "
                "resolution).",
                basicOptions(), [](Module& m, const PassOptions& p) -> absl::Status {
                  SK_ASSIGN_OR_RETURN(PropagationOptions o,
                                      readOptions(p, PropagationStrategy::kBasic));
                  o.strategy = PropagationStrategy::kBasic;
                  return runPropagation(m, o);
                }});
  registerPass({"sdy-aggressive-propagate",
                "Runs sharding propagation with the aggressive strategy, which "
                "resolves conflicts.",
                withStrategy(basicOptions()),
                [](Module& m, const PassOptions& p) -> absl::Status {
                  SK_ASSIGN_OR_RETURN(PropagationOptions o,
                                      readOptions(p, PropagationStrategy::kAggressive));
                  return runPropagation(m, o);
                }});
  registerPass({"sdy-op-priority-propagate",
                "Propagates in op-priority rounds (pass-through ops first), each "
                "a full aggressive propagation.",
                withOpPriority(withStrategy(basicOptions())),
                [](Module& m, const PassOptions& p) -> absl::Status {
                  SK_ASSIGN_OR_RETURN(PropagationOptions o,
                                      readOptions(p, PropagationStrategy::kAggressive));
                  SK_ASSIGN_OR_RETURN(o.op_priorities,
                                      p.getBool("run-op-priority-propagation", true));
                  return runPropagation(m, o);
                }});
  registerPass({"sdy-user-priority-propagate",
                "Propagates dimension shardings by user priority (p0 first), each "
                "round a full op-priority propagation.",
                withOpPriority(withStrategy(basicOptions())),
                [](Module& m, const PassOptions& p) -> absl::Status {
                  SK_ASSIGN_OR_RETURN(PropagationOptions o,
                                      readOptions(p, PropagationStrategy::kAggressive));
                  SK_ASSIGN_OR_RETURN(o.op_priorities,
                                      p.getBool("run-op-priority-propagation", true));
                  o.user_priorities = true;
                  return runPropagation(m, o);
                }});
  registerPass({"sdy-propagation-pipeline",
                "Runs the import pipeline, user-priority propagation and the "
                "export pipeline.",
                withOpPriority(withStrategy(basicOptions())),
                [](Module& m, const PassOptions& p) -> absl::Status {
                  SK_ASSIGN_OR_RETURN(PropagationOptions o,
                                      readOptions(p, PropagationStrategy::kAggressive));
                  SK_ASSIGN_OR_RETURN(o.op_priorities,
                                      p.getBool("run-op-priority-propagation", true));
                  o.user_priorities = true;
                  return runPropagationPipeline(m, o);
                }});
}

}  // namespace shardkit
