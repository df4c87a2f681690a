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
#include "shardkit/core/value_list.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// One axis list per tensor dimension, e.g. all_gather's gathering axes.
using ListOfAxisRefLists = ValueList<AxisRefList, struct ListOfAxisRefListsTag>;

// The mesh axes a manual computation is manual on (full axes, by name).
using ManualAxes = ValueList<std::string, struct ManualAxesTag>;

// One all-to-all: move `axes` from dimension `src_dim` to `tgt_dim`.
struct AllToAllParam {
  AxisRefVector axes;
  int64_t src_dim = 0;
  int64_t tgt_dim = 0;

  friend bool operator==(const AllToAllParam&, const AllToAllParam&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const AllToAllParam& p) {
    return H::combine(std::move(h), p.axes, p.src_dim, p.tgt_dim);
  }
};

using AllToAllParamList = ValueList<AllToAllParam, struct AllToAllParamListTag>;

// Appends `[{}, {"x"}]`.
inline void appendTo(std::string& out, const ListOfAxisRefLists& lists) {
  appendList(out, "[", lists, appendPrintable, "]");
}
// Appends `{"a", "b"}`.
inline void appendTo(std::string& out, const ManualAxes& axes) {
  appendList(out, "{", axes, appendQuoted, "}");
}
// Appends `{"b"}: 0->2`.
inline void appendTo(std::string& out, const AllToAllParam& param) {
  appendBracedAxisList(out, param.axes);
  strAppend(out, ": ", param.src_dim, "->", param.tgt_dim);
}
// Appends `[{"b"}: 0->2, ...]`.
inline void appendTo(std::string& out, const AllToAllParamList& params) {
  appendList(out, "[", params, appendPrintable, "]");
}

}  // namespace shardkit

SHARDKIT_DEFINE_FORMATTER(shardkit::ListOfAxisRefLists);
SHARDKIT_DEFINE_FORMATTER(shardkit::ManualAxes);
SHARDKIT_DEFINE_FORMATTER(shardkit::AllToAllParamList);

#endif  // SHARDKIT_CORE_COLLECTIVE_PARAMS_H_
