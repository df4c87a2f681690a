#include "tools/shardkit-opt/flags.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// More verifying and printing threads than this would only cost memory.
constexpr int kMaxThreads = 256;

absl::Status flagError(std::string_view message) {
  return absl::InvalidArgumentError(toAbsl(message));
}

// `-NAME[=OPTIONS]` for a registered pass, its options checked.
absl::StatusOr<PassRequest> passRequest(std::string_view arg,
                                        std::string_view flag) {
  size_t eq = flag.find('=');
  std::string name(flag.substr(0, eq));
  const PassInfo* pass = findPass(name);
  if (!pass) {
    return flagError(strCat("unknown option or pass '", arg, "' (see --help)"));
  }
  PassRequest request{name, {}};
  if (eq != std::string_view::npos) {
    absl::StatusOr<PassOptions> options =
        PassOptions::parse(flag.substr(eq + 1));
    if (!options.ok()) return options.status();
    request.options = *std::move(options);
  }
  if (absl::Status s = validatePassOptions(*pass, request.options); !s.ok()) {
    return s;
  }
  return request;
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
    std::string_view flag = std::string_view(arg).substr(arg[1] == '-' ? 2 : 1);
    if (flag == "help" || flag == "h") {
      flags.help = true;
    } else if (flag == "version") {
      flags.version = true;
    } else if (flag.starts_with("dump-graph=")) {
      flags.dump_graph = std::string(flag.substr(11));
      if (flags.dump_graph != "dot" && flags.dump_graph != "json") {
        return flagError(strCat("--dump-graph must be 'dot' or 'json', got '",
                                flags.dump_graph, "'"));
      }
    } else if (flag.starts_with("comm-report=")) {
      flags.comm_report = std::string(flag.substr(12));
      if (flags.comm_report.empty()) {
        return flagError("--comm-report needs a file name");
      }
    } else if (flag == "mlir-print-debuginfo") {
      flags.debug_info = true;
    } else if (flag == "o") {
      if (++i >= args.size()) return flagError("-o needs a file name");
      flags.output = args[i];
    } else if (flag == "split-input-file") {
      flags.split_input = true;
    } else if (flag == "mlir-print-op-generic") {
      flags.generic = true;
    } else if (flag == "allow-unregistered-dialect") {
      flags.allow_unregistered = true;
    } else if (flag == "verify-diagnostics") {
      flags.verify_diagnostics = true;
    } else if (flag == "verify-each" || flag.starts_with("verify-each=")) {
      std::optional<bool> value =
          flag == "verify-each" ? true : parseBoolOption(flag.substr(12));
      if (!value) {
        return flagError(strCat("--verify-each takes true or false, got '",
                                flag.substr(12), "'"));
      }
      flags.verify_each = *value;
    } else if (flag.starts_with("threads=")) {
      std::string_view value = flag.substr(8);
      int threads = 0;
      auto [end, error] =
          std::from_chars(value.data(), value.data() + value.size(), threads);
      if (error != std::errc() || end != value.data() + value.size() ||
          threads < 1 || threads > kMaxThreads) {
        return flagError(strCat("--threads takes a number from 1 to ",
                                kMaxThreads, ", got '", value, "'"));
      }
      flags.threads = threads;
    } else if (flag.starts_with("max-input-size=")) {
      std::optional<size_t> bytes = byteCount(flag.substr(15));
      if (!bytes) {
        return flagError(
            strCat("--max-input-size takes a byte count (N, NK, NM or NG, at "
                   "most 2^50 bytes), got '",
                   flag.substr(15), "'"));
      }
      flags.max_input_bytes = *bytes;
    } else if (flag == "interpret") {
      flags.interpret = true;
    } else if (flag == "mlir-timing") {
      flags.timing = true;
    } else if (flag.starts_with("explain-op=")) {
      flags.explain_op = std::string(flag.substr(11));
      if (flags.explain_op.empty()) {
        return flagError("--explain-op needs an op name or %N");
      }
    } else if (flag.starts_with("explain-strategy=")) {
      std::string_view strategy = flag.substr(17);
      if (strategy == "basic") {
        flags.explain.strategy = PropagationStrategy::kBasic;
      } else if (strategy == "aggressive") {
        flags.explain.strategy = PropagationStrategy::kAggressive;
      } else {
        return flagError(
            strCat("--explain-strategy must be 'basic' or 'aggressive', got '",
                   strategy, "'"));
      }
    } else {
      absl::StatusOr<PassRequest> request = passRequest(arg, flag);
      if (!request.ok()) return request.status();
      flags.passes.push_back(*std::move(request));
    }
  }
  if (flags.interpret &&
      (!flags.explain_op.empty() || !flags.dump_graph.empty() ||
       flags.verify_diagnostics)) {
    return flagError(
        "--interpret cannot be combined with --explain-op, --dump-graph or "
        "-verify-diagnostics");
  }
  return flags;
}

}  // namespace shardkit
