// Structured diagnostics (diagnostic.h): carried in a Status through layers,
// located at a source position or, for ops built in C++, at the op.
#include "shardkit/ir/diagnostic.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

std::string messageOf(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

Diagnostic withNote() {
  Diagnostic d{{"in.mlir", 7, 3, {}}, Severity::kError, "bad sharding", {}};
  d.notes.push_back(
      {{"in.mlir", 2, 1, {}}, Severity::kNote, "mesh defined here", {}});
  return d;
}

// Returns `status` through a StatusOr and a status macro, as layers do.
absl::StatusOr<int> fail(const absl::Status& status) { return status; }
absl::Status passOn(const absl::Status& status) {
  SK_ASSIGN_OR_RETURN(int value, fail(status));
  (void)value;
  return absl::OkStatus();
}

TEST_CASE("diagnostic: survives a round trip through a Status") {
  Diagnostic op_only{{{}, 0, 0, "%3"}, Severity::kWarning, "odd", {}};
  std::vector<Diagnostic> sent = {withNote(), op_only};
  absl::Status status = passOn(diagnosticStatus(sent));
  CHECK(status.code() == absl::StatusCode::kInvalidArgument);
  CHECK(hasDiagnostics(status));
  CHECK(diagnosticsOf(status) == sent);
  CHECK(messageOf(status) ==
        "in.mlir:7:3: error: bad sharding\n"
        "in.mlir:2:1: note: mesh defined here\n"
        "%3: warning: odd");
  CHECK(diagnosticsOf(absl::OkStatus()).empty());
}

TEST_CASE("diagnostic: a plain status is one error without a location") {
  absl::Status plain = absl::InternalError("boom");
  CHECK(!hasDiagnostics(plain));
  std::vector<Diagnostic> got = diagnosticsOf(plain);
  REQUIRE(got.size() == 1);
  CHECK(got[0].location.empty());
  CHECK(got[0].severity == Severity::kError);
  CHECK(got[0].message == "boom");
  CHECK(formatDiagnostic(got[0]) == "error: boom");
  // A payload that does not decode is ignored the same way.
  absl::Status corrupt = diagnosticStatus(withNote());
  corrupt.SetPayload("shardkit/Diagnostic", absl::Cord("\x05garbage"));
  REQUIRE(diagnosticsOf(corrupt).size() == 1);
  CHECK(diagnosticsOf(corrupt)[0].location.empty());
}

TEST_CASE("diagnostic: parse errors carry their position") {
  absl::StatusOr<std::unique_ptr<Module>> parsed = parseModule(
      "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = stablehlo.abs %nope : tensor<4xf32>\n"
      "  return %0 : tensor<4xf32>\n"
      "}\n",
      "in.mlir");
  REQUIRE(!parsed.ok());
  std::vector<Diagnostic> got = diagnosticsOf(parsed.status());
  REQUIRE(got.size() == 1);
  CHECK(got[0].location == DiagnosticLocation{"in.mlir", 2, 22, {}});
  CHECK(got[0].message == "use of undeclared SSA value '%nope'");
}

TEST_CASE("diagnostic: the verifier locates each violation at its op") {
  absl::StatusOr<std::unique_ptr<Module>> parsed = parseModule(
      "sdy.mesh @mesh = <[\"x\"=2]>\n"
      "func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : "
      "tensor<4xf32>\n"
      "  %1 = sdy.propagation_barrier %0 allowed_direction=BOTH : "
      "tensor<4xf32>\n"
      "  return %1 : tensor<4xf32>\n"
      "}\n",
      "in.mlir");
  REQUIRE(!parsed.ok());
  std::vector<Diagnostic> got = diagnosticsOf(parsed.status());
  REQUIRE(got.size() == 2);
  CHECK(got[0].location == DiagnosticLocation{"in.mlir", 3, 3, {}});
  CHECK(got[1].location == DiagnosticLocation{"in.mlir", 4, 3, {}});
  CHECK(got[1].message.starts_with("'sdy.propagation_barrier' op "));
}

TEST_CASE("diagnostic: an op built in C++ is named, not placed at 1:1") {
  Module m;
  Type t = m.types().rankedTensor({4}, "f32");
  FuncOp f = FuncOp::create(m, "f", {t}, {t});
  m.body().pushBack(f.op());
  auto add = [&](std::string_view name, std::vector<Value> operands,
                 std::vector<Type> results) {
    OperationState state(m.opName(name));
    state.operands = std::move(operands);
    state.result_types = std::move(results);
    Op op = m.createOp(state);
    f.body().pushBack(op);
    return op;
  };
  Op first = add("stablehlo.abs", {f.argument(0)}, {t});
  Op second = add("stablehlo.abs", {first.result(0)}, {t});
  Op ret = add("func.return", {second.result(0)}, {});
  CHECK(first.location() == kNoSourceLocation);

  CHECK(messageOf(opError(second, "is odd")) ==
        "%1: error: 'stablehlo.abs' op is odd");
  std::vector<Diagnostic> got = diagnosticsOf(opError(second, "is odd"));
  REQUIRE(got.size() == 1);
  CHECK(got[0].location == DiagnosticLocation{{}, 0, 0, "%1"});
  CHECK(toString(locationOf(f.op())) == "@f");
  CHECK(toString(locationOf(ret)) == strCat("op#", ret.id()));
  CHECK(messageOf(locatedError(first, "plain")) == "%0: error: plain");
  // A module read from a file keeps its name for ops passes add to it.
  m.file_name = "in.mlir";
  CHECK(toString(locationOf(first)) == "in.mlir:%0");
}

}  // namespace
}  // namespace shardkit
