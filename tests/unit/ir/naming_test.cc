// How the writer names values: %0.. in order, %N:count groups and %N#i uses,
// %argN block arguments counting on through nested regions, nested regions
// continuing their parent's numbering, siblings restarting from the same
// point, op-chosen names (%c, %cst, %iterArg) with _N on clashes.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::inModule;
using testing::roundTrip;

TEST_CASE("results are numbered in order; groups print as %N:count") {
  CHECK(roundTrip(R"(
    func.func @f(%x: i32, %y: i32) -> i32 {
      %a, %b = "t.two"(%x) : (i32) -> (i32, i32)
      %single = "t.one"(%b, %y) : (i32, i32) -> i32
      %many:3 = "t.three"() : () -> (i32, i32, i32)
      "t.none"(%many#2, %a) : (i32, i32) -> ()
      return %single : i32
    })") == inModule("  func.func @f(%arg0: i32, %arg1: i32) -> i32 {\n"
                     "    %0:2 = \"t.two\"(%arg0) : (i32) -> (i32, i32)\n"
                     "    %1 = \"t.one\"(%0#1, %arg1) : (i32, i32) -> i32\n"
                     "    %2:3 = \"t.three\"() : () -> (i32, i32, i32)\n"
                     "    \"t.none\"(%2#2, %0#0) : (i32, i32) -> ()\n"
                     "    return %1 : i32\n"
                     "  }"));
}

TEST_CASE("nested regions continue the numbering; siblings share a start") {
  CHECK(roundTrip(R"(
    func.func @f(%x: i32) -> i32 {
      %r = "t.two_regions"() ({
      ^bb0(%p: i32):
        %in = "t.a"(%p) : (i32) -> i32
        "t.yield"(%in) : (i32) -> ()
      }, {
      ^bb0(%q: i32, %s: i32):
        %in2 = "t.b"(%q, %x) : (i32, i32) -> i32
        "t.yield"(%in2) : (i32) -> ()
      }) : () -> i32
      %after = "t.c"(%r) : (i32) -> i32
      return %after : i32
    })") == inModule("  func.func @f(%arg0: i32) -> i32 {\n"
                     "    %0 = \"t.two_regions\"() ({\n"
                     "    ^bb0(%arg1: i32):\n"
                     "      %2 = \"t.a\"(%arg1) : (i32) -> i32\n"
                     "      \"t.yield\"(%2) : (i32) -> ()\n"
                     "    }, {\n"
                     "    ^bb0(%arg1: i32, %arg2: i32):\n"
                     "      %2 = \"t.b\"(%arg1, %arg0) : (i32, i32) -> i32\n"
                     "      \"t.yield\"(%2) : (i32) -> ()\n"
                     "    }) : () -> i32\n"
                     "    %1 = \"t.c\"(%0) : (i32) -> i32\n"
                     "    return %1 : i32\n"
                     "  }"));
}

TEST_CASE("each function starts again at %0 and %arg0") {
  std::string printed = roundTrip(R"(
    func.func @f(%a: i32) -> i32 {
      %0 = "t.x"(%a) : (i32) -> i32
      return %0 : i32
    }
    func.func @g(%b: i32, %c: i32) -> i32 {
      %z = "t.y"(%c) : (i32) -> i32
      return %z : i32
    })");
  CHECK(printed.find("func.func @g(%arg0: i32, %arg1: i32) -> i32 {\n"
                     "    %0 = \"t.y\"(%arg1) : (i32) -> i32\n") !=
        std::string::npos);
}

TEST_CASE("op-chosen names: %c, %cst and %iterArg, with _N against clashes") {
  std::string printed = roundTrip(R"(
    func.func @f(%x: tensor<i32>) -> tensor<i32> {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %two = stablehlo.constant dense<2> : tensor<i32>
      %half = stablehlo.constant dense<0.5> : tensor<f32>
      %w = stablehlo.while(%i = %x) : tensor<i32>
       cond {
        %k = stablehlo.constant dense<true> : tensor<i1>
        stablehlo.return %k : tensor<i1>
      } do {
        %in = stablehlo.while(%j = %i) : tensor<i32>
         cond {
          %t = stablehlo.constant dense<false> : tensor<i1>
          stablehlo.return %t : tensor<i1>
        } do {
          stablehlo.return %j : tensor<i32>
        }
        stablehlo.return %in : tensor<i32>
      }
      %sum = stablehlo.add %w, %one : tensor<i32>
      return %sum : tensor<i32>
    })");
  INFO(printed);
  CHECK(printed.find(
            "    %c = stablehlo.constant dense<1> : tensor<i32>\n"
            "    %c_0 = stablehlo.constant dense<2> : tensor<i32>\n"
            "    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>\n"
            "    %0 = stablehlo.while(%iterArg = %arg0) : tensor<i32>\n") !=
        std::string::npos);
  // In the cond region the conflict counter goes on from the parent's.
  CHECK(printed.find(
            "      %c_1 = stablehlo.constant dense<true> : tensor<i1>\n") !=
        std::string::npos);
  // The inner loop (numbered after the function body's %0 and %1) and its
  // argument, which clashes with the outer one.
  CHECK(printed.find("      %2 = stablehlo.while(%iterArg_1 = %iterArg) : "
                     "tensor<i32>\n") != std::string::npos);
  CHECK(printed.find(
            "        %c_2 = stablehlo.constant dense<false> : tensor<i1>\n") !=
        std::string::npos);
  CHECK(printed.find("    %1 = stablehlo.add %0, %c : tensor<i32>\n") !=
        std::string::npos);
  CHECK(roundTrip(printed) == printed);
}

TEST_CASE("values built in C++ are named the same way") {
  Module m;
  Type t = m.types().other("i32");
  FuncOp f = FuncOp::create(m, "f", {t}, {t});
  m.body().pushBack(f.op());
  OperationState two(m.opName("t.two"));
  two.operands = {f.argument(0)};
  two.result_types = {t, t};
  Op op = m.createOp(two);
  f.body().pushBack(op);
  OperationState ret(m.opName("func.return"));
  ret.operands = {op.result(1)};
  f.body().pushBack(m.createOp(ret));
  CHECK(printModule(m) ==
        inModule("  func.func @f(%arg0: i32) -> i32 {\n"
                 "    %0:2 = \"t.two\"(%arg0) : (i32) -> (i32, i32)\n"
                 "    return %0#1 : i32\n"
                 "  }"));
}

}  // namespace
}  // namespace shardkit
