// -sdy-insert-explicit-reshards: after propagation, makes every op's
// operands and results agree with one sharding per factor of its rule by
// inserting `sdy.reshard`s, and inserts the `sdy.all_reduce`s that sharded
// reduction factors need (docs/export.md, "Explicit reshards").
//
// The choice of the factor shardings is factor_propagation's
// (findCommonAxes); this file walks the functions, reads and writes the
// shardings, and builds the ops.
#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/computations.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/factor_propagation/explicit_reshards.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/rules/registry.h"
#include "shardkit/sim/collectives.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/passes/export/op_mesh.h"
#include "src/passes/export/op_shardings.h"
#include "src/passes/export/reduction_axes.h"
#include "src/passes/export/reshard_builder.h"
#include "src/passes/export/single_device_reshards.h"
#include "src/passes/export/unchanged_visits.h"
#include "src/passes/export/unreduced_reshards.h"
#include "src/passes/pass_list.h"
#include "src/rules/rule_cache.h"
#include "src/support/ordered_parallel.h"

namespace shardkit {
namespace {

using passes_internal::After;
using passes_internal::AfterValue;
using passes_internal::allReduceAxes;
using passes_internal::Before;
using passes_internal::fullyClosedLike;
using passes_internal::isEquivalent;
using passes_internal::OpMesh;
using passes_internal::opMesh;
using passes_internal::OpShardings;
using passes_internal::reductionAxesIfUnreduced;
using passes_internal::replaceUsesExcept;
using passes_internal::ReshardBuilder;
using passes_internal::tensorSizes;

using MaybeSharding = std::optional<TensorSharding>;
using func::CallOp;

class ExplicitReshards {
 public:
  // With `dry_run`, visits change nothing and only say whether they would
  // (firstChangingOp).
  ExplicitReshards(Module& module, const InsertExplicitReshardsOptions& opts,
                   bool dry_run = false)
      : module_(module),
        options_(opts),
        meshes_(module.meshTable()),
        builder_(module),
        dry_run_(dry_run) {}

  absl::Status runOnFunc(FuncOp func) {
    SK_RETURN_IF_ERROR(
        passes_internal::checkNoSingleDeviceSignature(func, meshes_));
    std::vector<Op> ops;
    ir_internal::collectPostOrder(func.body(), ops);
    for (size_t i = firstChangingOp(ops); i < ops.size(); ++i) {
      if (ops[i].hasTrait(OpTrait::kTerminator)) continue;
      SK_RETURN_IF_ERROR(visit(ops[i]).status());
    }
    Op ret = func.returnOp();
    if (!ret) return absl::OkStatus();
    for (unsigned i = 0; i < ret.numOperands(); ++i) {
      reshardOperandTo(OperandRef{ret, i}, findFuncResultSharding(func, i),
                       /*after_operand=*/false, options_.enable_full_version);
    }
    return absl::OkStatus();
  }

 private:
  // The full version runs on every op when enabled, else only on calls and
  // on concatenates whose operands are sharded unlike the result.
  bool onFullVersion(Op op) const {
    if (options_.enable_full_version || isa<CallOp>(op)) return true;
    if (!isa<stablehlo::ConcatenateOp>(op) || op.numResults() != 1) {
      return false;
    }
    MaybeSharding result = getSharding(op.result(0));
    for (Value operand : op.operands()) {
      if (getSharding(operand) != result) return true;
    }
    return false;
  }

  // The index of the first of `ops` whose visit may change the module or
  // fail, found by dry runs of the visits in chunks side by side; 0 (visit
  // them all) with one thread, few ops or the full version (which reshards
  // nearly every op). The visits before it would leave the module as it
  // is, so skipping them changes nothing.
  size_t firstChangingOp(const std::vector<Op>& ops);

  // Visits `op`; returns whether the visit changed the module, erring
  // towards true. A dry run changes nothing and returns whether the visit
  // would, again erring towards true: it stops at the first change it
  // would make, and does not follow edges, calls or the full version.
  absl::StatusOr<bool> visit(Op op) {
    bool full = onFullVersion(op);
    if (dry_run_ && (full || isDataFlowOp(op) || isa<CallOp>(op) ||
                     isa<sdy::ReshardOp>(op))) {
      return true;
    }
    if (isDataFlowOp(op)) {
      visitDataFlowOp(op, full);
      return true;
    }
    if (auto call = dynCast<CallOp>(op)) {
      visitCall(call, full);
      return true;
    }
    if (passes_internal::convertReshardToUnreducedCollectives(op, meshes_,
                                                              builder_)) {
      return true;
    }
    // Read once; a step that changes the op's operands or shardings reads
    // them again.
    OpShardings shardings(op);
    bool reduced = reducesOperands(op, shardings);
    if (reduced) {
      if (dry_run_) return true;
      reduceOperandsForOp(op, shardings);
      shardings.read(op);
    }
    if (op.dialect() == "sdy") return reduced;
    if (dry_run_) {
      if (passes_internal::anySingleDevice(shardings.results(), meshes_)) {
        return true;
      }
    } else {
      SK_ASSIGN_OR_RETURN(bool single_device,
                          passes_internal::reshardSingleDeviceOp(
                              op, shardings.results(), meshes_, builder_));
      if (single_device) return true;
    }
    SK_ASSIGN_OR_RETURN(const OpShardingRule* rule, ruleOf(op));
    if (rule == nullptr || rule->is_custom_rule) return reduced;
    // Below, a dot's visit reads only its rule, its tensors' types and their
    // shardings: one that changed nothing before changes nothing again.
    bool kept = kept_rule_ && rule == &*kept_rule_;  // reused address
    if (full || kept || !isa<stablehlo::DotOp, stablehlo::DotGeneralOp>(op)) {
      SK_ASSIGN_OR_RETURN(bool changed,
                          visitRuleOp(op, *rule, shardings, full));
      return reduced || changed;
    }
    absl::InlinedVector<const void*, 4> types;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      types.push_back(op.operand(i).type().identity());
    }
    for (unsigned i = 0; i < op.numResults(); ++i) {
      types.push_back(op.result(i).type().identity());
    }
    // Read after the visit only if it changed nothing (VisitInputs). No
    // copies of the holders: on dry runs side by side, their reference
    // counts would be written from every thread.
    passes_internal::VisitInputs inputs{rule, types, shardings.pointers,
                                        shardings.holders};
    if (unchanged_dots_.contains(inputs)) return reduced;
    SK_ASSIGN_OR_RETURN(bool changed, visitRuleOp(op, *rule, shardings, full));
    if (!changed) unchanged_dots_.insert(inputs);
    return reduced || changed;
  }

  // The rule propagation used when it kept it on the op (any rule, as the
  // reference reads it), else the op's rule, built once per op signature
  // (rule_cache.h); null if the op has none. Valid until the next call.
  absl::StatusOr<const OpShardingRule*> ruleOf(Op op) {
    const Attribute& kept_attr = op.attr(kShardingRuleAttr);
    if (const OpShardingRule* kept = kept_attr.as<OpShardingRule>()) {
      // A copy: the op's attributes change while it is visited.
      kept_rule_ = *kept;
      return &*kept_rule_;
    }
    bool cacheable = !kept_attr;
    if (cacheable) {
      if (std::optional<int32_t> index = rules_.find(op)) {
        return rules_.get(*index);
      }
    }
    SK_ASSIGN_OR_RETURN(std::optional<OpShardingRule> rule,
                        shardingRuleFor(op));
    int32_t index = rule ? rules_.add(*std::move(rule)) : -1;
    if (cacheable) rules_.record(op, index);
    return rules_.get(index);
  }

  // The sharding a source of the edge of `owner` must have.
  MaybeSharding edgeTarget(Op op, Value owner) {
    bool on_argument = owner.isBlockArgument();
    const TensorShardingPerValue* list = nullptr;
    if (auto manual = dynCast<sdy::ManualComputationOp>(op)) {
      list = on_argument ? &manual.inShardings() : &manual.outShardings();
    } else if (auto named = dynCast<sdy::NamedComputationOp>(op)) {
      list = on_argument ? named.inShardings() : named.outShardings();
    } else {
      return getEdgeOwnerSharding(owner);
    }
    if (list == nullptr || owner.index() >= list->items.size()) {
      return std::nullopt;
    }
    const TensorSharding& s = list->items[owner.index()];
    if (on_argument) return s;
    return withoutManualAxes(s, manualAxesOf(op));
  }

  void visitDataFlowOp(Op op, bool full) {
    std::vector<Value> owners;
    for (Value result : op.results()) owners.push_back(result);
    for (Value owner : dataFlowEdgeOwners(op)) {
      if (owner.isBlockArgument()) owners.push_back(owner);
    }
    for (Value owner : owners) {
      std::optional<DataFlowEdge> edge = dataFlowEdgeOf(owner);
      if (!edge) continue;
      MaybeSharding target = edgeTarget(op, owner);
      for (const OperandRef& use : edge->source_uses) {
        reshardOperandTo(use, target ? &*target : nullptr,
                         /*after_operand=*/true, full);
      }
    }
  }

  void visitCall(CallOp call, bool full) {
    FuncOp callee(module_.lookupSymbol(call.callee()));
    if (!callee) return;
    Op op = call;
    std::vector<MaybeSharding> targets;
    bool any = false;
    for (unsigned i = 0; i < op.numOperands() && i < callee.numArguments();
         ++i) {
      targets.push_back(getFuncArgSharding(callee, i));
      any = any || targets.back().has_value();
    }
    if (!any) {
      // The callee has no shardings: operands go to fully closed shardings
      // on the mesh of the first sharded operand, if any.
      std::optional<MeshOrRef> mesh;
      for (Value operand : op.operands()) {
        MaybeSharding s = getSharding(operand);
        if (s && !passes_internal::isSingleDevice(*s, meshes_)) {
          mesh = s->mesh;
          break;
        }
      }
      if (!mesh) return;
      for (unsigned i = 0; i < targets.size(); ++i) {
        targets[i] =
            TensorSharding::fullyClosed(*mesh, op.operand(i).type().rank());
      }
    }
    for (unsigned i = 0; i < targets.size(); ++i) {
      reshardOperandTo(OperandRef{op, i}, targets[i] ? &*targets[i] : nullptr,
                       /*after_operand=*/true, full);
    }
  }

  // If the operand of `use` has unreduced axes that `target_unreduced`
  // lacks, all-reduces it over them (placed by `place`); returns the
  // operand's sharding after that: its own unreduced axes minus those.
  // Unreduced axes of a target on a mesh with other axes keep nothing.
  template <typename Place>
  MaybeSharding reduceUnreducedAxes(OperandRef use, MaybeSharding current,
                                    const TensorSharding* target,
                                    Place&& place) {
    if (!current || current->unreduced_axes.empty()) return current;
    const Mesh* mesh = meshes_.resolve(*current);
    if (mesh == nullptr) return current;
    AxisRefVector target_unreduced;
    if (target != nullptr) {
      const Mesh* target_mesh = meshes_.resolve(*target);
      if (target_mesh != nullptr && target_mesh->axes == mesh->axes) {
        target_unreduced = target->unreduced_axes;
      }
    }
    AxisRefVector axes =
        axisSetDifference(current->unreduced_axes, target_unreduced, *mesh);
    if (axes.empty()) return current;
    // The all-reduce keeps the operand's other unreduced axes (not the
    // target's: those it lacks are added later, by r2u or s2u).
    TensorSharding out = *current;
    out.unreduced_axes =
        axisSetDifference(current->unreduced_axes, axes, *mesh);
    use.set(builder_.allReduce(use.get(), std::move(axes), out,
                               current->unreduced_kind, use.user.location(),
                               place));
    return out;
  }

  // Whether reduceOperandsForOp has operands to reduce: an op with results
  // that is not a collective (which reduces or keeps unreduced axes as its
  // kind says: a second reduction before it would count the partial values
  // twice), with an operand that has unreduced axes.
  static bool reducesOperands(Op op, const OpShardings& shardings) {
    if (op.numResults() == 0 || op.hasTrait(OpTrait::kCollective)) {
      return false;
    }
    for (const TensorSharding* operand : shardings.operands()) {
      if (operand != nullptr && !operand->unreduced_axes.empty()) return true;
    }
    return false;
  }

  // Operands of `op` with unreduced axes its results don't keep are
  // all-reduced first (when reducesOperands; `shardings`, the op's, are
  // then stale).
  void reduceOperandsForOp(Op op, const OpShardings& shardings) {
    std::optional<MaybeSharding> first;  // read when an operand needs it
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      const TensorSharding* current = shardings.operands()[i];
      if (current == nullptr || current->unreduced_axes.empty()) continue;
      if (!first) first = getSharding(op.result(0));
      // A copy: the all-reduce replaces the operand the pointer reads.
      reduceUnreducedAxes(OperandRef{op, i}, MaybeSharding(*current),
                          *first ? &**first : nullptr, Before{op});
    }
  }

  void reshardOperandTo(OperandRef use, const TensorSharding* target,
                        bool after_operand, bool full) {
    MaybeSharding current = getSharding(use.get());
    if (after_operand) {
      current = reduceUnreducedAxes(use, std::move(current), target,
                                    AfterValue{use.get()});
    } else {
      current = reduceUnreducedAxes(use, std::move(current), target,
                                    Before{use.user});
    }
    if (current && target) {
      if (MaybeSharding unreduced = passes_internal::insertUnreducedCollectives(
              use, *current, *target, after_operand, meshes_, builder_)) {
        current = std::move(unreduced);
      }
    }
    if (!full) return;
    Value operand = use.get();
    if (isEquivalent(current ? &*current : nullptr, target)) return;
    TensorSharding sharding = target ? *target : fullyClosedLike(*current);
    Value reshard;
    if (after_operand) {
      reshard = builder_.reshard(operand, sharding, use.user.location(),
                                 AfterValue{operand});
    } else {
      reshard = builder_.reshard(operand, sharding, use.user.location(),
                                 Before{use.user});
    }
    use.set(reshard);
  }

  // Returns whether it changed the module (the full version: true).
  absl::StatusOr<bool> visitRuleOp(Op op, const OpShardingRule& rule,
                                   const OpShardings& shardings, bool full);
  // The full version: reshards to one sharding per factor; returns it.
  AxesPerFactor reshardToCommonAxes(Op op, const OpShardingRule& rule,
                                    const OpShardings& shardings,
                                    ShardingProjection& projection,
                                    const OpMesh& mesh);
  // All-reduces each result of `op` over `axes`.
  void insertAllReduces(Op op, const AxisRefVector& axes,
                        const MeshOrRef& mesh_ref);
  // The sharding is on a mesh with the op's axes but another device order.
  bool onOtherDeviceOrder(const TensorSharding* sharding,
                          const Mesh& mesh) const;

  Module& module_;
  InsertExplicitReshardsOptions options_;
  MeshTable meshes_;
  ReshardBuilder builder_;
  // ruleOf's rules: by op signature, and the last kept one.
  RuleTable rules_;
  std::optional<OpShardingRule> kept_rule_;
  // visitRuleOp's projection, assigned for each op: its vectors keep their
  // capacity from one op to the next.
  ShardingProjection projection_;
  passes_internal::UnchangedVisits unchanged_dots_;
  bool dry_run_ = false;
};

bool ExplicitReshards::onOtherDeviceOrder(const TensorSharding* sharding,
                                          const Mesh& mesh) const {
  if (sharding == nullptr || sharding->isFullyReplicated()) return false;
  const Mesh* own = meshes_.resolve(*sharding);
  return own != nullptr && !own->sameDeviceOrder(mesh);
}

absl::StatusOr<bool> ExplicitReshards::visitRuleOp(Op op,
                                                   const OpShardingRule& rule,
                                                   const OpShardings& shardings,
                                                   bool full) {
  if (rule.numOperands() != op.numOperands() ||
      rule.numResults() != op.numResults()) {
    return false;
  }
  absl::StatusOr<std::optional<OpMesh>> found =
      opMesh(shardings.operands(), shardings.results(), meshes_);
  if (!found.ok()) return opError(op, fromAbsl(found.status().message()));
  if (!*found) return false;
  const OpMesh& mesh = **found;
  bool is_dot = isa<stablehlo::DotOp, stablehlo::DotGeneralOp>(op);
  if (!full && !is_dot) {
    // Only an unreduced result needs the projection (for the all-reduces of
    // its reduction factors).
    const TensorSharding* first =
        op.numResults() > 0 ? shardings.pointers[shardings.num_operands]
                            : nullptr;
    if (first == nullptr || first->unreduced_axes.empty()) return false;
  }
  ProjectionOptions projection_options;
  projection_options.closed_if_missing = true;
  absl::Status projected =
      projection_.assign(shardings.operands(), shardings.results(), rule,
                         *mesh.mesh, projection_options);
  if (!projected.ok()) return opError(op, fromAbsl(projected.message()));
  ShardingProjection& projection = projection_;
  AxesPerFactor common;
  bool changed = full;
  if (full) {
    common = reshardToCommonAxes(op, rule, shardings, projection, mesh);
  } else {
    if (is_dot && shardings.pointers.back() != nullptr &&
        reshardDotResultLikeOperands(projection, rule, tensorSizes(op))) {
      if (dry_run_) return true;
      changed = true;
      Value result = op.result(0);
      TensorSharding old = *shardings.pointers.back();
      Value reshard = builder_.reshard(result, old, op.location(), After{op});
      replaceUsesExcept(result, reshard, reshard.definingOp());
      setSharding(result, projection.result(0).toTensorSharding(
                              rule.tensorMapping(rule.numOperands()),
                              rule.factor_sizes, *mesh.mesh, mesh.ref));
    }
    SK_ASSIGN_OR_RETURN(common, reductionAxesIfUnreduced(op, rule, projection));
  }
  AxisRefVector axes = allReduceAxes(op, rule, common, *mesh.mesh);
  if (axes.empty()) return changed;
  if (dry_run_) return true;
  insertAllReduces(op, axes, mesh.ref);
  return true;
}

AxesPerFactor ExplicitReshards::reshardToCommonAxes(
    Op op, const OpShardingRule& rule, const OpShardings& shardings,
    ShardingProjection& projection, const OpMesh& mesh) {
  auto projected = [&](int64_t t) {
    return projection.tensor(t).toTensorSharding(
        rule.tensorMapping(t), rule.factor_sizes, *mesh.mesh, mesh.ref);
  };
  TensorFlags overflow = projection.tensorsWithOverflowAxes();
  bool has_overflow =
      std::find(overflow.begin(), overflow.end(), true) != overflow.end();
  AxesPerFactor common;
  TensorFlags changed(projection.numTensors(), false);
  if (has_overflow && isa<stablehlo::ReshapeOp>(op)) {
    common = reshapeCommonAxes(projection, rule, *mesh.mesh);
    for (int64_t f = 0; f < rule.numFactors(); ++f) {
      projection.updateSharding(f, common[f]);
    }
    // What counts is the sharding each side ends up with.
    for (int64_t t = 0; t < projection.numTensors(); ++t) {
      TensorSharding now = projected(t);
      changed[t] = !isEquivalent(shardings.pointers[t], &now);
    }
  } else {
    common = findCommonAxes(projection, rule, tensorSizes(op), *mesh.mesh);
    for (int64_t f = 0; f < rule.numFactors(); ++f) {
      TensorFlags flags = projection.updateSharding(f, common[f]);
      for (size_t t = 0; t < flags.size(); ++t) {
        changed[t] = changed[t] || flags[t];
      }
    }
  }
  // Before any sharding changes (see OpShardings).
  for (size_t t = 0; t < changed.size(); ++t) {
    changed[t] =
        changed[t] || onOtherDeviceOrder(shardings.pointers[t], *mesh.mesh);
  }
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    if (!changed[i]) continue;
    Value operand = op.operand(i);
    op.setOperand(
        i, builder_.reshard(operand, projected(i), op.location(), Before{op}));
  }
  After after{op};
  for (unsigned i = 0; i < op.numResults(); ++i) {
    unsigned t = shardings.num_operands + i;
    if (!changed[t]) continue;
    Value result = op.result(i);
    // Read now, not from `shardings`: setting an earlier result's sharding
    // gives the results without one a fully open sharding.
    MaybeSharding old = getSharding(result);
    TensorSharding target =
        old ? *old
            : TensorSharding::fullyClosed(mesh.ref, result.type().rank());
    Value reshard = builder_.reshard(result, target, op.location(), after);
    replaceUsesExcept(result, reshard, reshard.definingOp());
    setSharding(result, projected(t));
  }
  return common;
}

void ExplicitReshards::insertAllReduces(Op op, const AxisRefVector& axes,
                                        const MeshOrRef& mesh_ref) {
  After after{op};
  for (Value result : op.results()) {
    MaybeSharding sharding = getSharding(result);
    TensorSharding out =
        sharding ? *sharding
                 : TensorSharding::fullyClosed(mesh_ref, result.type().rank());
    Value reduced = builder_.allReduce(result, axes, out, out.unreduced_kind,
                                       op.location(), after);
    replaceUsesExcept(result, reduced, reduced.definingOp());
  }
}

// Ops read per task by firstChangingOp: a chunk is enough work to be worth
// handing to a thread, and small enough that the chunks after a change
// found early are skipped.
constexpr size_t kOpsPerDryRunChunk = 4096;

size_t ExplicitReshards::firstChangingOp(const std::vector<Op>& ops) {
  int threads = options_.threads;
  if (dry_run_ || threads < 2 || options_.enable_full_version || ops.empty() ||
      ops.size() < options_.parallel_min_ops) {
    return 0;
  }
  size_t chunks = (ops.size() + kOpsPerDryRunChunk - 1) / kOpsPerDryRunChunk;
  // The least index found to change so far: the chunks after it are not
  // read.
  std::atomic<size_t> found{ops.size()};
  auto lower_found = [&found](size_t index) {
    size_t now = found.load(std::memory_order_relaxed);
    while (index < now && !found.compare_exchange_weak(
                              now, index, std::memory_order_relaxed)) {
    }
  };
  auto make_dry_run = [&] {
    // Its own rule cache, projection and memo of unchanged dots.
    auto probe = std::make_unique<ExplicitReshards>(module_, options_,
                                                    /*dry_run=*/true);
    return [&, probe = std::move(probe)](size_t chunk) {
      size_t begin = chunk * kOpsPerDryRunChunk;
      size_t end = std::min(ops.size(), begin + kOpsPerDryRunChunk);
      for (size_t i = begin; i < end; ++i) {
        if (i >= found.load(std::memory_order_relaxed)) break;
        if (ops[i].hasTrait(OpTrait::kTerminator)) continue;
        absl::StatusOr<bool> changes = probe->visit(ops[i]);
        if (!changes.ok() || *changes) {
          lower_found(i);
          break;
        }
      }
      return true;
    };
  };
  ir_internal::orderedParallel(chunks, threads, 2 * threads, make_dry_run,
                               [](bool) {});
  return found.load();
}

}  // namespace

absl::Status insertExplicitReshards(
    Module& module, const InsertExplicitReshardsOptions& options) {
  ExplicitReshards pass(module, options);
  for (FuncOp func : functionDefinitions(module)) {
    SK_RETURN_IF_ERROR(pass.runOnFunc(func));
  }
  return absl::OkStatus();
}

void registerInsertExplicitReshardsPass() {
  registerPass(PassInfo{
      "sdy-insert-explicit-reshards",
      "Inserts explicit reshards so that every op's operands and results "
      "agree with one sharding per factor of its rule.",
      {{"enable-full-version",
        "reshard every op, not only calls and concatenates (default false)",
        PassOptionKind::kBool}},
      [](Module& module, const PassOptions& pass) -> absl::Status {
        InsertExplicitReshardsOptions options;
        SK_ASSIGN_OR_RETURN(options.enable_full_version,
                            pass.getBool("enable-full-version", false));
        options.threads = pass.threads();
        return insertExplicitReshards(module, options);
      }});
}

}  // namespace shardkit
