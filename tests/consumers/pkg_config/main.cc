// Built with `c++ $(pkg-config --cflags shardkit) ... $(pkg-config --libs
// shardkit)`: parses and verifies a sharding.
#include <cstdio>

#include "shardkit/core/verify.h"
#include "shardkit/text/parse.h"
#include "shardkit/version.h"

// The consumer's own language level, not one the .pc file forces.
#if defined(SHARDKIT_EXPECT_CXX_ABOVE_20) && __cplusplus <= 202002L
#error "pkg-config forced the language level down to C++20"
#endif

int main() {
  shardkit::MeshTable meshes;
  meshes.add("mesh", shardkit::Mesh({{"data", 4}}));
  auto sharding = shardkit::parseTensorSharding(R"(<@mesh, [{"data"}, {}]>)");
  if (!sharding.ok()) return 1;
  if (!verifyTensorSharding(*sharding, meshes, {32, 8}).ok()) return 2;
  std::printf("pkg-config consumer of shardkit %s: ok\n", shardkit::version());
  return 0;
}
