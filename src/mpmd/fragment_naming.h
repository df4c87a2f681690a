// Internal to the mpmd layer: the names -mpmd-lower-to-fragment-calls gives
// the functions it makes of fragments, built from the fragments' origins,
// stages and call counters (docs/mpmd.md, "Export").
#ifndef SHARDKIT_SRC_MPMD_FRAGMENT_NAMING_H_
#define SHARDKIT_SRC_MPMD_FRAGMENT_NAMING_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/dialect/mpmd/mpmd_attrs.h"

namespace shardkit::mpmd::mpmd_internal {

// A fragment's name and its call counter, if it has one.
using CallSite = std::pair<std::string, std::optional<int64_t>>;
// The call sites of one group of equal fragments, per mesh (by name).
using MeshCallSites = std::map<std::string, std::vector<CallSite>>;

// The name of one fragment: `stage<N>` when it has a stage; `inferred` (or
// `inferred_by_<pass>`) without origins; else the most frequent origin name,
// with the range of the counters of `name_<counter>` origins and `...` when
// there are other names. In a program that is not forward-only, the phases
// of its origins follow (`_fwd`, `_bwd`, `_transpose<N>`).
std::string fragmentName(const std::vector<UserOrigin>& origins,
                         std::optional<int64_t> stage,
                         std::optional<std::string> inferred_by,
                         bool all_forward);

// The name of a group: the first (in name order) of its first names per
// mesh, with `_call<N>`, `_calls<A>to<B>` or `_calls<B>from<A>` when every
// mesh's call sites share one such summary.
std::string callSitesSummaryName(const MeshCallSites& sites);

// `text` cut to `max_length` characters, ending in `<...>` when cut.
std::string truncateName(std::string_view text, size_t max_length);

// `[a(fwd), b(bwd)]`, the origins as the verbose schedule log prints them
// (phases only when the program is not forward-only).
std::string prettyOrigins(const std::vector<UserOrigin>& origins,
                          bool all_forward);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_FRAGMENT_NAMING_H_
