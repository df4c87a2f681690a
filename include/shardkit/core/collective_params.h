// The parameters of sdy collectives and manual computations:
// ListOfAxisRefLists (`[{}, {"x"}]`), ManualAxes (`{"a", "b"}`),
// AllToAllParam (`{"b"}: 0->2`) and AllToAllParamList.
#ifndef SHARDKIT_CORE_COLLECTIVE_PARAMS_H_
#define SHARDKIT_CORE_COLLECTIVE_PARAMS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/core/axis_ref.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/formatter.h"
#include "shardkit/core/strings.h"

namespace shardkit {

// One axis list per tensor dimension, e.g. all_gather's gathering axes.
struct ListOfAxisRefLists {
  std::vector<AxisRefList> lists;

  ListOfAxisRefLists() = default;
  explicit ListOfAxisRefLists(std::vector<AxisRefList> lists)
      : lists(std::move(lists)) {}

  friend bool operator==(const ListOfAxisRefLists&,
                         const ListOfAxisRefLists&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const ListOfAxisRefLists& l) {
    return H::combine(std::move(h), l.lists);
  }
};

// The mesh axes a manual computation is manual on (full axes, by name).
struct ManualAxes {
  std::vector<std::string> names;

  ManualAxes() = default;
  explicit ManualAxes(std::vector<std::string> names)
      : names(std::move(names)) {}

  bool contains(std::string_view name) const {
    for (const std::string& n : names) {
      if (n == name) return true;
    }
    return false;
  }
  friend bool operator==(const ManualAxes&, const ManualAxes&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const ManualAxes& m) {
    return H::combine(std::move(h), m.names);
  }
};

// One all-to-all: move `axes` from dimension `src_dim` to `tgt_dim`.
struct AllToAllParam {
  std::vector<AxisRef> axes;
  int64_t src_dim = 0;
  int64_t tgt_dim = 0;

  friend bool operator==(const AllToAllParam&, const AllToAllParam&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const AllToAllParam& p) {
    return H::combine(std::move(h), p.axes, p.src_dim, p.tgt_dim);
  }
};

struct AllToAllParamList {
  std::vector<AllToAllParam> params;

  AllToAllParamList() = default;
  explicit AllToAllParamList(std::vector<AllToAllParam> params)
      : params(std::move(params)) {}

  friend bool operator==(const AllToAllParamList&,
                         const AllToAllParamList&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const AllToAllParamList& l) {
    return H::combine(std::move(h), l.params);
  }
};

// Appends `[{}, {"x"}]`.
inline void appendTo(std::string& out, const ListOfAxisRefLists& lists) {
  appendList(out, "[", lists.lists, appendPrintable, "]");
}
// Appends `{"a", "b"}`.
inline void appendTo(std::string& out, const ManualAxes& axes) {
  appendList(out, "{", axes.names, appendQuoted, "}");
}
// Appends `{"b"}: 0->2`.
inline void appendTo(std::string& out, const AllToAllParam& param) {
  appendBracedAxisList(out, param.axes);
  strAppend(out, ": ", param.src_dim, "->", param.tgt_dim);
}
// Appends `[{"b"}: 0->2, ...]`.
inline void appendTo(std::string& out, const AllToAllParamList& params) {
  appendList(out, "[", params.params, appendPrintable, "]");
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_COLLECTIVE_PARAMS_H_
