// Links shardkit::core, which makes this target C++20.
#include <cstdio>

#include "shardkit/core/verify.h"
#include "shardkit/version.h"

static_assert(__cplusplus >= 202002L, "shardkit::core brings C++20");

int main() {
  shardkit::MeshTable meshes;
  meshes.add("mesh", shardkit::Mesh({{"x", 2}}));
  shardkit::TensorSharding sharding(
      shardkit::MeshOrRef::ref("mesh"),
      {shardkit::DimensionSharding({shardkit::AxisRef("x")}, true)});
  if (!verifyTensorSharding(sharding, meshes, {8}).ok()) return 1;
  std::printf("%s (shardkit %s)\n", toAttrString(sharding).c_str(),
              shardkit::version());
  return 0;
}
