// Verification of how an op moves unreduced axes from its operands to its
// results (the reference's unreduced-axes transition): which axes an op may
// introduce or remove, with which reduction kind, and that an axis kept from
// an operand keeps its kind.
#ifndef SHARDKIT_CORE_VERIFY_UNREDUCED_H_
#define SHARDKIT_CORE_VERIFY_UNREDUCED_H_

#include <optional>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/core/verify_mesh.h"
#include "shardkit/internal/core_verify_util.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// What an op may do with unreduced axes: introduce new ones (then of kind
// `introduced`) and remove ones of its operands (then of kind `removed`,
// which is the reduction the op performs). nullopt forbids it.
struct UnreducedTransitionRules {
  std::optional<ReductionKind> introduced;
  std::optional<ReductionKind> removed;
};

// The unreduced axes of `operands` (null entries are values without a
// sharding) becoming those of `results`, all on `mesh`. Axes are compared as
// sets of sub-axes: an axis of the results not covered by the operands'
// axes is introduced (`cannot add new unreduced axis 'x'.` when forbidden,
// `cannot introduce 'max' unreduced axes. Expected 'sum'.` for a result of
// another kind); one of the operands not covered by the results' is removed
// (`dropped unreduced axis 'x' without a blessed operation ...`, `cannot
// reduce 'max' unreduced axes. Expected 'sum'.`); and a result axis
// overlapping an operand axis is kept and must have its kind (`cannot change
// the reduction operator of kept unreduced axes from max to sum.`). Checked in
// that order. The caller skips shardings on different meshes.
absl::Status verifyUnreducedAxesTransition(
    absl::Span<const TensorSharding* const> operands,
    absl::Span<const TensorSharding* const> results, const Mesh& mesh,
    const UnreducedTransitionRules& rules);

// sdy.reshard / sdy.sharding_constraint from `source` to `target` on `mesh`:
// may introduce `sum` axes and remove any.
absl::Status verifyUnreducedTransition(const TensorSharding& source,
                                       const TensorSharding& target,
                                       const Mesh& mesh);

// Implementation.

namespace verify_internal {

inline AxisRefVector flatUnreduced(
    absl::Span<const TensorSharding* const> shardings) {
  AxisRefVector axes;
  for (const TensorSharding* s : shardings) {
    if (s)
      axes.insert(axes.end(), s->unreduced_axes.begin(),
                  s->unreduced_axes.end());
  }
  return axes;
}

// The first of `shardings` whose unreduced axes overlap `diff` and whose
// kind is not `expected`, or null.
inline const TensorSharding* wrongKind(
    absl::Span<const TensorSharding* const> shardings,
    absl::Span<const AxisRef> diff, ReductionKind expected) {
  for (const TensorSharding* s : shardings) {
    if (!s || s->unreduced_kind == expected) continue;
    for (const AxisRef& axis : s->unreduced_axes) {
      if (overlapsAny(diff, axis)) return s;
    }
  }
  return nullptr;
}

// An unreduced axis of a result overlapping one of an operand of another
// kind: the pair of kinds, or nullopt.
inline std::optional<std::pair<ReductionKind, ReductionKind>> changedKind(
    absl::Span<const TensorSharding* const> operands,
    absl::Span<const TensorSharding* const> results) {
  for (const TensorSharding* out : results) {
    if (!out) continue;
    for (const AxisRef& axis : out->unreduced_axes) {
      for (const TensorSharding* in : operands) {
        if (in && in->unreduced_kind != out->unreduced_kind &&
            overlapsAny(in->unreduced_axes, axis)) {
          return std::pair(in->unreduced_kind, out->unreduced_kind);
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace verify_internal

inline absl::Status verifyUnreducedAxesTransition(
    absl::Span<const TensorSharding* const> operands,
    absl::Span<const TensorSharding* const> results, const Mesh& mesh,
    const UnreducedTransitionRules& rules) {
  using verify_internal::invalid;
  const AxisRefVector in = verify_internal::flatUnreduced(operands);
  const AxisRefVector out = verify_internal::flatUnreduced(results);
  // An invalid axis is the sharding verifier's to report; the set algebra
  // below needs valid sub-axes.
  for (const AxisRefVector* axes : {&in, &out}) {
    for (const AxisRef& axis : *axes) {
      if (!verifyAxisRef(axis, mesh).ok()) return absl::OkStatus();
    }
  }
  const AxisRefVector introduced = axisSetDifference(out, in, mesh);
  const AxisRefVector removed = axisSetDifference(in, out, mesh);
  if (!introduced.empty()) {
    if (!rules.introduced) {
      return invalid(strCat("cannot add new unreduced axis '",
                            introduced.front().name, "'."));
    }
    if (const TensorSharding* s = verify_internal::wrongKind(
            results, introduced, *rules.introduced)) {
      return invalid(strCat("cannot introduce '", toString(s->unreduced_kind),
                            "' unreduced axes. Expected '",
                            toString(*rules.introduced), "'."));
    }
  }
  if (!removed.empty()) {
    if (!rules.removed) {
      return invalid(strCat(
          "dropped unreduced axis '", removed.front().name,
          "' without a blessed operation (e.g., sdy.reshard). This is an "
          "invalid transition from unreduced to reduced."));
    }
    if (const TensorSharding* s =
            verify_internal::wrongKind(operands, removed, *rules.removed)) {
      return invalid(strCat("cannot reduce '", toString(s->unreduced_kind),
                            "' unreduced axes. Expected '",
                            toString(*rules.removed), "'."));
    }
  }
  if (auto kinds = verify_internal::changedKind(operands, results)) {
    return invalid(strCat(
        "cannot change the reduction operator of kept unreduced axes from ",
        toString(kinds->first), " to ", toString(kinds->second), "."));
  }
  return absl::OkStatus();
}

inline absl::Status verifyUnreducedTransition(const TensorSharding& source,
                                              const TensorSharding& target,
                                              const Mesh& mesh) {
  const TensorSharding* in[] = {&source};
  const TensorSharding* out[] = {&target};
  return verifyUnreducedAxesTransition(
      in, out, mesh,
      {.introduced = ReductionKind::kSum, .removed = source.unreduced_kind});
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_VERIFY_UNREDUCED_H_
