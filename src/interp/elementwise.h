// Internal to the interp layer: elementwise maps over tensors by element
// kind, shared by the elementwise kernels and the reductions' fast paths.
#ifndef SHARDKIT_SRC_INTERP_ELEMENTWISE_H_
#define SHARDKIT_SRC_INTERP_ELEMENTWISE_H_

#include <complex>
#include <cstdint>

#include "absl/status/statusor.h"
#include "shardkit/interp/tensor.h"
#include "shardkit/ir/op_name.h"

namespace shardkit::interp {

class OpContext;

// One operation by element kind; a null function is a kind the operation
// is not defined on. Integer functions get the element type (signedness,
// width) and return a value that the store wraps to it; `bools` says
// whether the integer function also takes i1.
struct BinaryFns {
  int64_t (*ints)(ElementType, int64_t, int64_t) = nullptr;
  double (*floats)(double, double) = nullptr;
  std::complex<double> (*complexes)(std::complex<double>,
                                    std::complex<double>) = nullptr;
  bool bools = true;
};
struct UnaryFns {
  int64_t (*ints)(ElementType, int64_t) = nullptr;
  double (*floats)(double) = nullptr;
  std::complex<double> (*complexes)(std::complex<double>) = nullptr;
  bool bools = true;
};

// The op's two (one) tensor operands, of one shape and element type, mapped
// element by element into its result (of the same type).
absl::StatusOr<Tensor> applyBinary(OpContext& ctx, const BinaryFns& fns);
absl::StatusOr<Tensor> applyUnary(OpContext& ctx, const UnaryFns& fns);

// The map of the binary elementwise op `name` (add, multiply, maximum,
// minimum, and, or, xor, ...), or null for any other op.
const BinaryFns* binaryFnsOf(OpName name);

// An error unless `a` and `b` have the same shape.
absl::Status checkSameShape(const Tensor& a, const Tensor& b);
// The signed integer type of an unsigned one's width (`t` otherwise).
ElementType signedOf(ElementType t);

}  // namespace shardkit::interp

#endif  // SHARDKIT_SRC_INTERP_ELEMENTWISE_H_
