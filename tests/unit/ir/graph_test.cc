// Building and editing graphs by hand: ops, values, uses, blocks, regions.
#include "shardkit/ir/graph.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/support/strings.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

using testing::inModule;

// A module with one function `@f(%a, %b: tensor<4xf32>)` to build in.
struct Fixture {
  std::unique_ptr<Module> module = std::make_unique<Module>();
  Type t4 = module->types().rankedTensor({4}, "f32");
  FuncOp func = FuncOp::create(*module, "f", {t4, t4}, {t4});

  Fixture() { module->body().pushBack(func.op()); }

  // Appends `name(operands) -> t4` to `block` (the function body by default).
  Op add(std::string_view name, std::vector<Value> operands, Block block = {}) {
    OperationState state(module->opName(name));
    state.operands = std::move(operands);
    state.result_types = {t4};
    Op op = module->createOp(state);
    (block ? block : func.body()).pushBack(op);
    return op;
  }
  Op ret(Value v) {
    OperationState state(module->opName("func.return"));
    state.operands = {v};
    Op op = module->createOp(state);
    func.body().pushBack(op);
    return op;
  }
  std::vector<std::string> opNames(Block block) {
    std::vector<std::string> names;
    for (Op op : block) names.emplace_back(op.name());
    return names;
  }
};

std::vector<std::pair<uint32_t, unsigned>> usesOf(Value v) {
  std::vector<std::pair<uint32_t, unsigned>> uses;
  for (const Value::Use& use : v.uses()) {
    uses.emplace_back(use.user().id(), use.operandIndex());
  }
  std::sort(uses.begin(), uses.end());
  return uses;
}

TEST_CASE("a function built by hand prints like MLIR") {
  Fixture f;
  Value a = f.func.argument(0), b = f.func.argument(1);
  Op add = f.add("stablehlo.add", {a, b});
  Op mul = f.add("stablehlo.multiply", {add.result(0), a});
  f.ret(mul.result(0));
  REQUIRE(verifyModule(*f.module).ok());
  CHECK(
      printModule(*f.module) ==
      inModule("  func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> "
               "tensor<4xf32> {\n"
               "    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>\n"
               "    %1 = stablehlo.multiply %0, %arg0 : tensor<4xf32>\n"
               "    return %1 : tensor<4xf32>\n"
               "  }"));
  CHECK(f.module->numOps() == 4);  // func, add, multiply, return
}

TEST_CASE("handles expose their structure") {
  Fixture f;
  Value a = f.func.argument(0);
  Op add = f.add("stablehlo.add", {a, a});
  CHECK(add.opName() == f.module->opName("stablehlo.add"));
  CHECK(add.opName().isRegistered());
  CHECK(add.dialect() == "stablehlo");
  CHECK(add.numOperands() == 2);
  CHECK(add.operand(1) == a);
  CHECK(add.operandTypes() == std::vector<Type>{f.t4, f.t4});
  CHECK(add.resultTypes() == std::vector<Type>{f.t4});
  CHECK(add.result(0).definingOp() == add);
  CHECK(!add.result(0).isBlockArgument());
  CHECK(add.result(0).index() == 0);
  CHECK(!add.result(0).ownerBlock());
  CHECK(a.isBlockArgument());
  CHECK(a.ownerBlock() == f.func.body());
  CHECK(!a.definingOp());
  CHECK(f.func.argument(1).index() == 1);
  CHECK(add.parentBlock() == f.func.body());
  CHECK(add.parentOp() == f.func.op());
  CHECK(f.func.body().parentOp() == f.func.op());
  CHECK(f.func.body().parentRegion() == f.func.op().region(0));
  CHECK(f.func.op().region(0).parentOp() == f.func.op());
  CHECK(!f.func.op().parentOp());  // top level
  CHECK(f.func.op().parentBlock() == f.module->body());
  CHECK(add.isNestedIn(f.func.op()));
  CHECK(add.isNestedIn(add));
  CHECK(!f.func.op().isNestedIn(add));
}

TEST_CASE("op names: registered kinds are shared, unknown ones per module") {
  Module m1, m2;
  OpName add1 = m1.opName("stablehlo.add");
  CHECK(add1 == OpName::registered("stablehlo.add"));
  CHECK(add1.isRegistered());
  CHECK(add1.isInherentAttr("sdy.sharding") == false);
  OpName foo1 = m1.opName("mydialect.foo");
  OpName foo2 = m2.opName("mydialect.foo");
  CHECK(!foo1.isRegistered());
  CHECK(!OpName::registered("mydialect.foo"));
  CHECK(foo1 == m1.opName("mydialect.foo"));
  CHECK(foo1 == foo2);  // equal by text across modules
  CHECK(foo1.dialect() == "mydialect");
  CHECK(m1.opName("nodot").dialect() == "nodot");
}

TEST_CASE("uses are tracked through every operand edit") {
  Fixture f;
  Value a = f.func.argument(0), b = f.func.argument(1);
  Op op1 = f.add("stablehlo.add", {a, a});
  Op op2 = f.add("stablehlo.add", {a, b});
  CHECK(a.numUses() == 3);
  CHECK(usesOf(a) == std::vector<std::pair<uint32_t, unsigned>>{
                         {op1.id(), 0}, {op1.id(), 1}, {op2.id(), 0}});
  CHECK(b.hasOneUse());

  SECTION("setOperand") {
    op1.setOperand(1, b);
    CHECK(a.numUses() == 2);
    CHECK(usesOf(b) == std::vector<std::pair<uint32_t, unsigned>>{
                           {op1.id(), 1}, {op2.id(), 1}});
  }
  SECTION("replaceAllUsesWith") {
    a.replaceAllUsesWith(b);
    CHECK(a.useEmpty());
    CHECK(b.numUses() == 4);
    CHECK(op1.operand(0) == b);
    CHECK(op2.operand(0) == b);
    a.replaceAllUsesWith(a);  // no-op
    CHECK(b.numUses() == 4);
    b.replaceAllUsesWith(b);
    CHECK(b.numUses() == 4);
  }
  SECTION("replaceUsesWithIf") {
    a.replaceUsesWithIf(
        b, [&](const Value::Use& use) { return use.user() == op1; });
    CHECK(usesOf(a) ==
          std::vector<std::pair<uint32_t, unsigned>>{{op2.id(), 0}});
    CHECK(op1.operands() == std::vector<Value>{b, b});
  }
  SECTION("setOperands grows, shrinks and keeps the use lists") {
    op1.setOperands({b, a, b});
    CHECK(op1.numOperands() == 3);
    CHECK(usesOf(a) == std::vector<std::pair<uint32_t, unsigned>>{
                           {op1.id(), 1}, {op2.id(), 0}});
    CHECK(usesOf(b) == std::vector<std::pair<uint32_t, unsigned>>{
                           {op1.id(), 0}, {op1.id(), 2}, {op2.id(), 1}});
    op1.setOperands({a});
    CHECK(op1.numOperands() == 1);
    CHECK(usesOf(b) ==
          std::vector<std::pair<uint32_t, unsigned>>{{op2.id(), 1}});
    op1.setOperands({});
    CHECK(op1.numOperands() == 0);
    CHECK(a.numUses() == 1);
  }
  SECTION("insertOperand and eraseOperand renumber the uses") {
    op2.insertOperand(0, b);
    CHECK(op2.operands() == std::vector<Value>{b, a, b});
    CHECK(usesOf(b) == std::vector<std::pair<uint32_t, unsigned>>{
                           {op2.id(), 0}, {op2.id(), 2}});
    op2.eraseOperand(1);
    CHECK(op2.operands() == std::vector<Value>{b, b});
    CHECK(usesOf(a) == std::vector<std::pair<uint32_t, unsigned>>{
                           {op1.id(), 0}, {op1.id(), 1}});
  }
}

TEST_CASE("erase unlinks the op, drops its uses and erases nested ops") {
  Fixture f;
  Value a = f.func.argument(0);
  Op first = f.add("stablehlo.add", {a, a});
  // A generic op with a region holding two ops that use `a`.
  OperationState state(f.module->opName("test.wrap"));
  state.operands = {first.result(0)};
  state.num_regions = 1;
  Op wrap = f.module->createOp(state);
  f.func.body().pushBack(wrap);
  Block inner = wrap.region(0).addBlock();
  Op in1 = f.add("stablehlo.negate", {a}, inner);
  f.add("stablehlo.add", {in1.result(0), a}, inner);
  Op last = f.add("stablehlo.abs", {a});
  REQUIRE(f.module->numOps() == 6);
  REQUIRE(a.numUses() == 5);

  wrap.erase();
  CHECK(wrap.isErased());
  CHECK(in1.isErased());
  CHECK(f.module->numOps() == 3);
  CHECK(a.numUses() == 3);  // first (twice) and last
  CHECK(first.result(0).useEmpty());
  CHECK(f.opNames(f.func.body()) ==
        std::vector<std::string>{"stablehlo.add", "stablehlo.abs"});
  CHECK(first.nextInBlock() == last);
  CHECK(last.prevInBlock() == first);
  wrap.erase();  // erasing twice is harmless
  CHECK(f.module->numOps() == 3);

  last.erase();
  first.erase();
  CHECK(f.func.body().empty());
  CHECK(f.func.body().numOps() == 0);
  CHECK(a.useEmpty());
}

TEST_CASE("mayHaveOpsNamed follows creation and erasure, nested or not") {
  Fixture f;
  Module& m = *f.module;
  Value a = f.func.argument(0);
  OpName call = m.opName("func.call"), edge = m.opName("sdy.data_flow_edge");
  CHECK_FALSE(m.mayHaveOpsNamed(call));
  CHECK_FALSE(m.mayHaveOpsWith(OpTrait::kDataFlowEdges));
  CHECK(m.mayHaveOpsNamed(m.opName("func.func")));

  OperationState state(m.opName("stablehlo.while"));
  state.operands = {a};
  state.result_types = {f.t4};
  state.num_regions = 1;
  Op loop = m.createOp(state);
  f.func.body().pushBack(loop);
  Op nested = f.add("func.call", {a}, loop.region(0).addBlock());
  // A detached op counts too: it is the module's until erased.
  OperationState detached(edge);
  detached.operands = {a};
  Op lone = m.createOp(detached);
  CHECK(m.mayHaveOpsNamed(call));
  CHECK(m.mayHaveOpsNamed(edge));
  CHECK(m.mayHaveOpsWith(OpTrait::kDataFlowEdges));  // the while
  CHECK(m.numOpsWith(OpTrait::kDataFlowEdges) == 1);
  CHECK(m.numOpsWith(OpTrait::kSymbol) == 1);  // the function
  f.add("stablehlo.while", {a}, loop.region(0).front());
  CHECK(m.numOpsWith(OpTrait::kDataFlowEdges) == 2);

  lone.erase();
  CHECK_FALSE(m.mayHaveOpsNamed(edge));
  loop.erase();  // and the call inside it
  CHECK(nested.isErased());
  CHECK_FALSE(m.mayHaveOpsNamed(call));
  CHECK_FALSE(m.mayHaveOpsWith(OpTrait::kDataFlowEdges));
  CHECK(m.numOpsWith(OpTrait::kDataFlowEdges) == 0);
  loop.erase();  // erasing twice counts once
  CHECK_FALSE(m.mayHaveOpsNamed(call));
  f.add("func.call", {a});
  CHECK(m.mayHaveOpsNamed(call));
}

TEST_CASE("mayHaveOpsNamed keeps registered and unknown op names apart") {
  Fixture f;
  Module& m = *f.module;
  Value a = f.func.argument(0);
  OperationState state(m.opName("stablehlo.while"));
  state.operands = {a};
  state.result_types = {f.t4};
  state.num_regions = 1;
  f.func.body().pushBack(m.createOp(state));
  // More unknown names than the registry has names: every index of the
  // registry's space is taken by one of the module's own names too.
  for (int i = 0; i < 2000; ++i) f.add(strCat("test.op", i), {a});
  CHECK(m.mayHaveOpsWith(OpTrait::kDataFlowEdges));  // the while
  CHECK(m.mayHaveOpsNamed(m.opName("stablehlo.while")));
  CHECK(m.mayHaveOpsNamed(m.opName("test.op1999")));
  CHECK_FALSE(m.mayHaveOpsNamed(m.opName("stablehlo.abs")));

  // Another module's unknown names have indexes of their own.
  Fixture other;
  Op other_op = other.add("test.elsewhere", {other.func.argument(0)});
  CHECK_FALSE(m.mayHaveOpsNamed(other_op.opName()));
  CHECK(other.module->mayHaveOpsNamed(other_op.opName()));
  CHECK_FALSE(other.module->mayHaveOpsNamed(m.opName("test.op0")));
}

TEST_CASE("moveBefore / moveAfter / insert* reorder ops") {
  Fixture f;
  Value a = f.func.argument(0);
  Op x = f.add("test.x", {a});
  Op y = f.add("test.y", {a});
  Op z = f.add("test.z", {a});
  Block body = f.func.body();
  using Names = std::vector<std::string>;

  z.moveBefore(x);
  CHECK(f.opNames(body) == Names{"test.z", "test.x", "test.y"});
  CHECK(body.front() == z);
  z.moveAfter(y);
  CHECK(f.opNames(body) == Names{"test.x", "test.y", "test.z"});
  CHECK(body.back() == z);
  x.moveAfter(y);
  CHECK(f.opNames(body) == Names{"test.y", "test.x", "test.z"});
  CHECK(body.numOps() == 3);

  // Moving next to itself or to where it already is changes nothing.
  x.moveBefore(x);
  CHECK(f.opNames(body) == Names{"test.y", "test.x", "test.z"});
  x.moveAfter(x);
  CHECK(f.opNames(body) == Names{"test.y", "test.x", "test.z"});
  x.moveAfter(y);
  CHECK(f.opNames(body) == Names{"test.y", "test.x", "test.z"});
  x.moveBefore(z);
  CHECK(f.opNames(body) == Names{"test.y", "test.x", "test.z"});
  body.insertAfter(x, x);
  CHECK(f.opNames(body) == Names{"test.y", "test.x", "test.z"});
  CHECK(body.numOps() == 3);
  CHECK(body.front() == y);
  CHECK(body.back() == z);

  // Into another block.
  OperationState state(f.module->opName("test.wrap"));
  state.num_regions = 1;
  Op wrap = f.module->createOp(state);
  body.pushFront(wrap);
  Block inner = wrap.region(0).addBlock();
  inner.pushBack(y);
  CHECK(y.parentBlock() == inner);
  CHECK(y.parentOp() == wrap);
  CHECK(f.opNames(body) == Names{"test.wrap", "test.x", "test.z"});
  inner.insertBefore(y, z);
  CHECK(f.opNames(inner) == Names{"test.z", "test.y"});
  CHECK(body.numOps() == 2);
  CHECK(inner.numOps() == 2);
  inner.insertAfter(y, x);
  CHECK(f.opNames(inner) == Names{"test.z", "test.y", "test.x"});
  CHECK(f.opNames(body) == Names{"test.wrap"});
  CHECK(body.ops() == std::vector<Op>{wrap});
}

TEST_CASE("forEachBlock visits an op's blocks region by region") {
  std::unique_ptr<Module> m = testing::parseOrDie(R"(
func.func @f() {
  "test.two_regions"() ({
  ^bb0:
    "test.a"() : () -> ()
  ^bb1:
    "test.b"() : () -> ()
  }, {
  }, {
    "test.c"() : () -> ()
  }) : () -> ()
  return
}
)");
  Op op = FuncOp(m->lookupSymbol("f")).body().front();
  REQUIRE(op.name() == "test.two_regions");
  std::vector<std::string> firsts;
  forEachBlock(op,
               [&](Block block) { firsts.emplace_back(block.front().name()); });
  CHECK(firsts == std::vector<std::string>{"test.a", "test.b", "test.c"});

  // Counts are read as the visit goes: a block added to the region being
  // visited is visited too.
  int visited = 0;
  forEachBlock(op, [&](Block block) {
    ++visited;
    if (block.parentRegion() == op.region(2) && visited == 3) {
      op.region(2).addBlock();
    }
  });
  CHECK(visited == 4);

  int in_leaf = 0;
  forEachBlock(op.region(0).front().front(), [&](Block) { ++in_leaf; });
  CHECK(in_leaf == 0);
}

TEST_CASE("walk visits ops in pre-order and tolerates erasing the visited op") {
  std::unique_ptr<Module> m = testing::parseOrDie(R"(
func.func @f(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.abs %arg0 : tensor<i32>
  %1 = "test.outer"(%0) ({
    %2 = "test.inner"(%0) ({
      "test.leaf"() : () -> ()
    }) : (tensor<i32>) -> tensor<i32>
    "test.after_inner"() : () -> ()
  }, {
    "test.second_region"() : () -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %1 : tensor<i32>
}
func.func @g() {
  return
}
)");
  std::vector<std::string> order;
  m->walk([&](Op op) { order.emplace_back(op.name()); });
  CHECK(order == std::vector<std::string>{
                     "func.func", "stablehlo.abs", "test.outer", "test.inner",
                     "test.leaf", "test.after_inner", "test.second_region",
                     "func.return", "func.func", "func.return"});

  // Erasing ops with unused results while walking: their regions are skipped.
  std::vector<std::string> visited;
  m->walk([&](Op op) {
    visited.emplace_back(op.name());
    if (op.name() == "test.after_inner" || op.name() == "test.inner") {
      op.erase();
    }
  });
  CHECK(std::count(visited.begin(), visited.end(), "test.leaf") == 0);
  CHECK(std::count(visited.begin(), visited.end(), "test.after_inner") == 1);
  std::vector<std::string> after;
  m->walk([&](Op op) { after.emplace_back(op.name()); });
  CHECK(after == std::vector<std::string>{"func.func", "stablehlo.abs",
                                          "test.outer", "test.second_region",
                                          "func.return", "func.func",
                                          "func.return"});
}

TEST_CASE("block arguments can be added and erased") {
  Fixture f;
  Block body = f.func.body();
  Value extra = body.addArgument(f.module->types().rankedTensor({2}, "i32"));
  CHECK(body.numArguments() == 3);
  CHECK(extra.index() == 2);
  CHECK(extra.type().str() == "tensor<2xi32>");
  body.eraseArgument(0);
  CHECK(body.numArguments() == 2);
  CHECK(body.argument(1) == extra);
  CHECK(extra.index() == 1);
  CHECK(body.arguments()[0].index() == 0);
}

TEST_CASE("attributes are filed as inherent or discardable") {
  Fixture f;
  Op c = f.add("sdy.sharding_constraint", {f.func.argument(0)});
  c.setAttr("sharding", Attribute::string("x"));  // registered as inherent
  c.setAttr("my.tag", Attribute::unit());
  CHECK(c.inherentAttrs().contains("sharding"));
  CHECK(!c.discardableAttrs().contains("sharding"));
  CHECK(c.discardableAttrs().contains("my.tag"));
  CHECK(c.hasAttr("sharding"));
  CHECK(c.attr("my.tag").kind() == AttrKind::kUnit);
  // An existing discardable entry stays where it is.
  Op u = f.add("test.unknown", {});
  u.setAttr("sharding", Attribute::integer(1));
  CHECK(u.discardableAttrs().contains("sharding"));
  u.setAttr("sharding", Attribute::integer(2));
  CHECK(*u.attr("sharding").intValue() == 2);
  CHECK(u.discardableAttrs().size() == 1);
  CHECK(u.removeAttr("sharding"));
  CHECK(!u.removeAttr("sharding"));
  CHECK(!u.hasAttr("sharding"));
  CHECK(c.removeAttr("sharding"));
  CHECK(c.inherentAttrs().empty());

  OperationState state(f.module->opName("sdy.reshard"));
  state.addAttr("sharding", Attribute::unit());
  state.addAttr("other", Attribute::unit());
  CHECK(state.inherent_attrs.contains("sharding"));
  CHECK(state.discardable_attrs.contains("other"));
}

TEST_CASE("createOp copies a state, or takes only its attributes") {
  Fixture f;
  OperationState state(f.module->opName("test.op"));
  state.operands = {f.func.argument(0), f.func.argument(1)};
  state.result_types = {f.t4, f.t4};
  state.addAttr("my.tag", Attribute::unit());
  Op copied = f.module->createOp(state);
  CHECK(state.discardable_attrs.contains("my.tag"));
  CHECK(copied.discardableAttrs().sharesWith(state.discardable_attrs));
  // The rvalue form takes the attributes; the rest stays for the next op.
  Op moved = f.module->createOp(std::move(state));
  CHECK(state.discardable_attrs.empty());  // NOLINT(bugprone-use-after-move)
  CHECK(state.operands.size() == 2);       // NOLINT(bugprone-use-after-move)
  CHECK(state.result_types.size() == 2);
  for (Op op : {copied, moved}) {
    CHECK(op.numOperands() == 2);
    CHECK(op.operand(1) == f.func.argument(1));
    CHECK(op.numResults() == 2);
    CHECK(op.result(1).type() == f.t4);
    CHECK(op.hasAttr("my.tag"));
  }
  Op next = f.module->createOp(std::move(state));
  CHECK(next.numOperands() == 2);
  CHECK(!next.hasAttr("my.tag"));
}

TEST_CASE("module-level lookups") {
  std::unique_ptr<Module> m = testing::parseOrDie(R"(
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @other = <["z"=3]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
func.func private @helper() {
  return
}
)");
  CHECK(m->functions().size() == 2);
  CHECK(FuncOp(m->lookupSymbol("helper")).visibility() == "private");
  CHECK(FuncOp(m->lookupSymbol("main")).visibility() == "public");
  CHECK(m->lookupSymbol("mesh").name() == "sdy.mesh");
  CHECK(!m->lookupSymbol("missing"));
  MeshTable meshes = m->meshTable();
  REQUIRE(meshes.find("mesh") != nullptr);
  CHECK(meshes.find("mesh")->totalSize() == 8);
  CHECK(meshes.find("other")->axisSize("z") == 3);
  CHECK(meshes.find("nope") == nullptr);
}

TEST_CASE("storage stays compact") {
  Fixture f;
  Value v = f.func.argument(0);
  for (int i = 0; i < 1000; ++i) v = f.add("stablehlo.negate", {v}).result(0);
  f.ret(v);
  CHECK(f.module->numOps() == 1002);
  double per_op =
      static_cast<double>(f.module->storageBytes()) / f.module->numOps();
  CHECK(per_op < 400);  // amortized vector growth included
  CHECK(per_op > 50);   // and it does count the op records
}

TEST_CASE("reserved capacity is counted apart until it is written") {
  Fixture f;
  f.module->reserve(5000);
  size_t reserved = f.module->reservedBytes();
  CHECK(reserved > 0);
  CHECK(reserved < f.module->storageBytes());
  Value v = f.func.argument(0);
  for (int i = 0; i < 1000; ++i) v = f.add("stablehlo.negate", {v}).result(0);
  f.ret(v);
  CHECK(f.module->reservedBytes() < reserved);
  f.module->shrinkToFit();
  CHECK(f.module->reservedBytes() < f.module->storageBytes() / 4);
}

}  // namespace
}  // namespace shardkit
