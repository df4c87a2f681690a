// Internal to the mpmd layer: what identifies a fragment to the rule-based
// passes (its origins, stage, call counter, weight-gradient half and mesh),
// and the text of the rules that name fragments that way:
//
//   FragmentInfo(origins=["f","g"(1)],stage=0,call_counter=2,
//                is_weight_gradient=true,mesh_name="m1")
//   FragmentMergeRule(sources=[FragmentInfo(...),...],target=FragmentInfo(...))
//
// Every field after origins is optional.
#ifndef SHARDKIT_SRC_MPMD_FRAGMENT_INFO_H_
#define SHARDKIT_SRC_MPMD_FRAGMENT_INFO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/ir/graph.h"

namespace shardkit::mpmd::mpmd_internal {

struct FragmentInfo {
  // Sorted by name, then transpose count.
  std::vector<UserOrigin> origins;
  std::optional<int64_t> stage_id;
  std::optional<int64_t> call_counter;
  bool is_weight_gradient = false;
  std::optional<std::string> mesh_name;
  friend bool operator==(const FragmentInfo&, const FragmentInfo&) = default;
};

struct FragmentMergeRule {
  std::vector<FragmentInfo> sources;
  FragmentInfo target;
};

// The info of a fragment (its mesh always set).
FragmentInfo fragmentInfoOf(Op fragment);
// Gives `fragment` the origins, stage, call counter and weight-gradient mark
// of `info` (removing those `info` leaves out).
void setFragmentInfo(Op fragment, const FragmentInfo& info);

// True if `fragment_info` (of a fragment) is what `pattern` names: the same
// origins, stage, call counter and weight-gradient mark, and the same mesh
// when `pattern` names one.
bool matches(const FragmentInfo& pattern, const FragmentInfo& fragment_info);

// A comma-separated list of FragmentMergeRule(...).
absl::StatusOr<std::vector<FragmentMergeRule>> parseFragmentMergeRules(
    std::string_view text);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_FRAGMENT_INFO_H_
