// Single-op reshape cases: dimensions split into or merged from several
// factors, sub-axes at factor boundaries, overflow axes and strided views.
#include <catch2/catch.hpp>

#include "unit/factor_propagation/propagation_test_util.h"

namespace shardkit {
namespace {

using testing::OpCase;
using Strings = std::vector<std::string>;

std::pair<std::string, std::string> mesh(const char* text) {
  return {"mesh", text};
}

const char* kMeshAB = R"(<["a"=2, "b"=2]>)";

TEST_CASE("reshape: merging dimensions") {
  const char* merge_2x4 = "<([i, j])->([ij]) {i=2, j=4}>";
  SECTION("only the major factor sharded") {
    OpCase op({mesh(kMeshAB)}, merge_2x4, {R"(<@mesh, [{"a"}, {}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"a", ?}]>)");
  }
  SECTION("major factor fully sharded, so the minor one follows") {
    OpCase op({mesh(kMeshAB)}, merge_2x4, {R"(<@mesh, [{"a"}, {"b"}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"a", "b", ?}]>)");
  }
  SECTION("major factor partially sharded: the minor one needs a stride") {
    OpCase op({mesh(kMeshAB)}, "<([i, j])->([ij]) {i=4, j=4}>",
              {R"(<@mesh, [{"a"}, {"b"}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"a", ?}]>)");
  }
  SECTION("the minor-most factor may be non-divisible") {
    OpCase op({mesh(R"(<["a"=2, "b"=3]>)")}, merge_2x4,
              {R"(<@mesh, [{"a"}, {"b"}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"a", "b", ?}]>)");
  }
  SECTION("a non-divisible axis can't shard a major factor") {
    OpCase op({mesh(R"(<["a"=3]>)")}, merge_2x4, {R"(<@mesh, [{"a"}, {}]>)"},
              {""});
    CHECK(op.run()[1] == "");
  }
  SECTION("only the dividing major axes propagate") {
    OpCase op({mesh(R"(<["a"=3, "b"=3]>)")}, "<([i, j])->([ij]) {i=6, j=4}>",
              {R"(<@mesh, [{"a", "b"}, {}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"a", ?}]>)");
  }
  SECTION("a dividing part of an axis propagates as a sub-axis") {
    OpCase op({mesh(R"(<["a"=4, "b"=2, "c"=2]>)")},
              "<([i, j])->([ij]) {i=4, j=4}>", {R"(<@mesh, [{"b", "a"}, {}]>)"},
              {""});
    CHECK(op.run() == Strings{R"(<@mesh, [{"b", "a"}, {}]>)",
                              R"(<@mesh, [{"b", "a":(1)2, ?}]>)"});
  }
  SECTION("...and the minor factor then continues the dimension") {
    OpCase op({mesh(R"(<["a"=4, "b"=2, "c"=2]>)")},
              "<([i, j])->([ij]) {i=4, j=4}>",
              {R"(<@mesh, [{"b", "a"}, {"c"}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"b", "a":(1)2, "c", ?}]>)");
  }
}

TEST_CASE("reshape: splitting a dimension") {
  const char* split_8 = "<([ij])->([i, j]) {i=2, j=4}>";
  SECTION("an axis per factor") {
    OpCase op({mesh(kMeshAB)}, split_8, {R"(<@mesh, [{"b", "a"}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"b", ?}, {"a", ?}]>)");
  }
  SECTION("both axes fit in the major factor") {
    OpCase op({mesh(kMeshAB)}, "<([ij])->([i, j]) {i=4, j=4}>",
              {R"(<@mesh, [{"b", "a"}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"b", "a", ?}, {?}]>)");
  }
  SECTION(
      "one axis split across both factors (the split example of "
      "docs/propagation.md)") {
    OpCase op({mesh(R"(<["a"=4, "b"=2]>)")}, split_8, {R"(<@mesh, [{"a"}]>)"},
              {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"a":(1)2, ?}, {"a":(2)2, ?}]>)");
  }
  SECTION("the minor-most factor takes a non-divisible rest") {
    OpCase op({mesh(R"(<["a"=6]>)")}, split_8, {R"(<@mesh, [{"a"}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"a":(1)2, ?}, {"a":(2)3, ?}]>)");
  }
  SECTION("the minor-most factor takes an overflowing rest") {
    OpCase op({mesh(R"(<["a"=16, "b"=2]>)")}, split_8, {R"(<@mesh, [{"a"}]>)"},
              {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"a":(1)2, ?}, {"a":(2)8, ?}]>)");
  }
  SECTION("several axes overflow the minor-most factor") {
    OpCase op({mesh(R"(<["a"=4, "b"=4]>)")}, split_8,
              {R"(<@mesh, [{"a", "b"}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"a":(1)2, ?}, {"a":(2)2, "b", ?}]>)");
  }
  SECTION("size-1 axes stay with their neighbours") {
    OpCase op({mesh(R"(<["a"=1, "b"=2, "c"=1]>)")},
              "<([ik])->([i, j, k]) {i=2, j=1, k=4}>",
              {R"(<@mesh, [{"a", "b", "c"}]>)"}, {""});
    CHECK(op.run()[1] == R"(<@mesh, [{"a", "b", "c", ?}, {?}, {?}]>)");
  }
}

TEST_CASE("reshape: sub-axes through a chain of reshapes") {
  const char* mesh_a16 = R"(<["a"=16, "b"=2]>)";
  OpCase first({mesh(mesh_a16)}, "<([ij])->([i, j]) {i=8, j=4}>",
               {R"(<@mesh, [{"a"}]>)"}, {""});
  CHECK(first.run()[1] == R"(<@mesh, [{"a":(1)8, ?}, {"a":(8)2, ?}]>)");
  OpCase second({mesh(mesh_a16)}, "<([ij, k])->([i, j, k]) {i=2, j=4, k=4}>",
                {R"(<@mesh, [{"a":(1)8, ?}, {"a":(8)2, ?}]>)"}, {""});
  CHECK(second.run()[1] ==
        R"(<@mesh, [{"a":(1)2, ?}, {"a":(2)4, ?}, {"a":(8)2, ?}]>)");
  // Merging back joins consecutive sub-axes at the factor boundary.
  OpCase merge({mesh(mesh_a16)}, "<([i, j, k])->([i, jk]) {i=4, j=2, k=4}>",
               {R"(<@mesh, [{"a":(1)4, ?}, {"a":(4)2, ?}, {"a":(8)2, ?}]>)"},
               {""});
  CHECK(merge.run()[1] == R"(<@mesh, [{"a":(1)4, ?}, {"a":(4)4, ?}]>)");
  OpCase full({mesh(mesh_a16)}, "<([i, j])->([ij]) {i=4, j=8}>",
              {R"(<@mesh, [{"a":(1)4, ?}, {"a":(4)4, ?}]>)"}, {""});
  CHECK(full.run()[1] == R"(<@mesh, [{"a", ?}]>)");
}

TEST_CASE("reshape: split and merge at once") {
  OpCase op({mesh(R"(<["a"=4, "b"=2, "c"=2]>)")},
            "<([ij, k])->([i, jk]) {i=2, j=4, k=4}>",
            {R"(<@mesh, [{"c", "a"}, {"b"}]>)"}, {""});
  CHECK(op.run()[1] == R"(<@mesh, [{"c", ?}, {"a", "b", ?}]>)");
}

TEST_CASE("reshape: overflow axes survive unchanged") {
  SECTION("an axis that doesn't divide the major factor") {
    OpCase op({mesh(R"(<["a"=3]>)")}, "<([ij])->([i, j]) {i=2, j=4}>",
              {R"(<@mesh, [{"a"}]>)"}, {""});
    CHECK(op.run() == Strings{R"(<@mesh, [{"a"}]>)", ""});
  }
  SECTION("other dimensions still propagate both ways") {
    OpCase op({mesh(R"(<["a"=2, "b"=3, "c"=2, "d"=2]>)")},
              "<([i, j, kl])->([i, j, k, l]) "
              "{i=2, j=2, k=8, l=4}>",
              {R"(<@mesh, [{"c"}, {?}, {"a", "b"}]>)"},
              {R"(<@mesh, [{?}, {"d"}, {?}, {?}]>)"});
    CHECK(op.run() == Strings{R"(<@mesh, [{"c"}, {"d", ?}, {"a", "b"}]>)",
                              R"(<@mesh, [{"c", ?}, {"d"}, {"a", ?}, {?}]>)"});
  }
  SECTION("an overflowing sub-axis merges back with its other part") {
    OpCase op({mesh(R"(<["a"=6, "b"=2]>)")},
              "<([i, jk])->([i, j, k]) {i=2, j=8, k=4}>",
              {R"(<@mesh, [{?}, {"a"}]>)"}, {R"(<@mesh, [{"b"}, {?}, {?}]>)"});
    CHECK(op.run() == Strings{R"(<@mesh, [{"b", ?}, {"a"}]>)",
                              R"(<@mesh, [{"b"}, {"a":(1)2, ?}, {?}]>)"});
  }
  SECTION("an overflow axis conflicts with other factors") {
    OpCase op({mesh(R"(<["a"=2, "b"=3]>)")},
              "<([i, jk])->([i, j, k]) {i=3, j=8, k=4}>",
              {R"(<@mesh, [{?}, {"a", "b", ?}]>)"},
              {R"(<@mesh, [{"b"}, {?}, {?}]>)"});
    CHECK(op.run() == Strings{R"(<@mesh, [{?}, {"a", "b", ?}]>)",
                              R"(<@mesh, [{"b"}, {"a", ?}, {?}]>)"});
  }
  SECTION("the factor after an overflow is closed") {
    OpCase op({mesh(R"(<["a"=2, "b"=3, "c"=2, "d"=2]>)")},
              "<([i, jk])->([i, j, k]) {i=2, j=8, k=4}>",
              {R"(<@mesh, [{?}, {"a", "b", ?}]>)"},
              {R"(<@mesh, [{"d"}, {?}, {"c"}]>)"});
    CHECK(op.run() == Strings{R"(<@mesh, [{"d", ?}, {"a", "b", ?}]>)",
                              R"(<@mesh, [{"d"}, {"a", ?}, {"c"}]>)"});
  }
}

}  // namespace
}  // namespace shardkit
