// -sdy-convert-global-to-local: the sdy collectives become StableHLO
// collectives over replica groups (all_gather, all_reduce, reduce_scatter,
// all_to_all, collective_permute) or the device's slice (all_slice).
#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/partition/device_groups.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/partition/global_to_local.h"

namespace shardkit::partition {
namespace {

ReduceKind reduceKindOf(std::string_view reduction) {
  if (reduction == "max") return ReduceKind::kMax;
  if (reduction == "min") return ReduceKind::kMin;
  return ReduceKind::kSum;
}

// A collective with `channel_handle`, `replica_groups` and
// use_global_device_ids over `groups`.
OperationState collectiveState(GlobalToLocal& c, OpName name,
                               const GroupsAttr& groups, bool global_ids) {
  OperationState state(name);
  state.addAttr("replica_groups", groups.attr);
  state.addAttr("channel_handle", c.nextChannelHandle());
  if (global_ids) state.addAttr("use_global_device_ids", Attribute::unit());
  return state;
}

Value allGather(GlobalToLocal& c, HloEmitter& e, Value input, int64_t dim,
                const GroupsAttr& groups, const std::vector<int64_t>& shape) {
  OperationState state =
      collectiveState(c, stablehlo::AllGatherOp::opName(), groups, true);
  state.addAttr("all_gather_dim", Attribute::integer(dim));
  state.operands = {input};
  state.result_types = {e.tensor(shape, input.type().elementType())};
  return e.create1(state);
}

// An all_reduce (or reduce_scatter over `scatter_dim`) of `input` to
// `result_type`, reducing by `kind`.
Value reducingCollective(GlobalToLocal& c, HloEmitter& e, OpName name,
                         Value input, Type result_type,
                         const GroupsAttr& groups, ReduceKind kind,
                         std::optional<int64_t> scatter_dim) {
  OperationState state = collectiveState(c, name, groups, true);
  if (scatter_dim) {
    state.addAttr("scatter_dimension", Attribute::integer(*scatter_dim));
  }
  state.operands = {input};
  state.result_types = {result_type};
  state.num_regions = 1;
  Op op = e.create(state);
  e.buildReduceBody(op, input.type().elementType(), kind);
  return op.result(0);
}

const Mesh* outMeshOf(GlobalToLocal& c, Op op) {
  return c.meshOf(&sdy::collectiveOutSharding(op));
}

// One all_gather per gathered dimension, from the last one to the first.
absl::Status gatherPerDim(GlobalToLocal& c, sdy::AllGatherOp op,
                          const Mesh& mesh) {
  HloEmitter e(c.module(), op);
  const MeshOrRef& ref = op.outSharding().mesh;
  Value current = op.tensor();
  const ListOfAxisRefLists& axes = op.axes();
  for (int64_t dim = static_cast<int64_t>(axes.size()) - 1; dim >= 0; --dim) {
    if (axes[dim].empty()) continue;
    GroupsAttr groups = c.replicaGroups(axes[dim].items, mesh, ref);
    std::vector<int64_t> shape(current.type().shape().begin(),
                               current.type().shape().end());
    if (shape[dim] != kDynamicSize) shape[dim] *= groups.size;
    current = allGather(c, e, current, dim, groups, shape);
  }
  c.replace(op, {current});
  return absl::OkStatus();
}

// One all_gather of every gathered dimension at once: the shards are
// gathered along a new leading dimension, which is split into the gathered
// dimensions' factors, each moved before its dimension and merged into it.
absl::Status gatherCombined(GlobalToLocal& c, sdy::AllGatherOp op,
                            const Mesh& mesh) {
  HloEmitter e(c.module(), op);
  Value input = op.tensor();
  std::vector<int64_t> local(input.type().shape().begin(),
                             input.type().shape().end());
  const int64_t rank = static_cast<int64_t>(local.size());
  std::vector<int64_t> dims, factors;
  AxisRefVector all_axes;
  const ListOfAxisRefLists& axes = op.axes();
  for (int64_t dim = 0; dim < static_cast<int64_t>(axes.size()); ++dim) {
    if (axes[dim].empty()) continue;
    dims.push_back(dim);
    int64_t factor = 1;
    for (const AxisRef& axis : axes[dim]) {
      factor *= axis.size(mesh);
      all_axes.push_back(axis);
    }
    factors.push_back(factor);
  }
  std::vector<int64_t> shape = {1};
  shape.insert(shape.end(), local.begin(), local.end());
  Value current = e.reshape(input, shape);
  GroupsAttr groups = c.replicaGroups(all_axes, mesh, op.outSharding().mesh);
  shape[0] = groups.size;
  current = allGather(c, e, current, 0, groups, shape);
  std::vector<int64_t> split = factors;
  split.insert(split.end(), local.begin(), local.end());
  current = e.reshape(current, split);
  std::vector<int64_t> permutation;
  int64_t next_factor = 0;
  const int64_t k = static_cast<int64_t>(dims.size());
  for (int64_t i = 0; i < rank; ++i) {
    if (std::find(dims.begin(), dims.end(), i) != dims.end()) {
      permutation.push_back(next_factor++);
    }
    permutation.push_back(i + k);
  }
  current = e.transpose(current, permutation);
  std::vector<int64_t> final_shape = local;
  for (size_t j = 0; j < dims.size(); ++j) final_shape[dims[j]] *= factors[j];
  current = e.reshape(current, final_shape);
  c.replace(op, {current});
  return absl::OkStatus();
}

// all_to_all of one parameter: split `tgt_dim` among the group, concatenate
// the pieces received along `src_dim`.
absl::Status allToAllOne(GlobalToLocal& c, sdy::AllToAllOp op,
                         const Mesh& mesh) {
  const AllToAllParam& param = op.params()[0];
  if (param.axes.empty()) return c.patternError(op, "failed to resolve axes");
  GroupsAttr groups = c.replicaGroups(param.axes, mesh, op.outSharding().mesh);
  Value input = op.tensor();
  std::vector<int64_t> shape(input.type().shape().begin(),
                             input.type().shape().end());
  const int64_t src = param.src_dim, tgt = param.tgt_dim;
  if (shape[src] == kDynamicSize || shape[tgt] == kDynamicSize) {
    return c.patternError(op, "dynamic shape not supported");
  }
  if (shape[tgt] % groups.size != 0) {
    return c.patternError(op,
                          "dimension not divisible by num devices per group");
  }
  shape[src] *= groups.size;
  shape[tgt] /= groups.size;
  HloEmitter e(c.module(), op);
  OperationState state(stablehlo::AllToAllOp::opName());
  state.operands = {input};
  state.result_types = {e.tensor(shape, input.type().elementType())};
  state.addAttr("split_dimension", Attribute::integer(tgt));
  state.addAttr("concat_dimension", Attribute::integer(src));
  state.addAttr("split_count", Attribute::integer(groups.size));
  state.addAttr("replica_groups", groups.attr);
  state.addAttr("channel_handle", c.nextChannelHandle());
  c.replace(op, {e.create1(state)});
  return absl::OkStatus();
}

// all_to_all of several parameters as one: each target dimension is split
// into (its group's size, the rest), the factors moved to the front and
// merged into one dimension exchanged by a single all_to_all, then split back
// and each factor merged into its parameter's source dimension.
absl::Status allToAllMany(GlobalToLocal& c, sdy::AllToAllOp op,
                          const Mesh& mesh) {
  Value input = op.tensor();
  std::vector<int64_t> in_shape(input.type().shape().begin(),
                                input.type().shape().end());
  const int64_t rank = static_cast<int64_t>(in_shape.size());
  const AllToAllParamList& params = op.params();
  const int64_t n = static_cast<int64_t>(params.size());
  std::vector<int64_t> sorted(n);
  std::iota(sorted.begin(), sorted.end(), 0);
  std::sort(sorted.begin(), sorted.end(), [&](int64_t a, int64_t b) {
    return params[a].tgt_dim < params[b].tgt_dim;
  });
  std::vector<int64_t> devices;
  AxisRefVector all_axes;
  for (int64_t idx : sorted) {
    devices.push_back(totalAxesSize(params[idx].axes, mesh));
    all_axes.insert(all_axes.end(), params[idx].axes.begin(),
                    params[idx].axes.end());
  }
  std::vector<int64_t> shape0, permutation0;
  for (int64_t i = 0; i < rank; ++i) {
    auto it = std::find_if(sorted.begin(), sorted.end(), [&](int64_t idx) {
      return params[idx].tgt_dim == i;
    });
    if (it == sorted.end()) {
      shape0.push_back(in_shape[i]);
      continue;
    }
    const int64_t count = devices[it - sorted.begin()];
    permutation0.push_back(static_cast<int64_t>(shape0.size()));
    shape0.push_back(count);
    if (in_shape[i] == kDynamicSize || in_shape[i] % count != 0) {
      return c.patternError(
          op,
          "dynamic shape or dimension not divisible by num devices per param");
    }
    shape0.push_back(in_shape[i] / count);
  }
  for (int64_t i = 0; i < static_cast<int64_t>(shape0.size()); ++i) {
    if (std::find(permutation0.begin(), permutation0.end(), i) ==
        permutation0.end()) {
      permutation0.push_back(i);
    }
  }
  HloEmitter e(c.module(), op);
  Value reshape0 = e.reshape(input, shape0);
  Value transpose0 = e.transpose(reshape0, permutation0);
  GroupsAttr groups = c.replicaGroups(all_axes, mesh, op.outSharding().mesh);
  std::vector<int64_t> shape1 = {groups.size};
  shape1.insert(shape1.end(), transpose0.type().shape().begin() + n,
                transpose0.type().shape().end());
  Value reshape1 = e.reshape(transpose0, shape1);
  OperationState state(stablehlo::AllToAllOp::opName());
  state.operands = {reshape1};
  state.result_types = {reshape1.type()};
  state.addAttr("split_dimension", Attribute::integer(0));
  state.addAttr("concat_dimension", Attribute::integer(0));
  state.addAttr("split_count", Attribute::integer(groups.size));
  state.addAttr("replica_groups", groups.attr);
  state.addAttr("channel_handle", c.nextChannelHandle());
  Value exchanged = e.create1(state);
  Value reshape2 = e.reshape(exchanged, transpose0.type().shape());
  std::vector<int64_t> permutation1;
  for (int64_t i = 0; i < rank; ++i) permutation1.push_back(i + n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t src = params[sorted[i]].src_dim;
    auto it = std::find(permutation1.begin(), permutation1.end(), src + n);
    permutation1.insert(it, i);
  }
  Value transpose1 = e.transpose(reshape2, permutation1);
  absl::Span<const int64_t> t1 = transpose1.type().shape();
  std::vector<int64_t> final_shape;
  for (size_t i = 0; i < t1.size(); ++i) {
    if (permutation1[i] < n) {
      final_shape.push_back(t1[i] * t1[i + 1]);
      ++i;
    } else {
      final_shape.push_back(t1[i]);
    }
  }
  c.replace(op, {e.reshape(transpose1, final_shape)});
  return absl::OkStatus();
}

}  // namespace

absl::Status convertAllGather(GlobalToLocal& c, Op raw) {
  sdy::AllGatherOp op(raw);
  int64_t gathered = 0;
  for (const AxisRefList& axes : op.axes()) gathered += !axes.empty();
  if (gathered == 0) {
    return c.invariantError(
        op, "No-op AllGatherOp should have been removed by canonicalization.");
  }
  const Mesh* mesh = outMeshOf(c, op);
  if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh");
  if (c.options().per_dim_all_gather || gathered == 1) {
    return gatherPerDim(c, op, *mesh);
  }
  return gatherCombined(c, op, *mesh);
}

absl::Status convertAllReduce(GlobalToLocal& c, Op raw) {
  sdy::AllReduceOp op(raw);
  const Mesh* mesh = outMeshOf(c, op);
  if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh");
  GroupsAttr groups =
      c.replicaGroups(op.axes().items, *mesh, op.outSharding().mesh);
  SK_ASSIGN_OR_RETURN(Type type, c.localType(op.result()));
  HloEmitter e(c.module(), op);
  c.replace(op, {reducingCollective(
                    c, e, stablehlo::AllReduceOp::opName(), op.tensor(), type,
                    groups, reduceKindOf(op.reduction()), std::nullopt)});
  return absl::OkStatus();
}

absl::Status convertAllSlice(GlobalToLocal& c, Op raw) {
  sdy::AllSliceOp op(raw);
  const Mesh* mesh = outMeshOf(c, op);
  if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh");
  SK_ASSIGN_OR_RETURN(Type local, c.localType(op.result()));
  std::vector<AxisRefVector> axes;
  for (const AxisRefList& list : op.axes()) axes.push_back(list.items);
  HloEmitter e(c.module(), op);
  SK_ASSIGN_OR_RETURN(Value slice,
                      c.sliceForAxes(e, op.tensor(), *mesh, axes, local));
  c.replace(op, {slice});
  return absl::OkStatus();
}

absl::Status convertAllToAll(GlobalToLocal& c, Op raw) {
  sdy::AllToAllOp op(raw);
  const Mesh* mesh = outMeshOf(c, op);
  if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh");
  if (op.params().empty()) {
    return c.invariantError(op, "expected at least one all-to-all parameter");
  }
  if (op.params().size() == 1) return allToAllOne(c, op, *mesh);
  return allToAllMany(c, op, *mesh);
}

namespace {

// The axes of `sharding`'s dimensions cut into `pieces`, in dimension order,
// then the pieces no dimension uses: an order of all the pieces in which a
// device's index is its shard's.
AxisRefVector shardingPieces(const TensorSharding& sharding,
                             absl::Span<const AxisRef> pieces) {
  AxisRefVector axes;
  auto add = [&](const AxisRef& piece) {
    if (std::find(axes.begin(), axes.end(), piece) == axes.end()) {
      axes.push_back(piece);
    }
  };
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    for (const AxisRef& axis : dim.axes) {
      for (const AxisRef& piece : pieces) {
        if (contains(axis, piece)) add(piece);
      }
    }
  }
  for (const AxisRef& piece : pieces) add(piece);
  return axes;
}

}  // namespace

absl::Status convertCollectivePermute(GlobalToLocal& c, Op raw) {
  sdy::CollectivePermuteOp op(raw);
  const TensorSharding& out = op.outSharding();
  const TensorSharding* in = c.operandSharding(0);
  if (in != nullptr && *in == out) {
    return c.invariantError(op,
                            "Shardy canonicalizer should have removed no-op "
                            "collective-permute.");
  }
  const Mesh* out_mesh = c.meshOf(&out);
  const Mesh* in_mesh = c.meshOf(in);
  if (out_mesh == nullptr || in_mesh == nullptr) {
    return c.patternError(op, "failed to resolve mesh");
  }
  if (in_mesh->totalSize() != out_mesh->totalSize()) {
    return c.invariantError(op,
                            "collective-permute between meshes of different "
                            "sizes is not supported.");
  }
  AxisRefVector all;
  for (const TensorSharding* s : {in, &out}) {
    AxisRefVector axes = s->allAxes();
    all.insert(all.end(), axes.begin(), axes.end());
  }
  const AxisRefVector pieces = orderedAxisRefs(all, *out_mesh);
  const AxisRefVector out_axes = shardingPieces(out, pieces);
  const AxisRefVector in_axes = shardingPieces(*in, pieces);
  const int64_t devices = out_mesh->totalSize();
  absl::flat_hash_map<int64_t, int64_t> target_of_shard;
  for (int64_t device = 0; device < devices; ++device) {
    absl::StatusOr<int64_t> shard = shardIndex(device, *out_mesh, out_axes);
    if (!shard.ok())
      return c.invariantError(op, fromAbsl(shard.status().message()));
    target_of_shard[*shard] = device;
  }
  std::vector<int64_t> pairs;
  for (int64_t device = 0; device < devices; ++device) {
    absl::StatusOr<int64_t> shard = shardIndex(device, *in_mesh, in_axes);
    if (!shard.ok())
      return c.invariantError(op, fromAbsl(shard.status().message()));
    pairs.push_back(device);
    pairs.push_back(target_of_shard[*shard]);
  }
  HloEmitter e(c.module(), op);
  OperationState state(stablehlo::CollectivePermuteOp::opName());
  state.operands = {op.tensor()};
  state.result_types = {op.tensor().type()};
  state.addAttr("source_target_pairs",
                Attribute::elements(denseIntLiteral(pairs, {devices, 2}),
                                    e.tensor({devices, 2}, "i64")));
  state.addAttr("channel_handle", c.nextChannelHandle());
  c.replace(op, {e.create1(state)});
  return absl::OkStatus();
}

namespace {

// reduce_scatter over several dimensions as one: every scattered dimension
// is split into (its factor, the rest), the factors moved to the front and
// merged into one leading dimension that one reduce_scatter scatters.
absl::Status scatterCombined(GlobalToLocal& c, sdy::ReduceScatterOp op,
                             const Mesh& mesh, const MeshOrRef& ref,
                             absl::Span<const AxisRef> all_axes) {
  Value input = op.tensor();
  std::vector<int64_t> in_shape(input.type().shape().begin(),
                                input.type().shape().end());
  SK_ASSIGN_OR_RETURN(Type local, c.localType(op.result()));
  const ListOfAxisRefLists& axes = op.axes();
  std::vector<int64_t> split, factor_dims;
  int64_t total = 1;
  for (int64_t i = 0; i < static_cast<int64_t>(in_shape.size()); ++i) {
    if (axes[i].empty()) {
      split.push_back(in_shape[i]);
      continue;
    }
    const int64_t factor = totalAxesSize(axes[i].items, mesh);
    total *= factor;
    factor_dims.push_back(static_cast<int64_t>(split.size()));
    split.push_back(factor);
    if (in_shape[i] == kDynamicSize || in_shape[i] % factor != 0) {
      return c.patternError(op, "dimension not divisible by scattering factor");
    }
    split.push_back(in_shape[i] / factor);
  }
  HloEmitter e(c.module(), op);
  Value current = e.reshape(input, split);
  std::vector<int64_t> permutation = factor_dims;
  for (int64_t i = 0; i < static_cast<int64_t>(split.size()); ++i) {
    if (std::find(factor_dims.begin(), factor_dims.end(), i) ==
        factor_dims.end()) {
      permutation.push_back(i);
    }
  }
  current = e.transpose(current, permutation);
  std::vector<int64_t> combined = {total};
  combined.insert(combined.end(), local.shape().begin(), local.shape().end());
  current = e.reshape(current, combined);
  GroupsAttr groups = c.replicaGroups(all_axes, mesh, ref);
  combined[0] = 1;
  Value scattered =
      reducingCollective(c, e, stablehlo::ReduceScatterOp::opName(), current,
                         e.tensor(combined, input.type().elementType()), groups,
                         reduceKindOf(op.reduction()), 0);
  c.replace(op, {e.reshape(scattered, local.shape())});
  return absl::OkStatus();
}

}  // namespace

absl::Status convertReduceScatter(GlobalToLocal& c, Op raw) {
  sdy::ReduceScatterOp op(raw);
  const TensorSharding* sharding = c.operandSharding(0);
  const Mesh* mesh = c.meshOf(sharding);
  if (mesh == nullptr) return c.patternError(op, "failed to resolve mesh");
  AxisRefVector all_axes;
  int64_t last_dim = 0, dims = 0;
  const ListOfAxisRefLists& axes = op.axes();
  for (int64_t dim = 0; dim < static_cast<int64_t>(axes.size()); ++dim) {
    if (axes[dim].empty()) continue;
    last_dim = dim;
    ++dims;
    all_axes.insert(all_axes.end(), axes[dim].begin(), axes[dim].end());
  }
  if (dims == 0) {
    return c.invariantError(
        op, "Shardy should have canonicalized no-op reduce-scatter.");
  }
  const MeshOrRef& ref = sharding->mesh;
  const ReduceKind kind = reduceKindOf(op.reduction());
  if (dims == 1) {
    SK_ASSIGN_OR_RETURN(Type local, c.localType(op.result()));
    GroupsAttr groups = c.replicaGroups(axes[last_dim].items, *mesh, ref);
    HloEmitter e(c.module(), op);
    c.replace(op,
              {reducingCollective(c, e, stablehlo::ReduceScatterOp::opName(),
                                  op.tensor(), local, groups, kind, last_dim)});
    return absl::OkStatus();
  }
  if (c.options().combine_multi_dimension_reduce_scatter) {
    return scatterCombined(c, op, *mesh, ref, all_axes);
  }
  // An all_reduce over all the axes, then the device's slice.
  SK_ASSIGN_OR_RETURN(Type local, c.localType(op.result()));
  GroupsAttr groups = c.replicaGroups(all_axes, *mesh, ref);
  HloEmitter e(c.module(), op);
  Value reduced =
      reducingCollective(c, e, stablehlo::AllReduceOp::opName(), op.tensor(),
                         op.tensor().type(), groups, kind, std::nullopt);
  std::vector<AxisRefVector> slicing;
  for (const AxisRefList& list : axes) slicing.push_back(list.items);
  SK_ASSIGN_OR_RETURN(Value slice,
                      c.sliceForAxes(e, reduced, *mesh, slicing, local));
  c.replace(op, {slice});
  return absl::OkStatus();
}

}  // namespace shardkit::partition
