// The communication a module's sdy collectives cost (sim/comm_cost.h's ring
// figures), as shardkit-opt's `--comm-report=OUT.json` writes it:
//
//   {"collectives": [{"op": OP NAME, "loc": "f.mlir:5:3", "axes": ["x"],
//                     "local_bytes_in": 128,
//                     "bytes_received_per_device": 384}, ...],
//    "total_bytes_received_per_device": 384}
#ifndef SHARDKIT_PASSES_COMM_REPORT_H_
#define SHARDKIT_PASSES_COMM_REPORT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

struct CommReportEntry {
  std::string op;                 // `sdy.all_gather`
  std::string loc;                // `FILE:LINE:COL` of the op
  std::vector<std::string> axes;  // `x`, `y:(2)2`, in the op's order
  int64_t local_bytes_in = 0;
  double bytes_received_per_device = 0;
};

// One entry per sdy collective of the module, in program order. The operand
// of a collective is taken as its sharding says (open on the collective's
// mesh if it has none). InvalidArgument (at the op) for a collective on a
// tensor with a dynamic shape, an element type of unknown size or an unknown
// mesh.
absl::StatusOr<std::vector<CommReportEntry>> communicationReport(
    Module& module);

// Communication the report cannot price because the module holds no
// collective for it: an `sdy.reshard` not lowered to collectives, or an op
// that reduces over sharded axes (a dot's sharded contracting dimension)
// with no `sdy.all_reduce` after it. Each message names the pass (and
// option) that inserts the collectives. In program order.
struct CommReportGap {
  DiagnosticLocation location;
  std::string message;
};
std::vector<CommReportGap> communicationReportGaps(Module& module);

// The report as JSON (see the top of this file).
std::string commReportJson(absl::Span<const CommReportEntry> entries);

}  // namespace shardkit

#endif  // SHARDKIT_PASSES_COMM_REPORT_H_
