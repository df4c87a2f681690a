// Verification of the debug records propagation leaves (see
// core/propagation_edges.h and docs/propagation.md, "Why a tensor got its
// sharding").
#ifndef SHARDKIT_CORE_VERIFY_DEBUG_INFO_H_
#define SHARDKIT_CORE_VERIFY_DEBUG_INFO_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/propagation_edges.h"
#include "shardkit/internal/core_verify_util.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// How many operands and results the op carrying the record has (nullopt: the
// carrier has no such count, e.g. a function result, and indices aren't
// checked).
struct EdgeValueCounts {
  int64_t operands = 0;
  int64_t results = 0;
};

namespace verify_internal {

inline absl::Status checkEdgeValueRef(const EdgeValueRef& ref,
                                      const EdgeValueCounts& counts) {
  bool operand = ref.kind == EdgeValueRef::Kind::kOperand;
  int64_t limit = operand ? counts.operands : counts.results;
  if (ref.index >= 0 && ref.index < limit) return absl::OkStatus();
  return invalid(strCat("expected a value ref to have ",
                        operand ? "an operand" : "a result",
                        " index in range [0, ", limit, "), got: ", ref.index));
}

// True if `axis` names an axis (or a valid sub-axis of one) of some mesh.
inline bool inSomeMesh(const AxisRef& axis, const MeshTable& meshes) {
  for (const std::string& name : meshes.names()) {
    const Mesh* mesh = meshes.find(name);
    if (!mesh || !mesh->hasAxis(axis.name)) continue;
    if (!axis.sub_axis_info) return true;
    if (checkSubAxis(axis, mesh->axisSize(axis.name)).ok()) return true;
  }
  return false;
}

// `x` or `x:(1)2`: how messages name an axis of a record.
inline std::string bareAxis(const AxisRef& axis) {
  std::string out = axis.name;
  if (axis.sub_axis_info) out += ":" + toString(*axis.sub_axis_info);
  return out;
}

}  // namespace verify_internal

// Step indices are non-negative and distinct; in each axis entry every axis
// is in one of `meshes`, the source is not a target, targets are distinct
// and, with `counts`, every operand/result index is in range.
inline absl::Status verifyPropagationEdges(
    const PropagationEdges& edges, const MeshTable& meshes,
    std::optional<EdgeValueCounts> counts) {
  using namespace verify_internal;
  std::vector<TripleKey> step_keys;
  step_keys.reserve(edges.steps.size());
  for (const PropagationStep& step : edges.steps) {
    step_keys.push_back({step.step, 0});
  }
  const std::vector<char> repeated_step = repeatsOf(step_keys);
  for (size_t i = 0; i < edges.steps.size(); ++i) {
    const PropagationStep& step = edges.steps[i];
    if (step.step < 0) {
      return invalid(
          strCat("propagation edges have negative step index: ", step.step));
    }
    if (repeated_step[i]) {
      return invalid(
          strCat("propagation edges have duplicate step index: ", step.step));
    }
    for (const AxisPropagation& entry : step.axes) {
      if (!inSomeMesh(entry.axis, meshes)) {
        return invalid("expected axis ref to be in one of the meshes");
      }
      if (std::find(entry.targets.begin(), entry.targets.end(), entry.source) !=
          entry.targets.end()) {
        return invalid(
            "propagation edges have a source that is the same as a target");
      }
      std::vector<TripleKey> target_keys;
      target_keys.reserve(entry.targets.size());
      for (const EdgeValueRef& target : entry.targets) {
        target_keys.push_back(
            {static_cast<int64_t>(target.kind), target.index});
      }
      const std::vector<char> repeated = repeatsOf(target_keys);
      if (std::find(repeated.begin(), repeated.end(), 1) != repeated.end()) {
        return invalid(
            strCat("propagation edges have duplicate targets for step index: ",
                   step.step, " and axis: ", bareAxis(entry.axis)));
      }
      if (!counts) continue;
      SK_RETURN_IF_ERROR(checkEdgeValueRef(entry.source, *counts));
      for (const EdgeValueRef& target : entry.targets) {
        SK_RETURN_IF_ERROR(checkEdgeValueRef(target, *counts));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_VERIFY_DEBUG_INFO_H_
