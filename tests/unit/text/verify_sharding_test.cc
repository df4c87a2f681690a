// Tensor sharding verification, on values built by parsing their text.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_shape.h"
#include "shardkit/core/verify.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"
#include "unit/core/verify_test_util.h"

namespace shardkit {
namespace {

TensorSharding sharding(std::string_view text) {
  absl::StatusOr<TensorSharding> parsed = parseTensorSharding(text);
  INFO(text);
  REQUIRE(parsed.ok());
  return *std::move(parsed);
}

Mesh mesh(std::string_view text) {
  absl::StatusOr<Mesh> parsed = parseMesh(text);
  INFO(text);
  REQUIRE(parsed.ok());
  return *std::move(parsed);
}

// The meshes of the upstream verification tests.
MeshTable meshes() {
  MeshTable table;
  table.add("mesh", mesh(R"(<["a"=2, "b"=2]>)"));
  table.add("mesh_a8", mesh(R"(<["a"=8, "b"=4]>)"));
  table.add("mesh_cab", mesh(R"(<["c"=2, "a"=2, "b"=2]>)"));
  table.add("mesh_a1", mesh(R"(<["a"=1, "b"=2]>)"));
  table.add("maximal_mesh", mesh("<[], device_ids=[0]>"));
  table.add("empty", mesh("<[]>"));
  table.add("other", mesh(R"(<["x"=2]>)"));
  return table;
}

absl::Status verify(std::string_view text, TensorShapeView shape,
                    const ShardingVerifyOptions& options = {}) {
  return verifyTensorSharding(sharding(text), meshes(), shape, options);
}

TEST_CASE("verifyTensorSharding: the mesh must exist and be valid") {
  SK_CHECK_VALID(verify(R"(<@mesh, [{}, {"a"}]>)", {8, 8}));
  SK_CHECK_INVALID(verify(R"(<@other_mesh, [{}, {"a"}]>)", {8, 8}),
                   "unknown mesh: @other_mesh");
  SK_CHECK_VALID(verify(R"(<mesh<["a"=2, "b"=2]>, [{}, {"b"}]>)", {8, 8}));
  SK_CHECK_INVALID(verify(R"(<mesh<["a"=2, "a"=2]>, [{}, {"a"}]>)", {8, 8}),
                   "duplicate axis name: \"a\"");
}

TEST_CASE("verifyTensorSharding: maximal meshes ignore the shape") {
  SK_CHECK_VALID(verify("<@maximal_mesh, []>", {8, 8}));
  SK_CHECK_INVALID(verify("<@maximal_mesh, [{}, {}]>", {8, 8}),
                   "a maximal sharding can only have a sharding with rank 0 "
                   "and no replicated or unreduced axes");
  SK_CHECK_INVALID(verify(R"(<@maximal_mesh, [], replicated={"a"}>)", {8, 8}),
                   "a maximal sharding can only have");
  SK_CHECK_INVALID(verify(R"(<@maximal_mesh, [], unreduced={"a"}>)", {8, 8}),
                   "a maximal sharding can only have");
}

TEST_CASE("verifyTensorSharding: non-shaped values") {
  const TensorShapeView token = TensorShapeView::nonShaped();
  SK_CHECK_VALID(verify("<@mesh, []>", token));
  SK_CHECK_INVALID(verify(R"(<@mesh, [{"a"}]>)", token),
                   "non-shaped tensors can only have a sharding with rank 0 "
                   "and no replicated or unreduced axes");
  SK_CHECK_INVALID(verify("<@mesh, [{}]>", token), "non-shaped tensors");
  SK_CHECK_INVALID(verify(R"(<@mesh, [], replicated={"a"}>)", token),
                   "non-shaped tensors");
  SK_CHECK_INVALID(verify(R"(<@mesh, [], unreduced={"a"}>)", token),
                   "non-shaped tensors");
}

TEST_CASE("verifyTensorSharding: rank") {
  SK_CHECK_VALID(verify(R"(<@mesh, [{"b"}], replicated={"a"}>)", {8}));
  SK_CHECK_INVALID(verify(R"(<@mesh, [{}, {"b"}], replicated={"a"}>)", {8}),
                   "sharding doesn't match tensor rank: 2 != 1");
  SK_CHECK_INVALID(verify("<@mesh, [{}]>", {kDynamicSize, kDynamicSize}),
                   "sharding doesn't match tensor rank: 1 != 2");
  const std::vector<int64_t> scalar;
  SK_CHECK_VALID(verify("<@mesh, []>", scalar));
}

TEST_CASE("verifyTensorSharding: priorities") {
  SK_CHECK_VALID(verify(R"(<@mesh_a8, [{"a"}p0, {?}p3]>)", {8, 8}));
  SK_CHECK_INVALID(verify(R"(<@mesh_a8, [{"a"}, {}p3]>)", {8, 8}),
                   "dim 1 is empty and closed but has a priority");
  SK_CHECK_INVALID(verify("<@mesh, [{}p1, {}]>", {kDynamicSize, kDynamicSize}),
                   "dim 0 is empty and closed but has a priority");
  TensorSharding negative = sharding(R"(<@mesh, [{"a"}, {"b"}p1]>)");
  negative.dim_shardings[1].priority = -1;
  SK_CHECK_INVALID(verifyTensorSharding(negative, meshes(), {8, 8}),
                   "dim 1 has a negative priority");
}

TEST_CASE("verifyTensorSharding: unknown axes anywhere") {
  SK_CHECK_INVALID(verify(R"(<@mesh, [{}, {"c"}]>)", {8, 8}),
                   "unknown axis name: \"c\"");
  SK_CHECK_INVALID(verify(R"(<@mesh, [{}, {}], replicated={"c"}>)", {8, 8}),
                   "unknown axis name: \"c\"");
  SK_CHECK_INVALID(verify(R"(<@mesh, [{}, {}], unreduced={"c"}>)", {8, 8}),
                   "unknown axis name: \"c\"");
  SK_CHECK_INVALID(
      verify(R"(<@mesh, [{}, {"c":(2)2}], replicated={"a"}>)", {8, 8}),
      "unknown axis name: \"c\"");
}

TEST_CASE("verifyTensorSharding: an axis appears once across all fields") {
  SK_CHECK_VALID(verify(R"(<@mesh, [{"a"}, {}], replicated={"b"}>)", {8, 8}));
  const char* cases[] = {
      R"(<@mesh, [{}, {"a"}], replicated={"a"}>)",
      R"(<@mesh, [{}, {"a"}], unreduced={"a"}>)",
      R"(<@mesh, [{}, {}], replicated={"a"}, unreduced={"a"}>)",
      R"(<@mesh, [{}, {}], replicated={"a", "a"}>)",
      R"(<@mesh, [{}, {}], unreduced={"a", "a"}>)",
      R"(<@mesh, [{}, {"a", "a"}]>)",
      R"(<@mesh, [{"a"}, {"a"}]>)",
  };
  for (const char* text : cases) {
    INFO(text);
    SK_CHECK_INVALID(verify(text, {8, 8}), "duplicate axis ref: \"a\"");
  }
  SK_CHECK_INVALID(
      verify(R"(<@mesh_a8, [{}, {"a":(2)2}], replicated={"a":(2)2}>)", {8, 8}),
      "duplicate axis ref: \"a\":(2)2");
}

TEST_CASE("verifyTensorSharding: many sub-axes of one axis") {
  // More sub-axes of one axis than can be disjoint: the checker leaves its
  // linear search, and a repeated ref is still the first error found.
  MeshTable table;
  table.add("big", mesh(R"(<["a"=4611686018427387904]>)"));  // 2^62
  std::string dims;
  std::vector<int64_t> shape;
  for (int pre = 0; pre < 10; ++pre) {
    for (int size = 1; size <= 10; ++size) {
      dims += strCat(dims.empty() ? "" : ", ", "{\"a\":(", int64_t{1} << pre,
                     ")", int64_t{1} << size, "}");
      shape.push_back(int64_t{1} << 20);
    }
  }
  std::string overlapping = strCat("<@big, [", dims, "]>");
  SK_CHECK_INVALID(verifyTensorSharding(sharding(overlapping), table, shape),
                   "overlapping sub-axes: \"a\":(1)2, \"a\":(1)4");
  shape.push_back(int64_t{1} << 20);
  std::string repeated = strCat("<@big, [", dims, R"(, {"a":(8)4}]>)");
  SK_CHECK_INVALID(verifyTensorSharding(sharding(repeated), table, shape),
                   "duplicate axis ref: \"a\":(8)4");
}

TEST_CASE("verifyTensorSharding: replicated and unreduced axes in mesh order") {
  SK_CHECK_VALID(
      verify(R"(<@mesh_cab, [{}, {}], replicated={"c", "a", "b"}>)", {8, 8}));
  SK_CHECK_INVALID(
      verify(R"(<@mesh_cab, [{}, {}], replicated={"a", "b", "c"}>)", {8, 8}),
      "replicated axes are not ordered w.r.t. mesh");
  SK_CHECK_INVALID(
      verify(R"(<@mesh_cab, [{}, {}], unreduced={"a", "b", "c"}>)", {8, 8}),
      "unreduced axes are not ordered w.r.t. mesh");
  SK_CHECK_VALID(verify(
      R"(<@mesh_a8, [{}, {}], replicated={"a":(1)2, "a":(4)2, "b"}>)", {8, 8}));
  SK_CHECK_INVALID(
      verify(R"(<@mesh_a8, [{}, {}], replicated={"a":(4)2, "a":(1)2, "b"}>)",
             {8, 8}),
      "replicated axes are not ordered w.r.t. mesh");
  SK_CHECK_INVALID(
      verify(R"(<@mesh_a8, [{}, {}], unreduced={"a":(4)2, "a":(1)2, "b"}>)",
             {8, 8}),
      "unreduced axes are not ordered w.r.t. mesh");
}

TEST_CASE("verifyTensorSharding: adjacent sub-axes that can be merged") {
  SK_CHECK_VALID(verify(R"(<@mesh_a8, [{"a":(1)2}, {"a":(2)4}]>)", {8, 8}));
  SK_CHECK_INVALID(verify(R"(<@mesh_a8, [{}, {"a":(2)2, "a":(4)2}]>)", {8, 8}),
                   "two consecutive sub-axes can be merged: \"a\":(2)2, "
                   "\"a\":(4)2");
  SK_CHECK_INVALID(
      verify(R"(<@mesh_a8, [{}, {}], replicated={"a":(2)2, "a":(4)2}>)",
             {8, 8}),
      "two consecutive sub-axes can be merged");
  SK_CHECK_INVALID(
      verify(R"(<@mesh_a8, [{}, {}], unreduced={"a":(2)2, "a":(4)2}>)", {8, 8}),
      "two consecutive sub-axes can be merged");
}

TEST_CASE("verifyTensorSharding: sub-axes") {
  SK_CHECK_VALID(
      verify(R"(<@mesh_a8, [{"a":(2)2}, {}], replicated={"a":(1)2}>)", {8, 8}));
  SK_CHECK_INVALID(
      verify(R"(<@mesh_a8, [{}, {"a"}], replicated={"a":(2)2}>)", {8, 8}),
      "both sub-axis and full-axis are used for axis name: \"a\"");
  SK_CHECK_INVALID(
      verify(R"(<@mesh_a8, [{}, {"a"}], unreduced={"a":(2)2}>)", {8, 8}),
      "both sub-axis and full-axis are used for axis name: \"a\"");
  SK_CHECK_INVALID(verify(R"(<@mesh_a8, [{}, {"a":(-1)2}]>)", {8, 8}),
                   "sub-axis pre-size must be at least 1: \"a\":(-1)2");
  SK_CHECK_INVALID(verify(R"(<@mesh_a8, [{}, {"a":(2)1}]>)", {8, 8}),
                   "sub-axis sizes must be greater than 1: \"a\":(2)1");
  SK_CHECK_INVALID(verify(R"(<@mesh_a8, [{}, {"a":(3)2}]>)", {6, 6}),
                   "sub-axis next pre-size 6 doesn't divide the size of the "
                   "full axis 8: \"a\":(3)2");
  SK_CHECK_INVALID(verify(R"(<@mesh_a8, [{}, {"a":(4)4}]>)", {8, 8}),
                   "sub-axis next pre-size 16 doesn't divide the size of the "
                   "full axis 8: \"a\":(4)4");
  SK_CHECK_INVALID(verify(R"(<@mesh_a8, [{}, {"a":(1)8}]>)", {8, 8}),
                   "sub-axis size is equal to the full axis size: \"a\":(1)8");
}

TEST_CASE("verifyTensorSharding: overlapping sub-axes across fields") {
  const char* text =
      R"(<@mesh_a8, [{"a":(2)4}, {"b":(2)2}], replicated={"a":(1)4}>)";
  SK_CHECK_INVALID(verify(text, {8, 8}),
                   "overlapping sub-axes: \"a\":(1)4, \"a\":(2)4");
  SK_CHECK_INVALID(verify(text, {kDynamicSize, kDynamicSize}),
                   "overlapping sub-axes: \"a\":(1)4, \"a\":(2)4");
}

TEST_CASE("verifyTensorSharding: size-0 dimensions") {
  // 0 is divisible by every sharded size: a size-0 dimension takes any axes,
  // with or without the divisibility check.
  ShardingVerifyOptions divisible;
  divisible.check_divisibility = true;
  SK_CHECK_VALID(verify(R"(<@mesh_a1, [{}, {"a"}]>)", {8, 0}));
  SK_CHECK_VALID(verify(R"(<@mesh, [{"a"}, {}]>)", {8, 0}));
  SK_CHECK_VALID(verify(R"(<@mesh, [{}, {"a"}]>)", {8, 0}));
  SK_CHECK_VALID(verify(R"(<@mesh, [{}, {"a", "b"}]>)", {8, 0}, divisible));
  // The other checks still apply.
  SK_CHECK_INVALID(verify(R"(<@mesh, [{"a"}, {"a"}]>)", {8, 0}),
                   "duplicate axis ref: \"a\"");
  SK_CHECK_INVALID(verify(R"(<@mesh, [{"a"}, {}]>)", {3, 0}, divisible),
                   "dim 0 with size 3 is not divisible by its sharded size 2");
}

TEST_CASE("verifyTensorSharding: divisibility is optional") {
  ShardingVerifyOptions divisible;
  divisible.check_divisibility = true;
  SK_CHECK_VALID(verify(R"(<@mesh_a8, [{"b"}]>)", {6}));
  SK_CHECK_VALID(verify(R"(<@mesh_a8, [{"b"}]>)", {8}, divisible));
  SK_CHECK_VALID(verify(R"(<@mesh_a8, [{"b"}]>)", {kDynamicSize}, divisible));
  SK_CHECK_INVALID(verify(R"(<@mesh_a8, [{"b"}]>)", {6}, divisible),
                   "dim 0 with size 6 is not divisible by its sharded size 4");
}

TEST_CASE("verifyTensorSharding: axes bound by a parent manual computation") {
  std::vector<std::string> bound = {"a"};
  ShardingVerifyOptions options;
  options.bound_manual_axes = bound;
  SK_CHECK_VALID(verify(R"(<@mesh, [{"b"}, {}]>)", {8, 32}, options));
  SK_CHECK_INVALID(verify(R"(<@mesh, [{"a"}, {}]>)", {8, 32}, options),
                   "operates on axis \"a\" which is already bound by a parent "
                   "sdy.manual_computation op");
  SK_CHECK_INVALID(
      verify(R"(<@mesh, [{}, {}], replicated={"a"}>)", {8, 32}, options),
      "operates on axis \"a\" which is already bound");
}

TEST_CASE("verifyTensorShardingWithMesh uses the given mesh") {
  Mesh m = mesh(R"(<["q"=4]>)");
  SK_CHECK_VALID(verifyTensorShardingWithMesh(
      sharding(R"(<@anything, [{"q"}]>)"), m, {8}));
  SK_CHECK_INVALID(
      verifyTensorShardingWithMesh(sharding(R"(<@anything, [{"a"}]>)"), m, {8}),
      "unknown axis name: \"a\"");
}

TensorShardingPerValue perValue(std::string_view text) {
  absl::StatusOr<TensorShardingPerValue> parsed =
      parseTensorShardingPerValue(text);
  INFO(text);
  REQUIRE(parsed.ok());
  return *std::move(parsed);
}

TEST_CASE("verifyTensorShardingPerValue: counts and value prefixes") {
  // The views point into `dims`, which must outlive them.
  const std::vector<int64_t> dims = {2, 13};
  std::vector<TensorShapeView> two = {dims, dims};
  SK_CHECK_VALID(verifyTensorShardingPerValue(
      perValue(R"(<[<@mesh, [{"a"}, {}]>, <@mesh, [{"b"}, {}]>]>)"), meshes(),
      two, "result"));
  SK_CHECK_INVALID(
      verifyTensorShardingPerValue(
          perValue(R"(<[<@mesh, [{"a"}, {}]>, <@mesh, [{"b"}, {}]>,
                       <@mesh, [{"a"}, {}]>]>)"),
          meshes(), two, "result"),
      "result shardings don't match number of values: 3 shardings vs 2 "
      "values");
  SK_CHECK_INVALID(
      verifyTensorShardingPerValue(
          perValue(R"(<[<@mesh, [{"a"}, {}]>, <@mesh, [{"c"}, {}]>]>)"),
          meshes(), two, "result"),
      "result 1 - unknown axis name: \"c\"");
  const std::vector<int64_t> dims8x8 = {8, 8};
  std::vector<TensorShapeView> one = {dims8x8};
  SK_CHECK_INVALID(
      verifyTensorShardingPerValue(perValue(R"(<[<@mesh, [{}, {"c"}]>]>)"),
                                   meshes(), one, "result"),
      "result - unknown axis name: \"c\"");
  SK_CHECK_INVALID(verifyTensorShardingPerValue(
                       perValue(R"(<[<@mesh, [{}, {"c"}]>]>)"), meshes(), one),
                   "- unknown axis name: \"c\"");
}

TEST_CASE("verifyTensorShardingPerValue: ops without results") {
  SK_CHECK_VALID(verifyTensorShardingPerValue(
      perValue("<[<@maximal_mesh, []>]>"), meshes(), {}, "result"));
  SK_CHECK_VALID(verifyTensorShardingPerValue(perValue("<[<@mesh, []>]>"),
                                              meshes(), {}, "result"));
  SK_CHECK_INVALID(
      verifyTensorShardingPerValue(perValue("<[<@maximal_mesh, [{}]>]>"),
                                   meshes(), {}, "result"),
      "result - a maximal sharding can only have");
  SK_CHECK_INVALID(
      verifyTensorShardingPerValue(perValue(R"(<[<@mesh, [{"a"}]>]>)"),
                                   meshes(), {}, "result"),
      "shardings don't match number of values: 1 shardings vs 0 values");
}

TEST_CASE("verifyTensorShardingPerValue: one common mesh") {
  // The views point into `dims`, which must outlive them.
  const std::vector<int64_t> dims = {2, 13};
  std::vector<TensorShapeView> two = {dims, dims};
  SK_CHECK_VALID(verifyTensorShardingPerValue(
      perValue(R"(<[<@mesh, [{"a"}, {}]>, <@empty, [{}, {}]>]>)"), meshes(),
      two));
  SK_CHECK_VALID(verifyTensorShardingPerValue(
      perValue(R"(<[<@mesh, [{"a"}, {}]>, <mesh<["a"=2, "b"=2]>, [{}, {}]>]>)"),
      meshes(), two));
  TensorShardingPerValue mixed =
      perValue(R"(<[<@mesh, [{"a"}, {}]>, <@other, [{"x"}, {}]>]>)");
  SK_CHECK_INVALID(verifyTensorShardingPerValue(mixed, meshes(), two, "result"),
                   "result shardings can only be bound to the same mesh or an "
                   "empty mesh");
  ShardingPerValueVerifyOptions options;
  options.check_common_mesh = false;
  SK_CHECK_VALID(
      verifyTensorShardingPerValue(mixed, meshes(), two, "operand", options));
}

}  // namespace
}  // namespace shardkit
