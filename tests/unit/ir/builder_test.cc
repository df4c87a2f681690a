// GraphBuilder: typed ops with computed types, shape errors at the op and
// the builder's location, and locations through printing and diagnostics.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/graph_builder.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

std::string messageOf(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

TEST_CASE("GraphBuilder builds ops that print and read back") {
  Module module;
  GraphBuilder b(module);
  FuncOp f = b.func("f", {b.tensorType({2, 8, 16}), b.tensorType({2, 16, 4})});
  b.mesh("mesh", Mesh({{"x", 2}}));  // placed before the function
  DotDimensionNumbers dims;
  dims.lhs_batching = {0};
  dims.rhs_batching = {0};
  dims.lhs_contracting = {2};
  dims.rhs_contracting = {1};
  Value dot = b.dotGeneral(f.argument(0), f.argument(1), dims);
  Value t = b.transpose(dot, {0, 2, 1});
  Value r = b.reshape(t, {2, 32});
  Value zero = b.constant(b.tensorType({}), "0.000000e+00");
  Value bcast = b.broadcastInDim(zero, {2, 32}, {});
  Value sum = b.elementwise(ElementwiseKind::kAdd, r, bcast);
  Value red =
      b.reduce(b.unary(UnaryKind::kExp, sum), zero, {1}, ReduceKind::kMaximum);
  b.ret({b.shardingConstraint(
      red, TensorSharding(MeshOrRef::ref("mesh"),
                          {DimensionSharding({AxisRef("x")}, true)}))});
  REQUIRE(b.status().ok());
  REQUIRE(verifyModule(module).ok());
  CHECK(dot.type().str() == "tensor<2x8x4xf32>");
  CHECK(t.type().str() == "tensor<2x4x8xf32>");
  CHECK(red.type().str() == "tensor<2xf32>");
  std::string text = printModule(module);
  CHECK(text.find("sdy.mesh @mesh") < text.find("func.func @f"));
  CHECK(text.find("-> tensor<2xf32>") != std::string::npos);
  CHECK(text.find("stablehlo.reduce(%5 init: %cst) applies stablehlo.maximum "
                  "across dimensions = [1]") != std::string::npos);
  absl::StatusOr<std::unique_ptr<Module>> again = parseModule(text);
  REQUIRE(again.ok());
  CHECK(printModule(**again) == text);
}

TEST_CASE("Shape errors name the op and the builder's location") {
  Module module;
  GraphBuilder b(module);
  FuncOp f = b.func("f", {b.tensorType({8, 16}), b.tensorType({8, 4})});
  b.setLocation(DebugLocation::fileLineCol("model.py", 7, 3));
  b.matmul(f.argument(0), f.argument(1));
  CHECK(messageOf(b.status()) ==
        "model.py:7:3 (%0): error: 'stablehlo.dot_general' op contracting "
        "dimension 1 of lhs (size 16) does not match dimension 0 of rhs "
        "(size 8)");
  // Only the first problem is kept.
  b.transpose(f.argument(0), {0, 0});
  CHECK(messageOf(b.status()).starts_with("model.py:7:3 (%0)"));

  Module other;
  GraphBuilder c(other);
  FuncOp g = c.func("g", {c.tensorType({8})});
  c.setLocation(DebugLocation::named("dense_1"));
  c.broadcastInDim(g.argument(0), {4, 4}, {0});
  CHECK(messageOf(c.status()) ==
        "%0 loc(\"dense_1\"): error: 'stablehlo.broadcast_in_dim' op operand "
        "dimension 0 (size 8) cannot broadcast to size 4");
  Module third;
  GraphBuilder d(third);
  FuncOp h = d.func("h", {d.tensorType({8})});
  d.reduce(h.argument(0), h.argument(0), {0}, ReduceKind::kAdd);
  CHECK(messageOf(d.status()) ==
        "%0: error: 'stablehlo.reduce' op the initial value must be a scalar");
}

TEST_CASE("Locations print with debug info and reach the verifier") {
  Module module;
  GraphBuilder b(module);
  FuncOp f = b.func("f", {b.tensorType({8})});
  b.setLocation(DebugLocation::fileLineCol("a \"b\".py", 3, 4));
  Value n = b.unary(UnaryKind::kNegate, f.argument(0));
  b.ret({n});
  PrintOptions options;
  options.debug_info = true;
  std::string text = printModule(module, options);
  CHECK(text.find("stablehlo.negate %arg0 : tensor<8xf32> loc(\"a \\22b\\22.py"
                  "\":3:4)") != std::string::npos);
  CHECK(printModule(module).find("loc(") == std::string::npos);
  // The location reads back.
  absl::StatusOr<std::unique_ptr<Module>> again = parseModule(text);
  REQUIRE(again.ok());
  Op negate = (*again)->functions()[0].region(0).front().front();
  REQUIRE(negate.debugLocation() != nullptr);
  CHECK(negate.debugLocation()->file() == "a \"b\".py");
  CHECK(negate.debugLocation()->line() == 3);
  CHECK(printModule(**again, options) == text);
  // A verifier error on a built op names the location and the op.
  n.definingOp().setAttr(
      "sdy.sharding",
      Attribute::of(TensorShardingPerValue({TensorSharding(
          MeshOrRef::ref("nowhere"), {DimensionSharding::closed()})})));
  CHECK(messageOf(verifyModule(module))
            .starts_with("a \"b\".py:3:4 (%0): error: 'stablehlo.negate' op"));
}

TEST_CASE("DebugLocation finds the file position inside any location") {
  DebugLocation call =
      DebugLocation::fromText(R"(callsite("f"("a.py":1:2) at "b.py":3:4))");
  CHECK(call.file() == "a.py");
  CHECK(call.line() == 1);
  CHECK(call.col() == 2);
  CHECK(DebugLocation::fromText(R"(fused["x", "y"])").line() == 0);
  CHECK(DebugLocation().toString() == "loc(unknown)");
  CHECK(DebugLocation::named("n", DebugLocation::fileLineCol("c.py", 5, 6))
            .toString() == R"(loc("n"("c.py":5:6)))");
}

}  // namespace
}  // namespace shardkit

namespace shardkit {
namespace {

TEST_CASE("GraphBuilder::op builds any op by name") {
  Module module;
  GraphBuilder b(module);
  b.mesh("mesh", Mesh({{"x", 2}}));
  FuncOp f = b.func("f", {b.tensorType({4, 8})});
  Type out = b.tensorType({8, 4});
  // An op no dialect registers, with a discardable attribute.
  Op mine = b.op("my.transpose", {f.argument(0)}, {out},
                 {{"my.note", Attribute::string("kept")}});
  // A registered op the typed calls do not cover: its verifier checks it.
  Op neg = b.op("stablehlo.negate", {mine.result(0)}, {out});
  b.ret({neg.result(0)});
  REQUIRE(b.status().ok());
  CHECK(mine.name() == "my.transpose");
  CHECK(!mine.opName().isRegistered());
  CHECK(neg.opName().isRegistered());
  CHECK(mine.result(0).type() == out);
  REQUIRE(verifyModule(module).ok());
  std::string text = printModule(module);
  CHECK(text.find("\"my.transpose\"(%arg0) {my.note = \"kept\"} : "
                  "(tensor<4x8xf32>) -> tensor<8x4xf32>") != std::string::npos);
  CHECK(text.find("stablehlo.negate %0 : tensor<8x4xf32>") !=
        std::string::npos);

  // Nothing is inferred: a registered op given the wrong types is the
  // verifier's to reject.
  Module bad;
  GraphBuilder c(bad);
  FuncOp g = c.func("g", {c.tensorType({4, 8})});
  Op wrong = c.op("stablehlo.negate", {g.argument(0)}, {out});
  c.ret({wrong.result(0)});
  CHECK(c.status().ok());
  CHECK(!verifyModule(bad).ok());
}

}  // namespace
}  // namespace shardkit
