#include "shardkit/core/mesh.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <vector>

#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"
#include "unit/core/value_test_util.h"

namespace shardkit {
namespace {

using testing::checkFormats;
using testing::checkValueSemantics;

TEST_CASE("MeshAxis: value semantics and text") {
  checkValueSemantics<MeshAxis>(
      {{"a", 2}, {"a", 4}, {"b", 2}, {"", 1}, {"a b", 2}});
  checkFormats(MeshAxis{"x", 8}, R"("x"=8)");
  checkFormats(MeshAxis{"q\"\\", 2}, R"("q\22\\"=2)");
}

TEST_CASE("Mesh: value semantics") {
  checkValueSemantics<Mesh>({
      Mesh(),
      Mesh::maximal(0),
      Mesh::maximal(3),
      Mesh({{"a", 2}}),
      Mesh({{"a", 2}}, {1, 0}),
      Mesh({{"a", 4}}),
      Mesh({{"b", 2}}),
      Mesh({{"a", 2}, {"b", 2}}),
      Mesh({{"b", 2}, {"a", 2}}),
      Mesh({{"a", 2}, {"b", 2}}, {3, 2, 1, 0}),
  });
}

TEST_CASE("Mesh: printing uses the stripped reference form") {
  checkFormats(Mesh(), "<[]>");
  checkFormats(Mesh::maximal(3), "<[], device_ids=[3]>");
  checkFormats(Mesh({{"a", 2}, {"c", 2}, {"b", 4}}),
               R"(<["a"=2, "c"=2, "b"=4]>)");
  checkFormats(Mesh({{"a", 2}, {"b", 1}}, {1, 0}),
               R"(<["a"=2, "b"=1], device_ids=[1, 0]>)");
  // Escapes: quotes, backslashes and bytes outside printable ASCII, the way
  // MLIR prints a string.
  checkFormats(Mesh({{"x\ny", 2}}), R"(<["x\0Ay"=2]>)");
  checkFormats(Mesh({{"\xC3\xA9", 2}}), R"(<["\C3\A9"=2]>)");
}

TEST_CASE("Mesh: empty, maximal and sized meshes") {
  Mesh empty;
  CHECK(empty.empty());
  CHECK_FALSE(empty.isMaximal());
  CHECK(empty.maximalDeviceId() == std::nullopt);
  CHECK(empty.totalSize() == 1);

  Mesh maximal = Mesh::maximal(7);
  CHECK_FALSE(maximal.empty());
  CHECK(maximal.isMaximal());
  CHECK(maximal.maximalDeviceId() == 7);
  CHECK(maximal.deviceIdsOrIota() == std::vector<int64_t>{7});

  // An axis of size 1 with one device id is not maximal: it has an axis.
  Mesh one({{"a", 1}}, {0});
  CHECK_FALSE(one.isMaximal());
  CHECK_FALSE(one.empty());

  Mesh mesh({{"x", 2}, {"y", 3}, {"z", 4}});
  CHECK(mesh.totalSize() == 24);
  CHECK(mesh.axisIndex("x") == 0);
  CHECK(mesh.axisIndex("z") == 2);
  CHECK(mesh.axisIndex("w") == -1);
  CHECK(mesh.hasAxis("y"));
  CHECK_FALSE(mesh.hasAxis("Y"));
  CHECK(mesh.axisSize("y") == 3);
  CHECK(mesh.axisSize("w") == 0);
}

TEST_CASE("Mesh: device order, explicit or iota") {
  Mesh implicit({{"a", 2}, {"b", 2}});
  CHECK(implicit.deviceIdsOrIota() == std::vector<int64_t>{0, 1, 2, 3});
  CHECK_FALSE(implicit.hasIotaDeviceIds());

  Mesh explicit_iota({{"a", 2}, {"b", 2}}, {0, 1, 2, 3});
  CHECK(explicit_iota.hasIotaDeviceIds());
  CHECK_FALSE(Mesh({{"a", 2}, {"b", 2}}, {0, 1, 3, 2}).hasIotaDeviceIds());
  // Too few ids to be iota(4), even though they start like it.
  CHECK_FALSE(Mesh({{"a", 2}, {"b", 2}}, {0, 1}).hasIotaDeviceIds());
  CHECK(Mesh({{"a", 1}}, {0}).hasIotaDeviceIds());
  CHECK(Mesh({}, {0}).hasIotaDeviceIds());
  CHECK_FALSE(Mesh({}, {1}).hasIotaDeviceIds());

  Mesh permuted({{"a", 2}, {"b", 2}}, {3, 1, 2, 0});
  CHECK(permuted.deviceIdsOrIota() == std::vector<int64_t>{3, 1, 2, 0});
}

TEST_CASE("Mesh: hasIotaDeviceIds never overflows on unverified sizes") {
  const int64_t max = std::numeric_limits<int64_t>::max();
  CHECK_FALSE(Mesh({{"a", max}, {"b", 2}}, {0}).hasIotaDeviceIds());
  CHECK_FALSE(Mesh({{"a", max}, {"b", max}}, {0, 1}).hasIotaDeviceIds());
  CHECK_FALSE(Mesh({{"a", 0}}, {0}).hasIotaDeviceIds());
  CHECK_FALSE(Mesh({{"a", -2}}, {0, 1}).hasIotaDeviceIds());
}

TEST_CASE("Mesh: sameDevicesAndAxes treats a missing list as iota") {
  Mesh implicit({{"a", 2}, {"b", 2}});
  CHECK(implicit.sameDevicesAndAxes(Mesh({{"a", 2}, {"b", 2}}, {0, 1, 2, 3})));
  CHECK_FALSE(implicit == Mesh({{"a", 2}, {"b", 2}}, {0, 1, 2, 3}));
  CHECK_FALSE(
      implicit.sameDevicesAndAxes(Mesh({{"a", 2}, {"b", 2}}, {1, 0, 2, 3})));
  CHECK_FALSE(implicit.sameDevicesAndAxes(Mesh({{"a", 2}, {"c", 2}})));
  CHECK_FALSE(implicit.sameDevicesAndAxes(Mesh({{"b", 2}, {"a", 2}})));
  CHECK(Mesh::maximal(2).sameDevicesAndAxes(Mesh::maximal(2)));
  CHECK_FALSE(Mesh::maximal(2).sameDevicesAndAxes(Mesh::maximal(1)));
}

TEST_CASE("MeshTable: insertion order, replacement and resolution") {
  MeshTable table;
  CHECK(table.empty());
  CHECK(table.find("m") == nullptr);
  table.add("m", Mesh({{"a", 2}}));
  table.add("n", Mesh({{"b", 4}}));
  table.add("m", Mesh({{"a", 8}}));  // Replaces, keeps the first position.
  CHECK(table.size() == 2);
  CHECK(table.names() == std::vector<std::string>{"m", "n"});
  REQUIRE(table.find("m") != nullptr);
  CHECK(*table.find("m") == Mesh({{"a", 8}}));
  CHECK(table.find("o") == nullptr);

  CHECK(table.resolve(MeshOrRef::ref("n")) == table.find("n"));
  CHECK(table.resolve(MeshOrRef::ref("zz")) == nullptr);
  TensorSharding inline_sharding(MeshOrRef::inlined(Mesh({{"c", 2}})), {});
  const Mesh* resolved = table.resolve(inline_sharding);
  REQUIRE(resolved != nullptr);
  CHECK(resolved == inline_sharding.mesh.inlineMesh());
  CHECK(*resolved == Mesh({{"c", 2}}));
}

TEST_CASE("MeshTable: whether it has a maximal mesh follows replacements") {
  MeshTable table;
  CHECK_FALSE(table.hasMaximalMesh());
  table.add("m", Mesh({{"a", 2}}));
  CHECK_FALSE(table.hasMaximalMesh());
  table.add("d", Mesh::maximal(3));
  CHECK(table.hasMaximalMesh());
  table.add("e", Mesh::maximal(4));
  table.add("d", Mesh({{"b", 2}}));  // no longer maximal; "e" still is
  CHECK(table.hasMaximalMesh());
  table.add("e", Mesh());  // empty, not maximal
  CHECK_FALSE(table.hasMaximalMesh());
  table.add("m", Mesh::maximal(0));
  CHECK(table.hasMaximalMesh());
}

}  // namespace
}  // namespace shardkit
