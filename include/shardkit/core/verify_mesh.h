// Verification of meshes, axis refs, axis-ref lists and manual axes (see
// core/verify.h for what every verifier guarantees).
#ifndef SHARDKIT_CORE_VERIFY_MESH_H_
#define SHARDKIT_CORE_VERIFY_MESH_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/collective_params.h"
#include "shardkit/core/mesh.h"
#include "shardkit/internal/core_verify_util.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// Checks, in order: every axis size >= 1; no duplicate axis names; the
// product of the axis sizes fits in int64; and, when device ids are given:
// all non-negative; with no axes at most one id (a maximal mesh, any
// non-negative id); otherwise as many ids as the product of the axis sizes,
// forming a permutation of iota(product), and not iota itself.
//
// Explicit iota: the text parser drops an explicit iota list of a mesh with
// axes (the reference prints `<["a"=2, "b"=2]>` for `device_ids=[0,1,2,3]`),
// so text never reaches this check. A Mesh built in C++ with an explicit iota
// list is rejected: the canonical form omits it, and Mesh equality, hashing
// and printing all rely on that form (an explicit iota would compare unequal
// to the same mesh without it).
absl::Status verifyMesh(const Mesh& mesh);

// A single axis ref on its own: the axis exists in `mesh`; a sub-axis has
// pre-size >= 1, size > 1, pre-size * size dividing the axis size, and a size
// different from the full axis size.
absl::Status verifyAxisRef(const AxisRef& axis, const Mesh& mesh);

// A list of axis refs (a dimension's axes, replicated axes, collective axes):
// every name is known; no ref appears twice; no two adjacent refs are
// consecutive sub-axes of one axis (they must be merged); every sub-axis is
// valid (see verifyAxisRef); no sub-axis together with its full axis; no two
// overlapping sub-axes.
absl::Status verifyAxisRefList(absl::Span<const AxisRef> axes,
                               const Mesh& mesh);

// Manual axes of a manual computation: every name is an axis of `mesh`
// (`unknown manual axis: "b"`) and appears once.
absl::Status verifyManualAxes(const ManualAxes& manual_axes, const Mesh& mesh);

// Implementation.

namespace verify_internal {

// `ids` in ascending order, joined by ", " (for a message). Sorted as
// TripleKeys, the core's one sort of integers.
inline std::string sortedIdsText(const std::vector<int64_t>& ids) {
  std::vector<core_detail::TripleKey> sorted;
  sorted.reserve(ids.size());
  for (int64_t id : ids) sorted.push_back({id, 0, 0});
  std::sort(sorted.begin(), sorted.end());
  std::string out;
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i > 0) out += ", ";
    strAppend(out, sorted[i].first);
  }
  return out;
}

// The device-id checks of a mesh whose axis sizes are valid and multiply to
// `total` without overflow.
inline absl::Status verifyDeviceIds(const Mesh& mesh, int64_t total) {
  const std::vector<int64_t>& ids = mesh.device_ids;
  if (ids.empty()) return absl::OkStatus();  // Implicitly iota(total).
  for (int64_t id : ids) {
    if (id < 0) {
      return invalid(strCat("device id must be non-negative, got: ", id));
    }
  }
  if (mesh.axes.empty()) {
    if (ids.size() > 1) {
      return invalid("axes is empty and device_ids has more than one element");
    }
    return absl::OkStatus();  // A maximal mesh: any single id.
  }
  if (total != static_cast<int64_t>(ids.size())) {
    return invalid(strCat(
        "total product of axis sizes must match total number of device ids, "
        "got: ",
        total, " != ", ids.size()));
  }
  // Sorted, the ids must be iota(total): each is below `total` and none
  // repeats (the ids are non-negative and `total` of them).
  std::vector<char> seen(ids.size(), 0);
  for (int64_t id : ids) {
    if (id >= total || seen[id]) {
      return invalid(
          strCat("sorted device ids must be iota(product(axes)), got: ",
                 sortedIdsText(ids)));
    }
    seen[id] = 1;
  }
  if (mesh.hasIotaDeviceIds()) {
    return invalid(
        "device ids equal to iota(product(axes)) must not be given explicitly");
  }
  return absl::OkStatus();
}

}  // namespace verify_internal

inline absl::Status verifyMesh(const Mesh& mesh) {
  for (const MeshAxis& axis : mesh.axes) {
    if (axis.size < 1) {
      return verify_internal::invalid(
          strCat("axis size must be at least 1, got: ", axis.size, " for axis ",
                 verify_internal::quoted(axis.name)));
    }
  }
  // axisIndex finds the first axis of a name: a later one is a duplicate.
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    if (mesh.axisIndex(mesh.axes[i].name) != static_cast<int>(i)) {
      return verify_internal::invalid(strCat(
          "duplicate axis name: ", verify_internal::quoted(mesh.axes[i].name)));
    }
  }
  int64_t total = 1;
  for (const MeshAxis& axis : mesh.axes) {
    if (!verify_internal::checkedMul(total, axis.size, total)) {
      return verify_internal::invalid(
          "total product of axis sizes overflows int64");
    }
  }
  return verify_internal::verifyDeviceIds(mesh, total);
}

inline absl::Status verifyAxisRef(const AxisRef& axis, const Mesh& mesh) {
  int index = mesh.axisIndex(axis.name);
  if (index < 0) {
    return verify_internal::invalid(
        strCat("unknown axis name: ", verify_internal::quoted(axis.name)));
  }
  if (!axis.isSubAxis()) return absl::OkStatus();
  return verify_internal::checkSubAxis(axis, mesh.axes[index].size);
}

inline absl::Status verifyAxisRefList(absl::Span<const AxisRef> axes,
                                      const Mesh& mesh) {
  verify_internal::AxisRefChecker checker(mesh);
  SK_RETURN_IF_ERROR(checker.addList(axes));
  return checker.finish();
}

inline absl::Status verifyManualAxes(const ManualAxes& manual_axes,
                                     const Mesh& mesh) {
  std::vector<char> seen(mesh.axes.size(), 0);
  for (const std::string& name : manual_axes) {
    const int index = mesh.axisIndex(name);
    if (index < 0) {
      return verify_internal::invalid(
          strCat("unknown manual axis: ", verify_internal::quoted(name)));
    }
    if (std::exchange(seen[index], 1)) {
      return verify_internal::invalid(
          strCat("duplicate manual axis: ", verify_internal::quoted(name)));
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_VERIFY_MESH_H_
