// RuntimeValue: what an SSA value holds while the interpreter runs — a
// tensor, a tuple of values, or a token (`!stablehlo.token`, which carries
// nothing).
#ifndef SHARDKIT_INTERP_RUNTIME_VALUE_H_
#define SHARDKIT_INTERP_RUNTIME_VALUE_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "shardkit/export.h"
#include "shardkit/interp/tensor.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::interp {

class RuntimeValue {
 public:
  enum class Kind { kNull, kTensor, kTuple, kToken };

  RuntimeValue() = default;
  RuntimeValue(Tensor tensor)  // NOLINT: a tensor is a value
      : kind_(Kind::kTensor), tensor_(std::move(tensor)) {}
  static RuntimeValue tuple(std::vector<RuntimeValue> elements);
  static RuntimeValue token();

  Kind kind() const { return kind_; }
  explicit operator bool() const { return kind_ != Kind::kNull; }
  bool isTensor() const { return kind_ == Kind::kTensor; }
  bool isTuple() const { return kind_ == Kind::kTuple; }
  bool isToken() const { return kind_ == Kind::kToken; }

  // The tensor (null unless isTensor()).
  const Tensor& tensor() const { return tensor_; }
  Tensor& mutableTensor() { return tensor_; }
  // The elements of a tuple (empty otherwise).
  const std::vector<RuntimeValue>& elements() const;

  // The value's type as MLIR writes it (`tensor<2xf32>`,
  // `tuple<tensor<i1>>`, `!stablehlo.token`).
  std::string typeText() const;

  friend bool operator==(const RuntimeValue& a, const RuntimeValue& b);

 private:
  Kind kind_ = Kind::kNull;
  Tensor tensor_;
  // Shared: tuples are values that never change once built.
  std::shared_ptr<const std::vector<RuntimeValue>> elements_;
};

}  // namespace shardkit::interp

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_INTERP_RUNTIME_VALUE_H_
