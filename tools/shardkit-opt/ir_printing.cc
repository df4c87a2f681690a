#include "tools/shardkit-opt/ir_printing.h"

#include <algorithm>

#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

bool named(const std::vector<std::string>& passes, std::string_view pass) {
  return std::find(passes.begin(), passes.end(), pass) != passes.end();
}

}  // namespace

bool IrPrintingFlags::printsBefore(std::string_view pass) const {
  return before_all || named(before, pass);
}

bool IrPrintingFlags::printsAfter(std::string_view pass) const {
  return after_all || named(after, pass);
}

std::string irDumpBanner(std::string_view when, std::string_view pass,
                         bool failed) {
  return strCat("// -----// IR Dump ", when, " ", pass, failed ? " Failed" : "",
                " //----- //\n");
}

void printIrDump(Module& module, const PrintOptions& print,
                 std::string_view banner, std::ostream& out) {
  std::string text(banner);
  printModule(module, print, text);
  text += "\n";
  out << text;
  out.flush();
}

}  // namespace shardkit
