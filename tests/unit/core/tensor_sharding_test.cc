#include "shardkit/core/tensor_sharding.h"

#include <catch2/catch.hpp>
#include <vector>

#include "shardkit/core/canonical_sharding.h"
#include "shardkit/core/dimension_sharding.h"
#include "unit/core/value_test_util.h"

namespace shardkit {
namespace {

using testing::checkFormats;
using testing::checkValueSemantics;
using Axes = AxisRefVector;

AxisRef full(const char* name) { return AxisRef(name); }
AxisRef sub(const char* name, int64_t pre, int64_t size) {
  return AxisRef(name, pre, size);
}

TEST_CASE("DimensionSharding: value semantics") {
  checkValueSemantics<DimensionSharding>({
      DimensionSharding::closed(),
      DimensionSharding::open(),
      DimensionSharding({full("a")}, true),
      DimensionSharding({full("a")}, false),
      DimensionSharding({full("a")}, true, 0),
      DimensionSharding({full("a")}, true, 1),
      DimensionSharding({full("a"), full("b")}, true),
      DimensionSharding({full("b"), full("a")}, true),
      DimensionSharding({}, false, 2),
  });
}

TEST_CASE("DimensionSharding: text") {
  checkFormats(DimensionSharding::closed(), "{}");
  checkFormats(DimensionSharding::open(), "{?}");
  checkFormats(DimensionSharding({full("a"), sub("b", 2, 2)}, true),
               R"({"a", "b":(2)2})");
  checkFormats(DimensionSharding({full("a")}, false), R"({"a", ?})");
  checkFormats(DimensionSharding({full("a")}, true, 3), R"({"a"}p3)");
  checkFormats(DimensionSharding({}, false, 0), "{?}p0");
}

TEST_CASE("DimensionSharding: helpers") {
  Mesh mesh({{"a", 4}, {"b", 8}});
  DimensionSharding dim({full("a"), sub("b", 2, 2)}, false, 5);
  CHECK(dim.isOpen());
  CHECK_FALSE(dim.empty());
  CHECK(dim.shardedSize(mesh) == 8);
  CHECK(dim.priorityOrDefault() == 5);
  CHECK(DimensionSharding::closed().priorityOrDefault() == kDefaultPriority);
  CHECK(DimensionSharding::closed().shardedSize(mesh) == 1);
  CHECK(DimensionSharding::closed().empty());
  CHECK_FALSE(DimensionSharding::closed().isOpen());
}

TEST_CASE("MeshOrRef: value semantics and text") {
  checkValueSemantics<MeshOrRef>({
      MeshOrRef(),
      MeshOrRef::ref("mesh"),
      MeshOrRef::ref("other"),
      MeshOrRef::inlined(Mesh()),
      MeshOrRef::inlined(Mesh({{"a", 2}})),
      MeshOrRef::inlined(Mesh({{"a", 2}}, {1, 0})),
  });
  MeshOrRef ref = MeshOrRef::ref("m");
  CHECK(ref.isRef());
  CHECK_FALSE(ref.isInline());
  CHECK(ref.name() == "m");
  CHECK(ref.inlineMesh() == nullptr);
  MeshOrRef inlined = MeshOrRef::inlined(Mesh({{"a", 2}}));
  CHECK(inlined.isInline());
  CHECK(inlined.name().empty());
  REQUIRE(inlined.inlineMesh() != nullptr);
  CHECK(*inlined.inlineMesh() == Mesh({{"a", 2}}));

  checkFormats(ref, "@m");
  checkFormats(inlined, R"(mesh<["a"=2]>)");
  // Names that are not bare identifiers are quoted, as MLIR prints them.
  checkFormats(MeshOrRef::ref("my mesh"), R"(@"my mesh")");
  checkFormats(MeshOrRef::ref("a-b"), R"(@"a-b")");
  checkFormats(MeshOrRef::ref("0m"), R"(@"0m")");
  checkFormats(MeshOrRef::ref(""), R"(@"")");
  checkFormats(MeshOrRef::ref("_m.x$1"), "@_m.x$1");
}

TensorSharding example() {
  return TensorSharding(
      MeshOrRef::ref("mesh"),
      {DimensionSharding({full("x")}, false, 1), DimensionSharding::closed()},
      {full("y")}, {full("z")});
}

TEST_CASE("TensorSharding: value semantics") {
  TensorSharding base = example();
  TensorSharding other_mesh = base;
  other_mesh.mesh = MeshOrRef::ref("other");
  TensorSharding other_dims = base;
  other_dims.dim_shardings[1] = DimensionSharding::open();
  TensorSharding other_replicated = base;
  other_replicated.replicated_axes = {};
  TensorSharding other_unreduced = base;
  other_unreduced.unreduced_axes = {full("w")};
  TensorSharding other_kind = base;
  other_kind.unreduced_kind = ReductionKind::kMax;
  TensorSharding min_kind = base;
  min_kind.unreduced_kind = ReductionKind::kMin;
  // The same axis as replicated or as unreduced must not compare equal.
  TensorSharding swapped = base;
  std::swap(swapped.replicated_axes, swapped.unreduced_axes);
  checkValueSemantics<TensorSharding>(
      {base, other_mesh, other_dims, other_replicated, other_unreduced,
       other_kind, min_kind, swapped, TensorSharding()});
}

TEST_CASE("TensorSharding: text") {
  checkFormats(
      example(),
      R"(<@mesh, [{"x", ?}p1, {}], replicated={"y"}, unreduced={"z"}>)");
  CHECK(
      toAttrString(example()) ==
      R"(#sdy.sharding<@mesh, [{"x", ?}p1, {}], replicated={"y"}, unreduced={"z"}>)");
  TensorSharding maxed = example();
  maxed.unreduced_kind = ReductionKind::kMax;
  checkFormats(
      maxed,
      R"(<@mesh, [{"x", ?}p1, {}], replicated={"y"}, unreduced=max{"z"}>)");
  maxed.unreduced_kind = ReductionKind::kMin;
  checkFormats(
      maxed,
      R"(<@mesh, [{"x", ?}p1, {}], replicated={"y"}, unreduced=min{"z"}>)");
  checkFormats(TensorSharding(MeshOrRef::ref("m"), {}), "<@m, []>");
  checkFormats(TensorSharding(MeshOrRef::inlined(Mesh({{"x", 2}}, {1, 0})),
                              {DimensionSharding({full("x")}, true)}),
               R"(<mesh<["x"=2], device_ids=[1, 0]>, [{"x"}]>)");
  CHECK(toString(ReductionKind::kSum) == "sum");
  CHECK(toString(ReductionKind::kMax) == "max");
  CHECK(toString(ReductionKind::kMin) == "min");
}

TEST_CASE("TensorSharding: helpers") {
  TensorSharding open = TensorSharding::fullyOpen(MeshOrRef::ref("m"), 3);
  CHECK(open.rank() == 3);
  CHECK(open.meshName() == "m");
  CHECK(open.isFullyReplicated());
  CHECK_FALSE(open.isFullyClosedAndEmpty());
  for (const DimensionSharding& dim : open.dim_shardings) {
    CHECK(dim == DimensionSharding::open());
  }
  TensorSharding closed = TensorSharding::fullyClosed(MeshOrRef::ref("m"), 2);
  CHECK(closed.rank() == 2);
  CHECK(closed.isFullyReplicated());
  CHECK(closed.isFullyClosedAndEmpty());
  CHECK(toString(closed) == "<@m, [{}, {}]>");
  CHECK(TensorSharding::fullyClosed(MeshOrRef::ref("m"), 0).rank() == 0);

  TensorSharding s = example();
  CHECK_FALSE(s.isFullyReplicated());
  TensorSharding only_replicated(MeshOrRef::ref("m"), {DimensionSharding()},
                                 {full("a")});
  CHECK_FALSE(only_replicated.isFullyReplicated());
  TensorSharding only_unreduced(MeshOrRef::ref("m"), {DimensionSharding()}, {},
                                {full("a")});
  CHECK_FALSE(only_unreduced.isFullyReplicated());

  TensorSharding many(
      MeshOrRef::ref("m"),
      {DimensionSharding({full("a"), sub("b", 1, 2)}, true),
       DimensionSharding::open(), DimensionSharding({full("c")}, false)},
      {full("d")}, {sub("b", 2, 2)});
  AxisRefVector seen;
  many.forEachShardingAxis([&](const AxisRef& axis) { seen.push_back(axis); });
  CHECK(seen == Axes{full("a"), sub("b", 1, 2), full("c")});
  CHECK(many.allAxes() ==
        Axes{full("a"), sub("b", 1, 2), full("c"), full("d"), sub("b", 2, 2)});
}

TEST_CASE("TensorShardingPerValue: value semantics and text") {
  TensorSharding a = example();
  TensorSharding b(MeshOrRef::inlined(Mesh({{"a", 2}})),
                   {DimensionSharding({full("a")}, true)});
  checkValueSemantics<TensorShardingPerValue>({
      TensorShardingPerValue(),
      TensorShardingPerValue({a}),
      TensorShardingPerValue({b}),
      TensorShardingPerValue({a, b}),
      TensorShardingPerValue({b, a}),
  });
  checkFormats(TensorShardingPerValue(), "<[]>");
  checkFormats(
      TensorShardingPerValue({b, TensorSharding(MeshOrRef::ref("m"), {})}),
      R"(<[<mesh<["a"=2]>, [{"a"}]>, <@m, []>]>)");
  CHECK(toAttrString(TensorShardingPerValue({b})) ==
        R"(#sdy.sharding_per_value<[<mesh<["a"=2]>, [{"a"}]>]>)");
}

TEST_CASE("canonicalize sorts and merges replicated and unreduced axes") {
  Mesh mesh({{"x", 8}, {"y", 2}, {"z", 4}});
  TensorSharding s(MeshOrRef::ref("m"),
                   {DimensionSharding({sub("x", 1, 2), sub("x", 2, 2)}, false),
                    DimensionSharding({sub("z", 2, 2), sub("z", 1, 2)}, true)},
                   {full("y"), sub("x", 4, 2)}, {});
  s.unreduced_axes = {sub("x", 2, 2), sub("x", 1, 2)};
  s.unreduced_kind = ReductionKind::kMin;
  // Deliberately overlapping axes: canonicalize only reorders and merges.
  TensorSharding c = canonicalize(s, mesh);
  CHECK(
      toString(c) ==
      R"(<@m, [{"x":(1)4, ?}, {"z":(2)2, "z":(1)2}], replicated={"x":(4)2, "y"}, unreduced=min{"x":(1)4}>)");
  CHECK(canonicalize(c, mesh) == c);

  TensorSharding merged_to_full(MeshOrRef::ref("m"), {DimensionSharding()},
                                {full("z"), sub("x", 4, 2), sub("x", 1, 4)});
  CHECK(canonicalize(merged_to_full, mesh).replicated_axes ==
        Axes{full("x"), full("z")});

  TensorSharding already = example();
  CHECK(canonicalize(already, Mesh({{"x", 2}, {"y", 2}, {"z", 2}})) == already);
}

}  // namespace
}  // namespace shardkit
