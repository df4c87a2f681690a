// What the reader shares between equal texts (generic op tails, attribute
// dictionaries, dialect attributes) and the writer's remembered attribute
// texts: sharing must never skip a check or change what is read or printed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/ir/attribute.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit {
namespace {

std::string errorOf(std::string_view text) {
  auto module = parseModule(text, "t.mlir");
  return module.ok() ? std::string("<ok>")
                     : std::string(module.status().message());
}

TEST_CASE("a repeated op tail still checks each op's operand types") {
  // Both ops end with the same text; only the second one's operand has
  // another type.
  std::string text = R"(module {
  "func.func"() ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<8xf32>):
    %0 = "x.op"(%a) {k = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "x.op"(%b) {k = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"() : () -> ()
  }) {function_type = (tensor<4xf32>, tensor<8xf32>) -> (), sym_name = "f"} : () -> ()
}
)";
  std::string error = errorOf(text);
  CHECK_THAT(error, Catch::Contains("t.mlir:5:"));
  CHECK_THAT(error, Catch::Contains("operand #0 has type tensor<8xf32>"));
}

TEST_CASE("a repeated op tail still rejects an attribute given twice") {
  // The second op repeats the first one's tail, but also has the attribute
  // as a property.
  std::string text = R"(module {
  "x.a"() {k = 1 : i64} : () -> ()
  "x.a"() <{k = 2 : i64}> {k = 1 : i64} : () -> ()
}
)";
  std::string error = errorOf(text);
  CHECK_THAT(error, Catch::Contains("t.mlir:3:"));
  CHECK_THAT(error, Catch::Contains("attribute 'k' is given twice"));
}

TEST_CASE("ops with equal tails read the same attributes and types") {
  std::string text = R"(module {
  %0 = "x.a"() {d = #x.dot<[1, 2]>, k = 1 : i64} : () -> tensor<2xf32>
  %1 = "x.a"() {d = #x.dot<[1, 2]>, k = 1 : i64} : () -> tensor<2xf32>
  %2 = "x.a"() {d = #x.dot<[1, 2]>, k = 2 : i64} : () -> tensor<2xf32>
}
)";
  auto module = parseModule(text);
  REQUIRE(module.ok());
  auto it = (*module)->body().begin();
  Op a = *it++, b = *it++, c = *it;
  CHECK(a.attr("d").identity() == b.attr("d").identity());
  CHECK(a.attr("d").identity() == c.attr("d").identity());
  CHECK(b.attr("k").asInteger()->value == 1);
  CHECK(c.attr("k").asInteger()->value == 2);
  CHECK(a.result(0).type() == c.result(0).type());
  // The ops of one tail share one dictionary, the first of them too.
  CHECK(a.discardableAttrs().sharesWith(b.discardableAttrs()));
  CHECK_FALSE(a.discardableAttrs().sharesWith(c.discardableAttrs()));
  // Equal texts print equally.
  std::string printed = printModule(**module);
  CHECK_THAT(printed, Catch::Contains("%1 = \"x.a\"() {d = #x.dot<[1, 2]>, "
                                      "k = 1 : i64} : () -> tensor<2xf32>"));
}

TEST_CASE("equal dictionary attributes are read once and shared") {
  std::string text = R"(module {
  "func.func"() <{arg_attrs = [{a = 1 : i64}, {a = 2 : i64}, {a = 1 : i64}], function_type = (i32, i32, i32) -> (), sym_name = "f"}> ({
  ^bb0(%x: i32, %y: i32, %z: i32):
    "func.return"() : () -> ()
  }) : () -> ()
}
)";
  auto module = parseModule(text);
  REQUIRE(module.ok());
  Op func = *(*module)->body().begin();
  const std::vector<Attribute>* dicts = func.attr("arg_attrs").asArray();
  REQUIRE(dicts != nullptr);
  REQUIRE(dicts->size() == 3);
  CHECK((*dicts)[0].identity() == (*dicts)[2].identity());
  CHECK((*dicts)[0].identity() != (*dicts)[1].identity());
  CHECK_THAT(printModule(**module),
             Catch::Contains("(%arg0: i32 {a = 1 : i64}, %arg1: i32 {a = 2 : "
                             "i64}, %arg2: i32 {a = 1 : i64})"));
  // A text that failed to read is not remembered: its repeat fails too,
  // with the first one's error.
  std::string twice = R"(module {
  "x.a"() {d = [{k = 1 : i64, k = 2 : i64}, {k = 1 : i64, k = 2 : i64}]} : () -> ()
}
)";
  std::string error = errorOf(twice);
  CHECK_THAT(error, Catch::Contains("t.mlir:2:"));
  CHECK_THAT(error, Catch::Contains("'k'"));
}

TEST_CASE("dictionaries too long to remember are read in full each time") {
  // Two equal dictionary attributes of about 20 KB: past what the reader
  // remembers, so each is read afresh (not shared), and read whole.
  std::string list;
  for (int i = 0; i < 2000; ++i) list += (i ? ", " : "") + std::to_string(i);
  std::string dict = "{k = [" + list + "]}";
  // (The second op's tail differs, so that it is not the first one's.)
  std::string text = "module {\n  \"x.a\"() {d = [" + dict + ", " + dict +
                     "]} : () -> ()\n  \"x.a\"() {d = [" + dict + ", " + dict +
                     "], e = 1 : i64} : () -> ()\n}\n";
  auto module = parseModule(text);
  REQUIRE(module.ok());
  std::vector<const void*> identities;
  for (Op op : (*module)->body()) {
    const std::vector<Attribute>* dicts = op.attr("d").asArray();
    REQUIRE(dicts != nullptr);
    REQUIRE(dicts->size() == 2);
    CHECK((*dicts)[0] == (*dicts)[1]);
    identities.push_back((*dicts)[0].identity());
    identities.push_back((*dicts)[1].identity());
  }
  CHECK(identities[0] != identities[1]);
  CHECK(identities[0] != identities[2]);
  std::string printed = printModule(**module);
  CHECK_THAT(printed, Catch::Contains(", 1998, 1999]}, {k = [0, 1, 2"));
  // An error past the remembered length is still found, where it is.
  std::string bad = "module {\n  \"x.a\"() {d = [" + dict.substr(0, 15000) +
                    " 7]} : () -> ()\n}\n";
  CHECK_THAT(errorOf(bad), Catch::Contains("t.mlir:2:"));
}

TEST_CASE("an op tail followed by more text on its line is read as usual") {
  std::string text =
      "module {\n  \"x.a\"() {k = 1 : i64} : () -> () \"x.a\"() {k = 1 : "
      "i64} : () -> ()\n}\n";
  auto module = parseModule(text);
  REQUIRE(module.ok());
  CHECK((*module)->body().numOps() == 2);
}

TEST_CASE(
    "remembered dictionary texts: by both dictionaries and the names "
    "left out") {
  // 200 dictionary pairs, more than the memo's recent slots, each printed
  // with two lists of names left out, in two passes: the text is computed
  // once per pair and list, and every lookup gives that pair's own text.
  std::vector<AttrDict> firsts, seconds;
  for (int i = 0; i < 200; ++i) {
    AttrDict a, b;
    a.set("k", Attribute::integer(i));
    a.set("m", Attribute::integer(-i));
    b.set("n", Attribute::integer(i % 7));
    firsts.push_back(a);
    seconds.push_back(b);
  }
  std::vector<std::vector<std::string_view>> elided_lists = {{"m"}, {"k"}};
  ScopedAttrTextMemo memo;
  int computed = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 200; ++i) {
      for (size_t e = 0; e < elided_lists.size(); ++e) {
        const std::vector<std::string_view>& elided = elided_lists[e];
        std::string expected =
            e == 0 ? strCat("{k = ", i, " : i64, n = ", i % 7, " : i64}")
                   : strCat("{m = ", -i, " : i64, n = ", i % 7, " : i64}");
        const std::string& text =
            memo.dictText(firsts[i], seconds[i], elided, [&] {
              ++computed;
              return expected;
            });
        INFO(i << " " << e);
        CHECK(text == expected);
      }
    }
  }
  CHECK(computed == 400);
}

TEST_CASE("remembered attribute texts equal the texts printed afresh") {
  TensorSharding sharding =
      *parseTensorSharding("#sdy.sharding<@mesh, [{\"x\", ?}p1, {}]>");
  Attribute attr = Attribute::of(sharding);
  std::string fresh = toString(attr);
  std::string first, second;
  {
    ScopedAttrTextMemo memo;
    appendAttribute(first, attr);
    appendAttribute(second, attr);
    {
      ScopedAttrTextMemo inner;
      CHECK(ScopedAttrTextMemo::active() == &inner);
    }
    CHECK(ScopedAttrTextMemo::active() == &memo);
  }
  CHECK(ScopedAttrTextMemo::active() == nullptr);
  {
    // Attributes made and dropped while the memo lives: each prints as
    // itself (the memo keeps what it saw, so no identity is reused).
    ScopedAttrTextMemo memo;
    for (const char* axis : {"x", "y", "z"}) {
      std::string text = strCat("#sdy.sharding<@mesh, [{\"", axis, "\"}]>");
      std::string printed;
      appendAttribute(printed, Attribute::of(*parseTensorSharding(text)));
      CHECK(printed == text);
    }
  }
  CHECK(first == fresh);
  CHECK(second == fresh);
  CHECK(fresh == "#sdy.sharding<@mesh, [{\"x\", ?}p1, {}]>");
}

TEST_CASE("remembered dictionary texts: by entries and elided names") {
  AttrDict inherent;
  inherent.set("k", Attribute::integer(1));
  AttrDict discardable;
  discardable.set("a", Attribute::string("x"));
  ScopedAttrTextMemo memo;
  int prints = 0;
  auto text = [&](const AttrDict& first, const AttrDict& second,
                  std::initializer_list<std::string_view> elided) {
    return memo.dictText(first, second, elided, [&] {
      ++prints;
      std::string out;
      for (const AttrDict* d : {&first, &second}) {
        for (const NamedAttribute& e : *d) {
          if (std::find(elided.begin(), elided.end(), e.name) == elided.end()) {
            out += e.name;
          }
        }
      }
      return out;
    });
  };
  CHECK(text(inherent, discardable, {}) == "ka");
  CHECK(text(inherent, discardable, {}) == "ka");
  CHECK(prints == 1);
  // Other names left out, or the same dictionaries the other way round.
  CHECK(text(inherent, discardable, {"k"}) == "a");
  CHECK(text(discardable, inherent, {}) == "ak");
  CHECK(prints == 3);
  // A copy shares the entries: remembered. A change gives new entries.
  AttrDict copy = discardable;
  CHECK(text(inherent, copy, {}) == "ka");
  CHECK(prints == 3);
  copy.set("b", Attribute::unit());
  CHECK(text(inherent, copy, {}) == "kab");
  CHECK(prints == 4);
}

TEST_CASE("ops that share dictionaries print them alike, pretty and generic") {
  std::string text = R"(module {
  %0 = "x.a"() <{p = 2 : i64}> {d = 1 : i64} : () -> tensor<2xf32>
  %1 = "x.a"() <{p = 2 : i64}> {d = 1 : i64} : () -> tensor<2xf32>
  %2 = "stablehlo.abs"(%1) {d = 1 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  %3 = "stablehlo.abs"(%2) {d = 1 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  %4 = "stablehlo.abs"(%3) {d = 2 : i64} : (tensor<2xf32>) -> tensor<2xf32>
}
)";
  auto module = parseModule(text);
  REQUIRE(module.ok());
  PrintOptions generic;
  generic.generic = true;
  std::string printed = printModule(**module, generic);
  CHECK_THAT(printed, Catch::Contains("%1 = \"x.a\"() <{p = 2 : i64}> {d = 1 "
                                      ": i64} : () -> tensor<2xf32>"));
  CHECK_THAT(printed, Catch::Contains("%3 = \"stablehlo.abs\"(%2) {d = 1 : "
                                      "i64} : (tensor<2xf32>) -> "
                                      "tensor<2xf32>"));
  CHECK_THAT(printed, Catch::Contains("%4 = \"stablehlo.abs\"(%3) {d = 2 : "
                                      "i64}"));
  std::string pretty = printModule(**module);
  CHECK_THAT(pretty, Catch::Contains("%3 = stablehlo.abs %2 {d = 1 : i64} : "
                                     "tensor<2xf32>"));
  CHECK_THAT(pretty, Catch::Contains("%4 = stablehlo.abs %3 {d = 2 : i64} : "
                                     "tensor<2xf32>"));
}

}  // namespace
}  // namespace shardkit
