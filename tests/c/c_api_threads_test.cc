// Eight threads reading one fresh module through the C API's const
// accessors at once (the value table is built by the first of them, the
// module printed by all): every thread sees the same values and text. Run
// under ThreadSanitizer too (docs/reliability.md, "Threads").
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "shardkit/c/shardkit.h"

namespace {

const char kModule[] =
    "sdy.mesh @mesh = <[\"x\"=2]>\n"
    "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = "
    "#sdy.sharding<@mesh, [{\"x\"}]>}) -> tensor<8xf32> {\n"
    "  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>\n"
    "  %1 = stablehlo.multiply %0, %arg0 : tensor<8xf32>\n"
    "  return %1 : tensor<8xf32>\n"
    "}\n";

// What one reader saw: every value's name, type and sharding, and the text.
std::string readAll(const shardkit_module* m) {
  std::string seen;
  size_t n = shardkit_module_num_values(m);
  for (size_t i = 0; i < n; ++i) {
    const char* name = shardkit_module_value_name(m, i);
    const char* type = shardkit_module_value_type(m, i);
    seen += std::string(name ? name : "?") + ":" + (type ? type : "?");
    shardkit_tensor_sharding* s = nullptr;
    shardkit_status* status = shardkit_module_value_sharding(m, i, &s);
    if (status) {
      seen += "!" + std::string(shardkit_status_message(status));
      shardkit_status_destroy(status);
    } else if (s) {
      char* text = shardkit_tensor_sharding_to_string(s);
      seen += std::string("=") + (text ? text : "?");
      shardkit_string_free(text);
      shardkit_tensor_sharding_destroy(s);
    }
    seen += ";";
  }
  char* printed = nullptr;
  if (shardkit_status* status = shardkit_module_print(m, &printed)) {
    shardkit_status_destroy(status);
    return seen + "print failed";
  }
  seen += printed;
  shardkit_string_free(printed);
  return seen;
}

}  // namespace

int main() {
  constexpr int kThreads = 8;
  constexpr int kRounds = 20;
  int failures = 0;
  for (int round = 0; round < kRounds; ++round) {
    shardkit_module* m = nullptr;
    if (shardkit_status* status =
            shardkit_module_parse(kModule, std::strlen(kModule), &m)) {
      std::fprintf(stderr, "parse: %s\n", shardkit_status_message(status));
      shardkit_status_destroy(status);
      return 1;
    }
    std::vector<std::string> seen(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] { seen[t] = readAll(m); });
    }
    for (std::thread& thread : threads) thread.join();
    for (int t = 1; t < kThreads; ++t) {
      if (seen[t] != seen[0]) ++failures;
    }
    if (seen[0].find("%arg0:tensor<8xf32>=#sdy.sharding<@mesh, [{\"x\"}]>") ==
        std::string::npos) {
      std::fprintf(stderr, "unexpected values: %s\n", seen[0].c_str());
      ++failures;
    }
    shardkit_module_destroy(m);
  }
  if (failures) std::fprintf(stderr, "%d readers disagreed\n", failures);
  return failures ? 1 : 0;
}
