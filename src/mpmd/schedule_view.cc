// The timeline of a scheduled program and its JSON and SVG forms
// (schedule_view.h).
#include "shardkit/mpmd/schedule_view.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "src/mpmd/fragment_naming.h"
#include "src/mpmd/optimize_utils.h"

namespace shardkit::mpmd {
namespace {

FuncOp scheduledFunction(Module& module) {
  std::vector<FuncOp> entries = entryPointFunctions(module);
  for (FuncOp f : entries) {
    if (f.name() == "main") return f;
  }
  return entries.empty() ? FuncOp() : entries.front();
}

std::string phaseOf(Op fragment) {
  if (mpmd_internal::isForwardFragment(fragment)) return "forward";
  if (mpmd_internal::isBackwardFragment(fragment)) return "backward";
  return "other";
}

// Simulates the body of `func` (see the header for the time model).
class Simulator {
 public:
  explicit Simulator(ScheduleView& view) : view_(view) {}

  void run(FuncOp func) {
    for (Op op : func.body()) {
      if (isa<FragmentOp>(op)) {
        fragment(op);
      } else if (isa<TransferOp>(op)) {
        ready_[op.result(0)] = readyOf(op.operand(0));
        producer_[op.result(0)] = producerOf(op.operand(0));
      }
    }
    double busy = 0;
    for (const ScheduledFragment& f : view_.fragments) {
      view_.makespan = std::max(view_.makespan, f.end);
      busy += f.end - f.start;
    }
    double capacity = view_.makespan * static_cast<double>(view_.meshes.size());
    view_.bubble_fraction = capacity > 0 ? 1 - busy / capacity : 0;
  }

 private:
  void fragment(Op op) {
    FragmentOp handle(op);
    ScheduledFragment f;
    f.id = static_cast<int64_t>(view_.fragments.size());
    f.mesh = std::string(handle.meshName());
    f.origins = mpmd_internal::prettyOrigins(handle.origins(), true);
    f.phase = phaseOf(op);
    f.microbatch = mpmd_internal::callCounterOf(op);
    f.stage = handle.stageId();
    double start = mesh_free_[f.mesh];
    for (Value operand : op.operands()) {
      start = std::max(start, readyOf(operand));
      int64_t from = producerOf(operand);
      if (from >= 0 && view_.fragments[from].mesh != f.mesh) {
        view_.transfers.push_back({from, f.id});
      }
    }
    f.start = start;
    f.end = start + 1;
    mesh_free_[f.mesh] = f.end;
    for (Value result : op.results()) {
      ready_[result] = f.end;
      producer_[result] = f.id;
    }
    view_.fragments.push_back(std::move(f));
  }

  double readyOf(Value v) const {
    auto it = ready_.find(v);
    return it == ready_.end() ? 0 : it->second;
  }
  int64_t producerOf(Value v) const {
    auto it = producer_.find(v);
    return it == producer_.end() ? -1 : it->second;
  }

  ScheduleView& view_;
  std::map<std::string, double> mesh_free_;
  absl::flat_hash_map<Value, double> ready_;
  absl::flat_hash_map<Value, int64_t> producer_;
};

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string optionalNumber(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : "null";
}

// Escapes text for SVG.
std::string xmlText(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

}  // namespace

absl::StatusOr<ScheduleView> computeScheduleView(Module& module) {
  FuncOp func = scheduledFunction(module);
  if (!func || !func.body()) {
    return absl::InvalidArgumentError(
        "--dump-schedule needs an mpmd entry point (a public function with a "
        "topology)");
  }
  ScheduleView view;
  view.function = std::string(func.name());
  if (std::optional<Topology> topology = topologyOf(func)) {
    for (const NamedMesh& mesh : topology->meshes) {
      view.meshes.push_back(mesh.name);
    }
  }
  Simulator(view).run(func);
  return view;
}

std::string scheduleJson(const ScheduleView& view) {
  std::string out =
      "{\n  \"function\": " + quoted(view.function) + ",\n  \"meshes\": [";
  for (size_t i = 0; i < view.meshes.size(); ++i) {
    out += (i ? ", " : "") + quoted(view.meshes[i]);
  }
  out += "],\n  \"makespan\": " + number(view.makespan) +
         ",\n  \"bubble_fraction\": " + number(view.bubble_fraction) +
         ",\n  \"fragments\": [";
  for (size_t i = 0; i < view.fragments.size(); ++i) {
    const ScheduledFragment& f = view.fragments[i];
    out +=
        std::string(i ? "," : "") + "\n    {\"id\": " + std::to_string(f.id) +
        ", \"mesh\": " + quoted(f.mesh) +
        ", \"origins\": " + quoted(f.origins) +
        ", \"phase\": " + quoted(f.phase) +
        ", \"microbatch\": " + optionalNumber(f.microbatch) +
        ", \"stage\": " + optionalNumber(f.stage) +
        ", \"start\": " + number(f.start) + ", \"end\": " + number(f.end) + "}";
  }
  out += "\n  ],\n  \"transfers\": [";
  for (size_t i = 0; i < view.transfers.size(); ++i) {
    out += std::string(i ? ", " : "") +
           "{\"from\": " + std::to_string(view.transfers[i].from) +
           ", \"to\": " + std::to_string(view.transfers[i].to) + "}";
  }
  return out + "]\n}\n";
}

std::string scheduleSvg(const ScheduleView& view) {
  constexpr double kUnit = 36, kRow = 40, kLeft = 60, kTop = 20;
  std::map<std::string, size_t> row;
  for (size_t i = 0; i < view.meshes.size(); ++i) row[view.meshes[i]] = i;
  auto rowOf = [&](const std::string& mesh) {
    auto it = row.find(mesh);
    return static_cast<double>(it == row.end() ? 0 : it->second);
  };
  double width = kLeft + kUnit * view.makespan + 20;
  double height = kTop + kRow * static_cast<double>(view.meshes.size()) + 40;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    number(width) + "\" height=\"" + number(height) +
                    "\" font-family=\"sans-serif\" " + "font-size=\"11\">\n";
  out +=
      "<defs><marker id=\"arrow\" markerWidth=\"6\" markerHeight=\"6\" "
      "refX=\"6\" refY=\"3\" orient=\"auto\"><path d=\"M0,0 L6,3 L0,6 z\" "
      "fill=\"#555\"/></marker></defs>\n";
  for (size_t i = 0; i < view.meshes.size(); ++i) {
    out += "<text x=\"4\" y=\"" +
           number(kTop + kRow * static_cast<double>(i) + 22) + "\">" +
           xmlText(view.meshes[i]) + "</text>\n";
  }
  for (const ScheduledFragment& f : view.fragments) {
    double x = kLeft + kUnit * f.start, y = kTop + kRow * rowOf(f.mesh);
    std::string fill = f.phase == "forward"    ? "#8ecae6"
                       : f.phase == "backward" ? "#ffb703"
                                               : "#cccccc";
    std::string label = (f.phase == "backward" ? "B" : "F") +
                        (f.microbatch ? std::to_string(*f.microbatch) : "");
    out += "<rect x=\"" + number(x + 1) + "\" y=\"" + number(y + 4) +
           "\" width=\"" + number(kUnit * (f.end - f.start) - 2) +
           "\" height=\"" + number(kRow - 8) + "\" fill=\"" + fill +
           "\" stroke=\"#333\"><title>" + xmlText(f.origins) +
           (f.stage ? " stage " + std::to_string(*f.stage) : "") +
           "</title></rect>\n";
    out += "<text x=\"" + number(x + kUnit / 2) + "\" y=\"" +
           number(y + kRow / 2 + 4) + "\" text-anchor=\"middle\">" +
           xmlText(label) + "</text>\n";
  }
  for (const ScheduledTransfer& t : view.transfers) {
    const ScheduledFragment& a = view.fragments[t.from];
    const ScheduledFragment& b = view.fragments[t.to];
    out += "<line x1=\"" + number(kLeft + kUnit * a.end) + "\" y1=\"" +
           number(kTop + kRow * rowOf(a.mesh) + kRow / 2) + "\" x2=\"" +
           number(kLeft + kUnit * b.start) + "\" y2=\"" +
           number(kTop + kRow * rowOf(b.mesh) + kRow / 2) +
           "\" stroke=\"#555\" stroke-width=\"0.8\" "
           "marker-end=\"url(#arrow)\"/>\n";
  }
  out += "<text x=\"" + number(kLeft) + "\" y=\"" + number(height - 12) +
         "\">" + xmlText(view.function) + ": makespan " +
         number(view.makespan) + ", bubble " + number(view.bubble_fraction) +
         "</text>\n</svg>\n";
  return out;
}

}  // namespace shardkit::mpmd
