// Reading and writing the sdy-annotated MLIR text that JAX and XLA emit.
//
// The reader accepts an optional `module { }` wrapper, `sdy.mesh`,
// `func.func`, every op in MLIR's generic form, and the pretty forms of the
// sdy ops, func ops and the StableHLO ops shardkit knows. Comments and layout
// are not kept. The writer prints what MLIR prints: `%0, %1, ...` and `%argN`
// value names, attribute dictionaries sorted by name, the same pretty forms.
#ifndef SHARDKIT_ASM_MODULE_IO_H_
#define SHARDKIT_ASM_MODULE_IO_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

struct ParseOptions {
  // Accept ops of dialects shardkit does not know (in generic form).
  bool allow_unregistered_dialect = true;
  // Run verifyModule after parsing.
  bool verify = true;
  // Threads for that verification (VerifyOptions::threads).
  int threads = 1;
  // The line number of the text's first line, for diagnostics and op
  // locations: a chunk of a larger file keeps the file's line numbers.
  int64_t first_line = 1;
};

// Parses a module. On bad input, the status carries the diagnostics
// (diagnostic.h) at their positions in `text`; its message is one or more
// lines `FILE:LINE:COL: error: MESSAGE`.
absl::StatusOr<std::unique_ptr<Module>> parseModule(
    std::string_view text, std::string_view file_name = "-",
    const ParseOptions& options = {});
// The same, taking ownership of the text instead of copying it (it is
// freed once read).
absl::StatusOr<std::unique_ptr<Module>> parseModule(
    std::string&& text, std::string_view file_name = "-",
    const ParseOptions& options = {});
// The same, reading `text` where it lies, without a copy. The byte just
// past `text` must be readable and NUL: a std::string's terminator, or the
// zero fill after a mapped file's end. `text` must not change during the
// call; the module keeps no reference to it.
absl::StatusOr<std::unique_ptr<Module>> parseModuleInPlace(
    std::string_view text, std::string_view file_name = "-",
    const ParseOptions& options = {});
inline absl::StatusOr<std::unique_ptr<Module>> parseModule(
    const char* text, std::string_view file_name = "-",
    const ParseOptions& options = {}) {
  return parseModule(std::string_view(text), file_name, options);
}

// One chunk of a `-split-input-file` input: a view into the text, and the
// line of the file it starts on (ParseOptions::first_line).
struct InputChunk {
  std::string_view text;
  int64_t first_line = 1;
};

// Splits `text` at lines `// -----` (what `-split-input-file` does), in time
// linear in the text; the chunks are views into it.
std::vector<InputChunk> splitInputChunks(std::string_view text);

// The same as copies, each preceded by as many newlines as the lines before
// it, so that a plain parse keeps the file's line numbers. Quadratic in the
// number of chunks: shardkit-opt uses splitInputChunks.
std::vector<std::string> splitInputFile(std::string_view text);

struct PrintOptions {
  // Print every op in MLIR's generic form.
  bool generic = false;
  // In the generic form, print inherent attributes in the attribute
  // dictionary instead of `<{...}>` (the form MLIR wrote before properties,
  // which older tools such as mlir-opt-16 read).
  bool inherent_in_attr_dict = false;
  // Print each op's location after it, `loc("file.py":3:7)` or
  // `loc(unknown)` (mlir-opt's -mlir-print-debuginfo, with the locations
  // written in place rather than as `#loc` aliases).
  bool debug_info = false;
  // Threads that print side by side: the ops of a block (a function body)
  // of at least kParallelPrintMinOps ops, in chunks; otherwise, in a module
  // of at least that many ops, its top-level ops (functions) when it has
  // several. The text is byte-identical to a one-thread print.
  int threads = 1;
};

// The smallest block (in ops) whose ops print on several threads, and the
// smallest module whose functions do: below it, starting threads costs more
// than it saves.
inline constexpr size_t kParallelPrintMinOps = 20000;

std::string printModule(Module& module, const PrintOptions& options = {});
// Appends the printed module to `out` (no copy of a large text).
void printModule(Module& module, const PrintOptions& options, std::string& out);

// Where printModule can write a module piece by piece (a file, a pipe), so
// that the text of a large module is never all in memory.
class TextSink {
 public:
  virtual ~TextSink() = default;
  // The next piece of the text. A sink that fails remembers its error and
  // ignores what follows; the printer does not stop.
  virtual void write(std::string_view text) = 0;
};
// Prints the module to `sink` in pieces of about a megabyte; their
// concatenation is what the other overloads print.
void printModule(Module& module, const PrintOptions& options, TextSink& sink);

// The name printModule gives `value` in the pretty form (`%3`, `%0#1`,
// `%arg0`, `%iterArg`). Names the whole module: for diagnostics, not for
// loops.
std::string printedName(Value value);
// The printed name of every value of the module, indexed by Value::id()
// (empty for erased values): printedName for all values at once.
std::vector<std::string> printedNames(Module& module);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_ASM_MODULE_IO_H_
