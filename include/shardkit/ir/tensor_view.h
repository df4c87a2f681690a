// Tensor views: a dialect type kept as text (ir/type.h, TypeKind::kOther)
// that holds a ranked tensor, as `!mpmd.mesh_tensor<"m", tensor<4x8xf32>,
// ...>` holds `tensor<4x8xf32>`. The dialect registers a parser for its type
// prefix; types created after that answer Type::shape(),
// Type::hasStaticShape() and Type::shapeView() with the tensor they hold, so
// that the sdy layer (sharding verification, data-flow edges, propagation)
// sees the shape a sharding of such a value splits.
#ifndef SHARDKIT_IR_TENSOR_VIEW_H_
#define SHARDKIT_IR_TENSOR_VIEW_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/export.h"
#include "shardkit/ir/type.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The tensor a type text holds.
struct TensorViewParts {
  std::vector<int64_t> dims;
  std::string element_type;
  std::string encoding;
};

// Reads the tensor of a type text starting with the registered prefix into
// `parts`; false when the text is not such a type.
using TensorViewParser = bool (*)(std::string_view text,
                                  TensorViewParts& parts);

// Registers `parse` for type texts starting with `prefix` (once per prefix).
// Thread-safe; for dialect registration. `parse` must not create types.
void registerTensorView(std::string_view prefix, TensorViewParser parse);

// The ranked tensor a sharding of a value of `type` splits: `type` itself
// for a ranked tensor, the tensor a registered view reads for a dialect
// type, a null type otherwise.
Type tensorViewOf(Type type);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_TENSOR_VIEW_H_
