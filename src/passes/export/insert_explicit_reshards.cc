// -sdy-insert-explicit-reshards: after propagation, makes every op's
// operands and results agree with one sharding per factor of its rule by
// inserting `sdy.reshard`s, and inserts the `sdy.all_reduce`s that sharded
// reduction factors need (docs/export.md, "Explicit reshards").
//
// The choice of the factor shardings is factor_propagation's
// (findCommonAxes); this file walks the functions, reads and writes the
// shardings, and builds the ops.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/checked_math.h"
#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"
#include "shardkit/factor_propagation/common_mesh.h"
#include "shardkit/factor_propagation/explicit_reshards.h"
#include "shardkit/ir/computations.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/sdy_ops.h"
#include "shardkit/ir/sharding_site.h"
#include "shardkit/ir/stablehlo_ops.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/rules/registry.h"
#include "shardkit/sim/collectives.h"
#include "src/passes/collect_ops.h"
#include "src/passes/export/reshard_builder.h"

namespace shardkit {
namespace {

using passes_internal::After;
using passes_internal::AfterValue;
using passes_internal::Before;
using passes_internal::fullyClosedLike;
using passes_internal::isEquivalent;
using passes_internal::replaceUsesExcept;
using passes_internal::ReshardBuilder;

using MaybeSharding = std::optional<TensorSharding>;
using func::CallOp;

// The mesh the op's reshards are expressed in.
struct OpMesh {
  const Mesh* mesh = nullptr;
  MeshOrRef ref;
};

// Among the shardings that shard something, the mesh used most often (the
// first to reach the count); `fallback` if none does.
OpMesh mostCommonMesh(absl::Span<const TensorSharding* const> shardings,
                      const MeshTable& meshes, OpMesh fallback) {
  absl::flat_hash_map<std::string, int64_t> counts;
  int64_t best_count = 0;
  OpMesh best = std::move(fallback);
  for (const TensorSharding* s : shardings) {
    if (s == nullptr || s->isFullyReplicated()) continue;
    int64_t count = ++counts[toString(s->mesh)];
    if (count > best_count) {
      best_count = count;
      best = OpMesh{meshes.resolve(*s), s->mesh};
    }
  }
  return best;
}

// The mesh of the op: the shardings' common mesh ignoring device order, then
// the most common device order; nullopt if there is none or it is maximal.
absl::StatusOr<std::optional<OpMesh>> opMesh(
    absl::Span<const TensorSharding* const> operands,
    absl::Span<const TensorSharding* const> results, const MeshTable& meshes) {
  SK_ASSIGN_OR_RETURN(std::optional<CommonMesh> common,
                      findCommonMesh(operands, results, meshes,
                                     /*ignore_device_ids=*/true));
  if (!common || common->mesh->isMaximal()) return std::nullopt;
  std::vector<const TensorSharding*> all(operands.begin(), operands.end());
  all.insert(all.end(), results.begin(), results.end());
  OpMesh fallback{common->mesh, common->mesh_or_ref};
  OpMesh chosen = mostCommonMesh(all, meshes, fallback);
  if (chosen.mesh == nullptr) return std::nullopt;
  return chosen;
}

std::vector<int64_t> tensorSizes(Op op) {
  std::vector<int64_t> sizes;
  auto add = [&](Type type) {
    int64_t size = 0;
    if (type.isRankedTensor() && type.hasStaticShape()) {
      size = 1;
      for (int64_t d : type.shape()) size = saturatingMul(size, d);
    }
    sizes.push_back(size);
  };
  for (Type t : op.operandTypes()) add(t);
  for (Type t : op.resultTypes()) add(t);
  return sizes;
}

class ExplicitReshards {
 public:
  ExplicitReshards(Module& module, const InsertExplicitReshardsOptions& opts)
      : module_(module),
        options_(opts),
        meshes_(module.meshTable()),
        builder_(module) {}

  absl::Status runOnFunc(FuncOp func) {
    SK_RETURN_IF_ERROR(checkNoSingleDeviceSignature(func));
    std::vector<Op> ops;
    passes_internal::collectPostOrder(func.body(), ops);
    for (Op op : ops) {
      if (op.hasTrait(OpTrait::kTerminator)) continue;
      SK_RETURN_IF_ERROR(visit(op));
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

  absl::Status visit(Op op) {
    bool full = onFullVersion(op);
    if (isDataFlowOp(op)) {
      visitDataFlowOp(op, full);
      return absl::OkStatus();
    }
    if (auto call = dynCast<CallOp>(op)) {
      visitCall(call, full);
      return absl::OkStatus();
    }
    reduceOperandsForOp(op);
    if (op.dialect() == "sdy") {
      return absl::OkStatus();
    }
    SK_ASSIGN_OR_RETURN(bool single_device, visitSingleDeviceOp(op));
    if (single_device) return absl::OkStatus();
    SK_ASSIGN_OR_RETURN(std::optional<OpShardingRule> rule,
                        shardingRuleFor(op));
    if (!rule || rule->is_custom_rule) return absl::OkStatus();
    return visitRuleOp(op, *rule, full);
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
    if (list == nullptr || owner.index() >= list->shardings.size()) {
      return std::nullopt;
    }
    const TensorSharding& s = list->shardings[owner.index()];
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
      targets.push_back(getSharding(callee.argument(i)));
      any = any || targets.back().has_value();
    }
    if (!any) {
      // The callee has no shardings: operands go to fully closed shardings
      // on the mesh of the first sharded operand, if any.
      std::optional<MeshOrRef> mesh;
      for (Value operand : op.operands()) {
        MaybeSharding s = getSharding(operand);
        if (s && !isSingleDevice(*s)) {
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
  // operand's sharding after that.
  template <typename Place>
  MaybeSharding reduceUnreducedAxes(OperandRef use, MaybeSharding current,
                                    absl::Span<const AxisRef> target_unreduced,
                                    Place&& place) {
    if (!current || current->unreduced_axes.empty()) return current;
    const Mesh* mesh = meshes_.resolve(*current);
    if (mesh == nullptr) return current;
    std::vector<AxisRef> axes =
        axisSetDifference(current->unreduced_axes, target_unreduced, *mesh);
    if (axes.empty()) return current;
    TensorSharding out = *current;
    out.unreduced_axes.assign(target_unreduced.begin(), target_unreduced.end());
    use.set(builder_.allReduce(use.get(), std::move(axes), out,
                               current->unreduced_kind, use.user.location(),
                               place));
    return out;
  }

  // Operands of `op` with unreduced axes its results don't keep are
  // all-reduced first.
  void reduceOperandsForOp(Op op) {
    if (op.numResults() == 0) return;
    MaybeSharding first = getSharding(op.result(0));
    std::vector<AxisRef> kept;
    if (first) kept = first->unreduced_axes;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      reduceUnreducedAxes(OperandRef{op, i}, getSharding(op.operand(i)), kept,
                          Before{op});
    }
  }

  void reshardOperandTo(OperandRef use, const TensorSharding* target,
                        bool after_operand, bool full) {
    MaybeSharding current = getSharding(use.get());
    std::vector<AxisRef> target_unreduced;
    if (target) target_unreduced = target->unreduced_axes;
    if (after_operand) {
      current = reduceUnreducedAxes(use, std::move(current), target_unreduced,
                                    AfterValue{use.get()});
    } else {
      current = reduceUnreducedAxes(use, std::move(current), target_unreduced,
                                    Before{use.user});
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

  // Function arguments and results live on every device.
  absl::Status checkNoSingleDeviceSignature(FuncOp func) const {
    for (unsigned i = 0; i < func.numArguments(); ++i) {
      MaybeSharding s = getSharding(func.argument(i));
      if (s && isSingleDevice(*s)) {
        return opError(func, strCat("function argument ", i,
                                    " cannot have a single-device (maximal) "
                                    "sharding attribute"));
      }
    }
    for (unsigned i = 0; i < func.numResults(); ++i) {
      const TensorSharding* s = findFuncResultSharding(func, i);
      if (s && isSingleDevice(*s)) {
        return opError(func, strCat("function result ", i,
                                    " cannot have a single-device (maximal) "
                                    "sharding attribute"));
      }
    }
    return absl::OkStatus();
  }

  bool isSingleDevice(const TensorSharding& sharding) const {
    const Mesh* mesh = meshes_.resolve(sharding);
    return mesh != nullptr && mesh->isMaximal();
  }

  // The mesh values go through on their way to or from a single device,
  // replicated: the module's first mesh with axes.
  std::optional<MeshOrRef> globalMesh() const {
    for (const std::string& name : meshes_.names()) {
      const Mesh* mesh = meshes_.find(name);
      if (mesh != nullptr && !mesh->axes.empty()) return MeshOrRef::ref(name);
    }
    return std::nullopt;
  }

  // An op placed on a single device (a maximal sharding on some result)
  // runs there whole: its operands are replicated and moved to the device,
  // its results get the device's sharding and are moved back, replicated,
  // and resharded to what they had. Returns whether `op` is such an op.
  absl::StatusOr<bool> visitSingleDeviceOp(Op op) {
    std::optional<TensorSharding> device;
    for (Value result : op.results()) {
      MaybeSharding s = getSharding(result);
      if (!s || !isSingleDevice(*s)) continue;
      if (device && !sameDistribution(*device, *s)) {
        return opError(op, "has conflicting single-device result shardings");
      }
      device = *s;
    }
    if (!device) return false;
    std::optional<MeshOrRef> global = globalMesh();
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      Value operand = op.operand(i);
      if (!operand.type().isRankedTensor()) continue;
      MaybeSharding current = getSharding(operand);
      if (current && sameDistribution(*current, *device)) continue;
      if (global) {
        TensorSharding replicated =
            TensorSharding::fullyClosed(*global, operand.type().rank());
        // Replicated on another mesh still has to move to the global one.
        if (current && !sameDistribution(*current, replicated)) {
          operand =
              builder_.reshard(operand, replicated, op.location(), Before{op});
        }
      }
      op.setOperand(
          i, builder_.reshard(operand, *device, op.location(), Before{op}));
    }
    After after{op};
    for (Value result : op.results()) {
      if (!result.type().isRankedTensor()) continue;
      MaybeSharding old = getSharding(result);
      if (old && sameDistribution(*old, *device)) old.reset();
      Value moved = result;
      Op first;
      if (global) {
        moved = builder_.reshard(
            moved, TensorSharding::fullyClosed(*global, result.type().rank()),
            op.location(), after);
        first = moved.definingOp();
      }
      if (old && !(global && isEquivalent(&*old, nullptr))) {
        moved = builder_.reshard(moved, *old, op.location(), after);
        if (!first) first = moved.definingOp();
      }
      if (first) replaceUsesExcept(result, moved, first);
      setSharding(result, *device);
    }
    return true;
  }

  absl::Status visitRuleOp(Op op, const OpShardingRule& rule, bool full);
  void insertAllReduces(Op op, const OpShardingRule& rule,
                        const AxesPerFactor& common, const Mesh& mesh,
                        const MeshOrRef& mesh_ref);
  // The sharding is on a mesh with the op's axes but another device order.
  bool onOtherDeviceOrder(const TensorSharding* sharding,
                          const Mesh& mesh) const;

  Module& module_;
  InsertExplicitReshardsOptions options_;
  MeshTable meshes_;
  ReshardBuilder builder_;
};

// The shardings of the op's operands and results, kept alive for the
// pointers the projection takes.
struct OpShardings {
  std::vector<MaybeSharding> values;
  std::vector<const TensorSharding*> pointers;
  unsigned num_operands = 0;

  explicit OpShardings(Op op) : num_operands(op.numOperands()) {
    for (Value v : op.operands()) values.push_back(getSharding(v));
    for (Value v : op.results()) values.push_back(getSharding(v));
    for (const MaybeSharding& s : values) pointers.push_back(s ? &*s : nullptr);
  }
  absl::Span<const TensorSharding* const> operands() const {
    return absl::MakeConstSpan(pointers).subspan(0, num_operands);
  }
  absl::Span<const TensorSharding* const> results() const {
    return absl::MakeConstSpan(pointers).subspan(num_operands);
  }
};

bool ExplicitReshards::onOtherDeviceOrder(const TensorSharding* sharding,
                                          const Mesh& mesh) const {
  if (sharding == nullptr || sharding->isFullyReplicated()) return false;
  const Mesh* own = meshes_.resolve(*sharding);
  return own != nullptr && !own->sameDeviceOrder(mesh);
}

absl::Status ExplicitReshards::visitRuleOp(Op op, const OpShardingRule& rule,
                                           bool full) {
  if (rule.numOperands() != op.numOperands() ||
      rule.numResults() != op.numResults()) {
    return absl::OkStatus();
  }
  OpShardings shardings(op);
  absl::StatusOr<std::optional<OpMesh>> found =
      opMesh(shardings.operands(), shardings.results(), meshes_);
  if (!found.ok()) return opError(op, fromAbsl(found.status().message()));
  if (!*found) return absl::OkStatus();
  const OpMesh& mesh = **found;
  ProjectionOptions projection_options;
  projection_options.closed_if_missing = true;
  absl::StatusOr<ShardingProjection> projection =
      ShardingProjection::build(shardings.operands(), shardings.results(), rule,
                                *mesh.mesh, projection_options);
  if (!projection.ok()) {
    return opError(op, fromAbsl(projection.status().message()));
  }
  if (!full) return absl::OkStatus();

  AxesPerFactor common =
      findCommonAxes(*projection, rule, tensorSizes(op), *mesh.mesh);
  TensorFlags changed(projection->numTensors(), false);
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    TensorFlags flags = projection->updateSharding(f, common[f]);
    for (size_t t = 0; t < flags.size(); ++t)
      changed[t] = changed[t] || flags[t];
  }
  auto projected = [&](int64_t t) {
    return projection->tensor(t).toTensorSharding(
        rule.tensorMapping(t), rule.factor_sizes, *mesh.mesh, mesh.ref);
  };
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    if (!changed[i] && !onOtherDeviceOrder(shardings.pointers[i], *mesh.mesh)) {
      continue;
    }
    Value operand = op.operand(i);
    op.setOperand(
        i, builder_.reshard(operand, projected(i), op.location(), Before{op}));
  }
  After after{op};
  for (unsigned i = 0; i < op.numResults(); ++i) {
    unsigned t = shardings.num_operands + i;
    if (!changed[t] && !onOtherDeviceOrder(shardings.pointers[t], *mesh.mesh)) {
      continue;
    }
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
  insertAllReduces(op, rule, common, *mesh.mesh, mesh.ref);
  return absl::OkStatus();
}

void ExplicitReshards::insertAllReduces(Op op, const OpShardingRule& rule,
                                        const AxesPerFactor& common,
                                        const Mesh& mesh,
                                        const MeshOrRef& mesh_ref) {
  if (op.numResults() == 0) return;
  AxisList reduction;
  for (int64_t f : rule.reduction_factors) {
    reduction.insert(reduction.end(), common[f].begin(), common[f].end());
  }
  if (reduction.empty()) return;
  std::vector<AxisRef> axes = toAxisRefs(reduction, mesh);
  if (MaybeSharding first = getSharding(op.result(0))) {
    axes = axisSetDifference(axes, first->unreduced_axes, mesh);
  }
  if (axes.empty()) return;
  sortAndMergeAxes(axes, mesh);
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

}  // namespace

absl::Status insertExplicitReshards(
    Module& module, const InsertExplicitReshardsOptions& options) {
  ExplicitReshards pass(module, options);
  for (Op op : module.body().ops()) {
    auto func = dynCast<FuncOp>(op);
    if (!func || func.isDeclaration()) continue;
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
      [](Module& module, const PassOptions& options) -> absl::Status {
        InsertExplicitReshardsOptions pass_options;
        SK_ASSIGN_OR_RETURN(pass_options.enable_full_version,
                            options.getBool("enable-full-version", false));
        return insertExplicitReshards(module, pass_options);
      }});
}

}  // namespace shardkit
