#include "shardkit/core/axis_ref.h"

namespace shardkit {

bool operator<(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return a.name < b.name;
  if (!a.sub_axis_info) return false;
  if (!b.sub_axis_info) return true;
  return *a.sub_axis_info < *b.sub_axis_info;
}

bool contains(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return false;
  if (!a.sub_axis_info) return true;
  if (!b.sub_axis_info) return false;
  return a.sub_axis_info->pre_size <= b.sub_axis_info->pre_size &&
         a.sub_axis_info->nextPreSize() >= b.sub_axis_info->nextPreSize();
}

bool overlaps(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return false;
  if (!a.sub_axis_info || !b.sub_axis_info) return true;
  return a.sub_axis_info->pre_size < b.sub_axis_info->nextPreSize() &&
         b.sub_axis_info->pre_size < a.sub_axis_info->nextPreSize();
}

bool isPrefixOf(const AxisRef& a, const AxisRef& b) {
  return contains(b, a) && a.preSize() == b.preSize();
}

bool isSuffixOf(const AxisRef& a, const AxisRef& b, const Mesh& mesh) {
  return contains(b, a) && a.nextPreSize(mesh) == b.nextPreSize(mesh);
}

bool canMerge(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name || !a.sub_axis_info || !b.sub_axis_info) return false;
  return a.sub_axis_info->nextPreSize() == b.sub_axis_info->pre_size;
}

AxisRef makeAxisRef(std::string_view name, int64_t pre_size, int64_t size,
                    const Mesh& mesh) {
  if (pre_size == 1 && size == mesh.axisSize(name)) {
    return AxisRef(std::string(name));
  }
  return AxisRef(std::string(name), pre_size, size);
}

AxisRef merge(const AxisRef& a, const AxisRef& b, const Mesh& mesh) {
  return makeAxisRef(a.name, a.sub_axis_info->pre_size,
                     a.sub_axis_info->size * b.sub_axis_info->size, mesh);
}

std::optional<AxisRef> prefixWithoutOverlap(const AxisRef& a,
                                            const AxisRef& b) {
  if (!overlaps(a, b)) return a;
  int64_t a_pre = a.preSize();
  int64_t b_pre = b.preSize();
  if (a_pre >= b_pre) return std::nullopt;
  return AxisRef(a.name, a_pre, b_pre / a_pre);
}

std::optional<AxisRef> greatestCommonPrefix(const AxisRef& a,
                                            const AxisRef& b) {
  if (isPrefixOf(a, b)) return a;
  if (isPrefixOf(b, a)) return b;
  return std::nullopt;
}

bool MeshAxisLess::operator()(const AxisRef& a, const AxisRef& b) const {
  if (a.name == b.name) {
    if (!a.sub_axis_info) return false;
    if (!b.sub_axis_info) return true;
    return *a.sub_axis_info < *b.sub_axis_info;
  }
  int ia = mesh_->axisIndex(a.name);
  int ib = mesh_->axisIndex(b.name);
  if (ia < 0 && ib < 0) return a.name < b.name;
  if (ia < 0) return false;
  if (ib < 0) return true;
  return ia < ib;
}

}  // namespace shardkit
