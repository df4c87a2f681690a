// Diagnostics located at an op: `FILE:LINE:COL: error: MESSAGE`, the form
// shardkit-opt prints and lit's -verify-diagnostics reads.
#ifndef SHARDKIT_IR_DIAGNOSTIC_H_
#define SHARDKIT_IR_DIAGNOSTIC_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

// `FILE:LINE:COL` of `op` in its module's source (1:1 for an op built in
// C++).
std::string opLocation(Op op);

// InvalidArgument `FILE:LINE:COL: error: 'op.name' op MESSAGE`.
absl::Status opError(Op op, std::string_view message);

// InvalidArgument `FILE:LINE:COL: error: MESSAGE` (no op-name prefix).
absl::Status locatedError(Op op, std::string_view message);

}  // namespace shardkit

#endif  // SHARDKIT_IR_DIAGNOSTIC_H_
