// The common mpmd passes: the rule text, the merge of two fragments, and the
// merging walk on a long chain (each fragment merged once, so the whole
// chain becomes one fragment).
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/support/strings.h"
#include "src/mpmd/fragment_info.h"
#include "tests/unit/mpmd/mpmd_test_util.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::FragmentMergeRule;
using mpmd_internal::parseFragmentMergeRules;
using testing::count;
using testing::has;
using testing::kTwoMeshes;
using testing::runPass;

TEST_CASE("fragment merge rules are read with every field") {
  auto rules = parseFragmentMergeRules(
      "FragmentMergeRule(sources=[FragmentInfo(origins=[\"g\",\"f\"(1)],"
      "stage=2,call_counter=3,is_weight_gradient=true,mesh_name=\"m1\")],"
      "target=FragmentInfo(origins=[\"fg\"])),"
      "FragmentMergeRule(sources=[],target=FragmentInfo(origins=[]))");
  REQUIRE(rules.ok());
  REQUIRE(rules->size() == 2);
  const FragmentMergeRule& rule = rules->front();
  REQUIRE(rule.sources.size() == 1);
  const auto& source = rule.sources.front();
  // Origins are kept sorted, so a rule matches in any order.
  REQUIRE(source.origins.size() == 2);
  CHECK(source.origins[0].name == "f");
  CHECK(source.origins[0].transpose_count == 1);
  CHECK(source.origins[1].name == "g");
  CHECK(source.stage_id == 2);
  CHECK(source.call_counter == 3);
  CHECK(source.is_weight_gradient);
  CHECK(source.mesh_name == "m1");
  CHECK(rule.target.origins.size() == 1);
  CHECK(!rule.target.stage_id);
}

TEST_CASE("malformed fragment merge rules are errors") {
  CHECK(!parseFragmentMergeRules("FragmentMergeRule(sources=[").ok());
  CHECK(!parseFragmentMergeRules(
             "FragmentMergeRule(sources=[FragmentInfo(origins=[\"f\"],"
             "stage=x)],target=FragmentInfo(origins=[]))")
             .ok());
  CHECK(!parseFragmentMergeRules(
             "FragmentMergeRule(sources=[FragmentInfo(origins=[f])],"
             "target=FragmentInfo(origins=[]))")
             .ok());
}

// A chain of `n` inferred fragments on m1, each feeding the next.
std::string inferredChain(int n) {
  std::string text = strCat(
      "!t = !mpmd.mesh_tensor<\"m1\", tensor<4xf32>>\n"
      "func.func @main(%arg0: !t) -> !t attributes {",
      kTwoMeshes, "} {\n");
  std::string prev = "%arg0";
  for (int i = 0; i < n; ++i) {
    std::string name = strCat("%v", i);
    text +=
        strCat("  ", name, " = mpmd.fragment<mesh=\"m1\", origin=[]> (", prev,
               ") (%a: tensor<4xf32>) {\n"
               "    %n = stablehlo.negate %a : tensor<4xf32>\n"
               "    mpmd.return %n : tensor<4xf32>\n"
               "  } : (!t) -> !t\n");
    prev = name;
  }
  return text + strCat("  return ", prev, " : !t\n}\n");
}

TEST_CASE("a chain of inferred fragments merges into one fragment") {
  std::string out =
      runPass(inferredChain(500), "mpmd-merge-inferred-fragments");
  CHECK(count(out, "mpmd.fragment") == 1);
  CHECK(count(out, "stablehlo.negate") == 500);
}

TEST_CASE("a producer result used elsewhere stays a result of the merge") {
  std::string text = strCat(
      "!t = !mpmd.mesh_tensor<\"m1\", tensor<4xf32>>\n"
      "func.func @main(%arg0: !t, %arg1: !t) -> (!t, !t) attributes {",
      kTwoMeshes,
      "} {\n"
      "  %0 = mpmd.fragment<mesh=\"m1\", origin=[]> (%arg0, %arg1) "
      "(%a: tensor<4xf32>, %b: tensor<4xf32>) {\n"
      "    %s = stablehlo.add %a, %b : tensor<4xf32>\n"
      "    mpmd.return %s : tensor<4xf32>\n"
      "  } : (!t, !t) -> !t\n"
      "  %1 = mpmd.fragment<mesh=\"m1\", origin=[\"u\"]> (%arg1, %0) "
      "(%a: tensor<4xf32>, %b: tensor<4xf32>) {\n"
      "    %m = stablehlo.multiply %a, %b : tensor<4xf32>\n"
      "    mpmd.return %m : tensor<4xf32>\n"
      "  } : (!t, !t) -> !t\n"
      "  return %0, %1 : !t, !t\n"
      "}\n");
  std::string out = runPass(text, "mpmd-merge-inferred-fragments");
  // The producer's operands first, the consumer's %arg1 not repeated.
  CHECK(has(out,
            "%0:2 = mpmd.fragment<mesh=\"m1\", origin=[\"u\"]> (%arg0, "
            "%arg1)"));
  CHECK(has(out, "return %0#0, %0#1"));
}

}  // namespace
}  // namespace shardkit::mpmd
