// PropagationEdges: the record `debug-propagation-edge-sharding` leaves on an
// op (`sdy.propagation_edges`): for each propagation step that changed one of
// the op's operands or results, which axis went from which operand or result
// to which others.
//
//   #sdy.propagation_edges<[{step-1 = [{"a" = operand-0 -> [result-0]},
//                                      {"b" = result-0 -> [operand-0]}]},
//                           {step-4 = [{"c":(1)2 = operand-1 -> [result-0]}]}]>
//
// Steps are numbered per propagation pass in the order they happened (only
// steps that changed a sharding count), so reading the steps of all ops in
// increasing order replays the propagation.
#ifndef SHARDKIT_CORE_PROPAGATION_EDGES_H_
#define SHARDKIT_CORE_PROPAGATION_EDGES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "shardkit/core/axis_ref.h"
#include "shardkit/core/formatter.h"
#include "shardkit/core/strings.h"

namespace shardkit {

// `operand-2` or `result-0`: one end of an edge. Operands order before
// results.
struct EdgeValueRef {
  enum class Kind { kOperand, kResult };
  Kind kind = Kind::kOperand;
  int64_t index = 0;

  static EdgeValueRef operand(int64_t i) { return {Kind::kOperand, i}; }
  static EdgeValueRef result(int64_t i) { return {Kind::kResult, i}; }

  friend bool operator==(const EdgeValueRef&, const EdgeValueRef&) = default;
  friend auto operator<=>(const EdgeValueRef&, const EdgeValueRef&) = default;
};

// `"a" = operand-0 -> [operand-1, result-0]`: in one step, `axis` went from
// `source` to each of `targets`.
struct AxisPropagation {
  AxisRef axis;
  EdgeValueRef source;
  std::vector<EdgeValueRef> targets;

  friend bool operator==(const AxisPropagation&,
                         const AxisPropagation&) = default;
};

// `step-N = [...]`.
struct PropagationStep {
  int64_t step = 0;
  std::vector<AxisPropagation> axes;

  friend bool operator==(const PropagationStep&,
                         const PropagationStep&) = default;
};

struct PropagationEdges {
  std::vector<PropagationStep> steps;

  bool empty() const { return steps.empty(); }
  // The largest step index, or -1 when there is none.
  int64_t lastStep() const {
    int64_t last = -1;
    for (const PropagationStep& s : steps) last = s.step > last ? s.step : last;
    return last;
  }

  friend bool operator==(const PropagationEdges&,
                         const PropagationEdges&) = default;
};

// `operand-0` / `result-3`.
inline std::string toString(const EdgeValueRef& ref) {
  return strCat(
      ref.kind == EdgeValueRef::Kind::kOperand ? "operand-" : "result-",
      ref.index);
}

// `"a" = operand-0 -> [result-0]`.
inline std::string toString(const AxisPropagation& entry) {
  std::string out = toString(entry.axis);
  strAppend(out, " = ", toString(entry.source), " -> [");
  for (size_t i = 0; i < entry.targets.size(); ++i) {
    if (i) out += ", ";
    out += toString(entry.targets[i]);
  }
  out += ']';
  return out;
}

// The stripped form `<[{step-0 = [...]}, ...]>`.
inline std::string toString(const PropagationEdges& edges) {
  std::string out = "<[";
  for (size_t s = 0; s < edges.steps.size(); ++s) {
    if (s) out += ", ";
    strAppend(out, "{step-", edges.steps[s].step, " = [");
    const std::vector<AxisPropagation>& axes = edges.steps[s].axes;
    for (size_t a = 0; a < axes.size(); ++a) {
      if (a) out += ", ";
      strAppend(out, "{", toString(axes[a]), "}");
    }
    out += "]}";
  }
  out += "]>";
  return out;
}

inline std::string toAttrString(const PropagationEdges& edges) {
  return "#sdy.propagation_edges" + toString(edges);
}

}  // namespace shardkit

SHARDKIT_DEFINE_FORMATTER(shardkit::EdgeValueRef);
SHARDKIT_DEFINE_FORMATTER(shardkit::AxisPropagation);
SHARDKIT_DEFINE_FORMATTER(shardkit::PropagationEdges);

#endif  // SHARDKIT_CORE_PROPAGATION_EDGES_H_
