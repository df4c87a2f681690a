// Verification of a whole module: every sdy attribute against the types it
// describes and the mesh it names, and every sdy op's constraints (seed 000).
#ifndef SHARDKIT_IR_VERIFY_H_
#define SHARDKIT_IR_VERIFY_H_

#include "absl/status/status.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

// OK, or InvalidArgument carrying one Diagnostic per violation
// (diagnostic.h), located at the op that violates it.
absl::Status verifyModule(Module& module);

// Verifies one op (not its regions' ops); an error is located at `op`.
absl::Status verifyOp(Op op, const MeshTable& meshes);

}  // namespace shardkit

#endif  // SHARDKIT_IR_VERIFY_H_
