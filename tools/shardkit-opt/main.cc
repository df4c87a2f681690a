// shardkit-opt: reads sdy-annotated MLIR text, runs passes, prints the result.
//
//   shardkit-opt [FILE|-] [OPTIONS] [-PASS[=OPTIONS]... | --pass-pipeline=P]
//
// The flags are flags.cc's table (--help prints it).
#include <malloc.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/functional/function_ref.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/internal/phase_timing.h"
#include "shardkit/interp/interpreter.h"
#include "shardkit/interp/literal.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/mpmd/dialect.h"
#include "shardkit/mpmd/schedule_view.h"
#include "shardkit/partition/passes.h"
#include "shardkit/passes/comm_report.h"
#include "shardkit/passes/pass.h"
#include "shardkit/propagation/explain.h"
#include "shardkit/propagation/graph_dump.h"
#include "shardkit/support/strings.h"
#include "shardkit/version.h"
#include "tools/shardkit-opt/flags.h"
#include "tools/shardkit-opt/input_file.h"
#include "tools/shardkit-opt/ir_printing.h"
#include "tools/shardkit-opt/output_file.h"
#include "tools/shardkit-opt/source_names.h"
#include "tools/shardkit-opt/verify_diagnostics.h"

namespace shardkit {
namespace {

// Prints a file-level error, `shardkit-opt: error: MESSAGE` (the message
// made printable: it may quote a file name or an argument); returns false.
bool toolError(std::string_view message) {
  std::cerr << "shardkit-opt: error: " << printableText(message) << "\n";
  return false;
}

// The diagnostics of a failed pass or explanation; one that names no
// location is at the start of the file.
std::vector<Diagnostic> located(const absl::Status& status,
                                const std::string& file) {
  std::vector<Diagnostic> diagnostics = diagnosticsOf(status);
  for (Diagnostic& d : diagnostics) {
    if (d.location.empty()) d.location = DiagnosticLocation{file, 1, 1, {}};
  }
  return diagnostics;
}

// --explain-op: the factor table of the selected op instead of the module.
// A `%NAME` that no printed name matches selects the op that defined NAME
// in the input (`source`, found before the text was released).
bool explain(Module& module, const Flags& flags,
             const std::optional<SourceDefinition>& source,
             const std::string& file, TextSink& out,
             std::vector<Diagnostic>& diags) {
  Op op = findExplainedOp(module, flags.explain_op);
  if (!op && source) op = findOpAt(module, *source);
  if (!op) {
    diags.push_back({DiagnosticLocation{file, 1, 1, {}},
                     Severity::kError,
                     strCat("no op matches --explain-op=", flags.explain_op),
                     {}});
    return false;
  }
  absl::StatusOr<std::string> text = explainOp(op, flags.explain);
  if (!text.ok()) {
    diags = located(text.status(), file);
    return false;
  }
  out.write(*text);
  return true;
}

// --interpret: runs @main; its results (if any) are printed, one per line.
// A failed check is an error (the run goes on to report every one).
bool interpret(Module& module, TextSink& out, std::vector<Diagnostic>& diags) {
  absl::StatusOr<interp::RunResult> result =
      interp::runFunction(module, "main", {});
  if (!result.ok()) {
    diags = located(result.status(), module.file_name);
    return false;
  }
  for (const interp::RuntimeValue& v : result->results) {
    out.write(v.isTensor()
                  ? interp::tensorText(v.tensor(), interp::kMaxTensorElements)
                  : v.typeText());
    out.write("\n");
  }
  diags = std::move(result->failed_checks);
  return diags.empty();
}

// --comm-report on a module without collectives: what makes them.
constexpr std::string_view kNoCollectivesNote =
    "shardkit-opt: note: the module holds no collectives, so the report "
    "counts 0 bytes; -sdy-propagation-pipeline=enable-insert-explicit-"
    "collectives=true, or -sdy-insert-explicit-reshards=enable-full-version="
    "true then -sdy-reshard-to-collectives, inserts them\n";

// The last chunk's module, deliberately never destroyed (see processChunk).
Module* kModuleKeptUntilExit = nullptr;

// Prints `module` while another thread verifies it (both only read it);
// returns false with the verifier's diagnostics if it is not valid, the
// output then to be discarded.
bool printBesideVerification(Module& module, const PrintOptions& print,
                             OutputFile& out, const std::string& file,
                             std::vector<Diagnostic>& diags) {
  VerifyOptions verify;
  verify.threads = print.threads;
  absl::Status verified;
  std::thread verifier;
  try {
    verifier = std::thread([&] { verified = verifyModule(module, verify); });
  } catch (const std::system_error&) {
    verified = verifyModule(module, verify);  // no thread: first, alone
  }
  if (verifier.joinable()) {
    printModule(module, print, out);
    verifier.join();
  } else if (verified.ok()) {
    printModule(module, print, out);
  }
  if (verified.ok()) return true;
  diags = located(verified, file);
  return false;
}

PrintOptions printOptions(const Flags& flags, int threads) {
  PrintOptions print;
  print.threads = threads;
  print.generic = flags.generic;
  print.debug_info = flags.debug_info;
  return print;
}

// --comm-report: a warning for each collective the module implies but does
// not hold (communicationReportGaps); not with -verify-diagnostics, which
// checks the reference's diagnostics only.
void warnCommReportGaps(Module& module, const Flags& flags) {
  if (flags.verify_diagnostics) return;
  for (const CommReportGap& gap : communicationReportGaps(module)) {
    std::cerr << formatDiagnostic(Diagnostic{
                     gap.location, Severity::kWarning, gap.message, {}})
              << "\n";
  }
}

// Processes one chunk, `text` (followed by a NUL) starting on line
// `first_line` of the file, calling `release_text`
// once it is read; returns false on error (diagnostics go to `diags`).
bool processChunk(std::string_view text, int64_t first_line,
                  absl::FunctionRef<void()> release_text, const Flags& flags,
                  const std::string& file, bool last_chunk, OutputFile& out,
                  std::vector<CommReportEntry>& report,
                  std::vector<Diagnostic>& diags) {
  // -mlir-timing: the phases of this chunk, printed when it is done.
  std::optional<PhaseRecorder> recorder;
  if (flags.timing) recorder.emplace();
  struct PrintPhases {
    std::optional<PhaseRecorder>& recorder;
    ~PrintPhases() {
      if (recorder) std::cerr << formatPhases(recorder->phases());
    }
  } print_phases{recorder};
  const int threads =
      flags.threads > 0 ? flags.threads
                        : static_cast<int>(std::thread::hardware_concurrency());
  // --explain-op=%NAME may name a value of the text, read before it goes.
  std::optional<SourceDefinition> source;
  if (flags.explain_op.starts_with("%")) {
    source = findSourceDefinition(text, flags.explain_op);
  }
  ParseOptions options;
  options.allow_unregistered_dialect = flags.allow_unregistered;
  options.threads = threads;
  options.first_line = first_line;
  absl::StatusOr<std::unique_ptr<Module>> module;
  {
    TimedPhase phase("parse");
    module = parseModuleInPlace(text, file, options);
  }
  release_text();
  if (!module.ok()) {
    diags = located(module.status(), file);
    return false;
  }
  // The last pass's verification runs beside the printing when a failure
  // can still take the output back (a file target is replaced only on
  // success), and nothing else reads the module in between.
  bool verify_beside_print =
      flags.verify_each && !flags.passes.empty() && !flags.interpret &&
      !flags.timing && !flags.verify_diagnostics && flags.comm_report.empty() &&
      flags.explain_op.empty() && flags.dump_graph.empty() &&
      flags.dump_schedule.empty() && !flags.print_ir.any() &&
      out.withdrawable();
  PrintOptions print = printOptions(flags, threads);
  for (const PassRequest& pass : flags.passes) {
    if (flags.print_ir.printsBefore(pass.name)) {
      printIrDump(**module, print, irDumpBanner("Before", pass.name),
                  std::cerr);
    }
    absl::Status status;
    {
      TimedPhase phase(strCat("-", pass.name));
      PassRunOptions run;
      run.verify_after = flags.verify_each && !(verify_beside_print &&
                                                &pass == &flags.passes.back());
      run.threads = threads;
      status = runPass(**module, pass.name, pass.options, run);
    }
    if (!status.ok()) {
      if (flags.print_ir.after_failure) {
        printIrDump(**module, print, irDumpBanner("After", pass.name, true),
                    std::cerr);
      }
      diags = located(status, file);
      return false;
    }
    if (flags.print_ir.printsAfter(pass.name)) {
      printIrDump(**module, print, irDumpBanner("After", pass.name), std::cerr);
    }
  }
  if (!flags.comm_report.empty()) {
    absl::StatusOr<std::vector<CommReportEntry>> entries =
        communicationReport(**module);
    if (!entries.ok()) {
      diags = located(entries.status(), file);
      return false;
    }
    report.insert(report.end(), entries->begin(), entries->end());
    warnCommReportGaps(**module, flags);
  }
  if (flags.interpret) {
    TimedPhase phase("interpret");
    bool ok = interpret(**module, out, diags);
    if (last_chunk) kModuleKeptUntilExit = module->release();
    return ok;
  }
  if (!flags.explain_op.empty())
    return explain(**module, flags, source, file, out, diags);
  if (!flags.dump_graph.empty()) {
    out.write(flags.dump_graph == "dot" ? dumpGraphDot(**module)
                                        : dumpGraphJson(**module));
    return true;
  }
  if (!flags.dump_schedule.empty()) {
    absl::StatusOr<mpmd::ScheduleView> view =
        mpmd::computeScheduleView(**module);
    if (!view.ok()) {
      diags = located(view.status(), file);
      return false;
    }
    out.write(flags.dump_schedule == "svg" ? mpmd::scheduleSvg(*view)
                                           : mpmd::scheduleJson(*view));
    return true;
  }
  if (verify_beside_print) {
    if (!printBesideVerification(**module, print, out, file, diags)) {
      return false;
    }
  } else {
    TimedPhase phase("print");
    printModule(**module, print, out);
  }
  // The process is about to exit: tearing the module down would only cost
  // time (like clang's -disable-free). A global keeps it reachable, so leak
  // checkers do not report it.
  if (last_chunk) kModuleKeptUntilExit = module->release();
  return true;
}

// Large modules allocate and free a lot; keep freed memory in the process
// instead of returning it to the system and faulting it in again.
void tuneAllocator() {
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_TOP_PAD, 64 << 20);
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
}

// Writes the run's outputs, all or nothing: every file output (-o, and
// --comm-report after a successful run) is finished, complete and synced,
// before any target is replaced, so one that cannot be written leaves every
// target as it was. A stream keeps what reached it and reports a write
// error even when the run failed. Returns false on a write error.
bool finishOutputs(const Flags& flags, bool ok, OutputFile& out,
                   const std::vector<CommReportEntry>& report) {
  auto cannotWrite = [](const std::string& path, const std::string& error) {
    return toolError(path == "-"
                         ? strCat("cannot write to stdout: ", error)
                         : strCat("cannot write '", path, "': ", error));
  };
  if (!ok) {
    // A file target keeps its previous contents (it may be the input).
    if (out.withdrawable()) {
      out.discard();
      return true;
    }
    std::optional<std::string> error = out.finish();
    return !error || cannotWrite(flags.output, *error);
  }
  std::optional<OutputFile> report_out;
  if (!flags.comm_report.empty()) {
    if (report.empty() && !flags.verify_diagnostics) {
      std::cerr << kNoCollectivesNote;
    }
    report_out.emplace(flags.comm_report);
    report_out->write(commReportJson(report));
  }
  if (std::optional<std::string> error = out.finish()) {
    return cannotWrite(flags.output, *error);
  }
  if (report_out) {
    if (std::optional<std::string> error = report_out->finish()) {
      out.discard();
      return cannotWrite(flags.comm_report, *error);
    }
  }
  if (std::optional<std::string> error = out.install()) {
    return cannotWrite(flags.output, *error);
  }
  if (report_out) {
    if (std::optional<std::string> error = report_out->install()) {
      return cannotWrite(flags.comm_report, *error);
    }
  }
  return true;
}

int run(int argc, char** argv) {
  tuneAllocator();
  registerMpmdDialect();
  registerPartitionPasses();
  interp::registerInterpreterDialects();
  absl::StatusOr<Flags> parsed =
      parseFlags(std::vector<std::string>(argv + 1, argv + argc));
  if (!parsed.ok()) {
    toolError(fromAbsl(parsed.status().message()));
    return 1;
  }
  const Flags& flags = *parsed;
  if (flags.help) {
    std::cout << helpText();
    return 0;
  }
  if (flags.list_passes) {
    std::cout << passListText();
    return 0;
  }
  if (flags.version) {
    std::cout << "shardkit-opt " << shardkit::version() << "\n";
    return 0;
  }
  InputFile input;
  if (std::optional<std::string> error =
          input.open(flags.input, flags.max_input_bytes)) {
    toolError(strCat("cannot read '", flags.input, "': ", *error));
    return 1;
  }
  std::string file = flags.input == "-" ? "<stdin>" : flags.input;
  auto changed_while_read = [&] {
    if (!input.changedWhileRead()) return false;
    toolError(strCat("cannot read '", flags.input,
                     "': the file changed while it was read"));
    return true;
  };
  // -split-input-file: each chunk copied (so the file is read once, and
  // released) with the line it starts on.
  std::vector<std::string> chunks;
  std::vector<int64_t> first_lines;
  if (flags.split_input) {
    for (const InputChunk& chunk : splitInputChunks(input.text())) {
      chunks.emplace_back(chunk.text);
      first_lines.push_back(chunk.first_line);
    }
    input.release();
    if (changed_while_read()) return 1;
  }
  size_t num_chunks = flags.split_input ? chunks.size() : 1;
  // Written as it is printed; a file target is replaced only on success.
  OutputFile out(flags.output);
  std::vector<CommReportEntry> report;
  bool ok = true;
  for (size_t i = 0; i < num_chunks; ++i) {
    if (i > 0) out.write("// -----\n");
    std::string_view text = flags.split_input ? chunks[i] : input.text();
    const int64_t first_line = flags.split_input ? first_lines[i] : 1;
    // -verify-diagnostics reads the text again after the chunk.
    auto release_text = [&] {
      if (flags.verify_diagnostics) return;
      if (flags.split_input) {
        std::string().swap(chunks[i]);
      } else {
        input.release();
      }
    };
    std::vector<Diagnostic> diags;
    bool chunk_ok =
        processChunk(text, first_line, release_text, flags, file,
                     /*last_chunk=*/i + 1 == num_chunks, out, report, diags);
    // What was read may be the cut rather than the module: the errors are
    // not the file's.
    if (!flags.split_input && changed_while_read()) {
      out.discard();
      return 1;
    }
    // Errors a pass reported without failing come first, as they were
    // emitted before any failure.
    std::vector<Diagnostic> reported = takeNonFatalDiagnostics();
    diags.insert(diags.begin(), reported.begin(), reported.end());
    // shardkit's own warnings: not the reference's, so not matched.
    for (const Diagnostic& d : takeAdvisories()) {
      if (!flags.verify_diagnostics) std::cerr << formatDiagnostic(d) << "\n";
    }
    if (flags.verify_diagnostics) {
      std::string problems =
          checkExpectedDiagnostics(text, file, diags, first_line);
      if (!problems.empty()) {
        std::cerr << problems;
        ok = false;
      }
    } else {
      for (const Diagnostic& d : diags)
        std::cerr << formatDiagnostic(d) << "\n";
      ok = ok && chunk_ok;
    }
  }
  return (finishOutputs(flags, ok, out, report) && ok) ? 0 : 1;
}

}  // namespace
}  // namespace shardkit

int main(int argc, char** argv) {
  // A write to a closed pipe or past the file size limit is an error the
  // tool reports (EPIPE, EFBIG), not a signal.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  // An allocation the input made too large (a size the budgets below do
  // not bound) is an error, not an abort; unwinding removes temporary
  // output files.
  try {
    return shardkit::run(argc, argv);
  } catch (const std::bad_alloc&) {
    shardkit::toolError(
        "out of memory: the input needs more than is available");
  } catch (const std::length_error&) {
    shardkit::toolError(
        "out of memory: a size derived from the input is too large");
  }
  return 1;
}
