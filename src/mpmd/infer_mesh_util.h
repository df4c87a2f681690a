// Internal to the mpmd layer: the analysis of mesh inference over the graph
// IR (docs/mpmd.md, "Mesh inference").
//
// A meshless op is one not yet on a mesh: outside fragments, not an mpmd op.
// Its use set is the meshes that (transitively) use its results, found
// walking back from assigns; its source set the meshes its operands can all
// come from without a new transfer, found walking forward from unassigns and
// entry-point arguments. Both live in attributes (`mpmd.use_set`,
// `mpmd.src_set`) on ops, on function arguments and results, and on
// mpmd.for block arguments, so each pass can be run and checked on its own.
#ifndef SHARDKIT_SRC_MPMD_INFER_MESH_UTIL_H_
#define SHARDKIT_SRC_MPMD_INFER_MESH_UTIL_H_

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/dict_list_attr.h"
#include "shardkit/ir/graph.h"
#include "src/mpmd/mesh_set.h"

namespace shardkit::mpmd::mpmd_internal {

// Origin labels of inferred assignments.
inline constexpr std::string_view kInferredInputOrigin = "inferred_in";
inline constexpr std::string_view kInferredOutputOrigin = "inferred_out";
inline constexpr std::string_view kInferredUnusedOrigin = "inferred_unused";
inline constexpr std::string_view kInferredUnusedCalleeInOrigin =
    "inferred_unused_callee_in";
inline constexpr std::string_view kInferredUnusedCalleeOutOrigin =
    "inferred_unused_callee_out";
inline constexpr std::string_view kTransferOrigin = "transfer";
inline constexpr std::string_view kBroadcastOrigin = "broadcast";
inline constexpr std::string_view kReduceOrigin = "reduce";

// Values grouped by mesh name, the groups in the order their meshes first
// came (addToMeshGroup).
template <typename T>
using MeshGroups = std::vector<std::pair<std::string, std::vector<T>>>;

// Appends `value` to the group of `mesh` in `groups`, a new last group if
// there is none yet.
template <typename T>
void addToMeshGroup(MeshGroups<T>& groups, const std::string& mesh, T value) {
  auto it = std::find_if(groups.begin(), groups.end(),
                         [&](const auto& g) { return g.first == mesh; });
  if (it == groups.end()) {
    groups.emplace_back(mesh, std::vector<T>{});
    it = groups.end() - 1;
  }
  it->second.push_back(std::move(value));
}

bool isMeshlessOp(Op op);
// mpmd.broadcast and mpmd.reduce end the use-set walk: their operands are
// treated as leaves.
bool isTerminalNodeInAnalysis(Op op);
// "broadcast" or "reduce".
std::string_view terminalNodeOrigin(Op op);

// ---- Use sets (always specified) ----
// Of an op, or of entry `i` of the dictionaries of a function's arguments or
// results (FuncOp::argAttrList, resultAttrList) or of a loop's arguments
// (forArgAttrs).
MeshSet useSetOf(Op op);
MeshSet useSetOf(const DictListAttr& list, unsigned i);
// Each setter does nothing for an empty set.
void setUseSet(Op op, const MeshSet& set);
void setUseSet(const DictListAttr& list, unsigned i, const MeshSet& set);
// The meshes of `op`'s use set.
std::vector<std::string> useMeshes(Op op);

// Adds the use sets of the uses of `value` (or of every result of `op`).
void updateTransitiveUses(Value value, MeshSet& set);
void updateTransitiveUses(Op op, MeshSet& set);

// ---- Source sets (unspecified: any mesh) ----
MeshSet srcSetOf(Op op);
MeshSet srcSetOf(const DictListAttr& list, unsigned i);
// The source set of the value operand `operand` of `user` reads: through
// call and loop results to what they return, then its producer's (an assign
// is unspecified) or its argument's.
MeshSet srcSetOfOperand(Op user, unsigned operand);
// Each setter removes the attribute for an unspecified set.
void setSrcSet(Op op, const MeshSet& set);
void setSrcSet(const DictListAttr& list, unsigned i, const MeshSet& set);

// The dictionaries of the block arguments of `op` (its `arg_attrs`).
DictListAttr forArgAttrs(ForOp op);

// Removes the sets; true if there were any.
bool clearUseSet(Op op);
bool clearUseSetAndSrcSet(Op op);
void clearFuncUseSets(FuncOp func);
void clearFuncUseAndSrcSets(FuncOp func);
void clearForSets(ForOp op);

// A call whose results feed another call of the same callee.
bool isCallInCallChain(Op call);
// True if some argument of the callee of `call` has a use set.
bool calleeHasUseSet(Op call);

// The mpmd.reduce annotation of `op` (a meshless op to become a reduce).
bool isReduceAnnotated(Op op);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_INFER_MESH_UTIL_H_
