// libFuzzer target for the module reader and writer (shardkit/asm/module_io.h).
//
// The input is module text. A failed parse must carry a located message
// `fuzz.mlir:LINE:COL: error: ...`. A module that parses (and verifies) must
// print to text that parses back and prints identically, and its generic
// form must read back into the same pretty text. The mpmd syntaxes are
// registered too, so their forms are exercised as well.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/mpmd/mpmd_syntax.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/support/strings.h"
#include "tests/fuzz/fuzz_util.h"

namespace shardkit {
namespace {

constexpr std::string_view kFile = "fuzz.mlir";

using fuzz::fail;

std::string print(Module& module, bool generic) {
  PrintOptions options;
  options.generic = generic;
  return printModule(module, options);
}

void checkRoundTrip(std::string_view input, Module& module) {
  // Reading the shardings of every value must not crash.
  module.walk([](Op op) {
    for (unsigned i = 0; i < op.numResults(); ++i)
      (void)getSharding(op.result(i));
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      Region region = op.region(r);
      for (unsigned b = 0; b < region.numBlocks(); ++b) {
        for (Value arg : region.block(b).arguments()) (void)getSharding(arg);
      }
    }
  });
  std::string printed = print(module, /*generic=*/false);
  absl::StatusOr<std::unique_ptr<Module>> again = parseModule(printed, kFile);
  if (!again.ok()) {
    fail("printed module does not parse", input,
         strCat(printed, "\n", fromAbsl(again.status().message())));
  }
  std::string reprinted = print(**again, /*generic=*/false);
  if (reprinted != printed) {
    fail("printing is not stable", input,
         strCat(printed, "\n---\n", reprinted));
  }
  std::string generic = print(module, /*generic=*/true);
  absl::StatusOr<std::unique_ptr<Module>> from_generic =
      parseModule(generic, kFile);
  if (!from_generic.ok()) {
    fail("generic form does not parse", input,
         strCat(generic, "\n", fromAbsl(from_generic.status().message())));
  }
  std::string pretty = print(**from_generic, /*generic=*/false);
  if (pretty != printed) {
    fail("generic form reads back differently", input,
         strCat(printed, "\n---\n", generic, "\n---\n", pretty));
  }
}

}  // namespace
}  // namespace shardkit

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  shardkit::registerMpmdSyntax();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shardkit;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  (void)splitInputFile(input);
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(input, kFile);
  if (!module.ok()) {
    std::string_view message = fromAbsl(module.status().message());
    if (!fuzz::isLocated(message, kFile))
      fail("error without a location", input, message);
    return 0;
  }
  checkRoundTrip(input, **module);
  return 0;
}
