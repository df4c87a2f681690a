// The C++ values behind the extension's Python classes.
#ifndef SHARDKIT_PYTHON_EXT_TYPES_H_
#define SHARDKIT_PYTHON_EXT_TYPES_H_

#include <optional>
#include <string>
#include <string_view>

#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"

namespace shardkit::python {

// shardkit.Mesh: a verified mesh and the name shardings use for it
// (`@mesh`). Immutable.
struct PyMesh {
  Mesh mesh;
  std::string name = "mesh";
};

// shardkit.TensorSharding: the sharding, and the mesh it was made on when
// one is known (from_spec, a module's value), so that shard_shape and to_hlo
// need none. Equality and hashing look at the sharding alone. Immutable.
struct PySharding {
  TensorSharding sharding;
  std::optional<Mesh> mesh;
};

// `x` or `x:(2)4` for a sub-axis: an axis as a PartitionSpec names it.
std::string axisSpelling(const AxisRef& axis);
// The inverse of axisSpelling; an error for text that is neither form.
AxisRef axisFromSpelling(std::string_view text);

}  // namespace shardkit::python

#endif  // SHARDKIT_PYTHON_EXT_TYPES_H_
