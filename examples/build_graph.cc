// Builds a small sharded function in C++ (no text involved), verifies it,
// prints it, and reads the printed text back.
//
//   sdy.mesh @mesh = <["data"=4, "model"=2]>
//   func.func @mlp(%x: tensor<32x64xf32>   sharded [{"data"}, {}]
//                  %w: tensor<64x128xf32>) sharded [{}, {"model"}]
//     %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0]
//     %r = stablehlo.maximum %h, %zero         (a splat constant)
//     %c = sdy.sharding_constraint %r <@mesh, [{"data"}, {"model"}]>
//     return %c
//
// The program exits non-zero if any step does not give the expected result.
#include <cstdio>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace {

using namespace shardkit;

int fail(std::string_view what) {
  std::fprintf(stderr, "build_graph: %.*s\n", static_cast<int>(what.size()),
               what.data());
  return 1;
}

// `{"axis"}` on one dimension, closed.
DimensionSharding on(std::string axis) {
  return DimensionSharding({AxisRef(std::move(axis))}, /*is_closed=*/true);
}

// Appends a new op to `block` and returns it.
Op append(Module& module, Block block, OperationState& state) {
  Op op = module.createOp(state);
  block.pushBack(op);
  return op;
}

int run() {
  Module module;
  TypeContext& types = module.types();
  Type x_type = types.rankedTensor({32, 64}, "f32");
  Type w_type = types.rankedTensor({64, 128}, "f32");
  Type out_type = types.rankedTensor({32, 128}, "f32");
  MeshOrRef mesh = MeshOrRef::ref("mesh");

  // sdy.mesh @mesh = <["data"=4, "model"=2]>
  OperationState mesh_state(module.opName("sdy.mesh"));
  mesh_state.addAttr("sym_name", Attribute::string("mesh"));
  mesh_state.addAttr("mesh", Attribute::of(Mesh({{"data", 4}, {"model", 2}})));
  append(module, module.body(), mesh_state);

  // The function, its argument shardings and its body.
  FuncOp func = FuncOp::create(module, "mlp", {x_type, w_type}, {out_type});
  module.body().pushBack(func.op());
  setSharding(func.argument(0),
              TensorSharding(mesh, {on("data"), DimensionSharding::closed()}));
  setSharding(func.argument(1),
              TensorSharding(mesh, {DimensionSharding::closed(), on("model")}));
  Block body = func.body();

  OperationState dot(module.opName("stablehlo.dot_general"));
  dot.operands = {func.argument(0), func.argument(1)};
  dot.result_types = {out_type};
  // Dialect attributes shardkit does not model are kept as their text.
  dot.addAttr(
      "dot_dimension_numbers",
      Attribute::opaque("#stablehlo.dot<lhs_contracting_dimensions = [1], "
                        "rhs_contracting_dimensions = [0]>"));
  Op h = append(module, body, dot);

  OperationState zero(module.opName("stablehlo.constant"));
  zero.result_types = {out_type};
  zero.addAttr("value", Attribute::elements("dense<0.000000e+00>", out_type));
  Op z = append(module, body, zero);
  // Keep the constant first in the body, as a frontend would emit it.
  z.moveBefore(h);

  OperationState relu(module.opName("stablehlo.maximum"));
  relu.operands = {h.result(0), z.result(0)};
  relu.result_types = {out_type};
  Op r = append(module, body, relu);

  OperationState constraint(module.opName("sdy.sharding_constraint"));
  constraint.operands = {r.result(0)};
  constraint.result_types = {out_type};
  constraint.addAttr("sharding", Attribute::of(TensorSharding(
                                     mesh, {on("data"), on("model")})));
  Op c = append(module, body, constraint);

  OperationState ret(module.opName("func.return"));
  ret.operands = {c.result(0)};
  append(module, body, ret);

  // The graph: uses are tracked, shardings read back.
  if (!h.result(0).hasOneUse() || h.result(0).uses()[0].user() != r) {
    return fail("the dot's result should have one use, the maximum");
  }
  if (getSharding(c.result(0)) !=
      TensorSharding(mesh, {on("data"), on("model")})) {
    return fail("the constraint's sharding should read back");
  }
  if (absl::Status status = verifyModule(module); !status.ok()) {
    return fail(fromAbsl(status.message()));
  }

  std::string text = printModule(module);
  std::fputs(text.c_str(), stdout);
  const std::string expected =
      "module {\n"
      "  sdy.mesh @mesh = <[\"data\"=4, \"model\"=2]>\n"
      "  func.func @mlp(%arg0: tensor<32x64xf32> {sdy.sharding = "
      "#sdy.sharding<@mesh, [{\"data\"}, {}]>}, %arg1: tensor<64x128xf32> "
      "{sdy.sharding = #sdy.sharding<@mesh, [{}, {\"model\"}]>}) -> "
      "tensor<32x128xf32> {\n"
      "    %cst = stablehlo.constant dense<0.000000e+00> : tensor<32x128xf32>\n"
      "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x "
      "[0] : "
      "(tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>\n"
      "    %1 = stablehlo.maximum %0, %cst : tensor<32x128xf32>\n"
      "    %2 = sdy.sharding_constraint %1 <@mesh, [{\"data\"}, {\"model\"}]> "
      ": "
      "tensor<32x128xf32>\n"
      "    return %2 : tensor<32x128xf32>\n"
      "  }\n"
      "}\n";
  if (text != expected)
    return fail(strCat("unexpected text; expected:\n", expected));

  // The text reads back into the same module.
  absl::StatusOr<std::unique_ptr<Module>> again =
      parseModule(text, "build_graph.mlir");
  if (!again.ok()) return fail(fromAbsl(again.status().message()));
  if (printModule(**again) != text)
    return fail("the text should read back unchanged");
  return 0;
}

}  // namespace

int main() { return run(); }
