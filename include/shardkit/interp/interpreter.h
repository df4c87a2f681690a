// The StableHLO interpreter (docs/interp.md): runs a function of a Module on
// host tensors by the StableHLO specification's semantics of each op, with
// func.call, the interpreter's `interpreter.run_parallel` (a grid of
// replicas x partitions, each program a process of its own whose collectives
// meet the others'), and the checks of StableHLO's test dialect
// (`check.expect_eq`, ...).
//
//   ParseOptions opts;  // after registerInterpreterDialects()
//   auto module = parseModule(text, "f.mlir", opts);
//   auto result = runFunction(**module, "main", {});
//   if (result.ok() && result->failed_checks.empty()) ...
#ifndef SHARDKIT_INTERP_INTERPRETER_H_
#define SHARDKIT_INTERP_INTERPRETER_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/export.h"
#include "shardkit/interp/runtime_value.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::interp {

// Registers the ops of the `check` and `interpreter` dialects (their
// signatures and pretty forms), so that modules using them read and verify.
// Idempotent and thread-safe.
void registerInterpreterDialects();

struct RunOptions {
  // The most iterations one stablehlo.while may run before it is an error
  // (a program that never ends is reported, not run forever).
  int64_t max_while_iterations = int64_t{1} << 20;
  // The most nested calls (func.call, run_parallel's programs, regions).
  int max_call_depth = 256;
};

struct RunResult {
  std::vector<RuntimeValue> results;
  // One error per failed `check.*` op, in program order (a process of
  // run_parallel after the ones before it in the grid): the run goes on
  // after a failed check.
  std::vector<Diagnostic> failed_checks;
};

// Runs the function `name` of `module` on `args` (one per argument, of its
// types). An error (an op the interpreter does not support, a value that
// breaks an op's constraints, a deadlock between processes) is a status
// with the diagnostic at the op. The module is only read: several runs may
// share it.
absl::StatusOr<RunResult> runFunction(Module& module, std::string_view name,
                                      absl::Span<const RuntimeValue> args,
                                      const RunOptions& options = {});

}  // namespace shardkit::interp

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_INTERP_INTERPRETER_H_
