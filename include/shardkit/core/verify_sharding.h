// Verification of tensor shardings and per-value sharding lists (see
// core/verify.h for what every verifier guarantees).
#ifndef SHARDKIT_CORE_VERIFY_SHARDING_H_
#define SHARDKIT_CORE_VERIFY_SHARDING_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_shape.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/core/verify_mesh.h"
#include "shardkit/internal/core_verify_util.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {

struct ShardingVerifyOptions {
  // Also require every static dimension to be divisible by the product of
  // its axis sizes (the reference's `checkDivisibility`; off in the IR
  // verifier since padding is allowed).
  bool check_divisibility = false;
  // Axes that an enclosing manual computation already made manual; the
  // sharding may not name them (`operates on axis "a" which is already bound
  // by a parent sdy.manual_computation op`). A view: the caller keeps the
  // names alive while verifying.
  absl::Span<const std::string> bound_manual_axes;
};

// Verifies `sharding` for a value of shape `shape` (TensorShapeView::
// nonShaped() for a token), resolving a mesh name through `meshes`. An
// inline mesh is verified with verifyMesh first; a named mesh is assumed
// verified where it is defined.
//
// In order: the mesh exists (`unknown mesh: @m`); on a maximal mesh the
// sharding has rank 0 and no replicated or unreduced axes, and the shape is
// not consulted; a non-shaped value needs the same; the rank matches
// (`sharding doesn't match tensor rank: 2 != 1`); per dimension: the
// priority is non-negative and not on an empty closed dimension, its axes
// form a valid list, and (optionally) the size is divisible; replicated then
// unreduced axes are in mesh order (MeshAxisLess) and valid; no axis ref
// appears twice or overlaps across dimensions, replicated and unreduced axes;
// sub-axes are valid; no bound manual axis is used.
//
// Size-0 dimensions: the seed forbids sharding them, the reference accepts
// any axes on one (0 is divisible by every sharded size), and so do we.
absl::Status verifyTensorSharding(const TensorSharding& sharding,
                                  const MeshTable& meshes,
                                  TensorShapeView shape,
                                  const ShardingVerifyOptions& options = {});

// Same, against an already resolved `mesh` (the sharding's own mesh
// reference is not looked at).
absl::Status verifyTensorShardingWithMesh(
    const TensorSharding& sharding, const Mesh& mesh, TensorShapeView shape,
    const ShardingVerifyOptions& options = {});

struct ShardingPerValueVerifyOptions {
  ShardingVerifyOptions sharding;
  // Require all shardings to be bound to the same mesh, where an empty mesh
  // (`<[]>`) matches any (`shardings can only be bound to the same mesh or an
  // empty mesh`). The reference skips this for manual computations.
  bool check_common_mesh = true;
};

// One sharding per value: the counts match (`shardings don't match number of
// values: 3 shardings vs 2 values`), except that an op without results may
// carry one maximal or fully replicated sharding; then every sharding is
// verified against its shape.
//
// `value_kind` ("result", "operand", ... or empty) prefixes every message the
// way the reference does: `result - <msg>` for a single value, `result 1 -
// <msg>` for value 1 of several, `result shardings don't match ...`.
absl::Status verifyTensorShardingPerValue(
    const TensorShardingPerValue& shardings, const MeshTable& meshes,
    absl::Span<const TensorShapeView> shapes, std::string_view value_kind = "",
    const ShardingPerValueVerifyOptions& options = {});

// Implementation.

namespace verify_internal {

inline bool hasRankOrExplicitAxes(const TensorSharding& sharding) {
  return sharding.rank() != 0 || !sharding.replicated_axes.empty() ||
         !sharding.unreduced_axes.empty();
}

// Priority rules of one dimension sharding.
inline absl::Status verifyPriority(const DimensionSharding& dim,
                                   int64_t index) {
  if (!dim.priority) return absl::OkStatus();
  if (*dim.priority < 0) {
    return invalid(strCat("dim ", index, " has a negative priority"));
  }
  if (dim.is_closed && dim.empty()) {
    return invalid(
        strCat("dim ", index, " is empty and closed but has a priority"));
  }
  return absl::OkStatus();
}

// The product of the sizes of `axes` (valid refs of `mesh`), or nullopt on
// int64 overflow.
inline std::optional<int64_t> shardedSize(absl::Span<const AxisRef> axes,
                                          const Mesh& mesh) {
  int64_t product = 1;
  for (const AxisRef& axis : axes) {
    if (!checkedMul(product, axis.size(mesh), product)) {
      return std::nullopt;
    }
  }
  return product;
}

// The checks of a dimension that need its size (skipped for dynamic sizes).
// Its axes have been added to the checker already, so their names are known.
inline absl::Status verifyDimAgainstSize(const DimensionSharding& dim,
                                         int64_t index, int64_t size,
                                         const Mesh& mesh,
                                         const ShardingVerifyOptions& options) {
  if (size < 0 || !options.check_divisibility) return absl::OkStatus();
  for (const AxisRef& axis : dim.axes) {
    // An invalid sub-axis has no meaningful size; it is reported once all
    // lists are collected, like the reference does.
    if (!verifyAxisRef(axis, mesh).ok()) return absl::OkStatus();
  }
  std::optional<int64_t> sharded = shardedSize(dim.axes, mesh);
  if (!sharded) {
    return invalid(
        strCat("dim ", index, " has a sharded size that overflows int64"));
  }
  // `*sharded > 0` only guards against an unverified mesh with an axis of
  // size 0.
  if (*sharded > 0 && size % *sharded != 0) {
    return invalid(strCat("dim ", index, " with size ", size,
                          " is not divisible by its sharded size ", *sharded));
  }
  return absl::OkStatus();
}

inline absl::Status verifySortedAxisList(std::string_view field,
                                         absl::Span<const AxisRef> axes,
                                         const Mesh& mesh,
                                         AxisRefChecker& checker) {
  if (!std::is_sorted(axes.begin(), axes.end(), MeshAxisLess(mesh))) {
    return invalid(strCat(field, " axes are not ordered w.r.t. mesh"));
  }
  return checker.addList(axes);
}

inline absl::Status verifyNotBoundManual(const TensorSharding& sharding,
                                         absl::Span<const std::string> bound) {
  if (bound.empty()) return absl::OkStatus();
  for (const AxisRef& axis : sharding.allAxes()) {
    if (std::find(bound.begin(), bound.end(), axis.name) != bound.end()) {
      return invalid(strCat("operates on axis ", quoted(axis.name),
                            " which is already bound by a parent sdy."
                            "manual_computation op"));
    }
  }
  return absl::OkStatus();
}

// Verifies `sharding` on `mesh` for a value of `shape`, or for no value at
// all when `shape` is nullopt (an op without results carrying one sharding).
inline absl::Status verifyOnMesh(const TensorSharding& sharding,
                                 const Mesh& mesh,
                                 std::optional<TensorShapeView> shape,
                                 const ShardingVerifyOptions& options) {
  if (mesh.isMaximal() || (!shape && sharding.isFullyReplicated())) {
    // The op runs on a single device: the shape is irrelevant.
    if (hasRankOrExplicitAxes(sharding)) {
      return invalid(
          "a maximal sharding can only have a sharding with rank 0 and no "
          "replicated or unreduced axes");
    }
    return absl::OkStatus();
  }
  if (!shape || !shape->isShaped()) {
    if (hasRankOrExplicitAxes(sharding)) {
      return invalid(
          strCat("non-shaped tensors can only have a sharding with rank 0 and "
                 "no replicated or unreduced axes, got: ",
                 toString(sharding)));
    }
    return absl::OkStatus();
  }
  if (sharding.rank() != shape->rank()) {
    return invalid(strCat("sharding doesn't match tensor rank: ",
                          sharding.rank(), " != ", shape->rank()));
  }
  AxisRefChecker checker(mesh);
  for (int64_t i = 0; i < sharding.rank(); ++i) {
    const DimensionSharding& dim = sharding.dim_shardings[i];
    SK_RETURN_IF_ERROR(verifyPriority(dim, i));
    SK_RETURN_IF_ERROR(checker.addList(dim.axes));
    SK_RETURN_IF_ERROR(
        verifyDimAgainstSize(dim, i, (*shape)[i], mesh, options));
  }
  SK_RETURN_IF_ERROR(verifySortedAxisList(
      "replicated", sharding.replicated_axes, mesh, checker));
  SK_RETURN_IF_ERROR(verifySortedAxisList("unreduced", sharding.unreduced_axes,
                                          mesh, checker));
  SK_RETURN_IF_ERROR(checker.finish());
  return verifyNotBoundManual(sharding, options.bound_manual_axes);
}

// Resolves the mesh of `sharding` (verifying an inline one) and verifies.
inline absl::Status verifyResolved(const TensorSharding& sharding,
                                   const MeshTable& meshes,
                                   std::optional<TensorShapeView> shape,
                                   const ShardingVerifyOptions& options) {
  if (const Mesh* inline_mesh = sharding.mesh.inlineMesh()) {
    SK_RETURN_IF_ERROR(verifyMesh(*inline_mesh));
    return verifyOnMesh(sharding, *inline_mesh, shape, options);
  }
  const Mesh* mesh = meshes.resolve(sharding);
  if (mesh == nullptr) {
    return invalid(strCat("unknown mesh: @", sharding.meshName()));
  }
  return verifyOnMesh(sharding, *mesh, shape, options);
}

// Prefixes `status`'s message the way the reference names a value: `kind -
// msg` when there is one value, `kind i - msg` otherwise.
inline absl::Status prefixValue(const absl::Status& status,
                                std::string_view kind, size_t num_values,
                                size_t index) {
  if (status.ok()) return status;
  std::string prefix(kind);
  if (num_values == 1) {
    prefix += kind.empty() ? "- " : " - ";
  } else {
    strAppend(prefix, kind.empty() ? "" : " ", index, " - ");
  }
  return invalid(strCat(prefix, fromAbsl(status.message())));
}

// True if all the shardings' meshes are the same, ignoring empty meshes.
// Unresolvable meshes were reported before this is called.
inline bool haveCommonMesh(absl::Span<const TensorSharding> shardings,
                           const MeshTable& meshes) {
  const Mesh* common = nullptr;
  for (const TensorSharding& sharding : shardings) {
    const Mesh* mesh = meshes.resolve(sharding);
    if (mesh == nullptr || mesh->empty()) continue;
    if (common == nullptr) {
      common = mesh;
    } else if (!(*mesh == *common)) {
      return false;
    }
  }
  return true;
}

}  // namespace verify_internal

inline absl::Status verifyTensorSharding(const TensorSharding& sharding,
                                         const MeshTable& meshes,
                                         TensorShapeView shape,
                                         const ShardingVerifyOptions& options) {
  return verify_internal::verifyResolved(sharding, meshes, shape, options);
}

inline absl::Status verifyTensorShardingWithMesh(
    const TensorSharding& sharding, const Mesh& mesh, TensorShapeView shape,
    const ShardingVerifyOptions& options) {
  return verify_internal::verifyOnMesh(sharding, mesh, shape, options);
}

inline absl::Status verifyTensorShardingPerValue(
    const TensorShardingPerValue& per_value, const MeshTable& meshes,
    absl::Span<const TensorShapeView> shapes, std::string_view value_kind,
    const ShardingPerValueVerifyOptions& options) {
  absl::Span<const TensorSharding> shardings = per_value;
  std::string kind_prefix = value_kind.empty() ? "" : strCat(value_kind, " ");
  if (shapes.empty() && shardings.size() == 1) {
    // An op without results may still say where it runs.
    const TensorSharding& only = shardings.front();
    const Mesh* mesh = meshes.resolve(only);
    if ((mesh != nullptr && mesh->isMaximal()) || only.isFullyReplicated()) {
      return verify_internal::prefixValue(
          verify_internal::verifyResolved(only, meshes, std::nullopt,
                                          options.sharding),
          value_kind, 1, 0);
    }
  }
  if (shardings.size() != shapes.size()) {
    return verify_internal::invalid(
        strCat(kind_prefix, "shardings don't match number of values: ",
               shardings.size(), " shardings vs ", shapes.size(), " values"));
  }
  for (size_t i = 0; i < shardings.size(); ++i) {
    SK_RETURN_IF_ERROR(verify_internal::prefixValue(
        verify_internal::verifyResolved(shardings[i], meshes, shapes[i],
                                        options.sharding),
        value_kind, shardings.size(), i));
  }
  if (options.check_common_mesh &&
      !verify_internal::haveCommonMesh(shardings, meshes)) {
    return verify_internal::invalid(strCat(
        kind_prefix,
        "shardings can only be bound to the same mesh or an empty mesh"));
  }
  return absl::OkStatus();
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_VERIFY_SHARDING_H_
