#include "src/interp/reducer.h"

#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/interp/evaluator.h"

namespace shardkit::interp {
namespace {

// The binary op a body of one op applies to its two arguments, in order, or
// null.
const BinaryFns* directFns(Region region) {
  if (region.numBlocks() != 1) return nullptr;
  Block block = region.front();
  if (block.numArguments() != 2 || block.numOps() != 2) return nullptr;
  Op op = block.front();
  Op ret = block.back();
  if (op.numOperands() != 2 || op.numResults() != 1 ||
      op.operand(0) != block.argument(0) ||
      op.operand(1) != block.argument(1) || ret.numOperands() != 1 ||
      ret.operand(0) != op.result(0) || !ret.hasTrait(OpTrait::kTerminator)) {
    return nullptr;
  }
  // The arguments' and result's types are those of the elements combined
  // (rank 0, one element type), so the direct map computes the same thing.
  Type t = block.argument(0).type();
  if (!(block.argument(1).type() == t) || !(op.result(0).type() == t) ||
      !t.isRankedTensor() || t.rank() != 0) {
    return nullptr;
  }
  return binaryFnsOf(op.opName());
}

}  // namespace

Reducer::Reducer(OpContext& ctx, Region region, size_t n)
    : ctx_(ctx), region_(region), n_(n) {
  if (n == 1) direct_ = directFns(region);
}

absl::Status Reducer::combine(absl::Span<Tensor> acc, int64_t ai,
                              absl::Span<const Tensor> xs, int64_t xi) {
  if (direct_ != nullptr && acc[0].elementType() == xs[0].elementType()) {
    Tensor& a = acc[0];
    const Tensor& x = xs[0];
    ElementType t = a.elementType();
    switch (a.kind()) {
      case ElementKind::kInteger:
        if (direct_->ints && (direct_->bools || !isBool(t))) {
          a.setInt(ai, direct_->ints(t, a.intAt(ai), x.intAt(xi)));
          return absl::OkStatus();
        }
        break;
      case ElementKind::kFloat:
        if (direct_->floats) {
          a.setFloat(ai, direct_->floats(a.floatAt(ai), x.floatAt(xi)));
          return absl::OkStatus();
        }
        break;
      case ElementKind::kComplex:
        if (direct_->complexes) {
          a.setComplex(ai,
                       direct_->complexes(a.complexAt(ai), x.complexAt(xi)));
          return absl::OkStatus();
        }
        break;
    }
  }
  std::vector<Tensor> args;
  args.reserve(2 * n_);
  for (size_t k = 0; k < n_; ++k) {
    Tensor s(acc[k].elementType(), {});
    s.copyElement(0, acc[k], ai);
    args.push_back(std::move(s));
  }
  for (size_t k = 0; k < n_; ++k) {
    Tensor s(xs[k].elementType(), {});
    s.copyElement(0, xs[k], xi);
    args.push_back(std::move(s));
  }
  SK_ASSIGN_OR_RETURN(
      std::vector<Tensor> out,
      ctx_.eval().runTensorRegion(region_, args, &ctx_.scope()));
  if (out.size() != n_) {
    return evalError(
        strCat("body returns ", out.size(), " values, expected ", n_));
  }
  for (size_t k = 0; k < n_; ++k) {
    if (out[k].rank() != 0 || out[k].elementType() != acc[k].elementType()) {
      return evalError(strCat("body must return rank-0 tensors of ",
                              toString(acc[k].elementType())));
    }
    acc[k].copyElement(ai, out[k], 0);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::interp
