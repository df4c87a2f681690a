#include "shardkit/asm/module_io.h"

#include "shardkit/dialect/verify_module.h"
#include "shardkit/internal/phase_timing.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/asm/module_reader.h"

namespace shardkit {

namespace {

// Reads `text`, which is followed by a NUL (the reader may look one byte
// past a token at the end: std::string's terminator).
absl::StatusOr<std::unique_ptr<Module>> parseTerminated(
    std::string_view text, std::string_view file_name,
    const ParseOptions& options) {
  auto module = std::make_unique<Module>();
  module->file_name = std::string(file_name);
  if (text.size() > SourceLines::kMaxTextSize) {
    return diagnosticStatus(
        Diagnostic{DiagnosticLocation{module->file_name, 1, 1, {}},
                   Severity::kError,
                   "input larger than 4 GiB: offsets would not fit",
                   {}});
  }
  module->source_lines = SourceLines(text);
  module->source_lines.setFirstLine(options.first_line);
  {
    TimedPhase phase("read");
    // About one op a line: the arrays then grow without moving. The spare
    // capacity is kept: never written, it costs address space, not memory
    // (trimming it would copy the arrays into new pages).
    module->reserve(module->source_lines.numLines());
    ModuleReader reader(text, module.get(), options);
    absl::Status status = reader.parseModuleBody();
    if (status.ok()) status = reader.resolveLocations();
    if (!status.ok()) return reader.located(status);
    // An error the reference reports without failing the parse still fails.
    SK_RETURN_IF_ERROR(reader.nonFatalErrors());
  }
  if (options.verify) {
    TimedPhase phase("verify");
    VerifyOptions verify;
    verify.threads = options.threads;
    absl::Status verified = verifyModule(*module, verify);
    if (!verified.ok()) return verified;
  }
  return module;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Module>> parseModule(
    std::string_view text, std::string_view file_name,
    const ParseOptions& options) {
  // A view need not end in a NUL: read a copy, freed once read.
  return parseTerminated(std::string(text), file_name, options);
}

absl::StatusOr<std::unique_ptr<Module>> parseModule(
    std::string&& text, std::string_view file_name,
    const ParseOptions& options) {
  // The text is freed as soon as it is read: the module does not need it.
  std::string owned = std::move(text);
  return parseTerminated(owned, file_name, options);
}

absl::StatusOr<std::unique_ptr<Module>> parseModuleInPlace(
    std::string_view text, std::string_view file_name,
    const ParseOptions& options) {
  return parseTerminated(text, file_name, options);
}

std::vector<InputChunk> splitInputChunks(std::string_view text) {
  std::vector<InputChunk> chunks;
  size_t chunk_start = 0;
  int64_t chunk_line = 1;
  int64_t line_number = 1;
  size_t line_start = 0;
  while (line_start <= text.size()) {
    size_t end = text.find('\n', line_start);
    std::string_view line = text.substr(
        line_start, end == std::string_view::npos ? std::string_view::npos
                                                  : end - line_start);
    std::string_view trimmed = line;
    while (!trimmed.empty() &&
           (trimmed.front() == ' ' || trimmed.front() == '\t')) {
      trimmed.remove_prefix(1);
    }
    if (trimmed.starts_with("// -----")) {
      chunks.push_back(
          {text.substr(chunk_start, line_start - chunk_start), chunk_line});
      chunk_start = end == std::string_view::npos ? text.size() : end + 1;
      chunk_line = line_number + 1;
    }
    if (end == std::string_view::npos) break;
    line_start = end + 1;
    ++line_number;
  }
  chunks.push_back({text.substr(chunk_start), chunk_line});
  return chunks;
}

std::vector<std::string> splitInputFile(std::string_view text) {
  std::vector<std::string> chunks;
  for (const InputChunk& chunk : splitInputChunks(text)) {
    std::string padded(static_cast<size_t>(chunk.first_line - 1), '\n');
    padded.append(chunk.text);
    // Every chunk ends in a newline, as its lines were read.
    if (padded.empty() || padded.back() != '\n') padded += '\n';
    chunks.push_back(std::move(padded));
  }
  return chunks;
}

}  // namespace shardkit
