// The verifier: the invariants of meshes, axis refs, shardings, sharding
// rules and collective parameters (seeds 000 and 004), each violation an
// InvalidArgument status with one precise message.
//
// Which checks exist, and the order they run in, follow the reference
// implementation, so the first violation reported for a bad value is the one
// the reference reports; messages keep the reference's short key phrases
// (e.g. `sharding doesn't match tensor rank: 2 != 1`) so that lit tests
// comparing messages match. Messages never carry an op prefix: the graph
// layer adds `'sdy.reshard' op ...` or `'func.func' op arg 0 - ...`.
//
// All functions accept any value, however malformed (negative sizes, unknown
// names, out-of-range indices, arithmetic overflow), without crashing.
#ifndef SHARDKIT_CORE_VERIFY_H_
#define SHARDKIT_CORE_VERIFY_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/collective_params.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/tensor_shape.h"
#include "shardkit/core/tensor_sharding.h"

namespace shardkit {

// ---------------------------------------------------------------------------
// Meshes and axis refs (verify_mesh.cc)
// ---------------------------------------------------------------------------

// Checks, in order: every axis size >= 1; no duplicate axis names; the
// product of the axis sizes fits in int64; and, when device ids are given:
// all non-negative; with no axes at most one id (a maximal mesh, any
// non-negative id); otherwise as many ids as the product of the axis sizes,
// forming a permutation of iota(product), and not iota itself.
//
// Explicit iota: the text parser drops an explicit iota list of a mesh with
// axes (the reference prints `<["a"=2, "b"=2]>` for `device_ids=[0,1,2,3]`),
// so text never reaches this check. A Mesh built in C++ with an explicit iota
// list is rejected: the canonical form omits it, and Mesh equality, hashing
// and printing all rely on that form (an explicit iota would compare unequal
// to the same mesh without it).
absl::Status verifyMesh(const Mesh& mesh);

// A single axis ref on its own: the axis exists in `mesh`; a sub-axis has
// pre-size >= 1, size > 1, pre-size * size dividing the axis size, and a size
// different from the full axis size.
absl::Status verifyAxisRef(const AxisRef& axis, const Mesh& mesh);

// A list of axis refs (a dimension's axes, replicated axes, collective axes):
// every name is known; no ref appears twice; no two adjacent refs are
// consecutive sub-axes of one axis (they must be merged); every sub-axis is
// valid (see verifyAxisRef); no sub-axis together with its full axis; no two
// overlapping sub-axes.
absl::Status verifyAxisRefList(absl::Span<const AxisRef> axes,
                               const Mesh& mesh);

// Manual axes of a manual computation: every name is an axis of `mesh`
// (`unknown manual axis: "b"`) and appears once.
absl::Status verifyManualAxes(const ManualAxes& manual_axes, const Mesh& mesh);

// ---------------------------------------------------------------------------
// Tensor shardings (verify_sharding.cc)
// ---------------------------------------------------------------------------

struct ShardingVerifyOptions {
  // Also require every static dimension to be divisible by the product of
  // its axis sizes (the reference's `checkDivisibility`; off in the IR
  // verifier since padding is allowed).
  bool check_divisibility = false;
  // Axes that an enclosing manual computation already made manual; the
  // sharding may not name them (`operates on axis "a" which is already bound
  // by a parent sdy.manual_computation op`). A view: the caller keeps the
  // names alive while verifying.
  absl::Span<const std::string> bound_manual_axes;
};

// Verifies `sharding` for a value of shape `shape` (TensorShapeView::
// nonShaped() for a token), resolving a mesh name through `meshes`. An
// inline mesh is verified with verifyMesh first; a named mesh is assumed
// verified where it is defined.
//
// In order: the mesh exists (`unknown mesh: @m`); on a maximal mesh the
// sharding has rank 0 and no replicated or unreduced axes, and the shape is
// not consulted; a non-shaped value needs the same; the rank matches
// (`sharding doesn't match tensor rank: 2 != 1`); per dimension: the
// priority is non-negative and not on an empty closed dimension, its axes
// form a valid list, a size-0 dimension is not split into more than one
// shard, and (optionally) the size is divisible; replicated then unreduced
// axes are in mesh order (MeshAxisLess) and valid; no axis ref appears twice
// or overlaps across dimensions, replicated and unreduced axes; sub-axes are
// valid; no bound manual axis is used.
//
// Size-0 dimensions: the seed forbids sharding them; the reference accepts an
// axis of size 1 on one (upstream propagation tests rely on it), so only a
// sharded size above 1 is rejected.
absl::Status verifyTensorSharding(const TensorSharding& sharding,
                                  const MeshTable& meshes,
                                  TensorShapeView shape,
                                  const ShardingVerifyOptions& options = {});

// Same, against an already resolved `mesh` (the sharding's own mesh
// reference is not looked at).
absl::Status verifyTensorShardingWithMesh(
    const TensorSharding& sharding, const Mesh& mesh, TensorShapeView shape,
    const ShardingVerifyOptions& options = {});

struct ShardingPerValueVerifyOptions {
  ShardingVerifyOptions sharding;
  // Require all shardings to be bound to the same mesh, where an empty mesh
  // (`<[]>`) matches any (`shardings can only be bound to the same mesh or an
  // empty mesh`). The reference skips this for manual computations.
  bool check_common_mesh = true;
};

// One sharding per value: the counts match (`shardings don't match number of
// values: 3 shardings vs 2 values`), except that an op without results may
// carry one maximal or fully replicated sharding; then every sharding is
// verified against its shape.
//
// `value_kind` ("result", "operand", ... or empty) prefixes every message the
// way the reference does: `result - <msg>` for a single value, `result 1 -
// <msg>` for value 1 of several, `result shardings don't match ...`.
absl::Status verifyTensorShardingPerValue(
    const TensorShardingPerValue& shardings, const MeshTable& meshes,
    absl::Span<const TensorShapeView> shapes, std::string_view value_kind = "",
    const ShardingPerValueVerifyOptions& options = {});

// ---------------------------------------------------------------------------
// Op sharding rules (verify_rule.cc)
// ---------------------------------------------------------------------------

// Verifies `rule` for an op whose operands and results have the given shapes.
//
// In order: no reduction factor appears in a result mapping (the reference
// rejects that when the rule is built); for operands then results: the
// mapping count matches the value count and is not 0; per tensor (`operand 1
// - ...`, `result - ...`): a ranked static shape, the mapping rank matches,
// and per dimension: at least one factor, factor indices in range, no factor
// reused within the tensor, no size-1 factor in a compound dimension; every
// factor is used somewhere; reduction, need-replication and permutation
// lists each sorted, unique and in range; no factor in two of them; the
// blocked-propagation list sorted, unique and in range.
//
// Like the reference, the product of a dimension's factor sizes is not
// compared with the dimension size: rules such as pad or custom rules map a
// dimension to a factor of a different size (e.g. `{k=5}` on a dimension of
// 11).
absl::Status verifyOpShardingRule(const OpShardingRule& rule,
                                  absl::Span<const TensorShapeView> operands,
                                  absl::Span<const TensorShapeView> results);

// ---------------------------------------------------------------------------
// Collectives and resharding (verify_collective.cc)
//
// These check the parts of the sdy collective ops that are pure sharding
// algebra. The caller has already verified `result` (verifyTensorSharding),
// resolved the meshes, and supplies the operand sharding (for a value
// without one, an open sharding of the right rank on the result's mesh).
// ---------------------------------------------------------------------------

// The operand and result shardings of a collective: both bound to the same
// mesh unless `allow_different_meshes` (`result mesh does not match operand
// mesh`), and of the same rank (`result sharding has rank 2 but operand
// sharding has rank 1`).
absl::Status verifyCollectiveShardings(const TensorSharding& operand,
                                       const Mesh& operand_mesh,
                                       const TensorSharding& result,
                                       const Mesh& result_mesh,
                                       bool allow_different_meshes = false);

// How a per-dimension collective maps the operand's dimension axes to the
// result's: all_gather removes a suffix, all_slice and reduce_scatter append.
enum class AxesPerDimCollective { kGather, kSlice };

// all_gather / all_slice / reduce_scatter: the per-dimension axes form one
// valid axis-ref list together (no ref twice across dimensions), there is one
// list per result dimension, and applying them to each operand dimension
// gives the result's axes (`can't apply gathering axis "y" to operand sharding
// on dimension 1`, `result sharding doesn't match expected sharding ["x"] on
// dimension 1`).
absl::Status verifyAxesPerDimCollective(AxesPerDimCollective kind,
                                        const ListOfAxisRefLists& axes_per_dim,
                                        const TensorSharding& operand,
                                        const TensorSharding& result,
                                        const Mesh& mesh);

// all_to_all: a non-empty parameter list; per parameter valid axes (one list
// across all parameters), source and target dimensions in [0, rank), no
// dimension used twice, source dimensions ascending; then moving each
// parameter's axes from the end of the source dimension to the end of the
// target dimension gives the result, and every other dimension is unchanged.
absl::Status verifyAllToAll(const AllToAllParamList& params,
                            const TensorSharding& operand,
                            const TensorSharding& result, const Mesh& mesh);

// all_reduce: the operand and result have the same dimension axes; the
// reduction axes form a valid list; none overlaps the operand's dimension or
// replicated axes, nor the result's unreduced axes.
absl::Status verifyAllReduce(absl::Span<const AxisRef> reduction_axes,
                             const TensorSharding& operand,
                             const TensorSharding& result, const Mesh& mesh);

// collective_permute: when the two shardings name different meshes, the
// meshes have the same axes and a different device order; every dimension
// keeps its number of shards.
absl::Status verifyCollectivePermute(const TensorSharding& operand,
                                     const Mesh& operand_mesh,
                                     const TensorSharding& result,
                                     const Mesh& result_mesh);

// sdy.reshard / sdy.sharding_constraint from `source` to `target`: unreduced
// axes kept from the source keep their reduction kind, and newly introduced
// unreduced axes are a sum.
absl::Status verifyUnreducedTransition(const TensorSharding& source,
                                       const TensorSharding& target);

}  // namespace shardkit

#endif  // SHARDKIT_CORE_VERIFY_H_
