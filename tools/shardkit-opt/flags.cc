// The flags as one table (kFlags): parseFlags reads arguments by it and
// helpText prints it, so the help cannot drift from what is accepted.
#include "tools/shardkit-opt/flags.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "shardkit/passes/pipeline.h"
#include "shardkit/support/nearest_name.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/scanner.h"

namespace shardkit {
namespace {

// More verifying and printing threads than this would only cost memory.
constexpr int kMaxThreads = 256;

absl::Status flagError(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// How a flag takes its value.
enum class Arity {
  kNone,      // `-flag`
  kBool,      // `-flag` (true) or `-flag=BOOL`
  kRequired,  // `-flag=VALUE`
  kNextArg,   // `-flag VALUE` or `-flag=VALUE`
};

struct FlagSpec {
  std::string_view name;  // without dashes
  // How --help spells it: "-" or "--" (either is accepted).
  std::string_view dashes;
  Arity arity;
  std::string_view value;  // the value's placeholder in --help
  // One line per '\n'.
  std::string_view help;
  // Stores `value` ("true" for kNone; kBool values already checked).
  absl::Status (*set)(Flags& flags, std::string_view value);
};

absl::Status ok() { return absl::OkStatus(); }

// The pieces of `text` between `separator`s (one empty piece for "").
std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  size_t start = 0;
  for (size_t at; (at = text.find(separator, start)) != std::string::npos;
       start = at + 1) {
    pieces.push_back(text.substr(start, at - start));
  }
  pieces.push_back(text.substr(start));
  return pieces;
}

absl::Status setThreads(Flags& flags, std::string_view value) {
  int threads = 0;
  auto [end, error] =
      std::from_chars(value.data(), value.data() + value.size(), threads);
  if (error != std::errc() || end != value.data() + value.size() ||
      threads < 1 || threads > kMaxThreads) {
    return flagError(strCat("--threads takes a number from 1 to ", kMaxThreads,
                            ", got '", value, "'"));
  }
  flags.threads = threads;
  return ok();
}

// `N`, `NK`, `NM` or `NG` (binary multiples) as a byte count of at least 1
// and at most 2^50, or nullopt.
std::optional<size_t> byteCount(std::string_view text) {
  int shift = 0;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K':
        shift = 10;
        break;
      case 'M':
        shift = 20;
        break;
      case 'G':
        shift = 30;
        break;
      default:
        break;
    }
  }
  if (shift != 0) text.remove_suffix(1);
  uint64_t value = 0;
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() ||
      end != text.data() + text.size() || value < 1 ||
      value > (uint64_t{1} << (50 - shift))) {
    return std::nullopt;
  }
  return static_cast<size_t>(value << shift);
}

absl::Status setMaxInputSize(Flags& flags, std::string_view value) {
  std::optional<size_t> bytes = byteCount(value);
  if (!bytes) {
    return flagError(
        strCat("--max-input-size takes a byte count (N, NK, NM or NG, at "
               "most 2^50 bytes), got '",
               value, "'"));
  }
  flags.max_input_bytes = *bytes;
  return ok();
}

absl::Status setDumpGraph(Flags& flags, std::string_view value) {
  if (value != "dot" && value != "json") {
    return flagError(
        strCat("--dump-graph must be 'dot' or 'json', got '", value, "'"));
  }
  flags.dump_graph = std::string(value);
  return ok();
}

absl::Status setDumpSchedule(Flags& flags, std::string_view value) {
  if (value != "svg" && value != "json") {
    return flagError(
        strCat("--dump-schedule must be 'svg' or 'json', got '", value, "'"));
  }
  flags.dump_schedule = std::string(value);
  return ok();
}

absl::Status setVerbosity(Flags& flags, std::string_view value) {
  if (value != "errors" && value != "warnings" && value != "remarks") {
    return flagError(strCat(
        "-mlir-diagnostic-verbosity-level must be 'errors', 'warnings' or "
        "'remarks', got '",
        value, "'"));
  }
  flags.diagnostic_verbosity = std::string(value);
  return ok();
}

absl::Status setStrategy(Flags& flags, std::string_view value) {
  if (value == "basic") {
    flags.explain.strategy = PropagationStrategy::kBasic;
  } else if (value == "aggressive") {
    flags.explain.strategy = PropagationStrategy::kAggressive;
  } else {
    return flagError(
        strCat("--explain-strategy must be 'basic' or 'aggressive', got '",
               value, "'"));
  }
  return ok();
}

std::vector<std::string> passNames() {
  std::vector<std::string> names;
  for (const PassInfo* pass : allPasses()) names.push_back(pass->name);
  return names;
}

// `-mlir-print-ir-before=a,b`: registered pass names, added to `into`.
absl::Status addPassNames(std::vector<std::string>& into, std::string_view flag,
                          std::string_view value) {
  for (std::string_view name : split(value, ',')) {
    name = trimSpaces(name);
    if (!name.empty() && name.front() == '-') name.remove_prefix(1);
    if (findPass(name)) {
      into.emplace_back(name);
      continue;
    }
    std::string message = strCat("-", flag, ": unknown pass '", name, "'");
    if (std::string near = nearestName(name, passNames()); !near.empty()) {
      strAppend(message, "; did you mean '", near, "'?");
    }
    return flagError(message);
  }
  return ok();
}

// Passes come from one --pass-pipeline or from -PASS flags, not both.
constexpr std::string_view kPipelineAndPasses =
    "--pass-pipeline cannot be combined with -PASS flags: name every pass in "
    "the pipeline";

absl::Status setPipeline(Flags& flags, std::string_view value) {
  if (flags.pass_pipeline) {
    return flagError("--pass-pipeline may be given once");
  }
  if (!flags.passes.empty()) return flagError(kPipelineAndPasses);
  absl::StatusOr<std::vector<PipelinePass>> passes = parsePassPipeline(value);
  if (!passes.ok()) return passes.status();
  flags.pass_pipeline = true;
  for (PipelinePass& pass : *passes) {
    flags.passes.push_back({std::move(pass.name), std::move(pass.options)});
  }
  return ok();
}

bool isTrue(std::string_view value) { return value == "true"; }

// Every flag but the passes, in the order --help lists them.
const FlagSpec kFlags[] = {
    {"o", "-", Arity::kNextArg, "FILE", "write the output to FILE",
     [](Flags& f, std::string_view v) {
       f.output = std::string(v);
       return ok();
     }},
    {"pass-pipeline", "--", Arity::kRequired, "PIPELINE",
     "the passes as MLIR writes a pipeline:\n"
     "'builtin.module(PASS,PASS{key=value ...})'\n"
     "(instead of -PASS flags)",
     setPipeline},
    {"split-input-file", "-", Arity::kNone, "",
     "process each '// -----' chunk on its own",
     [](Flags& f, std::string_view) {
       f.split_input = true;
       return ok();
     }},
    {"mlir-print-op-generic", "--", Arity::kNone, "",
     "print every op in generic form",
     [](Flags& f, std::string_view) {
       f.generic = true;
       return ok();
     }},
    {"mlir-print-debuginfo", "-", Arity::kNone, "", "print each op's loc(...)",
     [](Flags& f, std::string_view) {
       f.debug_info = true;
       return ok();
     }},
    {"allow-unregistered-dialect", "-", Arity::kNone, "",
     "accept ops of unknown dialects (default)",
     [](Flags& f, std::string_view) {
       f.allow_unregistered = true;
       return ok();
     }},
    {"verify-diagnostics", "-", Arity::kNone, "",
     "check expected-error annotations",
     [](Flags& f, std::string_view) {
       f.verify_diagnostics = true;
       return ok();
     }},
    {"verify-each", "-", Arity::kBool, "BOOL",
     "verify the module after each pass (default true)",
     [](Flags& f, std::string_view v) {
       f.verify_each = isTrue(v);
       return ok();
     }},
    {"mlir-print-ir-before", "-", Arity::kRequired, "PASS[,PASS]",
     "print the module to stderr before each run of PASS",
     [](Flags& f, std::string_view v) {
       return addPassNames(f.print_ir.before, "mlir-print-ir-before", v);
     }},
    {"mlir-print-ir-after", "-", Arity::kRequired, "PASS[,PASS]",
     "print the module to stderr after each run of PASS",
     [](Flags& f, std::string_view v) {
       return addPassNames(f.print_ir.after, "mlir-print-ir-after", v);
     }},
    {"mlir-print-ir-before-all", "-", Arity::kBool, "",
     "print the module to stderr before every pass",
     [](Flags& f, std::string_view v) {
       f.print_ir.before_all = isTrue(v);
       return ok();
     }},
    {"mlir-print-ir-after-all", "-", Arity::kBool, "",
     "print the module to stderr after every pass",
     [](Flags& f, std::string_view v) {
       f.print_ir.after_all = isTrue(v);
       return ok();
     }},
    {"mlir-print-ir-after-failure", "-", Arity::kBool, "",
     "print the module to stderr after a pass that failed",
     [](Flags& f, std::string_view v) {
       f.print_ir.after_failure = isTrue(v);
       return ok();
     }},
    {"threads", "--", Arity::kRequired, "N",
     "threads that verify and print a large module and\n"
     "look for its first explicit reshard (default: the\n"
     "machine's cores)",
     setThreads},
    {"mlir-diagnostic-verbosity-level", "-", Arity::kRequired,
     "errors|warnings|remarks",
     "accepted for mlir-opt's RUN lines; shardkit reports\n"
     "errors, and warnings only outside -verify-diagnostics",
     setVerbosity},
    {"max-input-size", "--", Arity::kRequired, "N[K|M|G]",
     "the largest input read, file or stream\n"
     "(default 1G)",
     setMaxInputSize},
    {"mlir-timing", "-", Arity::kNone, "",
     "print the time of each phase to stderr",
     [](Flags& f, std::string_view) {
       f.timing = true;
       return ok();
     }},
    {"explain-op", "--", Arity::kRequired, "NAME|%VALUE",
     "after the passes, print the factor table of the\n"
     "first op named NAME, or defining %VALUE (as\n"
     "printed, or the input's own name), before and\n"
     "after one propagation step",
     [](Flags& f, std::string_view v) {
       f.explain_op = std::string(v);
       return ok();
     }},
    {"explain-strategy", "--", Arity::kRequired, "S",
     "the step's strategy: aggressive (default), basic", setStrategy},
    {"dump-graph", "--", Arity::kRequired, "dot|json",
     "after the passes, print the sharded graph as\n"
     "Graphviz DOT or JSON (docs/graph-dump.md)",
     setDumpGraph},
    {"dump-schedule", "--", Arity::kRequired, "json|svg",
     "after the passes, print the mpmd schedule:\n"
     "fragments per mesh over time, transfers, bubble",
     setDumpSchedule},
    {"comm-report", "--", Arity::kRequired, "FILE",
     "after the passes, write the bytes each collective\n"
     "moves (JSON) to FILE ('-': stdout)",
     [](Flags& f, std::string_view v) {
       f.comm_report = std::string(v);
       return ok();
     }},
    {"interpret", "--", Arity::kNone, "",
     "after the passes, run @main with the StableHLO\n"
     "interpreter (checks must hold) instead of\n"
     "printing the module",
     [](Flags& f, std::string_view) {
       f.interpret = true;
       return ok();
     }},
    {"list-passes", "--", Arity::kNone, "",
     "list the passes, their summaries and options",
     [](Flags& f, std::string_view) {
       f.list_passes = true;
       return ok();
     }},
    {"version", "--", Arity::kNone, "", "print shardkit's version",
     [](Flags& f, std::string_view) {
       f.version = true;
       return ok();
     }},
    {"help", "--", Arity::kNone, "", "show this help",
     [](Flags& f, std::string_view) {
       f.help = true;
       return ok();
     }},
};

const FlagSpec* findFlag(std::string_view name) {
  if (name == "h") name = "help";
  for (const FlagSpec& spec : kFlags) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

// Every spelling a mistyped flag may have meant: the flags and the passes.
std::vector<std::string> knownFlags() {
  std::vector<std::string> names;
  for (const FlagSpec& spec : kFlags) names.emplace_back(spec.name);
  for (std::string& pass : passNames()) names.push_back(std::move(pass));
  return names;
}

absl::Status unknownFlag(std::string_view arg, std::string_view dashes,
                         std::string_view name) {
  std::string message = strCat("unknown option or pass '", arg, "'");
  if (std::string near = nearestName(name, knownFlags()); !near.empty()) {
    const FlagSpec* spec = findFlag(near);
    strAppend(message, "; did you mean '", spec ? spec->dashes : dashes, near,
              "'?");
  }
  return flagError(strCat(message, " (see --help)"));
}

// `-NAME[=OPTIONS]` for a registered pass, its options checked.
absl::StatusOr<PassRequest> passRequest(const PassInfo& pass,
                                        std::optional<std::string_view> value) {
  PassRequest request{pass.name, {}};
  if (value) {
    absl::StatusOr<PassOptions> options = PassOptions::parse(*value);
    if (!options.ok()) return options.status();
    request.options = *std::move(options);
  }
  if (absl::Status s = validatePassOptions(pass, request.options); !s.ok()) {
    return s;
  }
  return request;
}

// Reads the flag at args[i] (which starts with '-'), advancing `i` past a
// separate value.
absl::Status readFlag(const std::vector<std::string>& args, size_t& i,
                      Flags& flags) {
  std::string_view arg = args[i];
  std::string_view dashes = arg.substr(0, arg[1] == '-' ? 2 : 1);
  std::string_view body = arg.substr(dashes.size());
  size_t eq = body.find('=');
  std::string_view name = body.substr(0, eq);
  std::optional<std::string_view> value;
  if (eq != std::string_view::npos) value = body.substr(eq + 1);
  const FlagSpec* spec = findFlag(name);
  if (!spec) {
    const PassInfo* pass = findPass(name);
    if (!pass) return unknownFlag(arg, dashes, name);
    if (flags.pass_pipeline) return flagError(kPipelineAndPasses);
    absl::StatusOr<PassRequest> request = passRequest(*pass, value);
    if (!request.ok()) return request.status();
    flags.passes.push_back(*std::move(request));
    return ok();
  }
  std::string spelled = strCat(dashes, name);
  switch (spec->arity) {
    case Arity::kNone:
      if (value) {
        return flagError(strCat("option '", spelled, "' takes no value"));
      }
      return spec->set(flags, "true");
    case Arity::kBool: {
      std::optional<bool> b = value ? parseBoolOption(*value) : true;
      if (!b) {
        return flagError(strCat("option '", spelled,
                                "' takes true or false, got '", *value, "'"));
      }
      return spec->set(flags, *b ? "true" : "false");
    }
    case Arity::kNextArg:
      if (!value && i + 1 < args.size()) value = args[++i];
      [[fallthrough]];
    case Arity::kRequired:
      if (!value || value->empty()) {
        return flagError(strCat(
            "option '", spelled, "' requires a value (", spelled,
            spec->arity == Arity::kNextArg ? " " : "=", spec->value, ")"));
      }
      return spec->set(flags, *value);
  }
  return ok();
}

absl::Status checkCombinations(const Flags& flags) {
  if (flags.interpret &&
      (!flags.explain_op.empty() || !flags.dump_graph.empty() ||
       flags.verify_diagnostics)) {
    return flagError(
        "--interpret cannot be combined with --explain-op, --dump-graph or "
        "-verify-diagnostics");
  }
  return ok();
}

}  // namespace

absl::StatusOr<Flags> parseFlags(const std::vector<std::string>& args) {
  Flags flags;
  bool positional_only = false;
  bool have_input = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (positional_only || arg == "-" || arg.empty() || arg[0] != '-') {
      if (have_input) {
        return flagError(strCat("more than one input file: ", arg));
      }
      flags.input = arg;
      have_input = true;
      continue;
    }
    if (arg == "--") {
      positional_only = true;
      continue;
    }
    if (absl::Status s = readFlag(args, i, flags); !s.ok()) return s;
  }
  if (absl::Status s = checkCombinations(flags); !s.ok()) return s;
  return flags;
}

std::string passListText() {
  std::string out;
  for (const PassInfo* pass : allPasses()) {
    strAppend(out, "  -", pass->name, "\n      ", pass->description, "\n");
    for (const PassOption& option : pass->options) {
      strAppend(out, "        ", option.name, ": ", option.description, "\n");
    }
  }
  return out;
}

std::string helpText() {
  constexpr size_t kColumn = 32;
  std::string out =
      "USAGE: shardkit-opt [options] [FILE|-]\n\n"
      "Flags start with '-' or '--'; a flag's value follows '='.\n\n"
      "OPTIONS:\n";
  for (const FlagSpec& spec : kFlags) {
    std::string left = strCat("  ", spec.dashes, spec.name);
    if (spec.arity == Arity::kNextArg) strAppend(left, " ", spec.value);
    if (spec.arity == Arity::kRequired) strAppend(left, "=", spec.value);
    if (spec.arity == Arity::kBool && !spec.value.empty()) {
      strAppend(left, "[=", spec.value, "]");
    }
    bool first = true;
    for (std::string_view line : split(spec.help, '\n')) {
      std::string_view lead = first ? std::string_view(left) : "";
      if (lead.size() + 1 > kColumn) {
        strAppend(out, lead, "\n");
        lead = "";
      }
      strAppend(out, lead, std::string(kColumn - lead.size(), ' '), line, "\n");
      first = false;
    }
  }
  strAppend(out, "\nPASSES (-NAME or -NAME=\"key=value ...\"):\n",
            passListText());
  return out;
}

}  // namespace shardkit
