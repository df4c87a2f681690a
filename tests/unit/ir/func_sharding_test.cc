// FuncOp (signature, argument/result attributes, body, return) and
// getSharding/setSharding on every kind of value.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/verify_module.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::sharding;

TEST_CASE("FuncOp::create builds the signature and entry block") {
  Module m;
  Type a = m.types().rankedTensor({4}, "f32");
  Type b = m.types().rankedTensor({2, 2}, "i32");
  FuncOp f = FuncOp::create(m, "fn", {a, b}, {b});
  m.body().pushBack(f.op());
  CHECK(isa<FuncOp>(f.op()));
  CHECK(!isa<FuncOp>(Op()));
  CHECK(f.name() == "fn");
  CHECK(f.visibility() == "public");
  CHECK(!f.isDeclaration());
  CHECK(f.numArguments() == 2);
  CHECK(f.numResults() == 1);
  CHECK(f.argumentTypes() == std::vector<Type>{a, b});
  CHECK(f.resultTypes() == std::vector<Type>{b});
  CHECK(f.argument(1).type() == b);
  CHECK(f.body().numArguments() == 2);
  CHECK(!f.returnOp());
  f.setResultTypes({a, b});
  CHECK(f.resultTypes() == std::vector<Type>{a, b});
  CHECK(f.argumentTypes() == std::vector<Type>{a, b});
  CHECK(f.op().attr("function_type").asType()->str() ==
        "(tensor<4xf32>, tensor<2x2xi32>) -> (tensor<4xf32>, tensor<2x2xi32>)");
}

TEST_CASE("argument and result attributes live in arg_attrs / res_attrs") {
  Module m;
  Type t = m.types().rankedTensor({8}, "f32");
  FuncOp f = FuncOp::create(m, "f", {t, t, t}, {t});
  m.body().pushBack(f.op());
  CHECK(!f.op().hasAttr("arg_attrs"));
  f.setArgAttr(1, "foo", Attribute::integer(3));
  REQUIRE(f.op().attr("arg_attrs").asArray());
  CHECK(f.op().attr("arg_attrs").asArray()->size() == 3);  // one per argument
  CHECK(f.argAttr(1, "foo").intValue() == 3);
  CHECK(!f.argAttr(0, "foo"));
  CHECK(!f.argAttr(7, "foo"));  // out of range reads as absent
  f.setArgAttr(1, "bar", Attribute::unit());
  CHECK(f.argAttrList().dict(1).size() == 2);
  f.setResultAttr(0, "r", Attribute::string("x"));
  CHECK(*f.resultAttr(0, "r").asString() == "x");
  CHECK(f.op().inherentAttrs().contains("res_attrs"));

  // Printed like MLIR: attributes after each argument's type.
  OperationState ret(m.opName("func.return"));
  ret.operands = {f.argument(0)};
  f.body().pushBack(m.createOp(ret));
  CHECK(f.returnOp());
  CHECK(printModule(m).find(
            "func.func @f(%arg0: tensor<8xf32>, %arg1: tensor<8xf32> "
            "{bar, foo = 3 : i64}, %arg2: tensor<8xf32>) -> "
            "(tensor<8xf32> {r = \"x\"})") != std::string::npos);

  // Removing the last attribute drops the whole list.
  f.argAttrList().removeEntry(1, "foo");
  f.argAttrList().removeEntry(1, "bar");
  f.argAttrList().removeEntry(1, "never-there");
  CHECK(!f.op().hasAttr("arg_attrs"));
  f.resultAttrList().removeEntry(0, "r");
  CHECK(!f.op().hasAttr("res_attrs"));
  CHECK(f.resultAttrList().dict(0).empty());
}

TEST_CASE("parsed functions: visibility, declarations, attributes") {
  std::unique_ptr<Module> m = testing::parseOrDie(R"(
    func.func private @decl(tensor<2xf32> {a = 1 : i32}) -> (tensor<2xf32> {b})
    func.func nested @n() {
      return
    }
    func.func @f(%arg0: tensor<2xf32> {x}, %arg1: i32) -> (tensor<2xf32>, i32) attributes {k = "v"} {
      return %arg0, %arg1 : tensor<2xf32>, i32
    }
  )");
  FuncOp decl(m->lookupSymbol("decl"));
  CHECK(decl.visibility() == "private");
  CHECK(decl.isDeclaration());
  CHECK(!decl.body());
  CHECK(!decl.returnOp());
  CHECK(decl.argAttr(0, "a").intValue() == 1);
  CHECK(decl.resultAttr(0, "b").kind() == AttrKind::kUnit);
  CHECK(FuncOp(m->lookupSymbol("n")).visibility() == "nested");
  FuncOp f(m->lookupSymbol("f"));
  CHECK(f.numResults() == 2);
  CHECK(f.argAttrList().dict(0).contains("x"));
  CHECK(f.argAttrList().dict(1).empty());
  CHECK(*f.op().attr("k").asString() == "v");
  CHECK(f.returnOp().numOperands() == 2);
}

TEST_CASE("getSharding / setSharding on function arguments") {
  std::unique_ptr<Module> m = testing::parseOrDie(R"(
    sdy.mesh @mesh = <["x"=2, "y"=2]>
    func.func @f(%arg0: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                 %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
      return %arg0 : tensor<4x4xf32>
    }
  )");
  FuncOp f(m->lookupSymbol("f"));
  REQUIRE(getSharding(f.argument(0)));
  CHECK(*getSharding(f.argument(0)) == sharding(R"(<@mesh, [{"x"}, {}]>)"));
  CHECK(!getSharding(f.argument(1)));
  CHECK(setSharding(f.argument(1), sharding(R"(<@mesh, [{}, {"y", ?}]>)")));
  CHECK(*getSharding(f.argument(1)) == sharding(R"(<@mesh, [{}, {"y", ?}]>)"));
  CHECK(f.argAttr(1, kShardingAttr).as<TensorSharding>());
  CHECK(verifyModule(*m).ok());
}

TEST_CASE("getSharding / setSharding on op results") {
  std::unique_ptr<Module> m = testing::parseOrDie(R"(
    sdy.mesh @mesh = <["x"=2, "y"=2]>
    func.func @f(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
      %0:2 = "test.two"(%arg0) : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>)
      %1 = sdy.sharding_constraint %0#0 <@mesh, [{"y"}, {}]> : tensor<4x4xf32>
      %2 = sdy.all_gather [{"y"}, {}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<4x4xf32>
      %3 = sdy.named_computation<"n">(%2) out_shardings=[<@mesh, [{"x"}, {}]>] (%arg1: tensor<4x4xf32>) {
        %4 = "test.inner"(%arg1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
        sdy.return %4 : tensor<4x4xf32>
      } : (tensor<4x4xf32>) -> tensor<4x4xf32>
      return %3 : tensor<4x4xf32>
    }
  )");
  std::vector<Op> ops = FuncOp(m->lookupSymbol("f")).body().ops();
  Op two = ops[0], constraint = ops[1], gather = ops[2], named = ops[3];

  // An op without `sdy.sharding`: setting one result opens the others.
  CHECK(!getSharding(two.result(0)));
  CHECK(!getShardingPerValue(two));
  CHECK(setSharding(two.result(1), sharding(R"(<@mesh, [{"x"}]>)")));
  REQUIRE(getShardingPerValue(two));
  CHECK(getShardingPerValue(two)->items.size() == 2);
  CHECK(*getSharding(two.result(0)) == sharding(R"(<@mesh, [{?}, {?}]>)"));
  CHECK(*getSharding(two.result(1)) == sharding(R"(<@mesh, [{"x"}]>)"));
  CHECK(two.discardableAttrs().contains(kShardingAttr));

  // sdy ops keep the sharding of their result themselves.
  CHECK(*getSharding(constraint.result(0)) ==
        sharding(R"(<@mesh, [{"y"}, {}]>)"));
  CHECK(setSharding(constraint.result(0), sharding(R"(<@mesh, [{"x"}, {}]>)")));
  CHECK(constraint.attr("sharding")
            .as<TensorSharding>()
            ->dim_shardings[0]
            .axes[0]
            .name == "x");
  CHECK(!constraint.hasAttr(kShardingAttr));
  CHECK(*getSharding(gather.result(0)) == sharding(R"(<@mesh, [{}, {}]>)"));
  CHECK(*getSharding(named.result(0)) == sharding(R"(<@mesh, [{"x"}, {}]>)"));
  CHECK(setSharding(named.result(0), sharding(R"(<@mesh, [{}, {"y"}]>)")));
  CHECK(named.attr("out_shardings").as<TensorShardingPerValue>()->items[0] ==
        sharding(R"(<@mesh, [{}, {"y"}]>)"));

  // A named computation's body argument keeps its sharding in the op's
  // in_shardings, created on first use.
  Value inner_arg = named.region(0).front().argument(0);
  CHECK(!getSharding(inner_arg));
  CHECK(setSharding(inner_arg, sharding(R"(<@mesh, [{}, {"x"}]>)")));
  CHECK(named.attr("in_shardings").as<TensorShardingPerValue>()->items[0] ==
        sharding(R"(<@mesh, [{}, {"x"}]>)"));
  // The verifier sees the edits: the gather no longer applies to its operand.
  CHECK(!verifyModule(*m).ok());
  CHECK(setSharding(constraint.result(0), sharding(R"(<@mesh, [{"y"}, {}]>)")));
  CHECK(verifyModule(*m).ok());
}

TEST_CASE("a sharding set in C++ is printed and verified") {
  std::unique_ptr<Module> m = testing::parseOrDie(R"(
    sdy.mesh @mesh = <["x"=2]>
    func.func @f(%arg0: tensor<3xf32>) -> tensor<3xf32> {
      %0 = stablehlo.abs %arg0 : tensor<3xf32>
      return %0 : tensor<3xf32>
    }
  )");
  Op abs = FuncOp(m->lookupSymbol("f")).body().front();
  CHECK(setSharding(abs.result(0), sharding(R"(<@mesh, [{"z"}]>)")));
  absl::Status status = verifyModule(*m);
  REQUIRE(!status.ok());
  // The op keeps its source location.
  CHECK(std::string(fromAbsl(status.message())) ==
        "test.mlir:4:7: error: 'stablehlo.abs' op result - unknown axis name: "
        "\"z\"");
  CHECK(setSharding(abs.result(0), sharding(R"(<@mesh, [{"x", ?}]>)")));
  CHECK(verifyModule(*m).ok());
  CHECK(printModule(*m).find("%0 = stablehlo.abs %arg0 {sdy.sharding = "
                             "#sdy.sharding_per_value<[<@mesh, "
                             "[{\"x\", ?}]>]>} : tensor<3xf32>") !=
        std::string::npos);
}

}  // namespace
}  // namespace shardkit
