// The propagation debug records (debug_records.h).
#include "src/propagation/debug_records.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/factor_propagation/resolved_axis.h"
#include "shardkit/ir/walk.h"
#include "shardkit/propagation/debug_info.h"
#include "shardkit/support/strings.h"

namespace shardkit::propagation_internal {
namespace {

using Kind = ShardingOrigin::Kind;

Op enclosingFunc(Op op) {
  while (op && !isa<FuncOp>(op)) op = op.parentOp();
  return op;
}

// The op a value belongs to: its defining op, or the op owning its block.
Op owningOp(Value value) {
  if (Op def = value.definingOp()) return def;
  return value.ownerBlock().parentOp();
}

// `"c":(1)2` as a dictionary key: the axis ref without quotes.
std::string originKey(const AxisRef& axis) {
  std::string key = toString(axis);
  key.erase(std::remove(key.begin(), key.end(), '"'), key.end());
  return key;
}

Attribute originDict(const std::map<AxisRef, ShardingOrigin>& origins) {
  std::vector<NamedAttribute> entries;
  for (const auto& [axis, origin] : origins) {
    entries.push_back({originKey(axis), Attribute::string(originName(origin))});
  }
  std::sort(entries.begin(), entries.end(),
            [](const NamedAttribute& a, const NamedAttribute& b) {
              return a.name < b.name;
            });
  return Attribute::dict(std::move(entries));
}

// `dict` with every entry whose origin is `name` turned into "self".
Attribute withSelf(const Attribute& dict, const std::string& name) {
  const std::vector<NamedAttribute>* entries = dict.asDict();
  if (!entries) return dict;
  std::vector<NamedAttribute> copy = *entries;
  for (NamedAttribute& entry : copy) {
    if (const std::string* s = entry.value.asString(); s && *s == name) {
      entry.value = Attribute::string("self");
    }
  }
  return Attribute::dict(std::move(copy));
}

void setOpOriginsToSelf(Op op, const std::string& name) {
  if (!op) return;
  const Attribute& dict = op.attr(kShardingOriginsAttr);
  if (dict.asDict()) op.setAttr(kShardingOriginsAttr, withSelf(dict, name));
}

// The first (in use order) operand of the return of `func` that is `value`.
std::optional<unsigned> returnedAt(Value value, Op func) {
  if (!func) return std::nullopt;
  Op ret = FuncOp(func).returnOp();
  for (const Value::Use& use : value.uses()) {
    if (use.user() == ret) return use.operandIndex();
  }
  return std::nullopt;
}

// The steps of `edges` (axis, edge pairs) as an attribute: steps ascending,
// axes in AxisRef order, targets sorted, merged after `existing`'s steps.
template <typename Edge>
PropagationEdges buildEdges(const std::vector<std::pair<AxisRef, Edge>>& edges,
                            const PropagationEdges* existing) {
  std::map<int64_t,
           std::map<AxisRef, std::map<EdgeValueRef, std::set<EdgeValueRef>>>>
      grouped;
  for (const auto& [axis, edge] : edges) {
    grouped[edge.step][axis][edge.source].insert(edge.target);
  }
  PropagationEdges out;
  if (existing) out = *existing;
  for (const auto& [step, axes] : grouped) {
    PropagationStep entry{step, {}};
    for (const auto& [axis, sources] : axes) {
      for (const auto& [source, targets] : sources) {
        entry.axes.push_back(AxisPropagation{
            axis, source,
            std::vector<EdgeValueRef>(targets.begin(), targets.end())});
      }
    }
    out.steps.push_back(std::move(entry));
  }
  std::stable_sort(out.steps.begin(), out.steps.end(),
                   [](const PropagationStep& a, const PropagationStep& b) {
                     return a.step < b.step;
                   });
  return out;
}

// The first tensor of `tensors` whose axes of `factor` start with `axes`.
std::optional<int64_t> findSource(
    absl::Span<const TensorFactorShardings> tensors, int64_t factor,
    AxisSpan axes) {
  for (size_t i = 0; i < tensors.size(); ++i) {
    const FactorSharding* f = tensors[i].find(factor);
    if (f && axisListPrefixStatus(axes, f->axes) != PrefixStatus::kNotAPrefix) {
      return static_cast<int64_t>(i);
    }
  }
  return std::nullopt;
}

}  // namespace

std::string originName(const ShardingOrigin& origin) {
  switch (origin.kind) {
    case Kind::kInput:
      return strCat("input: ", origin.index);
    case Kind::kOutput:
      return strCat("output: ", origin.index);
    case Kind::kConstraint:
      return strCat("constraint_", origin.source_id);
    case Kind::kMcInput:
      return strCat("mc_", origin.source_id, "_input: ", origin.index);
    case Kind::kMcOutput:
      return strCat("mc_", origin.source_id, "_output: ", origin.index);
  }
  return "";
}

void DebugRecorder::addOrigins(Value value, const TensorSharding* sharding,
                               ShardingOrigin origin) {
  value = value ? shardableValue(value) : Value();
  if (!value || !sharding) return;
  for (const DimensionSharding& dim : sharding->dim_shardings) {
    for (const AxisRef& axis : dim.axes) {
      value_origins_[value].try_emplace(axis, origin);
    }
  }
}

void DebugRecorder::prepare() {
  if (edges_) next_step_ = lastRecordedPropagationStep(m_) + 1;
  if (!origins_) return;
  // MLIR's default walk order (post-order) numbers the constraints and
  // manual computations.
  std::vector<Op> ops;
  ir_internal::collectPostOrder(m_.body(), ops);
  // Constraints and manual computations are numbered module-wide, each kind
  // on its own; they come before the functions' own shardings so that an
  // axis a constraint put on a function argument is the constraint's.
  int64_t id = 0;
  for (Op op : ops) {
    if (!isa<sdy::ShardingConstraintOp>(op)) continue;
    ShardingOrigin origin{Kind::kConstraint, 0, id++};
    addOrigins(op.result(0), op.attr("sharding").as<TensorSharding>(), origin);
    std::optional<TensorSharding> input = getSharding(op.operand(0));
    addOrigins(op.operand(0), input ? &*input : nullptr, origin);
    op.setAttr(kShardingOriginNameAttr, Attribute::string(originName(origin)));
  }
  id = 0;
  for (Op op : ops) {
    if (!isa<sdy::ManualComputationOp>(op)) continue;
    sdy::ManualComputationOp mc(op);
    Block body = mc.body();
    const TensorShardingPerValue& in = mc.inShardings();
    for (size_t i = 0; i < in.size() && body && i < body.numArguments() &&
                       i < op.numOperands();
         ++i) {
      ShardingOrigin origin{Kind::kMcInput, static_cast<int64_t>(i), id};
      addOrigins(body.argument(i), &in[i], origin);
      std::optional<TensorSharding> source = getSharding(op.operand(i));
      addOrigins(op.operand(i), source ? &*source : nullptr, origin);
    }
    const TensorShardingPerValue& out = mc.outShardings();
    for (size_t i = 0; i < out.size() && i < op.numResults(); ++i) {
      addOrigins(op.result(i), &out[i],
                 ShardingOrigin{Kind::kMcOutput, static_cast<int64_t>(i), id});
    }
    op.setAttr(kShardingOriginNameAttr, Attribute::string(strCat("mc_", id++)));
  }
  for (FuncOp func : functionDefinitions(m_)) {
    for (unsigned i = 0; i < func.numArguments(); ++i) {
      std::optional<TensorSharding> s = getSharding(func.argument(i));
      addOrigins(func.argument(i), s ? &*s : nullptr,
                 ShardingOrigin{Kind::kInput, i, 0});
    }
    Op ret = func.returnOp();
    for (unsigned i = 0; ret && i < ret.numOperands(); ++i) {
      addOrigins(ret.operand(i), findFuncResultSharding(func, i),
                 ShardingOrigin{Kind::kOutput, i, 0});
    }
  }
}

const ShardingOrigin* DebugRecorder::findOrigin(Value value,
                                                const AxisRef& axis) const {
  auto it = value ? value_origins_.find(value) : value_origins_.end();
  if (it == value_origins_.end()) return nullptr;
  if (auto exact = it->second.find(axis); exact != it->second.end()) {
    return &exact->second;
  }
  // The axis was split or merged on the way (a reshape): the origin of an
  // axis of the same full axis that contains it or that it contains.
  for (const auto& [other, origin] : it->second) {
    if (contains(other, axis) || contains(axis, other)) return &origin;
  }
  return nullptr;
}

std::vector<DebugRecorder::AxisEdges> DebugRecorder::newAxisEdges(
    const RecordedStep& step, int64_t index) const {
  const ShardingProjection& before = *step.before;
  const ShardingProjection& after = *step.after;
  const Mesh& mesh = *step.mesh;
  std::vector<AxisEdges> result(before.numTensors());
  for (int64_t t = 0; t < before.numTensors(); ++t) {
    bool is_operand = t < before.numOperands();
    EdgeValueRef target = is_operand
                              ? EdgeValueRef::operand(t)
                              : EdgeValueRef::result(t - before.numOperands());
    AxisEdges& edges = result[t];
    auto save = [&](const AxisRefVector& new_axes, AxisSpan old_axes,
                    EdgeValueRef source) {
      Edge edge{source, target, index};
      size_t old_size = old_axes.size();
      // Only the last old axis can have changed (a sub-axis grown), then
      // come the new ones.
      if (old_size > 0 && old_size <= new_axes.size() &&
          toAxisRef(old_axes[old_size - 1], mesh) != new_axes[old_size - 1]) {
        edges.try_emplace(new_axes[old_size - 1], edge);
      }
      for (size_t i = old_size; i < new_axes.size(); ++i) {
        edges.try_emplace(new_axes[i], edge);
      }
    };
    for (const DimMapping& dim : step.rule->tensorMapping(t).dim_mappings) {
      std::optional<ResolvedAxis> previous;
      for (int64_t factor : dim.factor_indices) {
        const FactorSharding* old_f = before.tensor(t).find(factor);
        const FactorSharding* new_f = after.tensor(t).find(factor);
        if (!old_f || !new_f || old_f->axes == new_f->axes ||
            new_f->axes.empty()) {
          continue;
        }
        // Sub-axes of consecutive factors of a dimension that merge are
        // recorded as the merged axis.
        ResolvedAxis last = new_f->axes.back();
        if (previous && canMerge(*previous, last)) {
          edges.erase(toAxisRef(*previous, mesh));
          last = merge(*previous, last, mesh);
        }
        previous = new_f->axes.back();
        AxisRefVector introduced = toAxisRefs(new_f->axes, mesh);
        introduced.back() = toAxisRef(last, mesh);
        if (std::optional<int64_t> s =
                findSource(before.operands(), factor, new_f->axes)) {
          save(introduced, old_f->axes, EdgeValueRef::operand(*s));
        } else if (std::optional<int64_t> s =
                       findSource(before.results(), factor, new_f->axes)) {
          save(introduced, old_f->axes, EdgeValueRef::result(*s));
        }
      }
    }
  }
  return result;
}

void DebugRecorder::record(const RecordedStep& step) {
  int64_t index = next_step_++;
  std::vector<AxisEdges> per_tensor = newAxisEdges(step, index);
  auto valueOf = [&](const EdgeValueRef& ref) {
    absl::Span<const Value> values =
        ref.kind == EdgeValueRef::Kind::kOperand ? step.operands : step.results;
    return ref.index < static_cast<int64_t>(values.size()) ? values[ref.index]
                                                           : Value();
  };
  for (size_t t = 0; t < per_tensor.size(); ++t) {
    for (const auto& [axis, edge] : per_tensor[t]) {
      if (edges_ && step.func) {
        func_edges_[step.func].try_emplace(axis, edge);
      } else if (edges_) {
        op_edges_[step.op].push_back({axis, edge});
      }
      if (!origins_) continue;
      Value target = valueOf(edge.target);
      if (!target) continue;
      if (const ShardingOrigin* origin =
              findOrigin(valueOf(edge.source), axis)) {
        value_origins_[target].try_emplace(axis, *origin);
      }
    }
  }
}

void DebugRecorder::saveOrigins() {
  std::vector<Value> values;
  for (const auto& [value, origins] : value_origins_) values.push_back(value);
  std::sort(values.begin(), values.end(),
            [](Value a, Value b) { return a.id() < b.id(); });
  for (Value value : values) {
    Attribute dict = originDict(value_origins_[value]);
    Op owner = owningOp(value);
    Op func = enclosingFunc(owner);
    if (std::optional<unsigned> at = returnedAt(value, func)) {
      FuncOp(func).setResultAttr(*at, kShardingOriginsAttr, dict);
    }
    if (value.isBlockArgument()) {
      if (owner == func) {
        FuncOp(func).setArgAttr(value.index(), kShardingOriginsAttr, dict);
      }
      continue;  // the argument of a region without an edge: nowhere to go
    }
    if (isa<sdy::ShardingConstraintOp>(owner) ||
        isa<sdy::DataFlowEdgeOp>(owner)) {
      owner.setAttr(kShardingOriginsAttr, dict);
      continue;
    }
    std::vector<Attribute> list(owner.numResults(), Attribute::dict({}));
    if (const std::vector<Attribute>* old =
            owner.attr(kShardingOriginsAttr).asArray();
        old && old->size() == list.size()) {
      list = *old;
    }
    list[value.index()] = dict;
    owner.setAttr(kShardingOriginsAttr, Attribute::array(std::move(list)));
  }
  // An axis a user sharding had from the start came from "self".
  std::vector<Op> ops;
  ir_internal::collectPostOrder(m_.body(), ops);
  for (Op op : ops) {
    if (isa<sdy::ShardingConstraintOp>(op)) {
      if (const std::string* name =
              op.attr(kShardingOriginNameAttr).asString()) {
        setOpOriginsToSelf(op, *name);
      }
    } else if (isa<sdy::ManualComputationOp>(op)) {
      const std::string* name = op.attr(kShardingOriginNameAttr).asString();
      Block body = sdy::ManualComputationOp(op).body();
      for (unsigned i = 0; name && body && i < body.numArguments(); ++i) {
        setOpOriginsToSelf(dataFlowEdgeOp(body.argument(i)),
                           strCat(*name, "_input: ", i));
      }
      for (unsigned i = 0; name && i < op.numResults(); ++i) {
        setOpOriginsToSelf(dataFlowEdgeOp(op.result(i)),
                           strCat(*name, "_output: ", i));
      }
    }
  }
  for (Op op : m_.functions()) {
    FuncOp func(op);
    for (unsigned i = 0; i < func.numArguments(); ++i) {
      const Attribute& dict = func.argAttr(i, kShardingOriginsAttr);
      if (!dict.asDict()) continue;
      func.setArgAttr(i, kShardingOriginsAttr,
                      withSelf(dict, originName({Kind::kInput, i, 0})));
    }
    for (unsigned i = 0; i < func.numResults(); ++i) {
      const Attribute& dict = func.resultAttr(i, kShardingOriginsAttr);
      if (!dict.asDict()) continue;
      func.setResultAttr(i, kShardingOriginsAttr,
                         withSelf(dict, originName({Kind::kOutput, i, 0})));
    }
  }
}

void DebugRecorder::saveEdges() {
  std::vector<Op> ops;
  ir_internal::collectPostOrder(m_.body(), ops);
  for (Op op : ops) {
    if (auto it = op_edges_.find(op); it != op_edges_.end()) {
      PropagationEdges edges = buildEdges(
          it->second, op.attr(kPropagationEdgesAttr).as<PropagationEdges>());
      if (!edges.empty()) {
        op.setAttr(kPropagationEdgesAttr, Attribute::of(std::move(edges)));
      }
    }
    auto it = func_edges_.find(op);
    if (it == func_edges_.end() || FuncOp(op).numResults() == 0) continue;
    std::vector<std::pair<AxisRef, Edge>> list(it->second.begin(),
                                               it->second.end());
    FuncOp func(op);
    PropagationEdges edges = buildEdges(
        list, func.resultAttr(0, kPropagationEdgesAttr).as<PropagationEdges>());
    if (!edges.empty()) {
      func.setResultAttr(0, kPropagationEdgesAttr,
                         Attribute::of(std::move(edges)));
    }
  }
}

void DebugRecorder::save() {
  if (origins_) saveOrigins();
  if (edges_) saveEdges();
}

}  // namespace shardkit::propagation_internal
