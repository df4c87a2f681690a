// shardkit-opt's --comm-report (see the header).
#include "shardkit/passes/comm_report.h"

#include <cmath>
#include <optional>

#include "fmt/format.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/sim/comm_cost.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/support/utf8.h"
#include "src/passes/export/collective_ops.h"

namespace shardkit {
namespace {

absl::StatusOr<CommReportEntry> entryFor(Op op, const Collective& c,
                                         const MeshTable& meshes) {
  Value operand = op.operand(0);
  Type type = operand.type();
  if (!type.isRankedTensor() || !type.hasStaticShape()) {
    return opError(op, "needs a statically shaped tensor for its cost");
  }
  std::optional<int64_t> element_bytes = elementByteSize(type.elementType());
  if (!element_bytes) {
    return opError(
        op, strCat("has elements of unknown size: ", type.elementType()));
  }
  std::optional<TensorSharding> sharding = getSharding(operand);
  if (!sharding) {
    sharding = TensorSharding::fullyOpen(c.out_sharding.mesh, type.rank());
  }
  const Mesh* mesh = meshes.resolve(*sharding);
  const Mesh* target_mesh = meshes.resolve(c.out_sharding);
  if (mesh == nullptr || target_mesh == nullptr) {
    return opError(op, "names a mesh that does not exist");
  }
  absl::StatusOr<CommCost> cost = communicationCost(
      c, *sharding, *mesh, *target_mesh, type.shape(), *element_bytes);
  if (!cost.ok()) return opError(op, fromAbsl(cost.status().message()));
  CommReportEntry entry;
  entry.op = std::string(op.name());
  entry.loc = toString(locationOf(op));
  for (const AxisRef& axis : collectiveAxes(c)) {
    entry.axes.push_back(axis.name);
    if (const std::optional<SubAxisInfo>& sub = axis.sub_axis_info) {
      entry.axes.back() += strCat(":(", sub->pre_size, ")", sub->size);
    }
  }
  entry.local_bytes_in = cost->local_bytes_in;
  entry.bytes_received_per_device = cost->bytes_received_per_device;
  return entry;
}

std::string number(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e18) {
    return fmt::format("{}", static_cast<int64_t>(value));
  }
  return fmt::format("{}", value);
}

}  // namespace

absl::StatusOr<std::vector<CommReportEntry>> communicationReport(
    Module& module) {
  MeshTable meshes = module.meshTable();
  std::vector<CommReportEntry> entries;
  absl::Status status;
  module.walk([&](Op op) {
    if (!status.ok()) return;
    std::optional<Collective> c = passes_internal::collectiveOf(op);
    if (!c) return;
    absl::StatusOr<CommReportEntry> entry = entryFor(op, *c, meshes);
    if (!entry.ok()) {
      status = entry.status();
      return;
    }
    entries.push_back(*std::move(entry));
  });
  SK_RETURN_IF_ERROR(status);
  return entries;
}

std::string commReportJson(absl::Span<const CommReportEntry> entries) {
  std::string out = "{\n  \"collectives\": [";
  double total = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    const CommReportEntry& e = entries[i];
    out += i ? ",\n    {" : "\n    {";
    out += "\"op\": ";
    appendJsonString(out, e.op);
    out += ", \"loc\": ";
    appendJsonString(out, e.loc);
    out += ", \"axes\": [";
    for (size_t a = 0; a < e.axes.size(); ++a) {
      if (a) out += ", ";
      appendJsonString(out, e.axes[a]);
    }
    out += fmt::format("], \"local_bytes_in\": {}", e.local_bytes_in);
    out += ", \"bytes_received_per_device\": " +
           number(e.bytes_received_per_device) + "}";
    total += e.bytes_received_per_device;
  }
  out += entries.empty() ? "],\n" : "\n  ],\n";
  out += "  \"total_bytes_received_per_device\": " + number(total) + "\n}\n";
  return out;
}

}  // namespace shardkit
