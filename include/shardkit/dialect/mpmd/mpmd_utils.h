// What the mpmd verifiers and passes ask about functions and meshes: which
// functions are mpmd (have a topology) or entry points, the mesh of a name in
// the enclosing topology, the callee of a call.
#ifndef SHARDKIT_DIALECT_MPMD_MPMD_UTILS_H_
#define SHARDKIT_DIALECT_MPMD_MPMD_UTILS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/core/mesh.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit::mpmd {

// The function `op` is in (`op` itself if it is one), or null.
FuncOp enclosingFunc(Op op);

// A function with a `topology` is an mpmd function; one with a `mesh_shape`
// an spmd function; either is distributed, and a public distributed function
// is an entry point (e.g. main).
bool isMpmdFunction(FuncOp func);
bool isSpmdFunction(FuncOp func);
bool isEntryPointFunction(FuncOp func);

// The topology of `func` (nullopt if it has none or it is malformed).
std::optional<Topology> topologyOf(FuncOp func);
// The mpmd functions of `module`, in order.
std::vector<FuncOp> mpmdFunctions(Module& module);
// The entry points among them (isEntryPointFunction), in module order.
std::vector<FuncOp> entryPointFunctions(Module& module);

// The mesh called `name` in the topology of the function enclosing `op`, or
// the error the reference emits at `op`: `Function does not have a topology
// attribute: NAME` or `Topology doesn't have a mesh with name: MESH`.
absl::StatusOr<Mesh> meshOf(Op op, std::string_view name);

// The function a `func.call`, `mpmd.call` or `mpmd.fragment_call` names, or
// null.
FuncOp calleeOf(Op call);

// The mpmd.call ops (with used results) whose callee is `func`, in program
// order, looking inside mpmd functions and mpmd.for bodies.
std::vector<Op> callersOf(FuncOp func);

// Orders mesh names as people number them: digit runs compare by value
// ("m2" before "m10"), the rest by character.
bool meshNameLess(std::string_view a, std::string_view b);

}  // namespace shardkit::mpmd

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_MPMD_MPMD_UTILS_H_
