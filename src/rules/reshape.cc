#include "shardkit/rules/reshape.h"

#include <numeric>
#include <string_view>

#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// The element count of `shape`, or an error for a dynamic/negative dimension
// or an overflowing product.
absl::StatusOr<int64_t> numElements(const Shape& shape, std::string_view what) {
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size < 0) {
      return absl::InvalidArgumentError(
          strCat("reshape needs static shapes; the ", what,
                 " has a dynamic or negative dimension"));
    }
    if (__builtin_mul_overflow(count, size, &count)) {
      return absl::InvalidArgumentError(
          strCat("reshape ", what, " has too many elements"));
    }
  }
  return count;
}

// One side (input or output) of the lockstep walk.
struct Side {
  const Shape& shape;
  int64_t dim = 0;
  int64_t dims_product = 1;     // product of the dimensions entered so far
  int64_t factors_product = 1;  // product of the factors added so far

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  bool done() const { return dim >= rank(); }
  // Enters the next dimension once the current one is fully factored.
  void enterDim() {
    if (!done() && dims_product == factors_product) {
      dims_product *= shape[dim];
    }
  }
  void leaveDimIfFactored() {
    if (!done() && dims_product == factors_product) ++dim;
  }
  int64_t pending() const { return dims_product / factors_product; }
};

// The next factor for the side that is behind after the sides diverged:
// the factor that makes both prefixes line up again if it divides the
// pending size, else the pending size without the common gcd.
int64_t catchUpFactor(int64_t pending, int64_t gcd, int64_t behind,
                      int64_t ahead) {
  if (ahead % behind == 0 && pending % (ahead / behind) == 0) {
    return ahead / behind;
  }
  return pending > gcd ? pending / gcd : pending;
}

}  // namespace

absl::StatusOr<std::optional<OpShardingRule>> reshapeRule(const Shape& in,
                                                          const Shape& out) {
  SK_ASSIGN_OR_RETURN(int64_t in_count, numElements(in, "operand"));
  SK_ASSIGN_OR_RETURN(int64_t out_count, numElements(out, "result"));
  if (in_count != out_count) {
    return absl::InvalidArgumentError(
        strCat("reshape from ", in_count, " to ", out_count, " elements"));
  }
  if (in_count == 0) return std::nullopt;

  OpShardingRuleBuilder builder({in}, {out});
  Side a{in};
  Side b{out};
  // Every iteration adds a factor > 1 or consumes a size-1 dimension, so the
  // loop ends after at most rank + log2(elements) iterations per side.
  const int64_t max_steps = 2 * (a.rank() + b.rank() + 64);
  for (int64_t step = 0; !a.done() || !b.done(); ++step) {
    if (step > max_steps) {
      return absl::InternalError("reshape factorization did not converge");
    }
    if (!a.done() && in[a.dim] == 1) {
      builder.addFactor({a.dim++}, {kNullDim}, 1);
      continue;
    }
    if (!b.done() && out[b.dim] == 1) {
      builder.addFactor({kNullDim}, {b.dim++}, 1);
      continue;
    }
    a.enterDim();
    b.enterDim();
    int64_t next_a = a.pending();
    int64_t next_b = b.pending();
    int64_t gcd = std::gcd(next_a, next_b);
    if (a.factors_product == b.factors_product) {
      if (gcd > 1) {
        builder.addFactor({a.dim}, {b.dim}, gcd);
        a.factors_product *= gcd;
        b.factors_product *= gcd;
      } else {
        builder.addFactor({a.dim}, {kNullDim}, next_a);
        a.factors_product *= next_a;
        builder.addFactor({kNullDim}, {b.dim}, next_b);
        b.factors_product *= next_b;
      }
    } else if (a.factors_product < b.factors_product) {
      int64_t factor =
          catchUpFactor(next_a, gcd, a.factors_product, b.factors_product);
      builder.addFactor({a.dim}, {kNullDim}, factor);
      a.factors_product *= factor;
    } else {
      int64_t factor =
          catchUpFactor(next_b, gcd, b.factors_product, a.factors_product);
      builder.addFactor({kNullDim}, {b.dim}, factor);
      b.factors_product *= factor;
    }
    a.leaveDimIfFactored();
    b.leaveDimIfFactored();
  }
  SK_ASSIGN_OR_RETURN(OpShardingRule rule, builder.build());
  return rule;
}

}  // namespace shardkit
