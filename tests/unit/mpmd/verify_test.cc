// The mpmd op verifiers: what each op requires, where and how the error is
// reported.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/support/strings.h"
#include "tests/unit/mpmd/mpmd_test_util.h"

namespace shardkit::mpmd {
namespace {

using testing::firstError;
using testing::kTwoMeshes;

constexpr std::string_view kM1 = "!mpmd.mesh_tensor<\"m1\", tensor<4x8xf32>>";
constexpr std::string_view kM2 = "!mpmd.mesh_tensor<\"m2\", tensor<4x8xf32>>";

// A function over meshes m1 and m2 with `body` (which returns nothing).
std::string func(std::string_view args, std::string_view body) {
  return strCat("func.func @f(", args, ") attributes {", kTwoMeshes, "} {\n",
                body, "\n  func.return\n}\n");
}

TEST_CASE("transfer: meshes in the topology, same global type") {
  std::string arg = strCat("%a: ", kM1);
  CHECK(firstError(func(arg, strCat("  %0 = mpmd.transfer %a : (", kM1, ") -> ",
                                    kM2))) == "");
  CHECK(firstError(func(arg, strCat("  %0 = mpmd.transfer %a : (", kM1,
                                    ") -> !mpmd.mesh_tensor<\"m3\", "
                                    "tensor<4x8xf32>>"))) ==
        "2:3: Topology doesn't have a mesh with name: m3");
  CHECK(firstError(func(arg, strCat("  %0 = mpmd.transfer %a : (", kM1,
                                    ") -> !mpmd.mesh_tensor<\"m2\", "
                                    "tensor<8x8xf32>>")))
            .ends_with(": global tensor types are different"));
  CHECK(firstError(func("%a: tensor<4x8xf32>",
                        strCat("  %0 = mpmd.transfer %a : (tensor<4x8xf32>) "
                               "-> ",
                               kM2))) ==
        "2:3: 'mpmd.transfer' op operand #0 must be mesh tensor type, but got "
        "'tensor<4x8xf32>'");
}

TEST_CASE("transfer: the sharding of a mesh tensor fits its mesh") {
  std::string sharded =
      "!mpmd.mesh_tensor<\"m1\", tensor<3x8xf32>, sharding=<@mesh, "
      "[{\"x\"}, {?}]>>";
  CHECK(firstError(func(strCat("%a: ", sharded),
                        strCat("  %0 = mpmd.transfer %a : (", sharded,
                               ") -> !mpmd.mesh_tensor<\"m2\", "
                               "tensor<3x8xf32>>"))) ==
        "2:3: 'mpmd.transfer' op dim 0 with size 3 is not divisible by its "
        "sharded size 2");
}

TEST_CASE("transfer: memory kinds") {
  std::string bad =
      "!mpmd.mesh_tensor<\"m2\", tensor<4x8xf32>, memory_kind=\"disk\">";
  CHECK(
      firstError(func(strCat("%a: ", kM1), strCat("  %0 = mpmd.transfer %a : (",
                                                  kM1, ") -> ", bad))) ==
      "2:3: memory kind must be either 'pinned_host' or 'device'. Found "
      "'disk'.");
  CHECK(
      firstError(func(strCat("%a: ", kM1,
                             " {mhlo.memory_kind = "
                             "\"pinned_host\"}"),
                      strCat("  %0 = mpmd.transfer %a : (", kM1, ") -> ", kM2)))
          .starts_with("2:3: Transfers from host with attributes"));
  CHECK(firstError(func(strCat("%a: ", kM1),
                        strCat("  %0 = mpmd.transfer {mhlo.memory_kind = "
                               "\"pinned_host\"} %a : (",
                               kM1, ") -> ", kM2)))
            .starts_with("2:3: Transfers to host with attributes"));
}

TEST_CASE("assign and unassign: fully replicated, matching local type") {
  CHECK(firstError(func("%a: tensor<4x8xf32>",
                        strCat("  %0 = mpmd.assign %a : (tensor<4x8xf32>) -> ",
                               kM1))) == "");
  CHECK(firstError(
            func("%a: tensor<4x4xf32>",
                 strCat("  %0 = mpmd.assign %a : (tensor<4x4xf32>) -> ", kM1)))
            .starts_with("2:3: mismatch between the given local type "
                         "'tensor<4x4xf32>'"));
  std::string sharded =
      "!mpmd.mesh_tensor<\"m1\", tensor<4x8xf32>, sharding=<@mesh, "
      "[{\"x\"}, {?}]>>";
  CHECK(firstError(func(strCat("%a: ", sharded),
                        strCat("  %0 = mpmd.unassign %a : (", sharded,
                               ") -> tensor<4x8xf32>")))
            .starts_with("2:3: MeshTensorType should be fully replicated"));
}

TEST_CASE("ops with a parent constraint") {
  std::string nested = strCat(
      "  %0 = mpmd.named_computation<\"n\"> (%a) (%b: tensor<4x8xf32>) {\n"
      "    %1 = mpmd.assign %b : (tensor<4x8xf32>) -> ",
      kM1,
      "\n"
      "    %2 = mpmd.unassign %1 : (",
      kM1,
      ") -> tensor<4x8xf32>\n"
      "    mpmd.return %2 : tensor<4x8xf32>\n"
      "  } : (tensor<4x8xf32>) -> tensor<4x8xf32>");
  CHECK(firstError(func("%a: tensor<4x8xf32>", nested)) ==
        "3:5: 'mpmd.assign' op expects parent op to be one of 'func.func, "
        "mpmd.for'");
}

TEST_CASE("fragment: mesh tensors of its mesh outside, globals inside") {
  std::string good = strCat(
      "  %0 = mpmd.fragment<mesh=\"m1\", origin=[\"f\"]> (%a) (%b: "
      "tensor<4x8xf32>) {\n"
      "    mpmd.return %b : tensor<4x8xf32>\n"
      "  } : (",
      kM1, ") -> ", kM1);
  CHECK(firstError(func(strCat("%a: ", kM1), good)) == "");
  std::string wrong_mesh = strCat(
      "  %0 = mpmd.fragment<mesh=\"m2\", origin=[]> (%a) (%b: "
      "tensor<4x8xf32>) {\n"
      "    mpmd.return %b : tensor<4x8xf32>\n"
      "  } : (",
      kM1, ") -> ", kM2);
  CHECK(firstError(func(strCat("%a: ", kM1), wrong_mesh)) ==
        "2:3: expected the mesh name of the operand to match that of the "
        "fragment op: m1 != m2");
  std::string wrong_type = strCat(
      "  %0 = mpmd.fragment<mesh=\"m1\", origin=[]> (%a) (%b: "
      "tensor<8x4xf32>) {\n"
      "    mpmd.return %b : tensor<8x4xf32>\n"
      "  } : (",
      kM1, ") -> ", kM1);
  CHECK(firstError(func(strCat("%a: ", kM1), wrong_type)) ==
        "2:3: expected the type of the block argument to be global tensor "
        "type operand: 'tensor<4x8xf32>', got: 'tensor<8x4xf32>'");
}

TEST_CASE("reduce: a none reduction has one operand") {
  CHECK(firstError(func("%a: tensor<4x8xf32>",
                        "  %0 = mpmd.reduce<none> %a, %a : (tensor<4x8xf32>, "
                        "tensor<4x8xf32>) -> tensor<4x8xf32>")) ==
        "2:3: ReduceOp must have exactly one operand if the reduction type is "
        "none");
  CHECK(firstError(func("%a: tensor<4x8xf32>",
                        "  %0 = mpmd.reduce<max> %a, %a : (tensor<4x8xf32>, "
                        "tensor<4x8xf32>) -> tensor<4x8xf32>")) == "");
}

TEST_CASE("call: callee, signature, nesting") {
  std::string callee =
      "func.func private @g(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  func.return %a : tensor<4xf32>\n}\n";
  auto caller = [](std::string_view call) {
    return strCat("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  ",
                  call, "\n  func.return %0 : tensor<4xf32>\n}\n");
  };
  CHECK(firstError(caller("%0 = mpmd.call @g(%a) : (tensor<4xf32>) -> "
                          "tensor<4xf32>") +
                   callee) == "");
  CHECK(firstError(caller("%0 = mpmd.call @h(%a) : (tensor<4xf32>) -> "
                          "tensor<4xf32>") +
                   callee) ==
        "2:3: No function was found for function ref 'h'");
  CHECK(firstError(caller("%0 = mpmd.call @g(%a) {call_counter = 1 : i64} : "
                          "(tensor<4xf32>) -> tensor<4xf32>") +
                   callee) == "2:3: call_counter must be an uint32, got 'i64'");
}

TEST_CASE("named_computation: the same types inside and outside") {
  std::string bad =
      "  %0 = mpmd.named_computation<\"n\"> (%a) (%b: tensor<4x4xf32>) {\n"
      "    mpmd.return %b : tensor<4x4xf32>\n"
      "  } : (tensor<4x8xf32>) -> tensor<4x4xf32>";
  CHECK(firstError(func("%a: tensor<4x8xf32>", bad)) ==
        "2:3: expected the type of the block argument to match the type of "
        "operand: 'tensor<4x4xf32>', got: 'tensor<4x8xf32>'");
}

TEST_CASE("typed handles read the ops' attributes") {
  auto module = testing::parse(func(
      strCat("%a: ", kM1),
      strCat("  %0 = mpmd.fragment<mesh=\"m1\", origin=[\"f\"(2)], stage=3> "
             "(%a) (%b: tensor<4x8xf32>) {\n"
             "    mpmd.return %b : tensor<4x8xf32>\n"
             "  } : (",
             kM1, ") -> ", kM1)));
  REQUIRE(module);
  Op op = FuncOp(module->body().front()).body().front();
  auto fragment = dynCast<FragmentOp>(op);
  REQUIRE(fragment);
  CHECK(fragment.meshName() == "m1");
  CHECK(fragment.stageId() == 3);
  CHECK(fragment.isUserFragment());
  REQUIRE(fragment.origins().size() == 1);
  CHECK(fragment.origins()[0] == UserOrigin{"f", 2});
  CHECK(isa<ReturnOp>(fragment.returnOp()));
}

}  // namespace
}  // namespace shardkit::mpmd
