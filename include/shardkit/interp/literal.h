// Between the module's texts and host tensors: the tensor type of an IR type,
// the tensor an elements literal (`dense<...>`) describes, and a tensor's
// text (for check failures and debugging).
#ifndef SHARDKIT_INTERP_LITERAL_H_
#define SHARDKIT_INTERP_LITERAL_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/export.h"
#include "shardkit/interp/tensor.h"
#include "shardkit/ir/attribute.h"
#include "shardkit/ir/type.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::interp {

// The element type and static shape of a ranked tensor type, checked
// (supported element type, static shape, at most kMaxTensorElements).
struct TensorType {
  ElementType element = ElementType::kI1;
  std::vector<int64_t> shape;
};
absl::StatusOr<TensorType> tensorTypeOf(Type type);

// The tensor of `type` that the elements literal `literal` (MLIR's text,
// `dense<[1, 2]>`, `dense<1.5>` (a splat), `dense<"0x...">` (the elements'
// bytes, little-endian), `dense<[(1.0, 0.0)]>` (complex), `dense<true>`)
// describes. Integers are read exactly and must fit the element type (a
// hexadecimal integer gives a float element's bits).
absl::StatusOr<Tensor> tensorFromLiteral(std::string_view literal, Type type);
// The same from an elements attribute.
absl::StatusOr<Tensor> tensorFromAttribute(const Attribute& attr);

// The text of element `i`: `3`, `true`, `1.500000e+00` (NaN and infinities
// by their bits, `0x7FC00000`), `(1.0,2.0)`.
std::string elementText(const Tensor& tensor, int64_t i);
// `dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>`; past `max_elements`
// elements the rest is written `...`.
std::string tensorText(const Tensor& tensor, int64_t max_elements = 256);
// An index as `[0, 1]`.
std::string indexText(absl::Span<const int64_t> index);

}  // namespace shardkit::interp

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_INTERP_LITERAL_H_
