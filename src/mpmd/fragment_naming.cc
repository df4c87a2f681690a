// The names of the functions made of fragments (fragment_naming.h).
#include "src/mpmd/fragment_naming.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace shardkit::mpmd::mpmd_internal {
namespace {

// `abc_12` splits into `abc` and 12; nullopt when there is no such suffix.
std::optional<std::pair<std::string, int64_t>> splitCounter(
    const std::string& name) {
  size_t sep = name.find_last_of('_');
  if (sep == std::string::npos || sep + 1 == name.size()) return std::nullopt;
  std::string digits = name.substr(sep + 1);
  if (!std::all_of(digits.begin(), digits.end(),
                   [](char c) { return std::isdigit(c); }) ||
      digits.size() > 18) {
    return std::nullopt;
  }
  return std::make_pair(name.substr(0, sep), std::stoll(digits));
}

std::string mostFrequentName(const std::vector<UserOrigin>& origins) {
  // Names in sorted order so that ties go to the first name.
  std::map<std::string, std::vector<std::optional<int64_t>>> counters_of;
  bool backward = true;
  for (const UserOrigin& origin : origins) {
    auto split = splitCounter(origin.name);
    std::string head = split ? split->first : origin.name;
    counters_of[head].push_back(split ? std::optional(split->second)
                                      : std::nullopt);
    backward = backward && origin.transpose_count == 1;
  }
  std::string tail = counters_of.size() == 1 ? "" : "...";
  auto best = counters_of.begin();
  for (auto it = counters_of.begin(); it != counters_of.end(); ++it) {
    if (it->second.size() > best->second.size()) best = it;
  }
  std::set<int64_t> counters;
  for (const std::optional<int64_t>& c : best->second) {
    if (c) counters.insert(*c);
  }
  if (counters.empty()) return best->first + tail;
  std::string min = std::to_string(*counters.begin());
  std::string max = std::to_string(*counters.rbegin());
  if (counters.size() == 1) return best->first + "_" + min + tail;
  return best->first + "_" + (backward ? max + ":" + min : min + ":" + max) +
         tail;
}

std::string phaseName(int64_t transpose_count) {
  if (transpose_count == 0) return "fwd";
  if (transpose_count == 1) return "bwd";
  return "transpose" + std::to_string(transpose_count);
}

// `call<N>`, `calls<A>to<B>`, `calls<B>from<A>` for the call sites of one
// mesh, or nullopt.
std::optional<std::string> meshSummary(const std::vector<CallSite>& sites) {
  if (sites.size() == 1) {
    if (!sites[0].second) return std::nullopt;
    return "call" + std::to_string(*sites[0].second);
  }
  for (const CallSite& site : sites) {
    if (site.first != sites[0].first || !site.second) return std::nullopt;
  }
  bool ascending = true, descending = true;
  for (size_t i = 1; i < sites.size(); ++i) {
    ascending = ascending && *sites[i - 1].second + 1 == *sites[i].second;
    descending = descending && *sites[i - 1].second - 1 == *sites[i].second;
  }
  std::string first = std::to_string(*sites.front().second);
  std::string last = std::to_string(*sites.back().second);
  if (ascending) return "calls" + first + "to" + last;
  if (descending) return "calls" + first + "from" + last;
  return std::nullopt;
}

}  // namespace

std::string fragmentName(const std::vector<UserOrigin>& origins,
                         std::optional<int64_t> stage,
                         std::optional<std::string> inferred_by,
                         bool all_forward) {
  std::vector<std::string> parts;
  if (stage) {
    parts.push_back("stage" + std::to_string(*stage));
  } else if (origins.empty()) {
    parts.push_back(inferred_by ? "inferred_by_" + *inferred_by : "inferred");
  } else {
    parts.push_back(mostFrequentName(origins));
  }
  if (!all_forward) {
    std::set<int64_t> phases;
    for (const UserOrigin& origin : origins) {
      phases.insert(origin.transpose_count);
    }
    for (int64_t phase : phases) parts.push_back(phaseName(phase));
  }
  std::string name;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) name += "_";
    name += parts[i];
  }
  return name;
}

std::string callSitesSummaryName(const MeshCallSites& sites) {
  std::set<std::string> names, summaries;
  bool unsummarized = false;
  for (const auto& [mesh, mesh_sites] : sites) {
    names.insert(mesh_sites.front().first);
    if (std::optional<std::string> summary = meshSummary(mesh_sites)) {
      summaries.insert(*summary);
    } else {
      unsummarized = true;
    }
  }
  std::string name = names.empty() ? "" : *names.begin();
  if (summaries.size() == 1 && !unsummarized) {
    return name + "_" + *summaries.begin();
  }
  return name;
}

std::string truncateName(std::string_view text, size_t max_length) {
  constexpr std::string_view kEllipsis = "<...>";
  if (text.size() <= max_length) return std::string(text);
  return std::string(text.substr(0, max_length - kEllipsis.size())) +
         std::string(kEllipsis);
}

std::string prettyOrigins(const std::vector<UserOrigin>& origins,
                          bool all_forward) {
  std::string out = "[";
  for (size_t i = 0; i < origins.size(); ++i) {
    if (i > 0) out += ", ";
    out += origins[i].name;
    if (all_forward) continue;
    int64_t count = origins[i].transpose_count;
    out += "(";
    out += count <= 1 ? phaseName(count)
                      : "TransposeCount=" + std::to_string(count);
    out += ")";
  }
  return out + "]";
}

}  // namespace shardkit::mpmd::mpmd_internal
