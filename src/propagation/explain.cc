#include "shardkit/propagation/explain.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "shardkit/asm/op_syntax.h"
#include "shardkit/dialect/func/call_graph.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/factor_propagation/aggressive_factor_propagation.h"
#include "shardkit/factor_propagation/basic_factor_propagation.h"
#include "shardkit/factor_propagation/common_mesh.h"
#include "shardkit/factor_propagation/propagate_op.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/enum_table.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/propagation/explain_origins.h"
#include "src/propagation/op_classes.h"

namespace shardkit {
namespace {

// ---- Value names, as the module writer prints them -------------------------
// A function's results are %0, %1, ... (%0#1 for a multi-result op), its
// block arguments %arg0, ...; names an op asks for (%c, %iterArg) are made
// unique with _N suffixes; a nested region continues from the counters its
// parent region ended with.

using Names = absl::flat_hash_map<Value, std::string>;

class FunctionNamer {
 public:
  explicit FunctionNamer(Names& names) : names_(names) {}

  void nameFunction(Op func) {
    Counters counters;
    for (unsigned r = 0; r < func.numRegions(); ++r) {
      nameRegion(func.region(r), counters, {});
    }
  }

 private:
  struct Counters {
    int64_t value = 0;
    int64_t argument = 0;
    int64_t conflict = 0;
  };
  using Scope = absl::flat_hash_set<std::string>;
  using Chain = std::vector<const Scope*>;

  static std::string unique(const std::string& base, Counters& c, Scope& scope,
                            const Chain& chain) {
    auto used = [&](const std::string& n) {
      return scope.contains(n) ||
             std::any_of(chain.begin(), chain.end(),
                         [&](const Scope* s) { return s->contains(n); });
    };
    std::string name = base;
    while (used(name)) name = strCat(base, "_", c.conflict++);
    scope.insert(name);
    return name;
  }

  void nameRegion(Region region, Counters counters, Chain chain) {
    Scope scope;
    Op parent = region.parentOp();
    std::vector<std::string> arg_hints;
    if (const OpSyntax* syntax = parent ? findSyntax(parent.name()) : nullptr;
        syntax && syntax->block_arg_names) {
      syntax->block_arg_names(parent, region, arg_hints);
    }
    for (unsigned b = 0; b < region.numBlocks(); ++b) {
      Block block = region.block(b);
      for (unsigned i = 0; i < block.numArguments(); ++i) {
        bool hinted = b == 0 && i < arg_hints.size() && !arg_hints[i].empty();
        names_[block.argument(i)] =
            hinted ? "%" + unique(arg_hints[i], counters, scope, chain)
                   : strCat("%arg", counters.argument++);
      }
      for (Op op : block) nameResults(op, counters, scope, chain);
    }
    std::vector<Region> nested;
    for (unsigned b = 0; b < region.numBlocks(); ++b) {
      for (Op op : region.block(b)) {
        for (unsigned r = 0; r < op.numRegions(); ++r)
          nested.push_back(op.region(r));
      }
    }
    chain.push_back(&scope);
    for (Region r : nested) nameRegion(r, counters, chain);
  }

  void nameResults(Op op, Counters& counters, Scope& scope,
                   const Chain& chain) {
    if (op.numResults() == 0) return;
    std::vector<std::string> hints;
    if (const OpSyntax* syntax = findSyntax(op.name());
        syntax && syntax->result_names) {
      syntax->result_names(op, hints);
    }
    if (hints.size() == op.numResults()) {
      for (unsigned i = 0; i < op.numResults(); ++i) {
        names_[op.result(i)] = "%" + unique(hints[i], counters, scope, chain);
      }
      return;
    }
    std::string base = strCat("%", counters.value++);
    for (unsigned i = 0; i < op.numResults(); ++i) {
      names_[op.result(i)] = op.numResults() == 1 ? base : strCat(base, "#", i);
    }
  }

  Names& names_;
};

Op enclosingFunction(Op op) {
  while (op && !isa<FuncOp>(op)) op = op.parentOp();
  return op;
}

// ---- The table --------------------------------------------------------------

std::string_view kindName(const OpShardingRule& rule, int64_t factor) {
  static constexpr EnumTable<FactorType, std::string_view> kNames = {
      {"pass-through", "reduction", "need-replication", "permutation"}};
  return kNames[rule.factorType(factor)];
}

std::string axesText(AxisSpan axes, const Mesh& mesh) {
  std::string out;
  for (const ResolvedAxis& axis : axes) {
    if (!out.empty()) out += ", ";
    out += toString(toAxisRef(axis, mesh));
  }
  return out;
}

std::string cellText(const FactorSharding* factor, const Mesh& mesh) {
  if (factor == nullptr) return "-";
  std::string out = "{" + axesText(factor->axes, mesh);
  if (!factor->is_closed) out += factor->axes.empty() ? "?" : ", ?";
  out += "}";
  if (!factor->overflow_axes.empty()) {
    strAppend(out, " +overflow{", axesText(factor->overflow_axes, mesh), "}");
  }
  return out;
}

// A markdown table: header row, rule, one row per tensor.
std::string tableText(const ShardingProjection& projection,
                      const OpShardingRule& rule, const Mesh& mesh,
                      const std::vector<std::string>& labels) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"tensor"};
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    bool blocked = std::count(rule.blocked_propagation_factors.begin(),
                              rule.blocked_propagation_factors.end(), f) > 0;
    header.push_back(strCat(factorSymbol(f), ": ", rule.factor_sizes[f], ", ",
                            kindName(rule, f), blocked ? ", blocked" : ""));
  }
  bool any_unreduced = false;
  for (const TensorFactorShardings& t : projection.tensors()) {
    any_unreduced = any_unreduced || !t.unreduced_axes.empty();
  }
  header.push_back("replicated");
  if (any_unreduced) header.push_back("unreduced");
  rows.push_back(header);
  for (int64_t t = 0; t < projection.numTensors(); ++t) {
    const TensorFactorShardings& tensor = projection.tensor(t);
    std::vector<std::string> row = {labels[t]};
    for (int64_t f = 0; f < rule.numFactors(); ++f) {
      row.push_back(cellText(tensor.find(f), mesh));
    }
    row.push_back(axesText(tensor.replicated_axes, mesh));
    if (any_unreduced) row.push_back(axesText(tensor.unreduced_axes, mesh));
    rows.push_back(std::move(row));
  }
  return explain_internal::markdownTable(rows);
}

// The rule without the `<...>` of its attribute form.
std::string ruleText(const OpShardingRule& rule) {
  std::string text = toString(rule);
  if (text.size() >= 2 && text.front() == '<' && text.back() == '>') {
    text = text.substr(1, text.size() - 2);
  }
  return text;
}

// ---- The op's step ----------------------------------------------------------

// Everything one propagation step of an op looks at.
struct StepView {
  OpShardingRule rule;
  PropagationDirection direction = PropagationDirection::kBoth;
  std::vector<std::string> labels;  // operands first
  std::vector<Value> values;        // the tensors, as `labels`
  std::vector<std::optional<TensorSharding>> shardings;
  int64_t num_operands = 0;
  std::string note;  // why nothing is drawn, if so
};

std::string nameOf(const Names& names, Value v) {
  auto it = names.find(v);
  return it == names.end() ? std::string("?") : it->second;
}

absl::StatusOr<StepView> stepView(Op op, const Names& names,
                                  const ExplainOptions& options) {
  StepView view;
  SK_ASSIGN_OR_RETURN(OpRoleInfo info, classifyOp(op, options.conservative));
  IdentityRules identity;
  auto add = [&](const std::string& label, Value v) {
    view.labels.push_back(strCat(label, " ", nameOf(names, v)));
    view.values.push_back(v);
    view.shardings.push_back(getSharding(v));
  };
  switch (info.role) {
    case OpRole::kSkip:
      view.note = "the op has no sharding rule: propagation skips it";
      return view;
    case OpRole::kRule:
      view.rule = *info.rule;
      for (unsigned i = 0; i < op.numOperands(); ++i)
        add(strCat("operand ", i), op.operand(i));
      for (unsigned i = 0; i < op.numResults(); ++i)
        add(strCat("result ", i), op.result(i));
      view.num_operands = op.numOperands();
      return view;
    case OpRole::kBarrier:
      if (op.numOperands() != 1 || op.numResults() != 1 ||
          !op.result(0).type().isRankedTensor()) {
        view.note = "the barrier is malformed: propagation skips it";
        return view;
      }
      view.rule = identity.get(op.result(0).type().shape(), 1, 1);
      view.direction = PropagationDirection::kNone;
      if (const PropagationDirection* d =
              op.attr("allowed_direction").as<PropagationDirection>()) {
        view.direction = *d;
      }
      add("operand 0", op.operand(0));
      add("result 0", op.result(0));
      view.num_operands = 1;
      return view;
    case OpRole::kEdge: {
      std::optional<DataFlowEdge> edge;
      if (op.numOperands() == 1 && op.numResults() == 1) {
        edge = dataFlowEdgeOf(op.operand(0));
      }
      if (!edge || edge->sources.empty() ||
          !op.result(0).type().isRankedTensor()) {
        view.note = "the edge has no sources: propagation skips it";
        return view;
      }
      view.rule =
          identity.get(op.result(0).type().shape(), edge->sources.size(), 1);
      for (size_t i = 0; i < edge->sources.size(); ++i) {
        add(strCat("source ", i), edge->sources[i]);
      }
      view.labels.push_back(strCat("targets ", nameOf(names, op.result(0))));
      view.values.push_back(op.result(0));
      std::optional<TensorSharding> stored = getSharding(op.result(0));
      view.shardings.push_back(
          edgeShardingBeforePropagation(op, stored ? &*stored : nullptr));
      view.num_operands = static_cast<int64_t>(edge->sources.size());
      return view;
    }
    case OpRole::kFuncEdge: {
      absl::StatusOr<CallGraph> calls = CallGraph::build(*op.module());
      if (!calls.ok()) return calls.status();
      std::vector<OperandRef> sources = funcEdgeSourceUses(op, *calls);
      if (sources.empty() || !op.result(0).type().isRankedTensor()) {
        view.note = "the edge has no sources: propagation skips it";
        return view;
      }
      view.rule = identity.get(op.result(0).type().shape(), sources.size(), 1);
      for (size_t i = 0; i < sources.size(); ++i) {
        add(strCat("source ", i), sources[i].get());
      }
      add("targets", op.result(0));
      view.num_operands = static_cast<int64_t>(sources.size());
      return view;
    }
  }
  return view;
}

}  // namespace

Op findExplainedOp(Module& module, std::string_view selector) {
  bool by_name = selector.empty() || selector.front() != '%';
  for (Op func : module.functions()) {
    Names names;
    if (!by_name) FunctionNamer(names).nameFunction(func);
    // `%0` also selects the op whose results print as `%0#0`, `%0#1`, ...
    std::string group = strCat(selector, "#");
    Op found;
    auto visit = [&](Op op) {
      if (found || op == func) return;
      if (by_name) {
        if (op.name() == selector) found = op;
        return;
      }
      for (unsigned i = 0; i < op.numResults() && !found; ++i) {
        std::string name = nameOf(names, op.result(i));
        if (name == selector || name.starts_with(group)) found = op;
      }
    };
    Module::walkOp(func, visit);
    if (found) return found;
  }
  return Op();
}

absl::StatusOr<std::string> explainOp(Op op, const ExplainOptions& options) {
  Names names;
  Op func = enclosingFunction(op);
  if (func) FunctionNamer(names).nameFunction(func);
  std::string out = "factor table of ";
  for (unsigned i = 0; i < op.numResults(); ++i) {
    strAppend(out, i ? ", " : "", nameOf(names, op.result(i)));
  }
  strAppend(out, op.numResults() ? " = " : "", op.name());
  if (func) strAppend(out, " in @", FuncOp(func).name());
  out += "\n";
  SK_ASSIGN_OR_RETURN(StepView view, stepView(op, names, options));
  if (!view.note.empty()) return strCat(out, view.note, "\n");
  strAppend(out, "rule: ", ruleText(view.rule), "\n");
  if (view.direction != PropagationDirection::kBoth) {
    strAppend(out, "allowed direction: ", toString(view.direction), "\n");
  }

  std::vector<const TensorSharding*> pointers;
  for (const std::optional<TensorSharding>& s : view.shardings) {
    pointers.push_back(s ? &*s : nullptr);
  }
  absl::Span<const TensorSharding* const> all(pointers);
  OpShardings shardings{all.subspan(0, view.num_operands),
                        all.subspan(view.num_operands)};
  MeshTable meshes = op.module()->meshTable();
  absl::StatusOr<std::optional<CommonMesh>> common =
      findCommonMesh(shardings.operands, shardings.results, meshes);
  if (!common.ok()) return opError(op, fromAbsl(common.status().message()));
  if (!common->has_value()) {
    return strCat(out,
                  "no common mesh (nothing is sharded, or the meshes differ): "
                  "propagation does nothing\n");
  }
  const Mesh& mesh = *(*common)->mesh;
  const MeshOrRef& mesh_ref = (*common)->mesh_or_ref;
  strAppend(out, "mesh: ", toString(mesh_ref));
  if (mesh_ref.isRef()) strAppend(out, " = ", toString(mesh));
  out += "\n";
  if (mesh.isMaximal()) {
    return strCat(out,
                  "a maximal mesh pins the op to one device: nothing "
                  "propagates\n");
  }

  absl::StatusOr<ShardingProjection> before = ShardingProjection::build(
      shardings.operands, shardings.results, view.rule, mesh);
  if (!before.ok()) return opError(op, fromAbsl(before.status().message()));
  strAppend(out, "\nbefore:\n",
            tableText(*before, view.rule, mesh, view.labels));

  PropagateOpOptions step;
  bool aggressive = options.strategy != PropagationStrategy::kBasic;
  if (aggressive) {
    step.strategy = &aggressiveFactorPropagation();
  } else {
    step.strategy = &basicFactorPropagation();
  }
  step.direction = view.direction;
  step.conservative = options.conservative;
  step.is_elementwise = isElementwiseOp(op);
  PropagationWorkspace workspace;
  absl::StatusOr<PropagateOpResult> result = propagateOpShardings(
      shardings, view.rule, mesh, mesh_ref, step, &workspace);
  if (!result.ok()) return opError(op, fromAbsl(result.status().message()));
  strAppend(out, "\nafter one ", aggressive ? "aggressive" : "basic",
            " step:\n",
            tableText(workspace.projection, view.rule, mesh, view.labels));
  if (result->updates.empty()) out += "updated: nothing\n";
  for (const ShardingUpdate& update : result->updates) {
    strAppend(out, "updated: ", view.labels[update.tensor], " = ",
              toString(update.sharding), "\n");
  }
  out += explain_internal::originsSection(op, *before, view.rule, mesh,
                                          view.labels, view.values);
  return out;
}

}  // namespace shardkit
