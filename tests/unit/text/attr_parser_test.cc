// AttrParser on a shared ParserBase, the way the module reader uses it: each
// parseX starts at X's first token and leaves the cursor right after it.
#include "shardkit/text/attr_parser.h"

#include <catch2/catch.hpp>
#include <string>

#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit {
namespace {

std::string messageOf(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

TEST_CASE("AttrParser leaves the cursor after each attribute") {
  ParserBase p(
      R"(out_sharding=<@m, [{"x"}]> in_shardings=[<@m, []>, <mesh<[]>, [{?}]>] )"
      R"(manual_axes={"x"} [{"y"}: 0->1] dir=BOTH rest)");
  AttrParser attrs(p);
  REQUIRE(p.consumeKeywordIf("out_sharding"));
  REQUIRE(p.consumeIf(TokenKind::kEqual));
  absl::StatusOr<TensorSharding> out = attrs.parseTensorSharding();
  REQUIRE(out.ok());
  CHECK(toString(*out) == R"(<@m, [{"x"}]>)");

  REQUIRE(p.consumeKeywordIf("in_shardings"));
  REQUIRE(p.consumeIf(TokenKind::kEqual));
  absl::StatusOr<TensorShardingPerValue> in = attrs.parseTensorShardingList();
  REQUIRE(in.ok());
  CHECK(toString(*in) == R"(<[<@m, []>, <mesh<[]>, [{?}]>]>)");

  REQUIRE(p.consumeKeywordIf("manual_axes"));
  REQUIRE(p.consumeIf(TokenKind::kEqual));
  absl::StatusOr<ManualAxes> manual = attrs.parseManualAxes();
  REQUIRE(manual.ok());
  CHECK(manual->items == std::vector<std::string>{"x"});

  absl::StatusOr<AllToAllParamList> params = attrs.parseAllToAllParamList();
  REQUIRE(params.ok());
  CHECK(params->items.size() == 1);

  REQUIRE(p.consumeKeywordIf("dir"));
  REQUIRE(p.consumeIf(TokenKind::kEqual));
  absl::StatusOr<PropagationDirection> dir = attrs.parsePropagationDirection();
  REQUIRE(dir.ok());
  CHECK(*dir == PropagationDirection::kBoth);
  CHECK(p.atKeyword("rest"));
}

TEST_CASE("AttrParser: the remaining entry points mid-stream") {
  ParserBase p(R"(@m mesh<["a"=2]> <["b"=4]> "x":(1)2 {"x", ?}p2 )"
               R"({"a"} [{}, {"b"}] <([i])->([i]) {i=2}> end)");
  AttrParser attrs(p);
  absl::StatusOr<MeshOrRef> ref = attrs.parseMeshOrRef();
  REQUIRE(ref.ok());
  CHECK(ref->name() == "m");
  absl::StatusOr<MeshOrRef> inlined = attrs.parseMeshOrRef();
  REQUIRE(inlined.ok());
  CHECK(*inlined == MeshOrRef::inlined(Mesh({{"a", 2}})));
  CHECK(*attrs.parseMesh() == Mesh({{"b", 4}}));
  CHECK(*attrs.parseAxisRef() == AxisRef("x", 1, 2));
  CHECK(*attrs.parseDimensionSharding() ==
        DimensionSharding({AxisRef("x")}, false, 2));
  CHECK(*attrs.parseAxisRefList() == AxisRefVector{AxisRef("a")});
  CHECK(toString(*attrs.parseListOfAxisRefLists()) == R"([{}, {"b"}])");
  CHECK(toString(*attrs.parseOpShardingRule()) == "<([i])->([i]) {i=2}>");
  CHECK(p.atKeyword("end"));
}

TEST_CASE("AttrParser: errors keep their offset for the caller") {
  ParserBase p("x = <@m, [{\"a\"}p01]>");
  AttrParser attrs(p);
  p.advance();
  p.advance();
  absl::StatusOr<TensorSharding> s = attrs.parseTensorSharding();
  REQUIRE_FALSE(s.ok());
  CHECK(messageOf(s.status()) ==
        "priorities with leading zeros are not allowed, got: p01");
  CHECK(p.errorOffset() == 15);
  CHECK(messageOf(p.withLineCol(s.status())) ==
        "1:16: priorities with leading zeros are not allowed, got: p01");
}

TEST_CASE("consumeFactorSymbol decodes one symbol at a time") {
  ParserBase p("");
  std::string_view text = "iz_12z";
  absl::StatusOr<int64_t> first = consumeFactorSymbol(p, text, 0);
  CHECK(*first == 0);
  CHECK(text == "z_12z");
  CHECK(*consumeFactorSymbol(p, text, 1) == 29);
  CHECK(text == "z");
  CHECK(*consumeFactorSymbol(p, text, 5) == 17);
  CHECK(text.empty());

  std::string_view bad = "h";
  absl::StatusOr<int64_t> error = consumeFactorSymbol(p, bad, 7);
  CHECK(messageOf(error.status()) ==
        "expecting symbol from 'i' to 'z'. Received: 'h'");
  CHECK(p.errorOffset() == 7);
  CHECK(bad == "h");
}

TEST_CASE("parseMesh: an unverified huge mesh keeps its ids (no overflow)") {
  // The iota check must not multiply the sizes out: 2^63-1 * 2 overflows.
  absl::StatusOr<Mesh> mesh =
      parseMesh(R"(<["a"=9223372036854775807, "b"=2], device_ids=[0]>)");
  REQUIRE(mesh.ok());
  CHECK(mesh->device_ids == std::vector<int64_t>{0});
  CHECK(toString(*mesh) ==
        R"(<["a"=9223372036854775807, "b"=2], device_ids=[0]>)");
}

}  // namespace
}  // namespace shardkit
