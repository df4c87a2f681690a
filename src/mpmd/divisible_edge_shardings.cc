// The shardings of mesh tensors must split them evenly (a mesh tensor type
// with a sharding is verified so, and MPMD runtimes move whole shards), so
// after sdy propagation, which may shard a dimension by axes that do not
// divide it, each fragment in/out sharding and transfer result sharding is
// cut to its largest even prefix (the reference keeps these edge owners
// divisible while it propagates).
#include <vector>

#include "shardkit/core/sharding_math.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/module.h"
#include "shardkit/ir/walk.h"
#include "src/mpmd/sharding_utils.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

void makeEven(Value value, const MeshTable& meshes) {
  std::optional<TensorSharding> sharding = getSharding(value);
  if (!sharding || !value.type().hasStaticShape()) return;
  const Mesh* mesh = meshes.resolve(*sharding);
  if (!mesh || isEvenlySharded(*sharding, value.type().shape(), *mesh)) return;
  setSharding(value, evenlySharded(*sharding, value.type().shape(), *mesh));
}

}  // namespace

void makeEdgeShardingsDivisible(Module& module) {
  MeshTable meshes = module.meshTable();
  for (FuncOp func : functionDefinitions(module)) {
    std::vector<Op> ops;
    ir_internal::collectPreOrder(func.body(), ops);
    for (Op op : ops) {
      if (auto fragment = dynCast<FragmentOp>(op)) {
        if (fragment.inShardings()) {
          for (Value arg : fragment.body().arguments()) makeEven(arg, meshes);
        }
        if (fragment.outShardings()) {
          for (Value result : op.results()) makeEven(result, meshes);
        }
      } else if (isa<TransferOp>(op)) {
        makeEven(op.result(0), meshes);
      }
    }
  }
}

}  // namespace shardkit::mpmd::mpmd_internal
