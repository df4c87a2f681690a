// Internal to the interp layer: a reduction body (the region of reduce,
// reduce_window, all_reduce, reduce_scatter, scatter, select_and_scatter's
// scatter) applied to elements. A body that is one StableHLO binary op of
// its two arguments (add, multiply, maximum, ...) is applied directly; any
// other body runs as a region on rank-0 tensors.
#ifndef SHARDKIT_SRC_INTERP_REDUCER_H_
#define SHARDKIT_SRC_INTERP_REDUCER_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/interp/tensor.h"
#include "shardkit/ir/graph.h"
#include "src/interp/elementwise.h"

namespace shardkit::interp {

class OpContext;

class Reducer {
 public:
  // The body `region` of the op of `ctx`, combining `n` values with `n`
  // values (2n arguments, n results).
  Reducer(OpContext& ctx, Region region, size_t n);

  // acc[k][ai] = body(acc[0][ai], ..., acc[n-1][ai], xs[0][xi], ...,
  // xs[n-1][xi])[k] for each k. `acc` and `xs` hold n tensors each.
  absl::Status combine(absl::Span<Tensor> acc, int64_t ai,
                       absl::Span<const Tensor> xs, int64_t xi);
  // The same with one tensor on each side.
  absl::Status combine(Tensor& acc, int64_t ai, const Tensor& x, int64_t xi) {
    return combine(absl::Span<Tensor>(&acc, 1), ai,
                   absl::Span<const Tensor>(&x, 1), xi);
  }

 private:
  OpContext& ctx_;
  Region region_;
  size_t n_;
  const BinaryFns* direct_ = nullptr;  // the body's op, when applied directly
};

}  // namespace shardkit::interp

#endif  // SHARDKIT_SRC_INTERP_REDUCER_H_
