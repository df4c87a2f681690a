// -sdy-resolve-permutation-factors: an op whose sharding rule has a
// permutation factor (pad, slice, reverse, concatenate, ... along a sharded
// dimension) needs data of other devices when that factor is sharded: a
// device's output piece is not computed from its own input piece. The pass
// makes every such op local by resharding: the dimensions of those factors
// are replicated on its operands (a reshard before) and results (a
// reshard back to the result's sharding after), which
// -sdy-reshard-to-collectives then lowers to collectives.
//
// A factor whose dimension maps every device's output piece onto its own
// input piece needs nothing: a slice from 0 with stride 1 that keeps the
// per-device piece size, a pad whose low padding and size keep each
// device's data within its own output piece. A reshape has no permutation
// factor but needs the same when it splits or merges dimensions one of
// which is not divisible by its shard count: the axes of those dimensions
// are replicated on both sides.
//
// Halo exchange (enable-halo-exchange, the reference's collective-permute
// of the neighbouring rows) is not built: with the option set, the ops are
// resolved by replication as well, which computes the same values with more
// communication.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/walk.h"
#include "shardkit/partition/device_groups.h"
#include "shardkit/partition/passes.h"
#include "shardkit/rules/registry.h"
#include "shardkit/support/status_macros.h"

namespace shardkit {
namespace {

constexpr std::string_view kStablehloDialect = "stablehlo";

std::vector<int64_t> ints(const Attribute& attr) {
  std::optional<std::vector<int64_t>> v = attr.intList();
  return v ? *v : std::vector<int64_t>();
}

int64_t shardCount(const TensorSharding& sharding, int64_t dim,
                   const Mesh& mesh) {
  if (dim >= sharding.rank()) return 1;
  const AxisRefVector& axes = sharding.dim_shardings[dim].axes;
  return axes.empty() ? 1 : partition::totalAxesSize(axes, mesh);
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// A slice along `dim` is local when it starts at 0 with stride 1 and every
// device keeps a piece of the same size (only the last pieces shrink).
bool isLocalSliceDim(Op op, int64_t dim, const TensorSharding& sharding,
                     const Mesh& mesh) {
  const int64_t shards = shardCount(sharding, dim, mesh);
  if (shards <= 1) return true;
  if (ints(op.attr("start_indices"))[dim] != 0 ||
      ints(op.attr("strides"))[dim] != 1) {
    return false;
  }
  const int64_t in = op.operand(0).type().shape()[dim];
  const int64_t out = op.result(0).type().shape()[dim];
  if (in == kDynamicSize || out == kDynamicSize) return false;
  return ceilDiv(in, shards) == ceilDiv(out, shards);
}

// A pad along `dim` is local when it has no interior padding and the input
// rows that land in each device's output piece all come from that device's
// own input piece.
bool isLocalPadDim(Op op, int64_t dim, const TensorSharding& sharding,
                   const Mesh& mesh) {
  const int64_t shards = shardCount(sharding, dim, mesh);
  if (shards <= 1) return true;
  if (ints(op.attr("interior_padding"))[dim] != 0) return false;
  const int64_t in = op.operand(0).type().shape()[dim];
  if (in == kDynamicSize) return false;
  const int64_t piece_in = ceilDiv(in, shards);
  const int64_t piece_out = ceilDiv(op.result(0).type().shape()[dim], shards);
  const int64_t low = ints(op.attr("edge_padding_low"))[dim];
  for (int64_t t = 0; t < shards; ++t) {
    const int64_t first = std::max<int64_t>(0, t * piece_out - low);
    const int64_t last =
        std::min<int64_t>(in - 1, t * piece_out - low + piece_out - 1);
    if (first <= last && (first / piece_in != t || last / piece_in != t)) {
      return false;
    }
  }
  return true;
}

// Inserts `sdy.reshard` of operand `i` of `op` to `sharding` before `op`.
void reshardOperand(Module& module, Op op, unsigned i,
                    const TensorSharding& sharding) {
  Value operand = op.operand(i);
  OperationState state(sdy::ReshardOp::opName());
  state.operands = {operand};
  state.result_types = {operand.type()};
  state.addAttr("sharding", Attribute::of(sharding));
  state.location = op.location();
  Op reshard = module.createOp(state);
  op.parentBlock().insertBefore(op, reshard);
  op.setOperand(i, reshard.result(0));
}

// Gives result `i` of `op` the sharding `sharding` and its users a reshard
// of it back to `original`, after `op`.
void reshardResult(Module& module, Op op, unsigned i,
                   const TensorSharding& sharding,
                   const TensorSharding& original) {
  Value result = op.result(i);
  setSharding(result, sharding);
  OperationState state(sdy::ReshardOp::opName());
  state.operands = {result};
  state.result_types = {result.type()};
  state.addAttr("sharding", Attribute::of(original));
  state.location = op.location();
  Op reshard = module.createOp(state);
  op.parentBlock().insertAfter(op, reshard);
  result.replaceUsesWithIf(reshard.result(0), [&](const Value::Use& use) {
    return use.user() != reshard;
  });
}

// Reshards the operands and results of `op` to `in` and `out` where they
// differ from their shardings now.
void applyShardings(Module& module, Op op,
                    const std::vector<std::optional<TensorSharding>>& old_in,
                    const std::vector<std::optional<TensorSharding>>& in,
                    const std::vector<std::optional<TensorSharding>>& old_out,
                    const std::vector<std::optional<TensorSharding>>& out) {
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    if (in[i] && old_in[i] && !(*in[i] == *old_in[i])) {
      reshardOperand(module, op, i, *in[i]);
    }
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    if (out[i] && old_out[i] && !(*out[i] == *old_out[i])) {
      reshardResult(module, op, i, *out[i], *old_out[i]);
    }
  }
}

// The mesh the shardings of `op` share (the first one found), or null.
const Mesh* commonMesh(
    const MeshTable& meshes,
    const std::vector<std::optional<TensorSharding>>& shardings) {
  for (const std::optional<TensorSharding>& s : shardings) {
    if (!s) continue;
    const Mesh* mesh = meshes.resolve(*s);
    if (mesh != nullptr && !mesh->isMaximal()) return mesh;
  }
  return nullptr;
}

std::vector<std::optional<TensorSharding>> shardingsOf(
    const std::vector<Value>& values) {
  std::vector<std::optional<TensorSharding>> out;
  out.reserve(values.size());
  for (Value v : values) out.push_back(getSharding(v));
  return out;
}

// Replicates the dimensions of `op`'s tensors that map a permutation factor
// which is sharded somewhere and not local.
absl::Status replicatePermutationFactors(Module& module,
                                         const MeshTable& meshes, Op op,
                                         const OpShardingRule& rule) {
  std::vector<std::optional<TensorSharding>> old_in =
      shardingsOf(op.operands());
  std::vector<std::optional<TensorSharding>> old_out =
      shardingsOf(op.results());
  std::vector<std::optional<TensorSharding>> all = old_in;
  all.insert(all.end(), old_out.begin(), old_out.end());
  const Mesh* mesh = commonMesh(meshes, all);
  if (mesh == nullptr) return absl::OkStatus();
  absl::flat_hash_set<int64_t> replicated;
  const bool slice = isa<stablehlo::SliceOp>(op);
  const bool pad = isa<stablehlo::PadOp>(op);
  for (int64_t f : rule.permutation_factors) {
    // A slice or pad maps each factor to one dimension of its operand.
    std::optional<int64_t> dim;
    if ((slice || pad) && old_in[0] && !rule.operand_mappings.empty()) {
      const TensorMapping& mapping = rule.operand_mappings[0];
      for (int64_t d = 0; d < mapping.rank() && d < old_in[0]->rank(); ++d) {
        const std::vector<int64_t>& factors =
            mapping.dim_mappings[d].factor_indices;
        if (std::find(factors.begin(), factors.end(), f) != factors.end()) {
          dim = d;
        }
      }
    }
    if (dim && (slice ? isLocalSliceDim(op, *dim, *old_in[0], *mesh)
                      : isLocalPadDim(op, *dim, *old_in[0], *mesh))) {
      continue;
    }
    replicated.insert(f);
  }
  if (replicated.empty()) return absl::OkStatus();
  auto clear = [&](std::vector<std::optional<TensorSharding>> shardings,
                   const std::vector<TensorMapping>& mappings) {
    for (size_t t = 0; t < shardings.size() && t < mappings.size(); ++t) {
      if (!shardings[t]) continue;
      for (int64_t d = 0; d < mappings[t].rank() && d < shardings[t]->rank();
           ++d) {
        for (int64_t f : mappings[t].dim_mappings[d].factor_indices) {
          if (replicated.contains(f)) {
            shardings[t]->dim_shardings[d].axes.clear();
          }
        }
      }
    }
    return shardings;
  };
  applyShardings(module, op, old_in, clear(old_in, rule.operand_mappings),
                 old_out, clear(old_out, rule.result_mappings));
  return absl::OkStatus();
}

// A run of operand dims [in_begin, in_end) and result dims [out_begin,
// out_end) of a reshape with the same number of elements: the reshape maps
// each run to its own.
struct ReshapeGroup {
  int64_t in_begin = 0, in_end = 0, out_begin = 0, out_end = 0;
};

// The smallest such runs, in order.
std::vector<ReshapeGroup> reshapeGroups(absl::Span<const int64_t> in,
                                        absl::Span<const int64_t> out) {
  std::vector<ReshapeGroup> groups;
  const int64_t in_rank = std::ssize(in), out_rank = std::ssize(out);
  int64_t i = 0, o = 0;
  while (i < in_rank || o < out_rank) {
    ReshapeGroup g{i, i, o, o};
    int64_t in_volume = i < in_rank ? in[i++] : 1;
    int64_t out_volume = o < out_rank ? out[o++] : 1;
    while (in_volume != out_volume) {
      if (in_volume < out_volume && i < in_rank) {
        in_volume *= in[i++];
      } else if (out_volume < in_volume && o < out_rank) {
        out_volume *= out[o++];
      } else {
        break;
      }
    }
    g.in_end = i;
    g.out_end = o;
    groups.push_back(g);
  }
  return groups;
}

int64_t nontrivialDims(absl::Span<const int64_t> shape, int64_t begin,
                       int64_t end) {
  int64_t n = 0;
  for (int64_t d = begin; d < end; ++d) n += shape[d] != 1;
  return n;
}

// A reshape whose dimensions split or merge (a group of more than one
// non-trivial dim on either side) with a dimension its shard count does not
// divide: padding would move elements across pieces, so the axes of such
// groups are replicated on both sides. A group that maps one dimension to
// one (size-1 dims aside) is left to -sdy-pad-for-divisibility.
absl::Status resolveReshape(Module& module, const MeshTable& meshes, Op op) {
  std::optional<TensorSharding> in = getSharding(op.operand(0));
  std::optional<TensorSharding> out = getSharding(op.result(0));
  if (!in || !out) return absl::OkStatus();
  const Mesh* mesh = meshes.resolve(*in);
  if (mesh == nullptr || mesh->isMaximal()) return absl::OkStatus();
  absl::Span<const int64_t> in_shape = op.operand(0).type().shape();
  absl::Span<const int64_t> out_shape = op.result(0).type().shape();
  if (in->rank() != std::ssize(in_shape) ||
      out->rank() != std::ssize(out_shape) ||
      !op.operand(0).type().hasStaticShape() ||
      !op.result(0).type().hasStaticShape()) {
    return absl::OkStatus();
  }
  auto indivisible = [&](const TensorSharding& s,
                         absl::Span<const int64_t> shape, int64_t begin,
                         int64_t end) {
    for (int64_t d = begin; d < end; ++d) {
      const int64_t shards = shardCount(s, d, *mesh);
      if (shards > 1 && shape[d] % shards != 0) return true;
    }
    return false;
  };
  absl::flat_hash_set<std::string> names;
  auto collect = [&](const TensorSharding& s, int64_t begin, int64_t end) {
    for (int64_t d = begin; d < end; ++d) {
      for (const AxisRef& axis : s.dim_shardings[d].axes) {
        names.insert(axis.name);
      }
    }
  };
  for (const ReshapeGroup& g : reshapeGroups(in_shape, out_shape)) {
    const bool passthrough =
        nontrivialDims(in_shape, g.in_begin, g.in_end) <= 1 &&
        nontrivialDims(out_shape, g.out_begin, g.out_end) <= 1;
    if (passthrough ||
        (!indivisible(*in, in_shape, g.in_begin, g.in_end) &&
         !indivisible(*out, out_shape, g.out_begin, g.out_end))) {
      continue;
    }
    collect(*in, g.in_begin, g.in_end);
    collect(*out, g.out_begin, g.out_end);
  }
  if (names.empty()) return absl::OkStatus();
  auto without = [&](TensorSharding s) {
    for (DimensionSharding& dim : s.dim_shardings) {
      AxisRefVector kept;
      for (const AxisRef& axis : dim.axes) {
        if (!names.contains(axis.name)) kept.push_back(axis);
      }
      dim.axes = std::move(kept);
    }
    return s;
  };
  applyShardings(module, op, {in}, {without(*in)}, {out}, {without(*out)});
  return absl::OkStatus();
}

}  // namespace

absl::Status resolvePermutationFactors(
    Module& module, const ResolvePermutationFactorsOptions& options) {
  if (options.replica_count > 1 && options.partition_count > 1) {
    return absl::InvalidArgumentError(
        "Shardy partitioner does not support replica_count > 1 && "
        "partition_count > 1 yet.");
  }
  const MeshTable meshes = module.meshTable();
  std::vector<Op> ops;
  ir_internal::collectPreOrder(module.body(), ops);
  for (Op op : ops) {
    if (op.isErased() || op.dialect() != kStablehloDialect ||
        op.hasTrait(OpTrait::kTerminator)) {
      continue;
    }
    if (isa<stablehlo::ReshapeOp>(op)) {
      SK_RETURN_IF_ERROR(resolveReshape(module, meshes, op));
      continue;
    }
    absl::StatusOr<std::optional<OpShardingRule>> rule = shardingRuleFor(op);
    if (!rule.ok() || !rule->has_value() || (*rule)->is_custom_rule ||
        (*rule)->permutation_factors.empty()) {
      continue;
    }
    SK_RETURN_IF_ERROR(replicatePermutationFactors(module, meshes, op, **rule));
  }
  return absl::OkStatus();
}

}  // namespace shardkit
