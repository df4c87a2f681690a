// The example from README.md: build a mesh and a sharding, verify and print
// it, and parse one from text.
#include "shardkit/core/verify.h"
#include "shardkit/text/parse.h"

using namespace shardkit;

int main() {
  MeshTable meshes;
  meshes.add("mesh", Mesh({{"data", 4}, {"model", 2}}));

  // A [32, 256] activation: rows over "data", columns open for propagation.
  TensorSharding sharding(
      MeshOrRef::ref("mesh"),
      {DimensionSharding({AxisRef("data")}, /*is_closed=*/true),
       DimensionSharding::open()});
  if (absl::Status s = verifyTensorSharding(sharding, meshes, {32, 256});
      !s.ok()) {
    return 1;
  }
  fmt::print("{}\n", toAttrString(sharding));
  // #sdy.sharding<@mesh, [{"data"}, {?}]>

  absl::StatusOr<TensorSharding> parsed =
      parseTensorSharding(R"(<@mesh, [{"data":(1)2}, {"model", ?}]>)");
  return parsed.ok() ? 0 : 1;
}
