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
#include "shardkit/support/strings.h"

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

// Appends `operand-0` / `result-3`.
inline void appendTo(std::string& out, const EdgeValueRef& ref) {
  strAppend(out,
            ref.kind == EdgeValueRef::Kind::kOperand ? "operand-" : "result-",
            ref.index);
}

// Appends `"a" = operand-0 -> [result-0]`.
inline void appendTo(std::string& out, const AxisPropagation& entry) {
  appendTo(out, entry.axis);
  out += " = ";
  appendTo(out, entry.source);
  appendList(out, " -> [", entry.targets, appendPrintable, "]");
}

// Appends `{step-0 = [{...}, ...]}`.
inline void appendTo(std::string& out, const PropagationStep& step) {
  strAppend(out, "{step-", step.step, " = ");
  appendList(
      out, "[", step.axes,
      [](std::string& o, const AxisPropagation& entry) {
        o += '{';
        appendTo(o, entry);
        o += '}';
      },
      "]}");
}

// Appends the stripped form `<[{step-0 = [...]}, ...]>`.
inline void appendTo(std::string& out, const PropagationEdges& edges) {
  appendList(out, "<[", edges.steps, appendPrintable, "]>");
}

inline std::string toAttrString(const PropagationEdges& edges) {
  return "#sdy.propagation_edges" + toString(edges);
}

}  // namespace shardkit

#endif  // SHARDKIT_CORE_PROPAGATION_EDGES_H_
