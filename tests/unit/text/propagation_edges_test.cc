// #sdy.propagation_edges: parsing, printing and verification
// (core/propagation_edges.h, core/verify_debug_info.h).
#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "shardkit/core/verify_debug_info.h"
#include "shardkit/text/parse.h"
#include "unit/text/parse_test_util.h"

namespace shardkit {
namespace {

using testing::errorOf;

std::string roundTrip(std::string_view text) {
  absl::StatusOr<PropagationEdges> edges = parsePropagationEdges(text);
  INFO(text);
  REQUIRE(edges.ok());
  return toAttrString(*edges);
}

TEST_CASE("propagation edges: parse and print back") {
  const std::string text =
      R"(#sdy.propagation_edges<[{step-0 = [{"b" = result-0 -> [operand-0]}]}, )"
      R"({step-12 = [{"a" = operand-1 -> [operand-0, result-0]}, )"
      R"({"c":(1)4 = operand-0 -> [result-2]}]}]>)";
  CHECK(roundTrip(text) == text);
  // Any spacing; the stripped form; no steps.
  CHECK(
      roundTrip(R"(<[{step-3=[{"a"=operand-0->[result-0]}]}]>)") ==
      R"(#sdy.propagation_edges<[{step-3 = [{"a" = operand-0 -> [result-0]}]}]>)");
  CHECK(roundTrip("<[]>") == "#sdy.propagation_edges<[]>");
  absl::StatusOr<PropagationEdges> edges = parsePropagationEdges(
      R"(<[{step-4 = [{"x":(2)2 = result-1 -> [operand-3]}]}]>)");
  REQUIRE(edges.ok());
  REQUIRE(edges->steps.size() == 1);
  const AxisPropagation& entry = edges->steps[0].axes.at(0);
  CHECK(edges->steps[0].step == 4);
  CHECK(entry.axis == AxisRef("x", 2, 2));
  CHECK(entry.source == EdgeValueRef::result(1));
  CHECK(entry.targets == std::vector<EdgeValueRef>{EdgeValueRef::operand(3)});
  CHECK(edges->lastStep() == 4);
}

TEST_CASE("propagation edges: malformed text") {
  CHECK(errorOf(parsePropagationEdges(
            R"(<[{step-0 = [{"a" = input-0 -> []}]}]>)")) ==
        "1:21: expected 'operand' or 'result', got 'input'");
  CHECK(errorOf(parsePropagationEdges(R"(<[{stp-0 = []}]>)")) ==
        "1:4: expected 'step', got 'stp'");
  CHECK(errorOf(
            parsePropagationEdges(R"(<[{step-0 = [{a = operand-0 -> []}]}]>)"))
            .find("expected string (axis name)") != std::string::npos);
  CHECK(errorOf(parsePropagationEdges(
            R"(<[{step-0 = [{"a" = operand-0 [result-0]}]}]>)")) ==
        "1:31: expected '->', got '['");
}

MeshTable meshes() {
  MeshTable table;
  table.add("mesh", Mesh({{"a", 2}, {"b", 4}}));
  return table;
}

std::string verifyError(std::string_view text,
                        std::optional<EdgeValueCounts> counts = EdgeValueCounts{
                            2, 1}) {
  absl::StatusOr<PropagationEdges> edges = parsePropagationEdges(text);
  REQUIRE(edges.ok());
  absl::Status status = verifyPropagationEdges(*edges, meshes(), counts);
  return status.ok() ? "" : std::string(fromAbsl(status.message()));
}

TEST_CASE("propagation edges: verification") {
  CHECK(
      verifyError(R"(<[{step-0 = [{"a" = operand-0 -> [operand-1, result-0]}]},
                         {step-3 = [{"b":(1)2 = result-0 -> [operand-0]}]}]>)") ==
      "");
  CHECK(verifyError(R"(<[{step-1 = []}, {step-1 = []}]>)") ==
        "propagation edges have duplicate step index: 1");
  CHECK(verifyError(R"(<[{step--3 = []}]>)") ==
        "propagation edges have negative step index: -3");
  CHECK(verifyError(R"(<[{step-0 = [{"a" = operand-0 -> [operand-0]}]}]>)") ==
        "propagation edges have a source that is the same as a target");
  CHECK(
      verifyError(
          R"(<[{step-7 = [{"b":(2)2 = result-0 -> [operand-0, operand-0]}]}]>)") ==
      "propagation edges have duplicate targets for step index: 7 and axis: "
      "b:(2)2");
  CHECK(verifyError(R"(<[{step-0 = [{"z" = operand-0 -> [result-0]}]}]>)") ==
        "expected axis ref to be in one of the meshes");
  // A sub-axis that doesn't fit its axis isn't in the mesh either.
  CHECK(
      verifyError(R"(<[{step-0 = [{"a":(1)4 = operand-0 -> [result-0]}]}]>)") ==
      "expected axis ref to be in one of the meshes");
  CHECK(
      verifyError(R"(<[{step-0 = [{"a" = result-0 -> [operand-2]}]}]>)") ==
      "expected a value ref to have an operand index in range [0, 2), got: 2");
  CHECK(verifyError(R"(<[{step-0 = [{"a" = result-1 -> [operand-0]}]}]>)") ==
        "expected a value ref to have a result index in range [0, 1), got: 1");
  // Without counts (a data-flow edge's sources are not its own operands) the
  // indices aren't checked.
  CHECK(verifyError(R"(<[{step-0 = [{"a" = operand-5 -> [result-0]}]}]>)",
                    std::nullopt) == "");
}

}  // namespace
}  // namespace shardkit
