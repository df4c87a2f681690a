// HloSharding text and its conversion to and from sdy shardings, with a
// property test: every tiling a mesh can express round-trips GSPMD -> sdy ->
// GSPMD unchanged.
#include "shardkit/text/hlo_sharding.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <random>
#include <string>

#include "shardkit/core/verify_sharding.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit {
namespace {

std::string roundTrip(std::string_view text) {
  absl::StatusOr<HloSharding> parsed = parseHloSharding(text);
  REQUIRE(parsed.ok());
  return toString(*parsed);
}

std::string errorOf(std::string_view text) {
  absl::StatusOr<HloSharding> parsed = parseHloSharding(text);
  REQUIRE_FALSE(parsed.ok());
  return std::string(fromAbsl(parsed.status().message()));
}

Mesh meshOf(std::string_view text) {
  absl::StatusOr<Mesh> mesh = parseMesh(text);
  REQUIRE(mesh.ok());
  return *mesh;
}

// The sdy sharding (on @mesh) that `hlo` gives on `mesh`, as text.
std::string toSdy(std::string_view hlo, const Mesh& mesh, int64_t rank) {
  absl::StatusOr<HloSharding> parsed = parseHloSharding(hlo);
  REQUIRE(parsed.ok());
  absl::StatusOr<TensorSharding> sharding =
      fromHloSharding(*parsed, mesh, MeshOrRef::ref("mesh"), rank);
  if (!sharding.ok()) return std::string(fromAbsl(sharding.status().message()));
  return toString(*sharding);
}

std::string toHlo(std::string_view sdy, const Mesh& mesh,
                  std::vector<std::string> manual = {}) {
  absl::StatusOr<TensorSharding> sharding = parseTensorSharding(sdy);
  REQUIRE(sharding.ok());
  absl::StatusOr<HloSharding> hlo = toHloSharding(*sharding, mesh, manual);
  if (!hlo.ok()) return std::string(fromAbsl(hlo.status().message()));
  return toString(*hlo);
}

TEST_CASE("HloSharding text reads and prints back as XLA writes it") {
  for (std::string_view text :
       {"{replicated}", "{manual}", "{maximal device=3}",
        "{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}",
        "{devices=[4,2]<=[8]}", "{devices=[2,4]<=[4,2]T(1,0)}",
        "{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}",
        "{{replicated}, {maximal device=0}}", "{}"}) {
    CHECK(roundTrip(text) == text);
  }
  // Metadata is dropped; spaces are free; `<=[8]` is the identity iota.
  CHECK(roundTrip("{ devices=[2]<=[2] metadata={op_name=\"a}\" "
                  "source_line=3} }") == "{devices=[2]<=[2]}");
  CHECK(roundTrip("{{replicated}, {replicated}, {replicated}, {replicated}, "
                  "{replicated}, /*index=5*/{manual}}") ==
        "{{replicated}, {replicated}, {replicated}, {replicated}, "
        "{replicated}, /*index=5*/{manual}}");
}

TEST_CASE("HloSharding text errors say what was expected") {
  CHECK(errorOf("{devices=[2,2]0,1,2}") ==
        "HloSharding: 3 devices listed for 4 tiles");
  CHECK(errorOf("{devices=[4]<=[2,3]}") ==
        "HloSharding: the iota reshape dimensions hold 6 devices, the tiles "
        "4");
  CHECK(errorOf("{devices=[4]<=[2,2]T(0,0)}") ==
        "HloSharding: T(...) is not a permutation of the reshape dimensions");
  CHECK(errorOf("{devices=[2]0,0}") == "HloSharding: a device is listed twice");
  CHECK(errorOf("{replicated") ==
        "HloSharding col 12: expected '}', got end of text");
  CHECK(errorOf("{tiled}") ==
        "HloSharding col 2: expected 'replicated', 'manual', 'maximal', "
        "'devices' or a tuple, got 'tiled}'");
  CHECK(errorOf("{unknown}") ==
        "HloSharding: {unknown} and {unreduced} have no sdy equivalent");
  CHECK(errorOf("{devices=[0]}") ==
        "HloSharding: tile dimensions must be positive (at most 2^40 tiles)");
  CHECK(errorOf("{replicated} x") ==
        "HloSharding col 14: expected end of the sharding, got 'x'");
  CHECK(errorOf("{manual last_tile_dim_replicate}") ==
        "HloSharding col 9: expected '}' (only tiled shardings have "
        "subgroups), got 'last_tile_di'");
}

TEST_CASE("The issue's examples convert both ways") {
  Mesh xy = meshOf(R"(<["x"=2, "y"=2]>)");
  CHECK(toSdy("{devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}", xy, 2) ==
        R"(<@mesh, [{"x"}, {}]>)");
  CHECK(toHlo(R"(<@mesh, [{"x"}, {}]>)", xy) ==
        "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  CHECK(toSdy("{replicated}", xy, 2) == "<@mesh, [{}, {}]>");
  CHECK(toHlo("<@mesh, [{}, {}]>", xy) == "{replicated}");
  CHECK(toSdy("{maximal device=0}", xy, 2) == "<mesh<[], device_ids=[0]>, []>");
  CHECK(toHlo("<mesh<[], device_ids=[0]>, []>", Mesh::maximal(0)) ==
        "{maximal device=0}");

  Mesh abc = meshOf(R"(<["a"=2, "b"=2, "c"=2]>)");
  CHECK(toSdy("{devices=[4,2]<=[8]}", abc, 2) ==
        R"(<@mesh, [{"a", "b"}, {"c"}]>)");
  CHECK(toSdy("{devices=[2,4]<=[4,2]T(1,0)}", abc, 2) ==
        R"(<@mesh, [{"c"}, {"a", "b"}]>)");
  CHECK(toHlo(R"(<@mesh, [{"c"}, {"a", "b"}]>)", abc) ==
        "{devices=[2,4]<=[4,2]T(1,0)}");
  CHECK(toHlo(R"(<@mesh, [{"b"}, {}], replicated={"c"}>)", abc) ==
        "{devices=[2,1,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}");

  // One axis split into sub-axes, and the transposed iota.
  Mesh x8 = meshOf(R"(<["x"=8]>)");
  CHECK(toSdy("{devices=[2,4]<=[4,2]T(1,0)}", x8, 2) ==
        R"(<@mesh, [{"x":(4)2}, {"x":(1)4}]>)");
  CHECK(toHlo(R"(<@mesh, [{"x":(4)2}, {"x":(1)4}]>)", x8) ==
        "{devices=[2,4]<=[4,2]T(1,0)}");
  // "x":(1)2 is the major half of "x": devices 0-3 vs 4-7.
  CHECK(toHlo(R"(<@mesh, [{"x":(1)2}]>)", x8) ==
        "{devices=[2,4]<=[8] last_tile_dim_replicate}");
  CHECK(toHlo(R"(<@mesh, [{"x":(2)2}]>)", x8) ==
        "{devices=[2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}");
}

TEST_CASE("Manual axes become a manual subgroup or {manual}") {
  Mesh xy = meshOf(R"(<["x"=2, "y"=2]>)");
  CHECK(toHlo(R"(<@mesh, [{"y"}]>)", xy, {"x"}) ==
        "{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={manual}}");
  CHECK(toHlo(R"(<@mesh, [{}]>)", xy, {"x", "y"}) == "{manual}");
  CHECK(toHlo(R"(<@mesh, [{}]>)", xy, {"x"}) ==
        "{devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}");
}

TEST_CASE("Meshes with explicit device ids give the V1 device list") {
  Mesh mesh = meshOf(R"(<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>)");
  CHECK(toHlo(R"(<@mesh, [{"y"}, {}]>)", mesh) ==
        "{devices=[2,1,2]3,1,2,0 last_tile_dim_replicate}");
  CHECK(toSdy("{devices=[2,1,2]3,1,2,0 last_tile_dim_replicate}", mesh, 2) ==
        R"(<@mesh, [{"y"}, {}]>)");
  // Replication order inside a group does not matter.
  CHECK(toSdy("{devices=[2,1,2]3,1,0,2 last_tile_dim_replicate}", mesh, 2) ==
        R"(<@mesh, [{"y"}, {}]>)");
}

TEST_CASE("Tilings the mesh cannot express are refused") {
  Mesh xy = meshOf(R"(<["x"=2, "y"=3]>)");
  CHECK(toSdy("{devices=[3,2]<=[6]}", xy, 2) ==
        "GSPMD: a tile dimension is not a product of mesh axes");
  CHECK(toSdy("{devices=[6]<=[6]}", xy, 2) ==
        "GSPMD: the sharding tiles 1 dimensions, the tensor has rank 2");
  CHECK(toSdy("{devices=[2]<=[2]}", xy, 1) ==
        "GSPMD: the sharding has 2 devices, the mesh 6");
  CHECK(toSdy("{devices=[2,3]0,1,2,3,4,7}", xy, 2) ==
        "GSPMD: device 7 is not in the mesh");
  CHECK(
      toSdy("{manual}", xy, 2) ==
      "GSPMD: {manual} has no sdy sharding: manual values live inside a manual "
      "computation");
  CHECK(toSdy("{devices=[2,3]1,0,2,3,4,5}", xy, 2) ==
        "GSPMD: the first tile does not start at the mesh's origin");
  // Each step is one axis, but the tiles as a whole are not the mesh's.
  CHECK(toSdy("{devices=[2,3]0,1,2,3,5,4}", xy, 2) ==
        "GSPMD: the tiling {devices=[2,3]0,1,2,3,5,4} is not expressible on "
        "mesh <[\"x\"=2, \"y\"=3]>");
  CHECK(toHlo(R"(<@mesh, [{"z"}, {}]>)", xy) == "GSPMD: unknown axis \"z\"");
  CHECK(toHlo(R"(<@mesh, [{"y"}, {"y":(1)3}]>)", meshOf(R"(<["y"=6]>)")) ==
        "GSPMD: axis \"y\" used twice");
  CHECK(toHlo(R"(<@mesh, [{"x"}, {}], unreduced={"y"}>)", xy) ==
        "GSPMD: unreduced axes have no HloSharding equivalent");
}

// A random sdy sharding of rank `rank` on `mesh`: every axis cut into
// random pieces, each piece in a random dimension (or replicated), in a
// random order.
TensorSharding randomSharding(const Mesh& mesh, int64_t rank,
                              std::mt19937& rng) {
  struct Piece {
    std::string axis;
    int64_t pre, size, full;
  };
  std::vector<Piece> pieces;
  for (const MeshAxis& axis : mesh.axes) {
    int64_t pre = 1;
    while (pre < axis.size) {
      std::vector<int64_t> sizes;
      for (int64_t s = 2; s <= axis.size / pre; ++s)
        if ((axis.size / pre) % s == 0) sizes.push_back(s);
      int64_t size = sizes[rng() % sizes.size()];
      pieces.push_back({axis.name, pre, size, axis.size});
      pre *= size;
    }
  }
  std::shuffle(pieces.begin(), pieces.end(), rng);
  TensorSharding sharding(
      MeshOrRef::ref("mesh"),
      std::vector<DimensionSharding>(static_cast<size_t>(rank),
                                     DimensionSharding::closed()));
  for (const Piece& p : pieces) {
    size_t dim = rng() % static_cast<size_t>(rank + 1);
    if (dim == static_cast<size_t>(rank)) continue;  // replicated
    AxisRef ref = p.pre == 1 && p.size == p.full
                      ? AxisRef(p.axis)
                      : AxisRef(p.axis, p.pre, p.size);
    sharding.dim_shardings[dim].axes.push_back(std::move(ref));
  }
  return sharding;
}

Mesh randomMesh(std::mt19937& rng) {
  static constexpr int64_t kSizes[] = {1, 2, 2, 3, 4, 4, 6, 8};
  const char* kNames[] = {"a", "b", "c", "d"};
  std::vector<MeshAxis> axes;
  size_t count = 1 + rng() % 4;
  int64_t total = 1;
  for (size_t i = 0; i < count; ++i) {
    int64_t size = kSizes[rng() % std::size(kSizes)];
    if (total * size > 128) break;
    total *= size;
    axes.push_back(MeshAxis{kNames[i], size});
  }
  Mesh mesh(std::move(axes));
  if (rng() % 4 == 0) {
    std::vector<int64_t> ids(static_cast<size_t>(total));
    std::iota(ids.begin(), ids.end(), 0);
    std::shuffle(ids.begin(), ids.end(), rng);
    mesh.device_ids = ids;
  }
  return mesh;
}

TEST_CASE("GSPMD -> sdy -> GSPMD is the identity on 10,000 random tilings") {
  std::mt19937 rng(20240612);
  int checked = 0, v1_checked = 0;
  while (checked < 10000) {
    Mesh mesh = randomMesh(rng);
    int64_t rank = 1 + static_cast<int64_t>(rng() % 4);
    TensorSharding sdy = randomSharding(mesh, rank, rng);
    if (!verifyTensorShardingWithMesh(sdy, mesh,
                                      std::vector<int64_t>(rank, 1152))
             .ok()) {
      continue;  // e.g. two pieces of one axis that sdy wants merged
    }
    absl::StatusOr<HloSharding> tiling = toHloSharding(sdy, mesh);
    REQUIRE(tiling.ok());
    // The random tiling, as text: GSPMD -> sdy -> GSPMD.
    std::string text = toString(*tiling);
    absl::StatusOr<HloSharding> parsed = parseHloSharding(text);
    REQUIRE(parsed.ok());
    INFO(text << " on " << toString(mesh) << " from " << toString(sdy));
    absl::StatusOr<TensorSharding> imported =
        fromHloSharding(*parsed, mesh, MeshOrRef::ref("mesh"), rank);
    REQUIRE(imported.ok());
    INFO("imported " << toString(*imported));
    REQUIRE(verifyTensorShardingWithMesh(*imported, mesh,
                                         std::vector<int64_t>(rank, 1152))
                .ok());
    absl::StatusOr<HloSharding> exported = toHloSharding(*imported, mesh);
    REQUIRE(exported.ok());
    REQUIRE(toString(*exported) == text);
    ++checked;
    // The same tiles listed device by device (V1) import to the same tiles.
    if (parsed->kind == HloShardingKind::kTiled && parsed->isIota()) {
      HloSharding v1 = *parsed;
      v1.devices = v1.tileDevices();
      v1.iota_reshape_dims.clear();
      v1.iota_perm.clear();
      absl::StatusOr<TensorSharding> from_v1 =
          fromHloSharding(v1, mesh, MeshOrRef::ref("mesh"), rank);
      REQUIRE(from_v1.ok());
      REQUIRE(*from_v1 == *imported);
      ++v1_checked;
    }
  }
  CHECK(v1_checked > 1000);
}

}  // namespace
}  // namespace shardkit
