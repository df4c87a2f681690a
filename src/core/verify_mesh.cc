// Verification of meshes, axis refs, axis-ref lists and manual axes.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"
#include "shardkit/core/verify.h"
#include "verify_internal.h"

namespace shardkit {
namespace verify_internal {

std::string bracketedAxes(absl::Span<const AxisRef> axes) {
  std::string out = "[";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i > 0) out += ", ";
    out += toString(axes[i]);
  }
  out += "]";
  return out;
}

absl::Status checkSubAxis(const AxisRef& axis, int64_t axis_size) {
  const SubAxisInfo& info = *axis.sub_axis_info;
  if (info.pre_size < 1) {
    return invalid(
        strCat("sub-axis pre-size must be at least 1: ", toString(axis)));
  }
  if (info.size <= 1) {
    return invalid(
        strCat("sub-axis sizes must be greater than 1: ", toString(axis)));
  }
  int64_t next_pre_size = 0;
  if (!checkedMul(info.pre_size, info.size, next_pre_size)) {
    return invalid(
        strCat("sub-axis next pre-size overflows int64: ", toString(axis)));
  }
  if (axis_size % next_pre_size != 0) {
    return invalid(strCat("sub-axis next pre-size ", next_pre_size,
                          " doesn't divide the size of the full axis ",
                          axis_size, ": ", toString(axis)));
  }
  if (info.size == axis_size) {
    return invalid(strCat("sub-axis size is equal to the full axis size: ",
                          toString(axis)));
  }
  return absl::OkStatus();
}

AxisRefChecker::AxisRefChecker(const Mesh& mesh)
    : mesh_(mesh),
      sub_axes_(mesh.axes.size()),
      full_axis_seen_(mesh.axes.size(), false) {}

absl::Status AxisRefChecker::addList(absl::Span<const AxisRef> axes) {
  const AxisRef* previous = nullptr;
  for (const AxisRef& axis : axes) {
    int index = mesh_.axisIndex(axis.name);
    if (index < 0) {
      return invalid(strCat("unknown axis name: ", quoted(axis.name)));
    }
    if (!seen_.insert(axis).second) {
      return invalid(strCat("duplicate axis ref: ", toString(axis)));
    }
    if (axis.isSubAxis()) {
      sub_axes_[index].push_back(*axis.sub_axis_info);
      // Overlapping neighbours are reported by `finish` instead.
      if (previous != nullptr && canMerge(*previous, axis)) {
        return invalid(strCat("two consecutive sub-axes can be merged: ",
                              toString(*previous), ", ", toString(axis)));
      }
    } else {
      full_axis_seen_[index] = true;
    }
    previous = &axis;
  }
  return absl::OkStatus();
}

absl::Status AxisRefChecker::finish() const {
  for (size_t index = 0; index < mesh_.axes.size(); ++index) {
    if (sub_axes_[index].empty()) continue;
    const MeshAxis& mesh_axis = mesh_.axes[index];
    if (full_axis_seen_[index]) {
      return invalid(
          strCat("both sub-axis and full-axis are used for axis name: ",
                 quoted(mesh_axis.name)));
    }
    std::vector<SubAxisInfo> sorted = sub_axes_[index];
    std::sort(sorted.begin(), sorted.end());
    const SubAxisInfo* previous = nullptr;
    for (const SubAxisInfo& info : sorted) {
      AxisRef axis(mesh_axis.name, info);
      SK_RETURN_IF_ERROR(checkSubAxis(axis, mesh_axis.size));
      // Valid sub-axes have a next pre-size that fits (it divides the size).
      if (previous != nullptr && previous->nextPreSize() > info.pre_size) {
        return invalid(strCat("overlapping sub-axes: ",
                              toString(AxisRef(mesh_axis.name, *previous)),
                              ", ", toString(axis)));
      }
      previous = &info;
    }
  }
  return absl::OkStatus();
}

}  // namespace verify_internal

using verify_internal::invalid;
using verify_internal::quoted;

namespace {

std::string joinIds(const std::vector<int64_t>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out += ", ";
    strAppend(out, ids[i]);
  }
  return out;
}

// The device-id checks of a mesh whose axis sizes are valid and multiply to
// `total` without overflow.
absl::Status verifyDeviceIds(const Mesh& mesh, int64_t total) {
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
  std::vector<int64_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] != static_cast<int64_t>(i)) {
      return invalid(
          strCat("sorted device ids must be iota(product(axes)), got: ",
                 joinIds(sorted)));
    }
  }
  if (std::is_sorted(ids.begin(), ids.end())) {
    return invalid(
        "device ids equal to iota(product(axes)) must not be given explicitly");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status verifyMesh(const Mesh& mesh) {
  for (const MeshAxis& axis : mesh.axes) {
    if (axis.size < 1) {
      return invalid(strCat("axis size must be at least 1, got: ", axis.size,
                            " for axis ", quoted(axis.name)));
    }
  }
  absl::flat_hash_set<std::string_view> names;
  for (const MeshAxis& axis : mesh.axes) {
    if (!names.insert(axis.name).second) {
      return invalid(strCat("duplicate axis name: ", quoted(axis.name)));
    }
  }
  int64_t total = 1;
  for (const MeshAxis& axis : mesh.axes) {
    if (!verify_internal::checkedMul(total, axis.size, total)) {
      return invalid("total product of axis sizes overflows int64");
    }
  }
  return verifyDeviceIds(mesh, total);
}

absl::Status verifyAxisRef(const AxisRef& axis, const Mesh& mesh) {
  int index = mesh.axisIndex(axis.name);
  if (index < 0) {
    return invalid(strCat("unknown axis name: ", quoted(axis.name)));
  }
  if (!axis.isSubAxis()) return absl::OkStatus();
  return verify_internal::checkSubAxis(axis, mesh.axes[index].size);
}

absl::Status verifyAxisRefList(absl::Span<const AxisRef> axes,
                               const Mesh& mesh) {
  verify_internal::AxisRefChecker checker(mesh);
  SK_RETURN_IF_ERROR(checker.addList(axes));
  return checker.finish();
}

absl::Status verifyManualAxes(const ManualAxes& manual_axes, const Mesh& mesh) {
  absl::flat_hash_set<std::string_view> seen;
  for (const std::string& name : manual_axes.names) {
    if (!mesh.hasAxis(name)) {
      return invalid(strCat("unknown manual axis: ", quoted(name)));
    }
    if (!seen.insert(name).second) {
      return invalid(strCat("duplicate manual axis: ", quoted(name)));
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
