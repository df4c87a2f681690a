// The local shape of a sharded tensor: what one device holds of it.
//
// Each dimension of size n sharded by axes of total size k (the product of
// their sizes) holds n / k elements on every device; a dynamic dimension
// stays dynamic; a dimension sharded by no axis keeps its size. Replicated
// and unreduced axes do not change the shape.
#ifndef SHARDKIT_PARTITION_LOCAL_SHAPE_H_
#define SHARDKIT_PARTITION_LOCAL_SHAPE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/ir/type.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::partition {

// The local shape of `shape` under `sharding` on `mesh`; nullopt if a static
// dimension is not a multiple of its shard count or the ranks differ. A
// sharding of no dimensions leaves any shape as it is.
std::optional<std::vector<int64_t>> localShape(absl::Span<const int64_t> shape,
                                               const TensorSharding& sharding,
                                               const Mesh& mesh);

// The local type of a ranked tensor type (other types, and a null sharding or
// mesh, give `global` back); null if localShape is nullopt.
Type localType(TypeContext& types, Type global, const TensorSharding* sharding,
               const Mesh* mesh);

}  // namespace shardkit::partition

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PARTITION_LOCAL_SHAPE_H_
