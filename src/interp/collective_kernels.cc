// The collectives of StableHLO (all_gather, all_reduce, reduce_scatter,
// all_to_all, collective_permute, collective_broadcast) between the
// processes of interpreter.run_parallel, with the process groups the spec
// derives from `replica_groups`, `channel_handle` and
// `use_global_device_ids`.
#include <algorithm>

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parser_base.h"
#include "src/interp/evaluator.h"
#include "src/interp/mesh_axes_groups.h"
#include "src/interp/process_grid.h"
#include "src/interp/reducer.h"
#include "src/interp/shape_util.h"

namespace shardkit::interp {
namespace {

// The `handle` of `channel_handle = #stablehlo.channel_handle<handle = N,
// type = T>`; 0 without one.
absl::StatusOr<int64_t> channelId(const OpContext& ctx) {
  const Attribute& attr = ctx.op().attr("channel_handle");
  if (!attr) return 0;
  const std::string* text = attr.asOpaque();
  std::string_view prefix = "#stablehlo.channel_handle<";
  if (text == nullptr || !text->starts_with(prefix)) {
    return evalError("channel_handle must be a #stablehlo.channel_handle");
  }
  ParserBase p(std::string_view(*text).substr(prefix.size()));
  while (!p.at(TokenKind::kEof) && !p.at(TokenKind::kGreater)) {
    bool is_handle = p.atKeyword("handle");
    p.advance();
    if (!p.consumeIf(TokenKind::kEqual)) break;
    absl::StatusOr<int64_t> value = p.parseInteger();
    if (!value.ok()) break;
    if (is_handle) return *value;
    if (!p.consumeIf(TokenKind::kComma)) break;
  }
  return evalError("channel_handle has no handle");
}

// The rows of a 2-d integer elements attribute, -1 entries (padding of
// groups of different sizes) left out; or the groups of mesh axes.
absl::StatusOr<std::vector<std::vector<int64_t>>> idGroups(
    const OpContext& ctx, std::string_view name) {
  if (!ctx.op().hasAttr(name)) return std::vector<std::vector<int64_t>>{};
  SK_ASSIGN_OR_RETURN(auto mesh_groups,
                      meshAxesGroups(ctx.op(), ctx.op().attr(name)));
  if (mesh_groups) return *std::move(mesh_groups);
  SK_ASSIGN_OR_RETURN(Tensor t, ctx.elementsAttr(name));
  if (t.rank() != 2 || t.kind() != ElementKind::kInteger) {
    return evalError(strCat(name, " must be a 2-d integer tensor"));
  }
  std::vector<std::vector<int64_t>> groups(t.dim(0));
  for (int64_t i = 0; i < t.dim(0); ++i) {
    for (int64_t j = 0; j < t.dim(1); ++j) {
      int64_t id = t.intAt(i * t.dim(1) + j);
      if (id != -1) groups[i].push_back(id);
    }
  }
  return groups;
}

ProcessId self(const OpContext& ctx) {
  const ProcessContext& p = ctx.eval().process();
  return {p.replica_id, p.partition_id};
}

absl::StatusOr<ProcessGrid*> grid(const OpContext& ctx) {
  ProcessGrid* g = ctx.eval().process().grid;
  if (g == nullptr) {
    return evalError("is only supported when run via interpreter.run_parallel");
  }
  return g;
}

// The process groups of all_gather, all_reduce and reduce_scatter.
absl::StatusOr<GroupStrategy> reducingStrategy(const OpContext& ctx,
                                               int64_t channel) {
  bool global = ctx.boolAttrOr("use_global_device_ids", false);
  if (global && channel <= 0) {
    return evalError("use_global_device_ids needs a channel_handle > 0");
  }
  if (channel <= 0) return GroupStrategy::kCrossReplica;
  return global ? GroupStrategy::kFlattenedIds
                : GroupStrategy::kCrossReplicaAndPartition;
}

struct Membership {
  ProcessGrid* grid;
  int64_t channel;
  std::vector<ProcessGroup> groups;
  const ProcessGroup* group;  // this process's, or null
};

absl::StatusOr<Membership> membership(const OpContext& ctx, bool reducing,
                                      std::string_view groups_attr,
                                      bool unique = true) {
  SK_ASSIGN_OR_RETURN(ProcessGrid * g, grid(ctx));
  SK_ASSIGN_OR_RETURN(int64_t channel, channelId(ctx));
  GroupStrategy strategy = channel > 0 ? GroupStrategy::kCrossPartition
                                       : GroupStrategy::kCrossReplica;
  if (reducing) {
    SK_ASSIGN_OR_RETURN(strategy, reducingStrategy(ctx, channel));
  }
  SK_ASSIGN_OR_RETURN(auto ids, idGroups(ctx, groups_attr));
  SK_ASSIGN_OR_RETURN(std::vector<ProcessGroup> groups,
                      processGroups(ids, strategy, g->numReplicas(),
                                    g->numPartitions(), unique));
  Membership m{g, channel, std::move(groups), nullptr};
  m.group = findGroup(m.groups, self(ctx));
  return m;
}

absl::Status noGroup(const OpContext& ctx) {
  ProcessId p = self(ctx);
  return evalError(strCat("Failed to find process group with process_id: (",
                          p.replica, ", ", p.partition, ")"));
}

std::vector<Tensor> operandTensors(const OpContext& ctx) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < ctx.numOperands(); ++i) out.push_back(ctx.tensor(i));
  return out;
}

absl::StatusOr<Results> allGather(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  SK_ASSIGN_OR_RETURN(int64_t dim, ctx.intAttr("all_gather_dim"));
  SK_ASSIGN_OR_RETURN(Membership m, membership(ctx, true, "replica_groups"));
  if (m.group == nullptr) return noGroup(ctx);
  SK_ASSIGN_OR_RETURN(
      auto all, m.grid->rendezvous(self(ctx), *m.group, m.channel, ctx.op(),
                                   operandTensors(ctx)));
  Results results;
  for (size_t k = 0; k < ctx.numOperands(); ++k) {
    std::vector<Tensor> parts;
    parts.reserve(all.size());
    for (auto& values : all) parts.push_back(std::move(values[k]));
    SK_ASSIGN_OR_RETURN(Tensor r, concatenateTensors(parts, dim));
    results.push_back(std::move(r));
  }
  return results;
}

// Each operand reduced over the group, in the order of the processes' ids
// (as the reference interpreter folds them).
absl::StatusOr<std::vector<Tensor>> reduceOverGroup(OpContext& ctx,
                                                    const Membership& m) {
  SK_ASSIGN_OR_RETURN(
      auto all, m.grid->rendezvous(self(ctx), *m.group, m.channel, ctx.op(),
                                   operandTensors(ctx)));
  std::vector<size_t> order(m.group->size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return (*m.group)[a] < (*m.group)[b]; });
  if (ctx.op().numRegions() != 1) return evalError("requires a computation");
  Reducer reducer(ctx, ctx.op().region(0), 1);
  std::vector<Tensor> results;
  for (size_t k = 0; k < ctx.numOperands(); ++k) {
    Tensor acc = all[order[0]][k];
    for (size_t j = 1; j < order.size(); ++j) {
      const Tensor& x = all[order[j]][k];
      for (int64_t i = 0; i < acc.numElements(); ++i) {
        SK_RETURN_IF_ERROR(reducer.combine(acc, i, x, i));
      }
    }
    results.push_back(std::move(acc));
  }
  return results;
}

absl::StatusOr<Results> allReduce(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  SK_ASSIGN_OR_RETURN(Membership m, membership(ctx, true, "replica_groups"));
  if (m.group == nullptr) return noGroup(ctx);
  SK_ASSIGN_OR_RETURN(std::vector<Tensor> reduced, reduceOverGroup(ctx, m));
  return Results(reduced.begin(), reduced.end());
}

absl::StatusOr<Results> reduceScatter(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  SK_ASSIGN_OR_RETURN(int64_t dim, ctx.intAttr("scatter_dimension"));
  SK_ASSIGN_OR_RETURN(Membership m, membership(ctx, true, "replica_groups"));
  if (m.group == nullptr) return noGroup(ctx);
  SK_ASSIGN_OR_RETURN(std::vector<Tensor> reduced, reduceOverGroup(ctx, m));
  size_t me =
      std::find(m.group->begin(), m.group->end(), self(ctx)) - m.group->begin();
  Results results;
  for (const Tensor& t : reduced) {
    SK_ASSIGN_OR_RETURN(std::vector<Tensor> parts,
                        splitTensor(t, m.group->size(), dim));
    results.push_back(std::move(parts[me]));
  }
  return results;
}

absl::StatusOr<Results> allToAll(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  SK_ASSIGN_OR_RETURN(int64_t split_dim, ctx.intAttr("split_dimension"));
  SK_ASSIGN_OR_RETURN(int64_t concat_dim, ctx.intAttr("concat_dimension"));
  SK_ASSIGN_OR_RETURN(int64_t split_count, ctx.intAttr("split_count"));
  SK_ASSIGN_OR_RETURN(Membership m, membership(ctx, false, "replica_groups"));
  if (m.group == nullptr) return noGroup(ctx);
  if (static_cast<int64_t>(m.group->size()) != split_count) {
    return evalError(strCat("split_count ", split_count,
                            " must be the size of the process group (",
                            m.group->size(), ")"));
  }
  SK_ASSIGN_OR_RETURN(
      auto all, m.grid->rendezvous(self(ctx), *m.group, m.channel, ctx.op(),
                                   operandTensors(ctx)));
  size_t me =
      std::find(m.group->begin(), m.group->end(), self(ctx)) - m.group->begin();
  Results results;
  for (size_t k = 0; k < ctx.numOperands(); ++k) {
    std::vector<Tensor> received;
    for (const auto& values : all) {
      SK_ASSIGN_OR_RETURN(std::vector<Tensor> parts,
                          splitTensor(values[k], split_count, split_dim));
      received.push_back(std::move(parts[me]));
    }
    SK_ASSIGN_OR_RETURN(Tensor r, concatenateTensors(received, concat_dim));
    results.push_back(std::move(r));
  }
  return results;
}

// collective_permute: each pair's source sends its operand to its target;
// a process no pair targets gets zeros. The processes meet pair by pair, in
// the pairs' order (a self-pair needs no meeting).
absl::StatusOr<Results> collectivePermute(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  SK_ASSIGN_OR_RETURN(Membership m,
                      membership(ctx, false, "source_target_pairs",
                                 /*unique=*/false));
  for (const ProcessGroup& pair : m.groups) {
    if (pair.size() != 2) {
      return evalError("source_target_pairs must be pairs");
    }
  }
  // Two pairs may not share a source or a target.
  std::vector<ProcessId> sources, targets;
  for (const ProcessGroup& pair : m.groups) {
    sources.push_back(pair[0]);
    targets.push_back(pair[1]);
  }
  for (std::vector<ProcessId>* ids : {&sources, &targets}) {
    std::sort(ids->begin(), ids->end());
    if (std::adjacent_find(ids->begin(), ids->end()) != ids->end()) {
      return evalError("source_target_pairs repeat a source or a target");
    }
  }
  const Tensor& operand = ctx.tensor(0);
  ProcessId me = self(ctx);
  Tensor result;
  for (const ProcessGroup& pair : m.groups) {
    if (pair[0] != me && pair[1] != me) continue;
    if (pair[0] == pair[1]) {
      result = operand;
      continue;
    }
    SK_ASSIGN_OR_RETURN(
        auto all, m.grid->rendezvous(me, pair, m.channel, ctx.op(), {operand}));
    if (pair[1] == me) result = std::move(all[0][0]);
  }
  if (!result) result = Tensor(operand.elementType(), operand.shape());
  return Results{std::move(result)};
}

// collective_broadcast: the first process of each group sends its operand
// to the others; a process in no group gets zeros.
absl::StatusOr<Results> collectiveBroadcast(OpContext& ctx) {
  SK_RETURN_IF_ERROR(ctx.tensorOperands());
  SK_ASSIGN_OR_RETURN(Membership m, membership(ctx, false, "replica_groups"));
  Results results;
  if (m.group == nullptr) {
    for (size_t i = 0; i < ctx.numOperands(); ++i) {
      results.push_back(
          Tensor(ctx.tensor(i).elementType(), ctx.tensor(i).shape()));
    }
    return results;
  }
  SK_ASSIGN_OR_RETURN(
      auto all, m.grid->rendezvous(self(ctx), *m.group, m.channel, ctx.op(),
                                   operandTensors(ctx)));
  for (Tensor& t : all[0]) results.push_back(std::move(t));
  return results;
}

}  // namespace

void addCollectiveKernels(KernelTable& t) {
  using namespace stablehlo;  // NOLINT: the op handles
  t.add<AllGatherOp>(&allGather);
  t.add<AllReduceOp>(&allReduce);
  t.add<ReduceScatterOp>(&reduceScatter);
  t.add<AllToAllOp>(&allToAll);
  t.add<CollectivePermuteOp>(&collectivePermute);
  t.add<CollectiveBroadcastOp>(&collectiveBroadcast);
}

}  // namespace shardkit::interp
