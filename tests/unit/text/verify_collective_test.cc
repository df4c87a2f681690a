// Collective and resharding verification, on values built by parsing text.
#include <catch2/catch.hpp>
#include <string_view>

#include "shardkit/core/verify.h"
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

ListOfAxisRefLists axesPerDim(std::string_view text) {
  absl::StatusOr<ListOfAxisRefLists> parsed = parseListOfAxisRefLists(text);
  INFO(text);
  REQUIRE(parsed.ok());
  return *std::move(parsed);
}

AllToAllParamList params(std::string_view text) {
  absl::StatusOr<AllToAllParamList> parsed = parseAllToAllParamList(text);
  INFO(text);
  REQUIRE(parsed.ok());
  return *std::move(parsed);
}

AxisRefList axisList(std::string_view text) {
  absl::StatusOr<AxisRefList> parsed = parseAxisRefList(text);
  INFO(text);
  REQUIRE(parsed.ok());
  return *std::move(parsed);
}

constexpr std::string_view kXY = R"(<["x"=2, "y"=2]>)";
constexpr std::string_view kX4Y = R"(<["x"=4, "y"=2]>)";
constexpr std::string_view kX8Y = R"(<["x"=8, "y"=2]>)";

absl::Status gather(std::string_view mesh_text, std::string_view axes,
                    std::string_view operand, std::string_view result) {
  return verifyAxesPerDimCollective(AxesPerDimCollective::kGather,
                                    axesPerDim(axes), sharding(operand),
                                    sharding(result), mesh(mesh_text));
}

absl::Status slice(std::string_view mesh_text, std::string_view axes,
                   std::string_view operand, std::string_view result) {
  return verifyAxesPerDimCollective(AxesPerDimCollective::kSlice,
                                    axesPerDim(axes), sharding(operand),
                                    sharding(result), mesh(mesh_text));
}

TEST_CASE("verifyCollectiveShardings") {
  Mesh xy = mesh(kXY);
  Mesh ab = mesh(R"(<["a"=2, "b"=2]>)");
  TensorSharding in = sharding(R"(<@mesh, [{"y"}, {"x"}]>)");
  SK_CHECK_VALID(verifyCollectiveShardings(
      in, xy, sharding(R"(<@mesh, [{}, {"x"}]>)"), xy));
  SK_CHECK_INVALID(
      verifyCollectiveShardings(sharding(R"(<@mesh2, [{"a"}, {"b"}]>)"), ab,
                                sharding(R"(<@mesh1, [{"y"}, {"x"}]>)"), xy),
      "result mesh does not match operand mesh");
  SK_CHECK_VALID(
      verifyCollectiveShardings(sharding(R"(<@mesh2, [{"a"}, {"b"}]>)"), ab,
                                sharding(R"(<@mesh1, [{"y"}, {"x"}]>)"), xy,
                                /*allow_different_meshes=*/true));
  SK_CHECK_INVALID(
      verifyCollectiveShardings(in, xy, sharding(R"(<@mesh, [{"x"}]>)"), xy),
      "result sharding has rank 1 but operand sharding has rank 2");
}

TEST_CASE("all_gather: collective axes are a valid list") {
  SK_CHECK_VALID(gather(kXY, R"([{}, {"x"}])", R"(<@m, [{"y"}, {"x"}]>)",
                        R"(<@m, [{"y"}, {}]>)"));
  SK_CHECK_INVALID(gather(kX4Y, R"([{}, {"x":(1)2, "x":(2)2}])",
                          R"(<@m, [{"y"}, {"x"}]>)", R"(<@m, [{"y"}, {}]>)"),
                   "two consecutive sub-axes can be merged: \"x\":(1)2, "
                   "\"x\":(2)2");
  SK_CHECK_INVALID(gather(kXY, R"([{"y", "x"}, {"x"}])",
                          R"(<@m, [{"y"}, {"x"}]>)", R"(<@m, [{}, {}]>)"),
                   "duplicate axis ref: \"x\"");
  SK_CHECK_INVALID(gather(kX8Y, R"([{}, {"x":(2)8}])",
                          R"(<@m, [{"y"}, {"x"}]>)", R"(<@m, [{"y"}, {}]>)"),
                   "can't apply gathering axis \"x\":(2)8 to operand "
                   "sharding on dimension 1");
}

TEST_CASE("all_gather: one list per dimension") {
  SK_CHECK_INVALID(
      gather(kXY, "[{}]", R"(<@m, [{"y"}, {"x"}]>)", R"(<@m, [{"y"}, {"x"}]>)"),
      "result sharding has rank 2 but collective axes has rank 1");
  SK_CHECK_INVALID(gather(kXY, R"([{"y", "x"}])", R"(<@m, [{"y"}, {"x"}]>)",
                          R"(<@m, [{}, {}]>)"),
                   "result sharding has rank 2 but collective axes has rank 1");
}

TEST_CASE("all_gather: gathering axes are a suffix of the operand's") {
  SK_CHECK_INVALID(gather(kXY, R"([{}, {"x", "y"}])", R"(<@m, [{"y"}, {"x"}]>)",
                          R"(<@m, [{"y"}, {}]>)"),
                   "can't apply gathering axis \"y\" to operand sharding on "
                   "dimension 1");
  SK_CHECK_INVALID(gather(kXY, R"([{"x", "y"}, {}])", R"(<@m, [{"y"}, {}]>)",
                          R"(<@m, [{}, {}]>)"),
                   "can't apply gathering axis \"x\" to operand sharding on "
                   "dimension 0");
  SK_CHECK_INVALID(
      gather(kX4Y, R"([{}, {"x"}])", R"(<@m, [{"y"}, {"x":(1)2}]>)",
             R"(<@m, [{"y"}, {}]>)"),
      "can't apply gathering axis \"x\" to operand sharding on "
      "dimension 1");
  SK_CHECK_INVALID(gather(kX8Y, R"([{}, {"x":(2)2}])",
                          R"(<@m, [{"y"}, {"x"}]>)", R"(<@m, [{"y"}, {}]>)"),
                   "can't apply gathering axis \"x\":(2)2 to operand sharding "
                   "on dimension 1");
}

TEST_CASE("all_gather: the result is the operand minus the gathered axes") {
  SK_CHECK_INVALID(gather(kXY, R"([{}, {"x"}])", R"(<@m, [{"y"}, {"x"}]>)",
                          R"(<@m, [{"y"}, {"x"}]>)"),
                   "result sharding doesn't match expected sharding [] on "
                   "dimension 1");
  SK_CHECK_INVALID(
      gather(kX8Y, R"([{}, {"x":(2)4}])", R"(<@m, [{"y"}, {"x"}]>)",
             R"(<@m, [{"y"}, {"x":(1)4}]>)"),
      "result sharding doesn't match expected sharding "
      "[\"x\":(1)2] on dimension 1");
  SK_CHECK_VALID(gather(kX8Y, R"([{}, {"x":(2)4}])", R"(<@m, [{"y"}, {"x"}]>)",
                        R"(<@m, [{"y"}, {"x":(1)2}]>)"));
}

TEST_CASE("all_slice: the result is the operand plus the sliced axes") {
  SK_CHECK_VALID(slice(kXY, R"([{}, {"x"}])", R"(<@m, [{"y"}, {}]>)",
                       R"(<@m, [{"y"}, {"x"}]>)"));
  // Appending a consecutive sub-axis merges, here into the full axis.
  SK_CHECK_VALID(slice(kX8Y, R"([{}, {"x":(2)4}])",
                       R"(<@m, [{"y"}, {"x":(1)2}]>)",
                       R"(<@m, [{"y"}, {"x"}]>)"));
  SK_CHECK_INVALID(slice(kXY, R"([{}, {"x", "y"}])", R"(<@m, [{"y"}, {}]>)",
                         R"(<@m, [{"y"}, {"x"}]>)"),
                   "result sharding doesn't match expected sharding [\"x\", "
                   "\"y\"] on dimension 1");
  SK_CHECK_INVALID(slice(kXY, R"([{"x", "y"}, {}])", R"(<@m, [{}, {}]>)",
                         R"(<@m, [{"y"}, {}]>)"),
                   "expected sharding [\"x\", \"y\"] on dimension 0");
  SK_CHECK_INVALID(slice(kX4Y, R"([{}, {"x"}])", R"(<@m, [{"y"}, {}]>)",
                         R"(<@m, [{"y"}, {"x":(1)2}]>)"),
                   "expected sharding [\"x\"] on dimension 1");
  SK_CHECK_INVALID(
      slice(kX8Y, R"([{}, {"x":(4)2}])", R"(<@m, [{"y"}, {"x":(1)2}]>)",
            R"(<@m, [{"y"}, {"x":(1)4}]>)"),
      "expected sharding [\"x\":(1)2, \"x\":(4)2] on dimension 1");
  SK_CHECK_INVALID(slice(kXY, R"([{"y", "x"}, {"x"}])", R"(<@m, [{}, {}]>)",
                         R"(<@m, [{"y"}, {"x"}]>)"),
                   "duplicate axis ref: \"x\"");
}

absl::Status allToAll(std::string_view mesh_text, std::string_view param_text,
                      std::string_view operand, std::string_view result) {
  return verifyAllToAll(params(param_text), sharding(operand), sharding(result),
                        mesh(mesh_text));
}

TEST_CASE("all_to_all: parameters") {
  AllToAllParamList none;
  SK_CHECK_INVALID(
      verifyAllToAll(none, sharding(R"(<@m, [{"y"}, {"x"}]>)"),
                     sharding(R"(<@m, [{"y"}, {"x"}]>)"), mesh(kXY)),
      "parameter list is empty");
  SK_CHECK_INVALID(
      allToAll(kX4Y, R"([{"x":(1)2, "x":(2)2}: 1->0])",
               R"(<@m, [{"y"}, {"x"}]>)", R"(<@m, [{"y", "x"}, {}]>)"),
      "two consecutive sub-axes can be merged");
  SK_CHECK_INVALID(allToAll(kXY, R"([{"y"}: 2->1])", R"(<@m, [{}, {"y"}]>)",
                            R"(<@m, [{"y"}, {}]>)"),
                   "source dimension 2 is out of range [0, 2)");
  SK_CHECK_INVALID(allToAll(kXY, R"([{"y"}: 0->-1])", R"(<@m, [{"y"}, {}]>)",
                            R"(<@m, [{}, {"y"}]>)"),
                   "target dimension -1 is out of range [0, 2)");
  SK_CHECK_INVALID(allToAll(kXY, R"([{"x"}: 0->1, {"x"}: 1->0])",
                            R"(<@m, [{"x"}, {}]>)", R"(<@m, [{}, {"x"}]>)"),
                   "duplicate axis ref: \"x\"");
}

TEST_CASE("all_to_all: dimensions are used once, sources ascending") {
  SK_CHECK_INVALID(allToAll(kXY, R"([{"y"}: 0->0])", R"(<@m, [{"y"}, {}]>)",
                            R"(<@m, [{"y"}, {}]>)"),
                   "overlapping source/target dimensions in all-to-all "
                   "params: 0");
  SK_CHECK_INVALID(
      allToAll(kXY, R"([{"x"}: 1->0, {"y"}: 0->1])", R"(<@m, [{"y"}, {"x"}]>)",
               R"(<@m, [{"x"}, {"y"}]>)"),
      "overlapping source/target dimensions in all-to-all "
      "params: 0");
  SK_CHECK_INVALID(
      allToAll(kXY, R"([{"x"}: 0->1, {"y"}: 2->1])",
               R"(<@m, [{"x"}, {}, {"y"}]>)", R"(<@m, [{}, {"x", "y"}, {}]>)"),
      "overlapping source/target dimensions in all-to-all "
      "params: 1");
  SK_CHECK_INVALID(allToAll(kXY, R"([{"y"}: 2->1, {"x"}: 0->3])",
                            R"(<@m, [{"x"}, {}, {"y"}, {}]>)",
                            R"(<@m, [{}, {"y"}, {}, {"x"}]>)"),
                   "source dimensions are not sorted in ascending order: 0 "
                   "appears after 2");
}

TEST_CASE("all_to_all: axes move from source to target") {
  constexpr std::string_view kABCD = R"(<["a"=2, "b"=2, "c"=2, "d"=2]>)";
  SK_CHECK_VALID(allToAll(kABCD, R"([{"b"}: 0->2, {"c"}: 1->3])",
                          R"(<@m, [{"a", "b"}, {"c"}, {}, {}]>)",
                          R"(<@m, [{"a"}, {}, {"b"}, {"c"}]>)"));
  SK_CHECK_INVALID(
      allToAll(kXY, R"([{"x", "y"}: 0->1])", R"(<@m, [{"y"}, {}]>)",
               R"(<@m, [{}, {"x", "y"}]>)"),
      "can't apply all-to-all axis \"x\" to operand sharding on "
      "dimension 0");
  SK_CHECK_INVALID(
      allToAll(kX8Y, R"([{"x":(2)2}: 1->0])", R"(<@m, [{"y"}, {"x"}]>)",
               R"(<@m, [{"y", "x":(2)2}, {}]>)"),
      "can't apply all-to-all axis \"x\":(2)2 to operand "
      "sharding on dimension 1");
  SK_CHECK_INVALID(allToAll(kXY, R"([{"x"}: 1->0])", R"(<@m, [{"y"}, {"x"}]>)",
                            R"(<@m, [{"y"}, {"x"}]>)"),
                   "result sharding doesn't match expected sharding [] on "
                   "dimension 1");
  SK_CHECK_INVALID(
      allToAll(kX8Y, R"([{"x":(2)4}: 1->0])", R"(<@m, [{"y"}, {"x"}]>)",
               R"(<@m, [{"y", "x":(2)4}, {}]>)"),
      "expected sharding [\"x\":(1)2] on dimension 1");
  SK_CHECK_INVALID(
      allToAll(kXY, R"([{"y"}: 0->2])", R"(<@m, [{"y"}, {"x"}, {}]>)",
               R"(<@m, [{}, {}, {"y"}]>)"),
      "result sharding doesn't match expected sharding [\"x\"] "
      "on dimension 1");
}

TEST_CASE("all_reduce") {
  constexpr ReductionKind kSum = ReductionKind::kSum;
  Mesh m = mesh(R"(<["x"=2, "y"=8, "y2"=8, "z"=2]>)");
  TensorSharding in = sharding(R"(<@m, [{"y", "y2"}, {"x"}]>)");
  auto reduce = [&](std::string_view axes, const TensorSharding& operand,
                    const TensorSharding& result,
                    ReductionKind kind = ReductionKind::kSum) {
    return verifyAllReduce(axisList(axes).items, kind, operand, result, m);
  };
  SK_CHECK_VALID(
      reduce(R"({"z"})", in, sharding(R"(<@m, [{"y", "y2"}, {"x"}]>)")));
  SK_CHECK_INVALID(reduce("{}", in, sharding(R"(<@m, [{"y"}, {"x"}]>)")),
                   "operand and result shardings are not equivalent");
  // Without dimension axes, shardings are equivalent whatever their mesh.
  SK_CHECK_VALID(reduce("{}", sharding(R"(<@m, [{}, {}]>)"),
                        sharding(R"(<@other, [{}, {}]>)")));
  SK_CHECK_INVALID(
      reduce("{}", in, sharding(R"(<@other, [{"y", "y2"}, {"x"}]>)")),
      "operand and result shardings are not equivalent");
  SK_CHECK_INVALID(reduce(R"({"z", "x"})", sharding(R"(<@m, [{}, {}]>)"),
                          sharding(R"(<@m, [{}, {}]>)")),
                   "reduction axes are not ordered w.r.t. mesh");
  SK_CHECK_INVALID(
      reduce(R"({"y2"})", in, in),
      "reduction axis \"y2\" overlaps with operand dimension sharding or "
      "replicated axes");
  SK_CHECK_INVALID(reduce(R"({"y":(2)2})", in, in),
                   "reduction axis \"y\":(2)2 overlaps with operand dimension");
  TensorSharding replicated =
      sharding(R"(<@m, [{}, {"x"}], replicated={"z"}>)");
  SK_CHECK_INVALID(reduce(R"({"z"})", replicated, replicated),
                   "reduction axis \"z\" overlaps with operand dimension");
  SK_CHECK_INVALID(
      reduce(R"({"z"})", in,
             sharding(R"(<@m, [{"y", "y2"}, {"x"}], unreduced={"z"}>)")),
      "reduction axis \"z\" overlaps with result unreduced axes");
  // Reduction axes may be unreduced in the operand.
  TensorSharding unreduced =
      sharding(R"(<@m, [{"y", "y2"}, {"x"}], unreduced={"z"}>)");
  SK_CHECK_VALID(reduce(R"({"z"})", unreduced, in));
  SK_CHECK_INVALID(reduce(R"({"z", "z"})", in, in),
                   "duplicate axis ref: \"z\"");
  // Collective axes are checked as a list, not sub-axis by sub-axis.
  SK_CHECK_VALID(reduce(R"({"z":(1)2})", in, in));
  // Unreduced axes: none introduced, those removed of the reduction's kind.
  SK_CHECK_INVALID(reduce("{}", in, unreduced),
                   "cannot add new unreduced axis 'z'.");
  TensorSharding max_z =
      sharding(R"(<@m, [{"y", "y2"}, {"x"}], unreduced=max{"z"}>)");
  SK_CHECK_INVALID(reduce(R"({"z"})", max_z, in),
                   "cannot reduce 'max' unreduced axes. Expected 'sum'.");
  SK_CHECK_VALID(reduce(R"({"z"})", max_z, in, ReductionKind::kMax));
  SK_CHECK_VALID(reduce("{}", max_z, max_z, kSum));
}

TEST_CASE("unreduced transitions compare sub-axes") {
  Mesh m = mesh(R"(<["x"=4, "y"=2]>)");
  TensorSharding x = sharding(R"(<@m, [{}], unreduced={"x"}>)");
  TensorSharding x_minor = sharding(R"(<@m, [{}], unreduced={"x":(2)2}>)");
  const TensorSharding* in[] = {&x};
  const TensorSharding* out[] = {&x_minor};
  // The major half of "x" is removed; nothing is introduced.
  SK_CHECK_INVALID(verifyUnreducedAxesTransition(in, out, m, {}),
                   "dropped unreduced axis 'x' without a blessed operation");
  SK_CHECK_VALID(verifyUnreducedAxesTransition(
      in, out, m,
      {.introduced = std::nullopt, .removed = ReductionKind::kSum}));
  SK_CHECK_INVALID(verifyUnreducedAxesTransition(out, in, m, {}),
                   "cannot add new unreduced axis 'x'.");
  // A kept part of an axis keeps its kind.
  TensorSharding max_x = sharding(R"(<@m, [{}], unreduced=max{"x"}>)");
  const TensorSharding* max_in[] = {&max_x};
  SK_CHECK_INVALID(
      verifyUnreducedAxesTransition(
          max_in, out, m,
          {.introduced = std::nullopt, .removed = ReductionKind::kMax}),
      "cannot change the reduction operator of kept unreduced axes from max "
      "to sum.");
  // Introduced axes are checked before kept ones.
  SK_CHECK_INVALID(verifyUnreducedTransition(
                       sharding(R"(<@m, [{}], unreduced={"x"}>)"),
                       sharding(R"(<@m, [{}], unreduced=max{"x", "y"}>)"), m),
                   "cannot introduce 'max' unreduced axes. Expected 'sum'.");
}

TEST_CASE("collective_permute: meshes") {
  Mesh a = mesh(R"(<["x"=2, "y"=4]>)");
  Mesh b = mesh(R"(<["x"=4, "y"=2]>)");
  Mesh a_reordered =
      mesh(R"(<["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>)");
  SK_CHECK_INVALID(
      verifyCollectivePermute(sharding(R"(<@mesh2, [{"x"}, {"y"}]>)"), b,
                              sharding(R"(<@mesh1, [{"y"}, {"x"}]>)"), a),
      "result mesh has different axes than operand mesh");
  SK_CHECK_INVALID(
      verifyCollectivePermute(sharding(R"(<@mesh1, [{"x"}, {"y"}]>)"), a,
                              sharding(R"(<@mesh2, [{"x"}, {"y"}]>)"), a),
      "result mesh name is different but same device ids as operand");
  SK_CHECK_VALID(verifyCollectivePermute(
      sharding(R"(<@mesh1, [{"x"}, {"y"}]>)"), a,
      sharding(R"(<@mesh2, [{"x"}, {"y"}]>)"), a_reordered));
}

TEST_CASE("collective_permute: each dimension keeps its shard count") {
  Mesh m = mesh(R"(<["x"=2, "y"=2, "z"=2, "w"=4]>)");
  SK_CHECK_VALID(
      verifyCollectivePermute(sharding(R"(<@m, [{"x", "y"}, {"z"}]>)"), m,
                              sharding(R"(<@m, [{"y", "x"}, {"z"}]>)"), m));
  SK_CHECK_INVALID(
      verifyCollectivePermute(sharding(R"(<@m, [{"x", "y"}, {"z"}]>)"), m,
                              sharding(R"(<@m, [{"y", "x"}, {"w"}]>)"), m),
      "sharded size of result doesn't match operand on dimension 1: 4 != 2");
  Mesh zw = mesh(R"(<["x"=2, "y"=2, "z"=4, "w"=4]>)");
  SK_CHECK_INVALID(
      verifyCollectivePermute(
          sharding(R"(<@m, [{"z":(1)2, "w"}, {"x", "y"}]>)"), zw,
          sharding(R"(<@m, [{"w":(2)2, "z":(1)2}, {"y", "x"}]>)"), zw),
      "sharded size of result doesn't match operand on dimension 0: 4 != 8");
  Mesh seed = mesh(R"(<["a"=2, "b"=2, "c"=4, "d"=2, "e"=2, "f"=2]>)");
  SK_CHECK_VALID(verifyCollectivePermute(
      sharding(R"(<@m, [{"a", "c"}, {"f"}, {"d", "e"}]>)"), seed,
      sharding(R"(<@m, [{"c":(1)2, "b", "f"}, {"a"}, {"e", "d"}]>)"), seed));
}

TEST_CASE("reshard and sharding_constraint: unreduced axes") {
  SK_CHECK_INVALID(
      verifyUnreducedTransition(sharding(R"(<@m, [{}], unreduced=max{"x"}>)"),
                                sharding(R"(<@m, [{}], unreduced={"x"}>)")),
      "cannot change the reduction operator of kept unreduced axes from max "
      "to sum.");
  SK_CHECK_INVALID(
      verifyUnreducedTransition(sharding(R"(<@m, [{"x"}]>)"),
                                sharding(R"(<@m, [{}], unreduced=max{"x"}>)")),
      "cannot introduce 'max' unreduced axes. Expected 'sum'.");
  SK_CHECK_INVALID(verifyUnreducedTransition(
                       sharding(R"(<@m, [{}], unreduced=max{"x"}>)"),
                       sharding(R"(<@m, [{}], unreduced={"x", "y"}>)")),
                   "cannot change the reduction operator of kept unreduced "
                   "axes from max to sum.");
  SK_CHECK_VALID(verifyUnreducedTransition(
      sharding(R"(<@m, [{}], unreduced={"x", "y"}>)"),
      sharding(R"(<@m, [{}], unreduced={"x", "z"}>)")));
  // Dropping all max axes is a reduction, which a reshard may do.
  SK_CHECK_VALID(
      verifyUnreducedTransition(sharding(R"(<@m, [{}], unreduced=max{"x"}>)"),
                                sharding(R"(<@m, [{"x"}]>)")));
  SK_CHECK_VALID(
      verifyUnreducedTransition(sharding(R"(<@m, [{}], unreduced=min{"x"}>)"),
                                sharding(R"(<@m, [{}], unreduced=min{"x"}>)")));
}

}  // namespace
}  // namespace shardkit
