// Types (TypeContext uniquing) and attributes (construction, equality,
// MLIR's printing of numbers and dense literals).
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "shardkit/ir/attribute.h"
#include "shardkit/ir/graph.h"
#include "shardkit/ir/type.h"
#include "shardkit/text/parse.h"
#include "unit/ir/ir_test_util.h"

namespace shardkit {
namespace {

TEST_CASE("TypeContext uniques types: equal types are one handle") {
  TypeContext ctx;
  Type a = ctx.rankedTensor({8, kDynamicSize}, "f32");
  Type b = ctx.rankedTensor({8, kDynamicSize}, "f32");
  CHECK(a == b);
  CHECK(ctx.size() == 1);
  CHECK(a.str() == "tensor<8x?xf32>");
  CHECK(a.isRankedTensor());
  CHECK(a.rank() == 2);
  CHECK(!a.hasStaticShape());
  CHECK(a.elementType() == "f32");

  Type c = ctx.rankedTensor({8, 4}, "f32");
  CHECK(!(a == c));
  CHECK(c.hasStaticShape());
  Type enc = ctx.rankedTensor({8, 4}, "f32", "#enc");
  CHECK(!(c == enc));
  CHECK(enc.str() == "tensor<8x4xf32, #enc>");
  CHECK(enc.encoding() == "#enc");
  CHECK(ctx.size() == 3);

  // A type spelled as text is the structured type with that text.
  CHECK(ctx.other("tensor<8x4xf32>") == c);
  CHECK(ctx.size() == 3);

  Type scalar = ctx.rankedTensor({}, "i1");
  CHECK(scalar.str() == "tensor<i1>");
  CHECK(scalar.rank() == 0);
  CHECK(scalar.hasStaticShape());

  Type unranked = ctx.unrankedTensor("bf16");
  CHECK(unranked.kind() == TypeKind::kUnrankedTensor);
  CHECK(unranked.str() == "tensor<*xbf16>");
  CHECK(unranked.shape().empty());
  CHECK(!unranked.shapeView().isShaped());

  Type token = ctx.other("!stablehlo.token");
  CHECK(token.isToken());
  CHECK(!c.isToken());
  CHECK(token.kind() == TypeKind::kOther);
  CHECK(!token.shapeView().isShaped());

  Type tuple = ctx.tuple({c, token});
  CHECK(tuple.str() == "tuple<tensor<8x4xf32>, !stablehlo.token>");
  CHECK(tuple.elements().size() == 2);
  CHECK(ctx.tuple({c, token}) == tuple);
  Type one = ctx.tuple({c});
  CHECK(one.shapeView().isShaped());
  CHECK(one.shapeView().rank() == 2);
  CHECK(!tuple.shapeView().isShaped());

  Type fn = ctx.function({c, token}, {c});
  CHECK(fn.str() == "(tensor<8x4xf32>, !stablehlo.token) -> tensor<8x4xf32>");
  CHECK(ctx.function({}, {}).str() == "() -> ()");
  CHECK(ctx.function({c}, {c, c}).str() ==
        "(tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)");
  // A function returning a function parenthesizes the result.
  CHECK(ctx.function({}, {fn}).str() ==
        "() -> ((tensor<8x4xf32>, !stablehlo.token) -> tensor<8x4xf32>)");
  CHECK(fn.results().size() == 1);
  CHECK(fn.elements().size() == 2);

  CHECK(!Type());
  CHECK(Type().str() == "<<null type>>");
  CHECK(!(Type() == c));
}

TEST_CASE("types of different contexts compare by text and can be imported") {
  TypeContext ctx1, ctx2;
  Type a = ctx1.tuple({ctx1.rankedTensor({2}, "f32"), ctx1.other("i32")});
  Type b = ctx2.tuple({ctx2.rankedTensor({2}, "f32"), ctx2.other("i32")});
  CHECK(a == b);
  Type imported = ctx2.import(a);
  CHECK(imported == b);
  CHECK(ctx2.size() == 3);  // nothing new: the same handle is found
  Type f = ctx1.function({a}, {ctx1.unrankedTensor("f32")});
  Type g = ctx2.import(f);
  CHECK(g.str() == f.str());
  CHECK(g.kind() == TypeKind::kFunction);
  CHECK(g.elements()[0] == b);
  CHECK(!ctx2.import(Type()));
}

std::string print(const Attribute& a) { return toString(a); }

TEST_CASE("builtin attributes print as MLIR prints them") {
  CHECK(print(Attribute::integer(7)) == "7 : i64");
  CHECK(print(Attribute::integer(-3, "i32")) == "-3 : i32");
  CHECK(print(Attribute::integer(1, "i1")) == "true");
  CHECK(print(Attribute::integer(0, "i1")) == "false");
  CHECK(toString(Attribute::integer(7), /*elide_i64=*/true) == "7");
  CHECK(toString(Attribute::integer(7, "i32"), /*elide_i64=*/true) ==
        "7 : i32");
  CHECK(print(Attribute::boolean(true)) == "true");
  CHECK(print(Attribute::unit()) == "unit");
  CHECK(print(Attribute()) == "<<NULL ATTRIBUTE>>");
  CHECK(print(Attribute::string("b\\c\n\t")) == R"("b\\c\0A\09")");
  CHECK(print(Attribute::symbolRef("f")) == "@f");
  CHECK(print(Attribute::symbolRef("a::@b")) == "@a::@b");
  CHECK(print(Attribute::array(
            {Attribute::integer(1), Attribute::integer(2, "i32"),
             Attribute::floating(0.5)})) == "[1, 2 : i32, 5.000000e-01]");
  CHECK(print(Attribute::array({})) == "[]");
  CHECK(print(Attribute::i64Array({1, -2})) == "array<i64: 1, -2>");
  CHECK(print(Attribute::i64Array({})) == "array<i64>");
  CHECK(print(Attribute::denseArray("i1", {1, 0})) == "array<i1: true, false>");
  CHECK(print(Attribute::dict(
            {{"b", Attribute::unit()}, {"a", Attribute::integer(1)}})) ==
        "{a = 1 : i64, b}");
  CHECK(print(Attribute::dict({})) == "{}");
  TypeContext ctx;
  Type t = ctx.rankedTensor({2}, "f32");
  CHECK(print(Attribute::type(t)) == "tensor<2xf32>");
  CHECK(print(Attribute::elements("dense<1.000000e+00>", t)) ==
        "dense<1.000000e+00> : tensor<2xf32>");
  CHECK(print(Attribute::opaque("#stablehlo<precision DEFAULT>")) ==
        "#stablehlo<precision DEFAULT>");
}

TEST_CASE("floats: 6 significant digits when they round-trip, else APFloat's") {
  CHECK(formatFloat(1.0, "f32") == "1.000000e+00");
  CHECK(formatFloat(0.0, "f64") == "0.000000e+00");
  CHECK(formatFloat(-0.0, "f64") == "-0.000000e+00");
  CHECK(formatFloat(-2.5, "f64") == "-2.500000e+00");
  CHECK(formatFloat(1e-3, "f64") == "1.000000e-03");
  CHECK(formatFloat(0.1, "f32") == "1.000000e-01");
  CHECK(formatFloat(1e30, "f32") == "1.000000e+30");
  // Not exact in 6 digits: APFloat's text, 17 digits for f64 and 9 for f32
  // with trailing zeros dropped, as MLIR prints it.
  CHECK(formatFloat(3.14159265, "f64") == "3.1415926500000002");
  CHECK(formatFloat(0.12345678, "f64") == "0.12345678");
  CHECK(formatFloat(0.1234567, "f64") == "1.234567e-01");  // 7 digits fit
  CHECK(formatFloat(static_cast<double>(3.1415927f), "f32") == "3.14159274");
  CHECK(formatFloat(-3.4028234663852886e38, "f32") == "-3.40282347E+38");
  CHECK(formatFloat(1.7976931348623157e308, "f64") ==
        "1.7976931348623157E+308");
  // Exact in 6 digits in its own format (bf16), not as an f32.
  CHECK(formatFloat(3.3895313892515355e38, "bf16") == "3.389531e+38");
  // No point in APFloat's text: the bits in hex.
  CHECK(formatFloat(static_cast<double>(123456789.0f), "f32") == "0x4CEB79A3");
  // f32 precision decides: this double is not exact in 6 digits as f64, but
  // its f32 value is.
  CHECK(formatFloat(static_cast<double>(0.3f), "f32") == "3.000000e-01");
  CHECK(formatFloat(static_cast<double>(0.3f), "f64") != "3.000000e-01");
  // Non-finite values print as their bit patterns.
  CHECK(formatFloat(std::numeric_limits<double>::infinity(), "f32") ==
        "0x7F800000");
  CHECK(formatFloat(-std::numeric_limits<double>::infinity(), "f32") ==
        "0xFF800000");
  CHECK(formatFloat(std::numeric_limits<double>::infinity(), "f64") ==
        "0x7FF0000000000000");
  CHECK(formatFloat(std::nan(""), "f32") == "0x7FC00000");
  CHECK(print(Attribute::floating(2.0, "f32")) == "2.000000e+00 : f32");
  CHECK(toString(Attribute::floating(2.0), /*elide_i64=*/true) ==
        "2.000000e+00");
}

TEST_CASE("attribute equality compares payloads") {
  CHECK(Attribute::integer(1) == Attribute::integer(1));
  CHECK(!(Attribute::integer(1) == Attribute::integer(1, "i32")));
  CHECK(!(Attribute::integer(1) == Attribute::integer(2)));
  CHECK(!(Attribute::integer(1) == Attribute::boolean(true)));
  CHECK(Attribute::unit() == Attribute::unit());
  CHECK(Attribute() == Attribute());
  CHECK(!(Attribute() == Attribute::unit()));
  CHECK(Attribute::array({Attribute::string("a")}) ==
        Attribute::array({Attribute::string("a")}));
  CHECK(!(Attribute::string("a") == Attribute::symbolRef("a")));
  // Dictionaries are sorted on construction, so the order given is irrelevant.
  CHECK(Attribute::dict(
            {{"a", Attribute::unit()}, {"b", Attribute::integer(1)}}) ==
        Attribute::dict(
            {{"b", Attribute::integer(1)}, {"a", Attribute::unit()}}));
  TensorSharding s(MeshOrRef::ref("mesh"),
                   {DimensionSharding({AxisRef("x")}, true)});
  CHECK(Attribute::of(s) == Attribute::of(s));
  TensorSharding s2 = s;
  s2.dim_shardings[0].is_closed = false;
  CHECK(!(Attribute::of(s) == Attribute::of(s2)));
  CHECK(print(Attribute::of(s)) == R"(#sdy.sharding<@mesh, [{"x"}]>)");
  CHECK(print(Attribute::of(s2)) == R"(#sdy.sharding<@mesh, [{"x", ?}]>)");
}

TEST_CASE("typed views and integer accessors") {
  Attribute i = Attribute::integer(5, "ui64");
  REQUIRE(i.asInteger());
  CHECK(i.asInteger()->type == "ui64");
  CHECK(i.intValue() == 5);
  CHECK(!i.asFloat());
  CHECK(!i.asString());
  CHECK(Attribute::boolean(true).intValue() == 1);
  CHECK(!Attribute::string("1").intValue());
  CHECK(Attribute::i64Array({1, 2}).intList() == std::vector<int64_t>{1, 2});
  CHECK(Attribute::array({Attribute::integer(3), Attribute::boolean(false)})
            .intList() == std::vector<int64_t>{3, 0});
  CHECK(!Attribute::array({Attribute::string("x")}).intList());
  CHECK(!Attribute::unit().intList());
}

TEST_CASE("AttrDict keeps entries sorted and unique") {
  AttrDict d;
  CHECK(d.empty());
  d.set("z", Attribute::integer(1));
  d.set("a", Attribute::integer(2));
  d.set("m", Attribute::unit());
  d.set("a", Attribute::integer(3));
  REQUIRE(d.size() == 3);
  CHECK(d.entries()[0].name == "a");
  CHECK(d.entries()[1].name == "m");
  CHECK(d.entries()[2].name == "z");
  CHECK(d.get("a").intValue() == 3);
  CHECK(!d.get("b"));
  CHECK(d.erase("m"));
  CHECK(!d.erase("m"));
  CHECK(!d.contains("m"));
  std::string out;
  appendAttrDict(out, d.entries());
  CHECK(out == "{a = 3 : i64, z = 1 : i64}");
}

// Parses `attr` as the value of a module attribute and prints it back (an
// entry printed as a bare name is a unit attribute).
std::string reprint(std::string_view attr) {
  std::string text = strCat("module attributes {a = ", attr, "} {\n}\n");
  std::string printed = testing::roundTrip(text);
  std::string prefix = "module attributes {a";
  REQUIRE(printed.starts_with(prefix));
  size_t end = printed.rfind("} {");
  std::string value = printed.substr(prefix.size(), end - prefix.size());
  if (value.empty()) return "unit";
  REQUIRE(value.starts_with(" = "));
  return value.substr(3);
}

TEST_CASE("dense literals are normalized like MLIR prints them") {
  // Splats collapse; floats get MLIR's format; integers drop leading '+'
  // forms and spacing.
  CHECK(reprint("dense<[1.0, 1.0]> : tensor<2xf32>") ==
        "dense<1.000000e+00> : tensor<2xf32>");
  CHECK(reprint("dense<[[1,2],[3,4]]> : tensor<2x2xi32>") ==
        "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>");
  // A flat list of the right length is reshaped to the type.
  CHECK(reprint("dense<[1, 2, 3, 4]> : tensor<2x2xi64>") ==
        "dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>");
  CHECK(reprint("dense<0.5> : tensor<f64>") ==
        "dense<5.000000e-01> : tensor<f64>");
  CHECK(reprint("dense<-1> : tensor<3xi8>") == "dense<-1> : tensor<3xi8>");
  CHECK(reprint("dense<[true, false]> : tensor<2xi1>") ==
        "dense<[true, false]> : tensor<2xi1>");
  CHECK(reprint("dense<1> : tensor<2xi1>") == "dense<true> : tensor<2xi1>");
  CHECK(reprint("dense<[0.1, 2]> : tensor<2xbf16>") ==
        "dense<[1.000000e-01, 2.000000e+00]> : tensor<2xbf16>");
  CHECK(reprint("dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>") ==
        "dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,4.000000e+00)]> : "
        "tensor<2xcomplex<f32>>");
  CHECK(reprint("dense<\"0xDEADBEEF\"> : tensor<1xi32>") ==
        "dense<\"0xDEADBEEF\"> : tensor<1xi32>");
  CHECK(reprint("dense<> : tensor<0xf32>") == "dense<> : tensor<0xf32>");
  CHECK(reprint("dense<[]> : tensor<0xf32>") == "dense<> : tensor<0xf32>");
  CHECK(testing::parseError(
            "module attributes {a = dense<[1, oops]> : tensor<2xi32>} {}")
            .find("invalid dense literal") != std::string::npos);
  // The type of an elements literal has a static shape.
  CHECK(testing::parseError(
            "module attributes {a = dense<1.0> : tensor<?xf32>} {}") ==
        "test.mlir:1:37: error: elements literal type must have static shape");
  CHECK(testing::parseError(
            "module attributes {a = dense<1.0> : tensor<*xf32>} {}")
            .find("elements literal type must have static shape") !=
        std::string::npos);
  CHECK(testing::parseError(
            "module attributes {a = sparse<[[0]], [1.0]> : tensor<?xf32>} {}")
            .find("elements literal type must have static shape") !=
        std::string::npos);
}

TEST_CASE("builtin attribute syntax round-trips through a module") {
  CHECK(reprint("1") == "1 : i64");
  CHECK(reprint("-1 : i32") == "-1 : i32");
  CHECK(reprint("0x10 : i32") == "16 : i32");
  // Unsigned types print unsigned (the value keeps the bit pattern).
  CHECK(reprint("18446744073709551615 : ui64") ==
        "18446744073709551615 : ui64");
  CHECK(reprint("18446744073709551615") == "-1 : i64");
  CHECK(print(Attribute::integer(-1, "ui64")) == "18446744073709551615 : ui64");
  CHECK(reprint("1.5") == "1.500000e+00 : f64");
  CHECK(reprint("2 : f32") == "2.000000e+00 : f32");
  CHECK(reprint("true") == "true");
  CHECK(reprint("unit") == "unit");
  CHECK(reprint("\"s\" : i32") == "\"s\"");
  CHECK(reprint("@sym::@nested") == "@sym::@nested");
  CHECK(reprint("[1, [2, \"x\"], {k}]") == "[1, [2, \"x\"], {k}]");
  CHECK(reprint("array<i32: 1, 2>") == "array<i32: 1, 2>");
  CHECK(reprint("array<i1: true, false>") == "array<i1: true, false>");
  CHECK(reprint("{b = 1, \"a\" = 2}") == "{a = 2 : i64, b = 1 : i64}");
  CHECK(reprint("tensor<2x?xf32>") == "tensor<2x?xf32>");
  CHECK(reprint("!stablehlo.token") == "!stablehlo.token");
  CHECK(reprint("(i32) -> i32") == "(i32) -> i32");
  CHECK(reprint("#stablehlo.conv<raw input_batch_dimension = 0>") ==
        "#stablehlo.conv<raw input_batch_dimension = 0>");
  CHECK(reprint("#foo.bar< 1 ,  2 >") == "#foo.bar<1, 2>");
  CHECK(reprint("#sdy.sharding<@mesh, [{\"x\", ?}, {}], replicated={\"y\"}>") ==
        "#sdy.sharding<@mesh, [{\"x\", ?}, {}], replicated={\"y\"}>");
  CHECK(reprint("#sdy.mesh<[\"x\"=2]>") == "#sdy.mesh<[\"x\"=2]>");
  CHECK(reprint("#sdy.sharding_per_value<[<@m, [{}]>, <@m, []>]>") ==
        "#sdy.sharding_per_value<[<@m, [{}]>, <@m, []>]>");
  CHECK(reprint("#sdy.op_sharding_rule<([i, j])->([j, i]) {i=2, j=4}>") ==
        "#sdy.op_sharding_rule<([i, j])->([j, i]) {i=2, j=4}>");
}

TEST_CASE("AttrDict copies share entries until one of them changes") {
  AttrDict a;
  a.set("k", Attribute::integer(1));
  a.set("m", Attribute::string("x"));
  AttrDict b = a;
  CHECK(b.sharesWith(a));
  CHECK(b == a);
  const Attribute* before = a.lookup("k");
  // Each kind of change leaves the other copy as it was.
  b.set("k", Attribute::integer(2));
  CHECK_FALSE(b.sharesWith(a));
  CHECK(a.get("k").intValue() == 1);
  CHECK(a.lookup("k") == before);
  CHECK(b.get("k").intValue() == 2);
  AttrDict c = a;
  *c.find("m") = Attribute::string("y");
  CHECK(*a.get("m").asString() == "x");
  AttrDict d = a;
  CHECK(d.erase("k"));
  CHECK(a.contains("k"));
  CHECK_FALSE(d.contains("k"));
  AttrDict e = a;
  e.setAll({NamedAttribute{"n", Attribute::unit()}});
  CHECK_FALSE(a.contains("n"));
  CHECK(e.size() == 3);
  // A new name in a shared copy: the copy gets the others too, in order.
  AttrDict h = a;
  h.set("l", Attribute::integer(5));
  CHECK(a.size() == 2);
  CHECK_FALSE(a.contains("l"));
  REQUIRE(h.size() == 3);
  CHECK(h.entries()[0].name == "k");
  CHECK(h.entries()[1].name == "l");
  CHECK(h.entries()[2].name == "m");
  CHECK(h.get("k").intValue() == 1);
  CHECK(*h.get("m").asString() == "x");
  CHECK(*a.get("m").asString() == "x");
  // Equal entries are equal dictionaries, shared or not.
  AttrDict f;
  f.set("m", Attribute::string("x"));
  f.set("k", Attribute::integer(1));
  CHECK(f == a);
  CHECK_FALSE(f.sharesWith(a));
  // Removing the last entry leaves an empty dictionary.
  AttrDict g;
  g.set("k", Attribute::unit());
  CHECK(g.erase("k"));
  CHECK(g.empty());
  CHECK(g.entries().empty());
  CHECK(g == AttrDict());
}

}  // namespace
}  // namespace shardkit
