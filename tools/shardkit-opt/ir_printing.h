// -mlir-print-ir-before=PASS, -mlir-print-ir-after=PASS, their -all forms and
// -mlir-print-ir-after-failure: the module on stderr around the passes, each
// dump under MLIR's banner
//
//   // -----// IR Dump After sdy-insert-explicit-reshards //----- //
//
// (the pass named by its flag name; `After PASS Failed` for a pass that
// failed), so that tools reading mlir-opt's dumps read these.
#ifndef SHARDKIT_TOOLS_SHARDKIT_OPT_IR_PRINTING_H_
#define SHARDKIT_TOOLS_SHARDKIT_OPT_IR_PRINTING_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

struct IrPrintingFlags {
  bool before_all = false;
  bool after_all = false;
  bool after_failure = false;
  std::vector<std::string> before;  // pass names, without the '-'
  std::vector<std::string> after;

  bool any() const {
    return before_all || after_all || after_failure || !before.empty() ||
           !after.empty();
  }
  bool printsBefore(std::string_view pass) const;
  bool printsAfter(std::string_view pass) const;
};

// Writes `banner` (irDumpBanner), the module as `print` says, and a blank
// line, flushed.
void printIrDump(Module& module, const PrintOptions& print,
                 std::string_view banner, std::ostream& out);

// `// -----// IR Dump WHEN PASS //----- //` (`when`: "Before" or "After"),
// `... After PASS Failed ...` when `failed`.
std::string irDumpBanner(std::string_view when, std::string_view pass,
                         bool failed = false);

}  // namespace shardkit

#endif  // SHARDKIT_TOOLS_SHARDKIT_OPT_IR_PRINTING_H_
