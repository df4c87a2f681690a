// The export and optimize passes' building blocks: fragment-function names,
// the built-in pipeline schedules' orders, region equivalence, and the
// schedule view's time model.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/mpmd/optimize_passes.h"
#include "shardkit/mpmd/schedule_view.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/fragment_naming.h"
#include "src/mpmd/region_equivalence.h"
#include "tests/unit/mpmd/mpmd_test_util.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::callSitesSummaryName;
using mpmd_internal::fragmentName;
using testing::parse;
using testing::runPass;

TEST_CASE("fragment names summarize origins, phases and stages") {
  std::vector<UserOrigin> layers = {
      {"layer_1", 0}, {"layer_2", 0}, {"layer_3", 0}};
  CHECK(fragmentName(layers, std::nullopt, std::nullopt, true) == "layer_1:3");
  // Backward counters run from high to low.
  std::vector<UserOrigin> back = {{"layer_3", 1}, {"layer_2", 1}};
  CHECK(fragmentName(back, std::nullopt, std::nullopt, false) ==
        "layer_3:2_bwd");
  // The most frequent name wins, `...` says there were others.
  std::vector<UserOrigin> mixed = {{"a", 0}, {"b", 0}, {"b", 1}};
  CHECK(fragmentName(mixed, std::nullopt, std::nullopt, false) ==
        "b..._fwd_bwd");
  CHECK(fragmentName({}, std::nullopt, std::nullopt, true) == "inferred");
  CHECK(fragmentName({}, std::nullopt, std::string("pass"), true) ==
        "inferred_by_pass");
  CHECK(fragmentName(layers, 2, std::nullopt, true) == "stage2");
}

TEST_CASE("group names add the call counters every mesh agrees on") {
  mpmd_internal::MeshCallSites ascending = {
      {"m1", {{"f", 0}, {"f", 1}, {"f", 2}}}};
  CHECK(callSitesSummaryName(ascending) == "f_calls0to2");
  mpmd_internal::MeshCallSites descending = {{"m1", {{"f", 3}, {"f", 2}}}};
  CHECK(callSitesSummaryName(descending) == "f_calls3from2");
  mpmd_internal::MeshCallSites one = {{"m1", {{"f", 5}}}, {"m2", {{"g", 5}}}};
  CHECK(callSitesSummaryName(one) == "f_call5");
  // A gap, a missing counter or meshes that disagree: the name alone.
  mpmd_internal::MeshCallSites gap = {{"m1", {{"f", 0}, {"f", 2}}}};
  CHECK(callSitesSummaryName(gap) == "f");
  mpmd_internal::MeshCallSites missing = {{"m1", {{"f", 0}, {"f", {}}}}};
  CHECK(callSitesSummaryName(missing) == "f");
  mpmd_internal::MeshCallSites disagree = {{"m1", {{"f", 0}}},
                                           {"m2", {{"f", 1}}}};
  CHECK(callSitesSummaryName(disagree) == "f");
}

constexpr std::string_view kOneMesh =
    "topology = #mpmd.topology<<\"m1\": <[\"x\"=1]>>>";

// A fragment on m1 of `origin` and `counter` computing `op` of its operand.
std::string fragment(std::string_view name, std::string_view origin,
                     int counter, std::string_view op,
                     std::string_view operand = "%arg0") {
  return strCat("  %", name, " = mpmd.fragment<mesh=\"m1\", origin=[", origin,
                "]> (", operand, ") {call_counter = ", counter,
                " : ui32} (%a: tensor<4xf32>) {\n    %r = stablehlo.", op,
                " %a : tensor<4xf32>\n    mpmd.return %r : tensor<4xf32>\n"
                "  } : (!m) -> !m\n");
}

std::string oneMeshProgram(const std::string& body, std::string_view ret) {
  return strCat("!m = !mpmd.mesh_tensor<\"m1\", tensor<4xf32>>\n",
                "func.func @main(%arg0: !m) -> !m attributes {", kOneMesh,
                "} {\n", body, "  func.return ", ret, " : !m\n}\n");
}

// The origins of the fragments of `printed`, in order.
std::vector<std::string> fragmentOrder(const std::string& printed) {
  std::vector<std::string> order;
  for (size_t at = printed.find("origin=["); at != std::string::npos;
       at = printed.find("origin=[", at + 1)) {
    size_t close = printed.find(']', at);
    size_t cc = printed.find("call_counter = ", at);
    order.push_back(printed.substr(at + 8, close - at - 8) + "#" +
                    printed.substr(cc + 15, 1));
  }
  return order;
}

TEST_CASE("1F1B on one mesh alternates forward and backward") {
  // Independent forwards and backwards of two microbatches, backwards first.
  std::string body = fragment("b0", "\"f\"(1)", 0, "abs") +
                     fragment("b1", "\"f\"(1)", 1, "abs") +
                     fragment("f1", "\"f\"", 1, "negate") +
                     fragment("f0", "\"f\"", 0, "negate");
  std::string program = oneMeshProgram(body, "%f0");
  std::string printed =
      runPass(program, "mpmd-pipeline-scheduler", "must-happen-before=1F1B");
  CHECK(fragmentOrder(printed) ==
        std::vector<std::string>{"\"f\"#0", "\"f\"(1)#0", "\"f\"#1",
                                 "\"f\"(1)#1"});
  printed =
      runPass(program, "mpmd-pipeline-scheduler", "must-happen-before=GPipe");
  CHECK(fragmentOrder(printed) == std::vector<std::string>{"\"f\"#0", "\"f\"#1",
                                                           "\"f\"(1)#0",
                                                           "\"f\"(1)#1"});
  CHECK(
      runPass(program, "mpmd-pipeline-scheduler", "must-happen-before=Fancy") ==
      "error: unknown pipeline schedule: Fancy");
}

TEST_CASE("Circular runs one phase of each stage in turn") {
  // Mesh m1 holds stages 0 and 2 of a two-mesh pipeline: with 4
  // microbatches, phases of 2: A0 A1 C0 C1 A2 A3 C2 C3.
  std::string body;
  for (int stage : {2, 0}) {
    for (int mb = 3; mb >= 0; --mb) {
      body += strCat("  %s", stage, "_", mb,
                     " = mpmd.fragment<mesh=\"m1\", origin=[\"s", stage,
                     "\"], stage=", stage, "> (%arg0) {call_counter = ", mb,
                     " : ui32} (%a: tensor<4xf32>) {\n    mpmd.return %a : "
                     "tensor<4xf32>\n  } : (!m) -> !m\n");
    }
  }
  std::string program = strCat(
      "!m = !mpmd.mesh_tensor<\"m1\", tensor<4xf32>>\n",
      "func.func @main(%arg0: !m) -> !m attributes {topology = "
      "#mpmd.topology<<\"m1\": <[\"x\"=1]>>, <\"m2\": <[\"x\"=1]>>>} {\n",
      body, "  func.return %s0_0 : !m\n}\n");
  std::string printed = runPass(program, "mpmd-pipeline-scheduler",
                                "must-happen-before=Circular");
  CHECK(fragmentOrder(printed) ==
        std::vector<std::string>{"\"s0\"#0", "\"s0\"#1", "\"s2\"#0", "\"s2\"#1",
                                 "\"s0\"#2", "\"s0\"#3", "\"s2\"#2",
                                 "\"s2\"#3"});
}

TEST_CASE("data dependencies win over the schedule") {
  // B0 uses F0's result, so B0 stays after F0 whatever the schedule says.
  std::string body = fragment("f0", "\"f\"", 0, "negate") +
                     fragment("b0", "\"f\"(1)", 0, "abs", "%f0");
  std::string printed =
      runPass(oneMeshProgram(body, "%b0"), "mpmd-pipeline-scheduler",
              "must-happen-before=builtin:1F1B");
  CHECK(fragmentOrder(printed) ==
        std::vector<std::string>{"\"f\"#0", "\"f\"(1)#0"});
}

TEST_CASE("equal bodies are equivalent, other ops or operand orders not") {
  std::string body = fragment("a", "\"a\"", 0, "abs") +
                     fragment("b", "\"b\"", 1, "abs") +
                     fragment("c", "\"c\"", 0, "negate");
  std::unique_ptr<Module> module = parse(oneMeshProgram(body, "%a"));
  REQUIRE(module);
  std::vector<Op> fragments;
  for (Op op : functionDefinitions(*module).front().body()) {
    if (op.numRegions() == 1) fragments.push_back(op);
  }
  REQUIRE(fragments.size() == 3);
  CHECK(mpmd_internal::isRegionEquivalent(fragments[0].region(0),
                                          fragments[1].region(0)));
  CHECK(mpmd_internal::regionShapeHash(fragments[0].region(0)) ==
        mpmd_internal::regionShapeHash(fragments[1].region(0)));
  CHECK_FALSE(mpmd_internal::isRegionEquivalent(fragments[0].region(0),
                                                fragments[2].region(0)));
}

TEST_CASE("the schedule view times fragments per mesh") {
  std::string program =
      "!m1 = !mpmd.mesh_tensor<\"m1\", tensor<4xf32>>\n"
      "!m2 = !mpmd.mesh_tensor<\"m2\", tensor<4xf32>>\n"
      "func.func @main(%arg0: !m1) -> !m2 attributes {topology = "
      "#mpmd.topology<<\"m1\": <[\"x\"=1]>>, <\"m2\": <[\"x\"=1]>>>} {\n"
      "  %0 = mpmd.fragment<mesh=\"m1\", origin=[\"s1\"]> (%arg0) "
      "(%a: tensor<4xf32>) {\n    mpmd.return %a : tensor<4xf32>\n"
      "  } : (!m1) -> !m1\n"
      "  %1 = mpmd.transfer %0 : (!m1) -> !m2\n"
      "  %2 = mpmd.fragment<mesh=\"m2\", origin=[\"s2\"]> (%1) "
      "(%a: tensor<4xf32>) {\n    mpmd.return %a : tensor<4xf32>\n"
      "  } : (!m2) -> !m2\n"
      "  func.return %2 : !m2\n}\n";
  std::unique_ptr<Module> module = parse(program);
  REQUIRE(module);
  absl::StatusOr<ScheduleView> view = computeScheduleView(*module);
  REQUIRE(view.ok());
  REQUIRE(view->fragments.size() == 2);
  CHECK(view->fragments[1].start == 1);
  CHECK(view->makespan == 2);
  // Each mesh is idle half the time.
  CHECK(view->bubble_fraction == Approx(0.5));
  REQUIRE(view->transfers.size() == 1);
  CHECK(view->transfers[0].from == 0);
  CHECK(view->transfers[0].to == 1);
  CHECK(scheduleJson(*view).find("\"bubble_fraction\": 0.5") !=
        std::string::npos);
  CHECK(scheduleSvg(*view).find("bubble 0.5") != std::string::npos);
}

}  // namespace
}  // namespace shardkit::mpmd
