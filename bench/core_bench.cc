// Parsing and printing of the core attributes at realistic sizes: rank-4
// shardings with sub-axes on a 4-axis mesh, per-value lists of 8, and
// dot_general / reshape sharding rules. Each case reports bytes/s of text
// and items/s; the time per iteration is the time per attribute.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "shardkit/core/verify.h"
#include "shardkit/text/parse.h"

namespace shardkit {
namespace {

// On `sdy.mesh @mesh = <["x"=8, "y"=4, "z"=2, "w"=4]>`.
const char* const kSharding =
    R"(<@mesh, [{"x":(1)2, "y"}, {"z", ?}p1, {"x":(2)4}, {"w":(1)2, ?}], )"
    R"(replicated={"w":(2)2}>)";
const char* const kInlineSharding =
    R"(<mesh<["x"=8, "y"=4, "z"=2, "w"=4], device_ids=[31, 30, 29, 28, 27, )"
    R"(26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, )"
    R"(8, 7, 6, 5, 4, 3, 2, 1, 0, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, )"
    R"(52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, )"
    R"(34, 33, 32, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, )"
    R"(81, 80, 79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, )"
    R"(64, 127, 126, 125, 124, 123, 122, 121, 120, 119, 118, 117, 116, 115, )"
    R"(114, 113, 112, 111, 110, 109, 108, 107, 106, 105, 104, 103, 102, 101, )"
    R"(100, 99, 98, 97, 96, 159, 158, 157, 156, 155, 154, 153, 152, 151, 150, )"
    R"(149, 148, 147, 146, 145, 144, 143, 142, 141, 140, 139, 138, 137, 136, )"
    R"(135, 134, 133, 132, 131, 130, 129, 128, 191, 190, 189, 188, 187, 186, )"
    R"(185, 184, 183, 182, 181, 180, 179, 178, 177, 176, 175, 174, 173, 172, )"
    R"(171, 170, 169, 168, 167, 166, 165, 164, 163, 162, 161, 160, 223, 222, )"
    R"(221, 220, 219, 218, 217, 216, 215, 214, 213, 212, 211, 210, 209, 208, )"
    R"(207, 206, 205, 204, 203, 202, 201, 200, 199, 198, 197, 196, 195, 194, )"
    R"(193, 192, 255, 254, 253, 252, 251, 250, 249, 248, 247, 246, 245, 244, )"
    R"(243, 242, 241, 240, 239, 238, 237, 236, 235, 234, 233, 232, 231, 230, )"
    R"(229, 228, 227, 226, 225, 224]>, [{"x"}, {"y", "z"}, {}, {"w", ?}]>)";

std::string perValueText() {
  const char* const dims[] = {
      R"({"x":(1)2, "y"}, {"z", ?}p1, {"x":(2)4}, {"w":(1)2, ?})",
      R"({"x"}, {}, {"y", "w"}, {?})",
      R"({}, {"z"}p0, {"x":(1)4, ?}, {"y"})",
      R"({"w", "x":(4)2}, {?}, {}, {"z"})",
  };
  std::string text = "<[";
  for (int i = 0; i < 8; ++i) {
    if (i) text += ", ";
    text += std::string("<@mesh, [") + dims[i % 4] + "]>";
  }
  return text + "]>";
}

// A batched dot_general: batch i, lhs non-contracting j, rhs k, contracting l.
const char* const kDotGeneralRule =
    "<([i, j, l], [i, l, k])->([i, j, k]) {i=8, j=256, k=512, l=128} "
    "reduction={l}>";
// tensor<4x8x16x32> -> tensor<32x16x2x16>: a merge and a split.
const char* const kReshapeRule =
    "<([i, j, k, lm])->([ij, k, l, m]) {i=4, j=8, k=16, l=2, m=16}>";
// A custom rule with every factor kind and > 18 factors.
std::string wideRuleText() {
  std::string operand = "[", result = "[", sizes = "{";
  for (int i = 0; i < 24; ++i) {
    std::string symbol = factorSymbol(i);
    operand += (i ? ", " : "") + symbol;
    if (i % 3 != 0) result += (result.size() > 1 ? ", " : "") + symbol;
    sizes += (i ? ", " : "") + symbol + "=2";
  }
  return "<(" + operand + "])->(" + result + "]) " + sizes +
         "} reduction={i, l, o} need_replication={j} permutation={k} "
         "blocked_propagation={m, n}, custom>";
}

template <typename Parse>
void runParse(benchmark::State& state, const std::string& text, Parse&& parse) {
  if (!parse(text).ok()) {
    state.SkipWithError("benchmark text does not parse");
    return;
  }
  for (auto _ : state) {
    auto parsed = parse(text);
    benchmark::DoNotOptimize(parsed);
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(text.size()));
  state.SetItemsProcessed(state.iterations());
}

template <typename Parse>
void runPrint(benchmark::State& state, const std::string& text, Parse&& parse) {
  auto parsed = parse(text);
  if (!parsed.ok() || toString(*parsed) != text) {
    state.SkipWithError("benchmark text does not round-trip");
    return;
  }
  for (auto _ : state) {
    std::string printed = toString(*parsed);
    benchmark::DoNotOptimize(printed);
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(text.size()));
  state.SetItemsProcessed(state.iterations());
}

auto parseSharding = [](const std::string& t) {
  return parseTensorSharding(t);
};
auto parsePerValue = [](const std::string& t) {
  return parseTensorShardingPerValue(t);
};
auto parseRule = [](const std::string& t) { return parseOpShardingRule(t); };

void BM_ParseTensorSharding(benchmark::State& state) {
  runParse(state, kSharding, parseSharding);
}
void BM_PrintTensorSharding(benchmark::State& state) {
  runPrint(state, kSharding, parseSharding);
}
void BM_ParseInlineMeshSharding(benchmark::State& state) {
  runParse(state, kInlineSharding, parseSharding);
}
void BM_PrintInlineMeshSharding(benchmark::State& state) {
  runPrint(state, kInlineSharding, parseSharding);
}
void BM_ParseShardingPerValue8(benchmark::State& state) {
  runParse(state, perValueText(), parsePerValue);
}
void BM_PrintShardingPerValue8(benchmark::State& state) {
  runPrint(state, perValueText(), parsePerValue);
}
void BM_ParseDotGeneralRule(benchmark::State& state) {
  runParse(state, kDotGeneralRule, parseRule);
}
void BM_PrintDotGeneralRule(benchmark::State& state) {
  runPrint(state, kDotGeneralRule, parseRule);
}
void BM_ParseReshapeRule(benchmark::State& state) {
  runParse(state, kReshapeRule, parseRule);
}
void BM_PrintReshapeRule(benchmark::State& state) {
  runPrint(state, kReshapeRule, parseRule);
}
void BM_ParseWideCustomRule(benchmark::State& state) {
  runParse(state, wideRuleText(), parseRule);
}
void BM_PrintWideCustomRule(benchmark::State& state) {
  runPrint(state, wideRuleText(), parseRule);
}

// Parse plus verification against the mesh, what a reader of a module does
// for every sharding attribute.
void BM_ParseAndVerifyTensorSharding(benchmark::State& state) {
  MeshTable meshes;
  meshes.add("mesh", Mesh({{"x", 8}, {"y", 4}, {"z", 2}, {"w", 4}}));
  const std::vector<int64_t> shape = {64, 32, 16, 8};
  const std::string text = kSharding;
  for (auto _ : state) {
    absl::StatusOr<TensorSharding> parsed = parseTensorSharding(text);
    absl::Status status = verifyTensorSharding(*parsed, meshes, shape);
    if (!status.ok()) {
      state.SkipWithError("benchmark sharding does not verify");
      break;
    }
    benchmark::DoNotOptimize(status);
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(text.size()));
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_ParseTensorSharding);
BENCHMARK(BM_PrintTensorSharding);
BENCHMARK(BM_ParseInlineMeshSharding);
BENCHMARK(BM_PrintInlineMeshSharding);
BENCHMARK(BM_ParseShardingPerValue8);
BENCHMARK(BM_PrintShardingPerValue8);
BENCHMARK(BM_ParseDotGeneralRule);
BENCHMARK(BM_PrintDotGeneralRule);
BENCHMARK(BM_ParseReshapeRule);
BENCHMARK(BM_PrintReshapeRule);
BENCHMARK(BM_ParseWideCustomRule);
BENCHMARK(BM_PrintWideCustomRule);
BENCHMARK(BM_ParseAndVerifyTensorSharding);

}  // namespace
}  // namespace shardkit
