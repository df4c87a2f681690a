// interpreter.run_parallel: the programs of a grid of replicas x partitions,
// each run on a thread of its own as one process; and runFunction, the
// interpreter's entry point.
#include <algorithm>
#include <system_error>
#include <thread>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/interp/interpreter.h"
#include "shardkit/interp/ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/evaluator.h"
#include "src/interp/process_grid.h"

namespace shardkit::interp {
namespace {

// The processes' error to report: a process's own failure before a
// deadlock, a deadlock before the cancellations they cause.
absl::Status firstError(const std::vector<absl::StatusOr<Results>>& results) {
  for (absl::StatusCode skip :
       {absl::StatusCode::kOk, absl::StatusCode::kAborted}) {
    for (const absl::StatusOr<Results>& r : results) {
      if (r.ok()) continue;
      absl::StatusCode code = r.status().code();
      if (code == absl::StatusCode::kCancelled) continue;
      if (skip == absl::StatusCode::kOk && code == absl::StatusCode::kAborted)
        continue;
      return r.status();
    }
  }
  for (const absl::StatusOr<Results>& r : results) {
    if (!r.ok()) return r.status();
  }
  return absl::OkStatus();
}

absl::StatusOr<Results> runParallel(OpContext& ctx) {
  if (ctx.eval().process().grid != nullptr) {
    return evalError("cannot run inside a process of another run_parallel");
  }
  if (ctx.op().hasAttr("infeed")) {
    return evalError("infeed is not supported by shardkit's interpreter");
  }
  const std::vector<Attribute>* rows = ctx.op().attr("programs").asArray();
  if (rows == nullptr || rows->empty() || (*rows)[0].asArray() == nullptr) {
    return evalError("`programs` attribute cannot be empty");
  }
  uint32_t num_replicas = static_cast<uint32_t>(rows->size());
  uint32_t num_partitions = static_cast<uint32_t>((*rows)[0].asArray()->size());
  struct Process {
    Op func;
    Results args;
    ProcessContext context;
  };
  ProcessGrid grid(num_replicas, num_partitions);
  uint64_t epoch;
  {
    std::lock_guard<std::mutex> lock(ctx.eval().state().mutex);
    epoch = ctx.eval().state().next_epoch++;
  }
  std::vector<Process> processes;
  Results inputs = ctx.operands();
  size_t next = 0;
  for (uint32_t r = 0; r < num_replicas; ++r) {
    const std::vector<Attribute>* row = (*rows)[r].asArray();
    if (row == nullptr || row->size() != num_partitions) {
      return evalError("rows of `programs` must have one length");
    }
    for (uint32_t p = 0; p < num_partitions; ++p) {
      const std::string* name = (*row)[p].asSymbolRef();
      Op func = name ? ctx.op().module()->lookupSymbol(*name) : Op();
      if (!isa<FuncOp>(func)) {
        return evalError(
            strCat("Function ", toString((*row)[p]), " not found"));
      }
      size_t n = FuncOp(func).numArguments();
      if (next + n > ctx.numOperands()) {
        return evalError("has fewer inputs than its programs' arguments");
      }
      Results args(inputs.begin() + next, inputs.begin() + next + n);
      next += n;
      uint32_t index = static_cast<uint32_t>(processes.size());
      processes.push_back({func, std::move(args), {&grid, r, p, index, epoch}});
    }
  }
  if (next != ctx.numOperands()) {
    return evalError("has more inputs than its programs' arguments");
  }
  std::vector<absl::StatusOr<Results>> results(processes.size(), Results{});
  auto run = [&](size_t i) {
    Evaluator eval(ctx.eval().state(), processes[i].context);
    results[i] = eval.callFunction(processes[i].func, processes[i].args);
    if (!results[i].ok()) grid.fail();
    grid.processEnded();
  };
  std::vector<std::thread> threads;
  absl::Status started;
  for (size_t i = 0; i < processes.size(); ++i) {
    try {
      threads.emplace_back(run, i);
    } catch (const std::system_error&) {
      // The processes started wait for this one: end it (and the rest).
      started = evalError("could not start a thread for every process");
      grid.fail();
      for (size_t j = i; j < processes.size(); ++j) grid.processEnded();
      break;
    }
  }
  for (std::thread& t : threads) t.join();
  SK_RETURN_IF_ERROR(started);
  SK_RETURN_IF_ERROR(firstError(results));
  Results out;
  for (absl::StatusOr<Results>& r : results) {
    for (RuntimeValue& v : *r) out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

void addMiscKernels(KernelTable& t) {
  t.add<interpreter::RunParallelOp>(&runParallel);
}

absl::StatusOr<RunResult> runFunction(Module& module, std::string_view name,
                                      absl::Span<const RuntimeValue> args,
                                      const RunOptions& options) {
  Op func = module.lookupSymbol(name);
  if (!isa<FuncOp>(func)) {
    std::string message =
        strCat("the module has no function @", name, " to run");
    // At the module's first op, if it has one.
    if (!module.body().empty()) {
      return locatedError(module.body().front(), message);
    }
    return diagnosticStatus(
        Diagnostic{DiagnosticLocation{module.file_name, 1, 1, {}},
                   Severity::kError,
                   std::move(message),
                   {}});
  }
  RunState state;
  state.module = &module;
  state.options = options;
  Evaluator eval(state, ProcessContext{});
  absl::StatusOr<Results> results = eval.callFunction(func, args);
  if (!results.ok() && !hasDiagnostics(results.status())) {
    return opError(func, fromAbsl(results.status().message()));
  }
  if (!results.ok()) return results.status();
  RunResult out;
  out.results = *std::move(results);
  std::sort(state.failures.begin(), state.failures.end(),
            [](const RunState::Failure& a, const RunState::Failure& b) {
              return std::tie(a.epoch, a.process, a.sequence) <
                     std::tie(b.epoch, b.process, b.sequence);
            });
  for (RunState::Failure& f : state.failures) {
    out.failed_checks.push_back(std::move(f.diagnostic));
  }
  return out;
}

}  // namespace shardkit::interp
