// The sdy collectives as plain values: what each one is given (its kind, its
// axes and reduction), the sharding it produces from its operand's sharding
// (out-sharding inference), and the check that a stated out sharding is the
// inferred one. A compiler with its own IR lowers a reshard with these and
// reshard_plan.h, without shardkit's graph IR.
//
// Every inferred out sharding is closed, names no replicated axes, and is
// bound to the operand's mesh (collective_permute: the target's mesh). A
// collective never changes unreduced axes except as its kind says:
//
//   kind                    dimension axes            unreduced axes
//   all_gather              remove a suffix per dim   unchanged
//   all_slice               append per dim            unchanged
//   all_to_all              move a suffix src -> tgt  unchanged
//   collective_permute      any, same shard counts    unchanged
//   all_reduce              unchanged                 minus the axes
//   reduce_scatter          append per dim            minus the axes
//   sharded_to_unreduced    remove a suffix per dim   plus the axes
//   replicated_to_unreduced unchanged                 plus the axes
#ifndef SHARDKIT_SIM_COLLECTIVES_H_
#define SHARDKIT_SIM_COLLECTIVES_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/collective_params.h"
#include "shardkit/core/formatter.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

enum class CollectiveKind {
  kAllGather,
  kAllSlice,
  kAllToAll,
  kCollectivePermute,
  kAllReduce,
  kReduceScatter,
  kShardedToUnreduced,
  kReplicatedToUnreduced,
  kLast = kReplicatedToUnreduced,  // for enum tables (support/enum_table.h)
};

// The op mnemonic without the dialect: `all_gather`, `all_to_all`, ...
std::string_view mnemonic(CollectiveKind kind);

// The field of a Collective that holds the parameters of a kind.
enum class CollectiveParams { kNone, kAxesPerDim, kAxes, kAllToAll };
// `axes_per_dim` for all_gather, all_slice, reduce_scatter and
// sharded_to_unreduced; `axes` for all_reduce and replicated_to_unreduced;
// `params` for all_to_all; none for collective_permute.
CollectiveParams paramsOf(CollectiveKind kind);
// True for the kinds whose `reduction` counts: all_reduce, reduce_scatter.
bool reduces(CollectiveKind kind);

// One collective. Which parameter fields are meaningful depends on `kind`
// (paramsOf, reduces).
struct Collective {
  CollectiveKind kind = CollectiveKind::kAllGather;
  ListOfAxisRefLists axes_per_dim;
  AxisRefList axes;
  AllToAllParamList params;
  ReductionKind reduction = ReductionKind::kSum;
  TensorSharding out_sharding;

  friend bool operator==(const Collective&, const Collective&) = default;
};

// `all_gather [{}, {"x"}] out_sharding=<@mesh, [{"y"}, {}]>`, the op's text
// without operand and type.
std::string toString(const Collective& collective);

// ---------------------------------------------------------------------------
// Out-sharding inference. `operand` is the operand's sharding (an operand
// without one: a fully open sharding of the right rank), `mesh` its resolved
// mesh. Errors are InvalidArgument with the verifier's messages (e.g.
// `can't apply gathering axis "y" to operand sharding on dimension 1`).
// ---------------------------------------------------------------------------

absl::StatusOr<TensorSharding> inferAllGather(
    const TensorSharding& operand, const ListOfAxisRefLists& gathering_axes,
    const Mesh& mesh);
absl::StatusOr<TensorSharding> inferAllSlice(
    const TensorSharding& operand, const ListOfAxisRefLists& slicing_axes,
    const Mesh& mesh);
absl::StatusOr<TensorSharding> inferAllToAll(const TensorSharding& operand,
                                             const AllToAllParamList& params,
                                             const Mesh& mesh);
// The "parameter" of a collective_permute is its target: `target` with the
// operand's unreduced axes, checked to keep every dimension's shard count
// (and, across meshes, to change only the device order).
absl::StatusOr<TensorSharding> inferCollectivePermute(
    const TensorSharding& operand, const Mesh& operand_mesh,
    const TensorSharding& target, const Mesh& target_mesh);
// all_reduce and reduce_scatter: `reduction` must be the operand's reduction
// kind if any of the axes is unreduced in the operand.
absl::StatusOr<TensorSharding> inferAllReduce(const TensorSharding& operand,
                                              const AxisRefList& reduction_axes,
                                              ReductionKind reduction,
                                              const Mesh& mesh);
absl::StatusOr<TensorSharding> inferReduceScatter(
    const TensorSharding& operand, const ListOfAxisRefLists& scatter_axes,
    ReductionKind reduction, const Mesh& mesh);
absl::StatusOr<TensorSharding> inferShardedToUnreduced(
    const TensorSharding& operand, const ListOfAxisRefLists& axes,
    const Mesh& mesh);
absl::StatusOr<TensorSharding> inferReplicatedToUnreduced(
    const TensorSharding& operand, const AxisRefList& axes, const Mesh& mesh);

// The out sharding `collective` produces from `operand` (its own
// out_sharding is only read for collective_permute, as the target). Meshes
// are resolved through `meshes`.
absl::StatusOr<TensorSharding> inferOutSharding(const Collective& collective,
                                                const TensorSharding& operand,
                                                const MeshTable& meshes);
// Same, with the meshes already resolved: `operand_mesh` is the operand's,
// `target_mesh` that of a collective_permute's out sharding (unused by the
// other kinds).
absl::StatusOr<TensorSharding> inferOutSharding(const Collective& collective,
                                                const TensorSharding& operand,
                                                const Mesh& operand_mesh,
                                                const Mesh& target_mesh);

// Checks that `collective.out_sharding` is the inferred out sharding: the same
// mesh, dimension axes, unreduced axes and reduction kind (open/closed
// dimensions and replicated axes are not compared).
absl::Status verifyCollective(const Collective& collective,
                              const TensorSharding& operand,
                              const MeshTable& meshes);
absl::Status verifyCollective(const Collective& collective,
                              const TensorSharding& operand,
                              const Mesh& operand_mesh,
                              const Mesh& target_mesh);

// True if `a` and `b` have the same dimension axes and the same unreduced
// axes (and reduction kind when there are any), whatever their meshes.
bool sameShardingAxes(const TensorSharding& a, const TensorSharding& b);
// Same, and bound to the same mesh (symbol or inline mesh): `a` and `b` shard
// a tensor the same way.
bool sameDistribution(const TensorSharding& a, const TensorSharding& b);

}  // namespace shardkit

SHARDKIT_DEFINE_FORMATTER(shardkit::Collective);

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_SIM_COLLECTIVES_H_
