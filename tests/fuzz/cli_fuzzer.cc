// libFuzzer target for what a user types on shardkit-opt's command line:
// the flags (byte 0 even: the rest split at NUL bytes into arguments, as
// parseFlags sees argv) and pass option strings (byte 0 odd:
// `-pass="k=v ..."` text, checked against every registered pass). A command
// line is accepted only if every pass it names exists and every option value
// is valid; an error is one line naming the problem.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "shardkit/passes/pass.h"
#include "tests/fuzz/fuzz_util.h"
#include "tools/shardkit-opt/flags.h"

namespace shardkit {
namespace {

void checkError(const absl::Status& status, std::string_view input) {
  std::string_view message = fromAbsl(status.message());
  if (status.ok() || message.empty()) {
    fuzz::fail("an error without a message", input);
  }
}

void fuzzFlags(std::string_view text, std::string_view input) {
  std::vector<std::string> args;
  size_t start = 0;
  while (start <= text.size() && args.size() < 64) {
    size_t end = text.find('\0', start);
    if (end == std::string_view::npos) end = text.size();
    args.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  absl::StatusOr<Flags> flags = parseFlags(args);
  if (!flags.ok()) {
    checkError(flags.status(), input);
    return;
  }
  for (const PassRequest& request : flags->passes) {
    const PassInfo* pass = findPass(request.name);
    if (pass == nullptr) fuzz::fail("accepted an unknown pass", input);
    if (!validatePassOptions(*pass, request.options).ok()) {
      fuzz::fail("accepted invalid pass options", input, request.name);
    }
  }
}

void fuzzOptions(std::string_view text, std::string_view input) {
  absl::StatusOr<PassOptions> options = PassOptions::parse(text);
  if (!options.ok()) {
    checkError(options.status(), input);
    return;
  }
  for (const auto& entry : options->values()) {
    if (entry.first.empty()) fuzz::fail("an option without a key", input);
  }
  for (const PassInfo* pass : allPasses()) {
    absl::Status status = validatePassOptions(*pass, *options);
    if (!status.ok()) checkError(status, input);
  }
}

}  // namespace
}  // namespace shardkit

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return shardkit::fuzz::runOneOf(data, size, shardkit::fuzzFlags,
                                  shardkit::fuzzOptions);
}
