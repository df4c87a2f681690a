// shardkit-opt's command line: what it asks for, read and checked in full
// (pass names and every option value) before any input is read.
#ifndef SHARDKIT_TOOLS_SHARDKIT_OPT_FLAGS_H_
#define SHARDKIT_TOOLS_SHARDKIT_OPT_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/passes/pass.h"
#include "shardkit/propagation/explain.h"
#include "tools/shardkit-opt/ir_printing.h"

namespace shardkit {

struct PassRequest {
  std::string name;
  PassOptions options;
};

struct Flags {
  std::string input = "-";
  std::string output = "-";
  bool help = false;
  bool version = false;
  bool split_input = false;
  bool generic = false;
  bool debug_info = false;
  bool allow_unregistered = true;
  bool verify_diagnostics = false;
  // -verify-each: verify the module after each pass (default true).
  bool verify_each = true;
  // --threads=N: threads that verify and print a large module (default:
  // the machine's cores; the output does not depend on it).
  int threads = 0;
  // -mlir-timing: report the wall time of parsing, each pass and printing.
  bool timing = false;
  // -mlir-diagnostic-verbosity-level=errors|warnings|remarks: the least
  // severe diagnostics to print. shardkit's passes report errors only, so
  // every level prints the same; the flag is accepted for mpmd_opt's RUN
  // lines.
  std::string diagnostic_verbosity = "remarks";
  // --explain-op: print this op's factor table instead of the module.
  std::string explain_op;
  ExplainOptions explain;
  // --dump-graph=dot|json: print the graph instead of the module.
  std::string dump_graph;
  // --dump-schedule=json|svg: print the mpmd schedule instead of the module.
  std::string dump_schedule;
  // --comm-report: where to write the collectives' communication cost.
  std::string comm_report;
  // --interpret: after the passes, run @main with the interpreter
  // (docs/interp.md) instead of printing the module.
  bool interpret = false;
  // --list-passes: print the passes, their summaries and options.
  bool list_passes = false;
  // The passes, from `-PASS[=OPTIONS]` flags or one --pass-pipeline.
  // --max-input-size=N[K|M|G]: the largest input read, file or stream (an
  // endless stream such as /dev/zero is an error, not all of memory).
  size_t max_input_bytes = size_t{1} << 30;
  std::vector<PassRequest> passes;
  bool pass_pipeline = false;
  // -mlir-print-ir-*: the module on stderr around passes (ir_printing.h).
  IrPrintingFlags print_ir;
};

// Reads the arguments after the program name. An error's message says what
// is wrong without the `shardkit-opt: error:` prefix; it may quote an
// argument as given (print it with printableText).
absl::StatusOr<Flags> parseFlags(const std::vector<std::string>& args);

// --help: the usage line, every flag of the table parseFlags reads (the
// one description of the flags), then the passes as --list-passes prints
// them.
std::string helpText();

// --list-passes: each pass with its one-line summary and its options.
std::string passListText();

}  // namespace shardkit

#endif  // SHARDKIT_TOOLS_SHARDKIT_OPT_FLAGS_H_
