// Type: an immutable, uniqued value type, and TypeContext, the uniquer that
// owns types (every Module has one). Within a context two Types are equal iff
// they are the same handle, so comparing and copying is a pointer operation.
//
// Known kinds are structured (ranked and unranked tensors, tuples, function
// types); anything else (`!stablehlo.token`, `i32`, `!mpmd.mesh_tensor<...>`)
// is kept as its text and printed back unchanged.
#ifndef SHARDKIT_IR_TYPE_H_
#define SHARDKIT_IR_TYPE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "shardkit/core/tensor_shape.h"
#include "shardkit/export.h"
#include "shardkit/support/non_copyable.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

enum class TypeKind {
  kRankedTensor,    // tensor<8x?xf32> (optionally with an encoding)
  kUnrankedTensor,  // tensor<*xf32>
  kTuple,           // tuple<tensor<8xf32>, i32>
  kFunction,        // (i32) -> f32, used for func.func's type
  kOther,           // anything else, kept as text
};

struct TypeStorage;

class Type {
 public:
  Type() = default;  // the null type

  explicit operator bool() const { return storage_ != nullptr; }
  TypeKind kind() const;
  bool isRankedTensor() const { return kind() == TypeKind::kRankedTensor; }
  // True for `!stablehlo.token` (and the mhlo spelling).
  bool isToken() const;

  // Ranked tensors: the dims; empty for any other kind.
  absl::Span<const int64_t> shape() const;
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }
  bool hasStaticShape() const;
  // Ranked/unranked tensors: the element type's text (`f32`).
  std::string_view elementType() const;
  std::string_view encoding() const;
  // Tuples: the element types; functions: the inputs.
  absl::Span<const Type> elements() const;
  // Functions: the results.
  absl::Span<const Type> results() const;
  // The shape view a sharding of a value of this type is verified against:
  // the dims of a ranked tensor (or of the element of a 1-tuple), or
  // "non-shaped" for anything else.
  TensorShapeView shapeView() const;

  // The MLIR text of the type.
  const std::string& str() const;

  // The uniqued storage: equal for equal types of one context (hash tables
  // of one module's types key on it instead of the text).
  const void* identity() const { return storage_; }

  // Same handle, or (for types of different contexts) the same text.
  friend bool operator==(Type a, Type b);
  template <typename H>
  friend H AbslHashValue(H h, Type t) {
    return H::combine(std::move(h), t.str());
  }

 private:
  friend class TypeContext;
  explicit Type(const TypeStorage* storage) : storage_(storage) {}
  const TypeStorage* storage_ = nullptr;
};

// Creates and owns uniqued types; one per Module. Safe to call from several
// threads at once (a type, once created, never changes or moves).
class TypeContext : public NonCopyable {
 public:
  TypeContext();
  ~TypeContext();

  // tensor<dims x element [, encoding]>; dims may hold kDynamicSize.
  Type rankedTensor(absl::Span<const int64_t> dims,
                    std::string_view element_type,
                    std::string_view encoding = {});
  Type unrankedTensor(std::string_view element_type);
  Type tuple(absl::Span<const Type> elements);
  Type function(absl::Span<const Type> inputs, absl::Span<const Type> results);
  // Any other type, by its exact text (`!stablehlo.token`, `i32`).
  Type other(std::string_view text);
  // Re-creates `type` (possibly of another context) in this one.
  Type import(Type type);
  size_t size() const;

 private:
  Type intern(TypeStorage storage);
  struct Impl;
  Impl* impl_;
};

std::string toString(Type type);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_TYPE_H_
