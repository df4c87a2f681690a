// Parse -> print round trips: canonical text prints back unchanged, and the
// generic form of a module reads back into the same module.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::parseOrDie;
using testing::roundTrip;

// Every sdy op, meshes, func.func (declaration, argument and result
// attributes), func.call and module attributes.
constexpr std::string_view kSdyModule =
    R"mlir(module @named attributes {mhlo.num_partitions = 8 : i32, sdy.foo = [1, 2]} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  sdy.mesh @empty = <[]>
  sdy.mesh @maximal = <[], device_ids=[3]>
  sdy.mesh @ids = <["a"=2], device_ids=[1, 0]>
  func.func private @decl(tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, i32) -> (tensor<4xf32> {x.y})
  func.func @f(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
    %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
    %1 = stablehlo.negate %0 : tensor<8x8xf32>
    %2 = sdy.data_flow_edge %1 sharding=<@mesh, [{"x", ?}, {?}]> : tensor<8x8xf32>
    %3 = sdy.propagation_barrier %2 allowed_direction=FORWARD : tensor<8x8xf32>
    sdy.sharding_group %3 group_id=3 : tensor<8x8xf32>
    %4 = sdy.all_gather [{"x"}, {}] %0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    %5 = sdy.all_slice [{}, {"x"}] %4 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<8x8xf32>
    %6 = sdy.all_reduce {"x"} %arg1 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
    %7 = sdy.reduce_scatter [{"x"}, {}] %6 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x8xf32>
    %8 = sdy.all_to_all [{"x"}: 0->1] %7 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
    %9 = sdy.collective_permute %8 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
    %10 = sdy.all_reduce max {"y"} %9 out_sharding=<@mesh, [{}, {"x"}]> : tensor<8x8xf32>
    %11 = sdy.constant dense<2.000000e+00> : tensor<8x8xf32>
    %12 = sdy.manual_computation(%11, %arg1) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {"y"}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg2: tensor<4x8xf32>, %arg3: tensor<8x2xf32>) {
      sdy.return %arg2 : tensor<4x8xf32>
    } : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %13:2 = sdy.named_computation<"foo">(%12, %10) in_shardings=[<@mesh, [{"x"}, {}]>, <@mesh, [{}, {}]>] (%arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>) {
      %16 = stablehlo.add %arg2, %arg3 : tensor<8x8xf32>
      sdy.return %16, %arg3 : tensor<8x8xf32>, tensor<8x8xf32>
    } : (tensor<8x8xf32>, tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>)
    %14 = stablehlo.multiply %13#0, %13#1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    %15 = call @g(%14) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    return %14, %15 : tensor<8x8xf32>, tensor<8x8xf32>
  }
  func.func @g(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
    return %arg0 : tensor<8x8xf32>
  }
}
)mlir";

// The StableHLO pretty forms, compact and expanded reduce, and ops that only
// have a generic form (with attributes, properties and a region).
constexpr std::string_view kStablehloModule = R"mlir(module {
  func.func @hlo(%arg0: tensor<4x8xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<i32>, %arg3: tensor<4x8xi32>) -> tensor<4x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %0 = stablehlo.add %arg0, %arg0 : tensor<4x8xf32>
    %1 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %2 = stablehlo.reshape %1 : (tensor<4x8xf32>) -> tensor<32xf32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<i32>) -> tensor<4x8xi32>
    %4 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
    %5 = stablehlo.slice %4 [0:4, 0:8:2] : (tensor<8x8xf32>) -> tensor<4x4xf32>
    %6 = stablehlo.pad %5, %cst, low = [0, 0], high = [0, 4], interior = [0, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x8xf32>
    %7 = stablehlo.dynamic_slice %0, %arg2, %arg2, sizes = [2, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
    %8 = stablehlo.dot %0, %arg1 : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %9 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
    %10 = stablehlo.compare  GT, %0, %6,  FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %11 = stablehlo.select %10, %0, %6 : tensor<4x8xi1>, tensor<4x8xf32>
    %12 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %13 = stablehlo.reduce(%0 init: %cst) across dimensions = [0] : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
     reducer(%arg4: tensor<f32>, %arg5: tensor<f32>)  {
      %20 = stablehlo.maximum %arg4, %arg5 : tensor<f32>
      %21 = stablehlo.abs %20 : tensor<f32>
      stablehlo.return %21 : tensor<f32>
    }
    %14 = stablehlo.iota dim = 0 : tensor<4x8xi32>
    %15 = stablehlo.convert %3 : (tensor<4x8xi32>) -> tensor<4x8xf32>
    %16 = stablehlo.custom_call @foo(%15) {backend_config = "", has_side_effect = true} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %17:2 = stablehlo.optimization_barrier %16, %arg3 : tensor<4x8xf32>, tensor<4x8xi32>
    %18 = "stablehlo.gather"(%arg0, %arg3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>
    %19 = "stablehlo.all_reduce"(%18) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %20 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %20 : tensor<f32>
    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %19 : tensor<4x8xf32>
  }
}
)mlir";

// The remaining StableHLO pretty forms: clamp (both type forms), functional
// ops, keyword-list and keyword-int ops, tokens, nullary ops, enum keyword
// ops (`type =  FFT` keeps MLIR's two spaces), convolution, tuples, and the
// named results of rng_bit_generator.
constexpr std::string_view kMoreStablehloModule = R"mlir(module {
  func.func @more(%arg0: tensor<4xf32>, %arg1: tensor<2xf32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: !stablehlo.token, %arg5: tensor<4xcomplex<f32>>, %arg6: tensor<2xui64>, %arg7: tensor<4x4xf32>, %arg8: tensor<1x8x4xf32>, %arg9: tensor<3x4x4xf32>, %arg10: tensor<1xi64>) -> tensor<4xf32> {
    %0 = stablehlo.clamp %arg3, %arg0, %arg3 : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.clamp %arg0, %0, %arg0 : tensor<4xf32>
    %2 = stablehlo.bitcast_convert %1 : (tensor<4xf32>) -> tensor<4xi32>
    %3 = stablehlo.dynamic_update_slice %1, %arg1, %arg2 : (tensor<4xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
    %4 = stablehlo.reverse %3, dims = [0] : tensor<4xf32>
    %5 = stablehlo.broadcast %4, sizes = [2] : (tensor<4xf32>) -> tensor<2x4xf32>
    %6 = stablehlo.get_dimension_size %5, dim = 1 : (tensor<2x4xf32>) -> tensor<i32>
    %7 = stablehlo.after_all %arg4, %arg4 : !stablehlo.token
    %8 = stablehlo.create_token : !stablehlo.token
    %9 = stablehlo.partition_id : tensor<ui32>
    %10 = stablehlo.replica_id : tensor<ui32>
    %11 = stablehlo.fft %arg5, type =  FFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %12 = stablehlo.rng %arg3, %arg3, %arg10, distribution =  UNIFORM : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
    %output_state, %output = stablehlo.rng_bit_generator %arg6, algorithm =  DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
    %13 = stablehlo.cholesky %arg7, lower = true : tensor<4x4xf32>
    %14 = stablehlo.convolution(%arg8, %arg9) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x4xf32>, tensor<3x4x4xf32>) -> tensor<1x6x4xf32>
    %15 = stablehlo.tuple %4, %arg2 : tuple<tensor<4xf32>, tensor<i32>>
    %16 = stablehlo.get_tuple_element %15[0] : (tuple<tensor<4xf32>, tensor<i32>>) -> tensor<4xf32>
    %17 = stablehlo.sine %16 : tensor<4xf32>
    %18 = stablehlo.is_finite %17 : (tensor<4xf32>) -> tensor<4xi1>
    return %12 : tensor<4xf32>
  }
}
)mlir";

// Prints `text` in generic form, reads that back and prints it pretty.
std::string viaGeneric(std::string_view text) {
  std::string generic = roundTrip(text, /*generic=*/true);
  INFO(generic);
  return roundTrip(generic);
}

TEST_CASE("canonical sdy/func text prints back unchanged") {
  CHECK(roundTrip(kSdyModule) == kSdyModule);
  CHECK(viaGeneric(kSdyModule) == kSdyModule);
}

TEST_CASE("canonical stablehlo text prints back unchanged") {
  CHECK(roundTrip(kStablehloModule) == kStablehloModule);
  CHECK(viaGeneric(kStablehloModule) == kStablehloModule);
}

TEST_CASE("the other stablehlo pretty forms print back unchanged") {
  CHECK(roundTrip(kMoreStablehloModule) == kMoreStablehloModule);
  CHECK(viaGeneric(kMoreStablehloModule) == kMoreStablehloModule);
}

TEST_CASE("the generic form spells every op with properties and regions") {
  std::string generic = roundTrip(kSdyModule, /*generic=*/true);
  CHECK(
      generic.find(
          R"("sdy.mesh"() <{mesh = #sdy.mesh<["x"=2, "y"=4]>, sym_name = "mesh"}> : () -> ())") !=
      std::string::npos);
  CHECK(
      generic.find(
          R"("sdy.all_gather"(%0) <{gathering_axes = #sdy<list_of_axis_ref_lists[{"x"}, {}]>, out_sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>)") !=
      std::string::npos);
  CHECK(generic.find(
            R"(<{allowed_direction = #sdy<propagation_direction FORWARD>}>)") !=
        std::string::npos);
  CHECK(generic.find(R"(manual_axes = #sdy<manual_axes{"x", "y"}>)") !=
        std::string::npos);
  CHECK(generic.find(R"(params = #sdy<all_to_all_param_list[{"x"}: 0->1]>)") !=
        std::string::npos);
  CHECK(generic.find(R"(reduction_axes = #sdy<axis_ref_list{"x"}>)") !=
        std::string::npos);
  CHECK(generic.find(
            "  ^bb0(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>):\n") !=
        std::string::npos);
  CHECK(
      generic.find(
          R"("func.return"(%14, %15) : (tensor<8x8xf32>, tensor<8x8xf32>) -> ())") !=
      std::string::npos);
  // A declaration has an empty region.
  CHECK(generic.find("sym_name = \"decl\", sym_visibility = \"private\"}> ({\n "
                     " }) : () -> ()") != std::string::npos);
  // The generic form names values only by number.
  std::string hlo = roundTrip(kStablehloModule, /*generic=*/true);
  CHECK(hlo.find("%cst") == std::string::npos);
  CHECK(
      hlo.find(
          R"(%0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>)") !=
      std::string::npos);
}

TEST_CASE("typed sdy attributes in generic form are read as typed attributes") {
  std::unique_ptr<Module> m =
      parseOrDie(roundTrip(kSdyModule, /*generic=*/true));
  int checked = 0;
  m->walk([&](Op op) {
    if (op.name() == "sdy.all_to_all") {
      CHECK(op.attr("params").as<AllToAllParamList>());
      ++checked;
    }
    if (op.name() == "sdy.manual_computation") {
      REQUIRE(op.attr("manual_axes").as<ManualAxes>());
      CHECK(op.attr("manual_axes").as<ManualAxes>()->items.size() == 2);
      ++checked;
    }
    if (op.name() == "sdy.propagation_barrier") {
      REQUIRE(op.attr("allowed_direction").as<PropagationDirection>());
      CHECK(*op.attr("allowed_direction").as<PropagationDirection>() ==
            PropagationDirection::kForward);
      ++checked;
    }
  });
  CHECK(checked == 3);
}

TEST_CASE("non-canonical input is canonicalized") {
  // Extra spaces, `func.return`, `func.call`, explicit public visibility
  // (kept), unsorted attributes, `sum` reduction written out, module without
  // name.
  std::string input = R"mlir(
    sdy.mesh   @mesh = <["x"=4]>
    func.func public @f(%a : tensor<8xf32>) -> (tensor<8xf32>) attributes {z = 1, a = "s"} {
      %r = sdy.all_reduce  sum {"x"} %a out_sharding=<@mesh, [{}]> {b = 2, a = 1} : tensor<8xf32>
      %s = func.call @f(%r) : (tensor<8xf32>) -> (tensor<8xf32>)
      func.return %s : tensor<8xf32>
    }
  )mlir";
  CHECK(roundTrip(input) ==
        testing::inModule(
            "  sdy.mesh @mesh = <[\"x\"=4]>\n"
            "  func.func public @f(%arg0: tensor<8xf32>) -> tensor<8xf32> "
            "attributes {a = \"s\", z = 1 : i64} {\n"
            "    %0 = sdy.all_reduce {\"x\"} %arg0 out_sharding=<@mesh, [{}]> "
            "{a = 1 : i64, b = 2 : i64} : tensor<8xf32>\n"
            "    %1 = call @f(%0) : (tensor<8xf32>) -> tensor<8xf32>\n"
            "    return %1 : tensor<8xf32>\n"
            "  }"));
}

TEST_CASE("module attributes and names") {
  CHECK(roundTrip("module {}") == "module {\n}\n");
  CHECK(roundTrip("") == "module {\n}\n");
  CHECK(roundTrip("module @m {}") == "module @m {\n}\n");
  CHECK(roundTrip("module attributes {b, a = 1 : i32} {}") ==
        "module attributes {a = 1 : i32, b} {\n}\n");
  CHECK(roundTrip("module @m attributes {x = [\"y\"]} {} loc(#loc)") ==
        "module @m attributes {x = [\"y\"]} {\n}\n");
  std::unique_ptr<Module> m = parseOrDie("module @m attributes {k = 3} {}");
  REQUIRE(m->name);
  CHECK(*m->name == "m");
  CHECK(m->attributes.get("k").intValue() == 3);
}

TEST_CASE("string escapes survive a round trip") {
  std::unique_ptr<Module> m =
      parseOrDie(R"(module attributes {s = "q\"t\\n\0A\09\22"} {})");
  const std::string* s = m->attributes.get("s").asString();
  REQUIRE(s);
  CHECK(*s == "q\"t\\n\n\t\"");
  std::unique_ptr<Module> again = parseOrDie(printModule(*m));
  REQUIRE(again->attributes.get("s").asString());
  CHECK(*again->attributes.get("s").asString() == *s);
}

TEST_CASE("locations are not printed without debug info") {
  std::string input = R"mlir(
    func.func @f(%arg0: tensor<i32> loc("a")) -> tensor<i32> {
      %0 = stablehlo.abs %arg0 : tensor<i32> loc(#loc1)
      return %0 : tensor<i32> loc(fused["x", "y"])
    } loc(unknown)
    #loc1 = loc("b.py":1:2)
  )mlir";
  CHECK(
      roundTrip(input) ==
      testing::inModule("  func.func @f(%arg0: tensor<i32>) -> tensor<i32> {\n"
                        "    %0 = stablehlo.abs %arg0 : tensor<i32>\n"
                        "    return %0 : tensor<i32>\n"
                        "  }"));
}

TEST_CASE("multiple blocks and block labels in generic regions") {
  std::string input = R"mlir(
    func.func @f(%arg0: tensor<i32>) -> tensor<i32> {
      %0 = "test.cfg"(%arg0) ({
      ^entry(%x: tensor<i32>):
        "test.jump"(%x) : (tensor<i32>) -> ()
      ^next:
        %y = stablehlo.abs %arg0 : tensor<i32>
        "test.jump"(%y) : (tensor<i32>) -> ()
      ^last(%z: tensor<i32>, %w: tensor<i32>):
        "test.yield"(%z, %w) : (tensor<i32>, tensor<i32>) -> ()
      }) : (tensor<i32>) -> tensor<i32>
      return %0 : tensor<i32>
    }
  )mlir";
  std::string expected = testing::inModule(
      "  func.func @f(%arg0: tensor<i32>) -> tensor<i32> {\n"
      "    %0 = \"test.cfg\"(%arg0) ({\n"
      "    ^bb0(%arg1: tensor<i32>):\n"
      "      \"test.jump\"(%arg1) : (tensor<i32>) -> ()\n"
      "    ^bb1:\n"
      "      %1 = stablehlo.abs %arg0 : tensor<i32>\n"
      "      \"test.jump\"(%1) : (tensor<i32>) -> ()\n"
      "    ^bb2(%arg2: tensor<i32>, %arg3: tensor<i32>):\n"
      "      \"test.yield\"(%arg2, %arg3) : (tensor<i32>, tensor<i32>) -> ()\n"
      "    }) : (tensor<i32>) -> tensor<i32>\n"
      "    return %0 : tensor<i32>\n"
      "  }");
  CHECK(roundTrip(input) == expected);
  CHECK(roundTrip(expected) == expected);
  std::unique_ptr<Module> m = parseOrDie(input);
  Op cfg = FuncOp(m->lookupSymbol("f")).body().front();
  REQUIRE(cfg.region(0).numBlocks() == 3);
  CHECK(cfg.region(0).block(1).numArguments() == 0);
  CHECK(cfg.region(0).block(2).numArguments() == 2);
  CHECK(cfg.region(0).block(1).numOps() == 2);
}

TEST_CASE("nested regions of generic ops, any depth") {
  std::string input = R"mlir(
    func.func @f(%arg0: tensor<i32>) -> tensor<i32> {
      %0 = "test.a"() ({
        %1 = "test.b"() ({
          %2 = "test.c"(%arg0) ({
            "test.d"(%arg0) : (tensor<i32>) -> ()
          }) {attr = 1 : i32} : (tensor<i32>) -> tensor<i32>
          "test.yield"(%2) : (tensor<i32>) -> ()
        }, {
        }) : () -> tensor<i32>
        "test.yield"(%1) : (tensor<i32>) -> ()
      }) : () -> tensor<i32>
      return %0 : tensor<i32>
    }
  )mlir";
  std::string printed = roundTrip(input);
  CHECK(roundTrip(printed) == printed);
  CHECK(printed.find(
            "        %2 = \"test.c\"(%arg0) ({\n"
            "          \"test.d\"(%arg0) : (tensor<i32>) -> ()\n"
            "        }) {attr = 1 : i32} : (tensor<i32>) -> tensor<i32>\n") !=
        std::string::npos);
  CHECK(printed.find("      }, {\n      }) : () -> tensor<i32>\n") !=
        std::string::npos);
  std::unique_ptr<Module> m = parseOrDie(input);
  int depth = 0;
  m->walk([&](Op op) {
    if (op.name() == "test.d") {
      for (Op p = op.parentOp(); p; p = p.parentOp()) ++depth;
    }
  });
  CHECK(depth == 4);  // c, b, a, func
}

TEST_CASE("pretty forms round-trip with attribute dictionaries") {
  std::string text = testing::inModule(
      "  sdy.mesh @mesh = <[\"x\"=2]> {extra = 1 : i64}\n"
      "  func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
      "    %0 = sdy.sharding_constraint %arg0 <@mesh, [{\"x\"}]> {z} : "
      "tensor<2xf32>\n"
      "    %1 = stablehlo.abs %0 {mhlo.frontend_attributes = {a = \"b\"}} : "
      "tensor<2xf32>\n"
      "    return {tag} %1 : tensor<2xf32>\n"
      "  }");
  CHECK(roundTrip(text) == text);
}

}  // namespace
}  // namespace shardkit
