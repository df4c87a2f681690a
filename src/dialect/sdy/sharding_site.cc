// Where a value's sharding lives: reading and writing it (sharding_site.h).
#include "shardkit/dialect/sdy/sharding_site.h"

#include <utility>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/computations.h"
#include "shardkit/dialect/sdy/sdy_ops.h"

namespace shardkit {
namespace {

constexpr std::string_view kInShardings = "in_shardings";

// The attribute name an sdy op keeps its result's sharding in, if it does.
std::string_view ownShardingAttr(Op op) {
  const OpInfo* info = op.opName().info();
  return info ? info->result_sharding_attr : std::string_view();
}

// The function whose entry block has `arg`, or null.
FuncOp funcOfArgument(Value arg) {
  Block block = arg.ownerBlock();
  Op parent = block.parentOp();
  if (!isa<FuncOp>(parent) || !(parent.region(0).front() == block)) {
    return FuncOp();
  }
  return FuncOp(parent);
}

// ---- Storage at a value, not looking for an edge op -------------------------

// The sharding stored at `value` (a shardable value), or one computed into
// `scratch`, or null; `holder` is set to the attribute holding a stored
// one (null otherwise).
const TensorSharding* findStored(Value value,
                                 std::optional<TensorSharding>& scratch,
                                 const Attribute*& holder) {
  holder = nullptr;
  if (value.isBlockArgument()) {
    if (FuncOp func = funcOfArgument(value)) {
      const Attribute& a = func.argAttr(value.index(), kShardingAttr);
      const TensorSharding* s = a.as<TensorSharding>();
      if (s) holder = &a;
      return s;
    }
    Op computation = computationOfArgument(value);
    if (!computation) return nullptr;
    const Attribute& a = computation.attr(kInShardings);
    const TensorShardingPerValue* list = a.as<TensorShardingPerValue>();
    if (!list || value.index() >= list->size()) return nullptr;
    const TensorSharding& entry = (*list)[value.index()];
    ManualAxes manual = manualAxesOf(computation);
    if (manual.empty()) {
      holder = &a;
      return &entry;
    }
    scratch = withoutManualAxes(entry, manual);
    return &*scratch;
  }
  Op op = value.definingOp();
  std::string_view attr = ownShardingAttr(op);
  const Attribute& a = op.attr(attr.empty() ? kShardingAttr : attr);
  if (const TensorSharding* s = a.as<TensorSharding>()) {
    if (attr.empty()) return nullptr;
    holder = &a;
    return s;
  }
  if (const TensorShardingPerValue* s = a.as<TensorShardingPerValue>()) {
    if (value.index() < s->size()) {
      holder = &a;
      return &(*s)[value.index()];
    }
  }
  return nullptr;
}

const TensorSharding* findStored(Value value,
                                 std::optional<TensorSharding>& scratch) {
  const Attribute* holder;
  return findStored(value, scratch, holder);
}

// `list` (an op's attribute with one sharding per value `valueAt(i)`, `i`
// below `count`) with entry `index` replaced by `sharding`; a list of another
// length is replaced by fully open shardings first. For a manual
// computation's `in_shardings`, `manual` puts the manual axes of the old
// entry back.
template <typename ValueAt>
Attribute withEntry(Op op, std::string_view list, unsigned count,
                    const ValueAt& valueAt, unsigned index,
                    const TensorSharding& sharding, const ManualAxes* manual) {
  TensorShardingPerValue shardings;
  const TensorShardingPerValue* existing =
      op.attr(list).as<TensorShardingPerValue>();
  if (existing && existing->size() == count) {
    shardings = *existing;
  } else {
    shardings.items.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
      shardings.items.push_back(
          TensorSharding::fullyOpen(sharding.mesh, valueAt(i).type().rank()));
    }
  }
  TensorSharding& entry = shardings[index];
  entry = manual ? withManualAxesOf(entry, sharding, *manual) : sharding;
  return Attribute::of(std::move(shardings));
}

// True when `value` already holds `sharding` in a list of the right length:
// storing it again would change nothing but give the value an attribute
// payload of its own (an export pass that rewrites each of a function's 20k
// arguments would copy them all).
bool alreadyStored(Value value, const TensorSharding& sharding) {
  std::optional<TensorSharding> scratch;
  const TensorSharding* stored = findStored(value, scratch);
  if (stored == nullptr || !(*stored == sharding)) return false;
  if (value.isBlockArgument()) {
    if (funcOfArgument(value)) return true;
    const TensorShardingPerValue* list = computationOfArgument(value)
                                             .attr(kInShardings)
                                             .as<TensorShardingPerValue>();
    return list->size() == value.ownerBlock().numArguments();
  }
  Op op = value.definingOp();
  std::string_view attr = ownShardingAttr(op);
  const TensorShardingPerValue* list =
      op.attr(attr.empty() ? kShardingAttr : attr).as<TensorShardingPerValue>();
  return list == nullptr || list->size() == op.numResults();
}

// Stores `attr` as `name` of `op`, through `rewrites` if given.
void setShared(Op op, std::string_view name, const Attribute& attr,
               AttrDictRewrites* rewrites) {
  if (rewrites == nullptr) {
    op.setAttr(name, attr);
    return;
  }
  rewrites->apply(op.attrDictFor(name), attr.identity(), name,
                  [&](AttrDict& dict) { dict.set(name, attr); });
}

// Stores `sharding` at `value`; `attrs`, if given, hold it, and `rewrites`
// (only with `attrs`) share the dictionaries they make. Returns false when
// `value` has no place for a sharding.
bool store(Value value, const TensorSharding& sharding,
           const ShardingAttrs* attrs, AttrDictRewrites* rewrites = nullptr) {
  if (alreadyStored(value, sharding)) return true;
  if (value.isBlockArgument()) {
    if (FuncOp func = funcOfArgument(value)) {
      func.setArgAttr(value.index(), kShardingAttr,
                      attrs ? attrs->single : Attribute::of(sharding));
      return true;
    }
    Op computation = computationOfArgument(value);
    if (!computation) return false;
    Block body = value.ownerBlock();
    ManualAxes manual = manualAxesOf(computation);
    computation.setAttr(
        kInShardings,
        withEntry(
            computation, kInShardings, body.numArguments(),
            [body](unsigned i) { return body.argument(i); }, value.index(),
            sharding,
            isa<sdy::ManualComputationOp>(computation) ? &manual : nullptr));
    return true;
  }
  Op op = value.definingOp();
  std::string_view attr = ownShardingAttr(op);
  if (attr == "sharding" || attr == "out_sharding") {
    if (attrs) {
      setShared(op, attr, attrs->single, rewrites);
    } else {
      op.setAttr(attr, Attribute::of(sharding));
    }
    return true;
  }
  std::string_view list = attr.empty() ? kShardingAttr : attr;
  if (attrs && op.numResults() == 1) {
    setShared(op, list, attrs->per_value, rewrites);
    return true;
  }
  op.setAttr(list, withEntry(
                       op, list, op.numResults(),
                       [op](unsigned i) { return op.result(i); }, value.index(),
                       sharding, /*manual=*/nullptr));
  return true;
}

}  // namespace

// ---- Edge owners
// -------------------------------------------------------------

std::optional<TensorSharding> getEdgeOwnerSharding(Value owner) {
  std::optional<TensorSharding> scratch;
  const TensorSharding* s = findStored(owner, scratch);
  if (!s) return std::nullopt;
  if (scratch) return scratch;
  return *s;
}

void setEdgeOwnerSharding(Value owner, const TensorSharding& sharding) {
  store(owner, sharding, /*attrs=*/nullptr);
}

// ---- Values
// ------------------------------------------------------------------

Value shardableValue(Value value) {
  if (!value) return Value();
  if (!value.isBlockArgument()) {
    // The defining op first: callers walk ops, so it is in cache; the
    // value's users may not be.
    Op def = value.definingOp();
    Op edge;
    if (isDataFlowOp(def)) {
      edge = dataFlowEdgeOp(value);
    } else if (isa<func::CallOp>(def)) {
      edge = funcDataFlowEdgeOp(value);
    }
    return edge ? edge.result(0) : value;
  }
  // Most block arguments are a function's: find the parent once. (A
  // function is neither a computation nor a while: its arguments are
  // targets of no data-flow edge.)
  Block block = value.ownerBlock();
  if (Op parent = block.parentOp(); isa<FuncOp>(parent)) {
    if (!(parent.region(0).front() == block)) return Value();
    Op edge = funcDataFlowEdgeOp(value);
    return edge ? edge.result(0) : value;
  }
  if (Op edge = dataFlowEdgeOp(edgeOwnerOfTarget(value))) return edge.result(0);
  if (computationOfArgument(value)) return value;
  return Value();
}

const TensorSharding* findSharding(Value value,
                                   std::optional<TensorSharding>& scratch) {
  const Attribute* holder;
  return findSharding(value, scratch, holder);
}

const TensorSharding* findSharding(Value value,
                                   std::optional<TensorSharding>& scratch,
                                   const Attribute*& holder) {
  holder = nullptr;
  Value shardable = shardableValue(value);
  return shardable ? findStored(shardable, scratch, holder) : nullptr;
}

std::optional<TensorSharding> getSharding(Value value) {
  Value shardable = shardableValue(value);
  return shardable ? getEdgeOwnerSharding(shardable) : std::nullopt;
}

bool setSharding(Value value, const TensorSharding& sharding) {
  Value shardable = shardableValue(value);
  return shardable && store(shardable, sharding, /*attrs=*/nullptr);
}

ShardingAttrs ShardingAttrs::of(const TensorSharding& sharding) {
  return {Attribute::of(sharding), Attribute::of(TensorShardingPerValue(
                                       std::vector<TensorSharding>{sharding}))};
}

bool setSharding(Value value, const TensorSharding& sharding,
                 const ShardingAttrs& attrs, AttrDictRewrites* rewrites) {
  Value shardable = shardableValue(value);
  return shardable && store(shardable, sharding, &attrs, rewrites);
}

const TensorSharding* findEdgeOwnerSharding(
    Value owner, std::optional<TensorSharding>& scratch) {
  return findStored(owner, scratch);
}

bool setEdgeOwnerSharding(Value owner, const TensorSharding& sharding,
                          const ShardingAttrs& attrs,
                          AttrDictRewrites* rewrites) {
  return store(owner, sharding, &attrs, rewrites);
}

const TensorSharding* findFuncResultSharding(FuncOp func, unsigned result) {
  return func.resultAttr(result, kShardingAttr).as<TensorSharding>();
}

const TensorSharding* findFuncArgSharding(
    FuncOp func, unsigned arg, std::optional<TensorSharding>& scratch) {
  const Attribute* holder;
  return findFuncArgSharding(func, arg, scratch, holder);
}

const TensorSharding* findFuncArgSharding(
    FuncOp func, unsigned arg, std::optional<TensorSharding>& scratch,
    const Attribute*& holder) {
  if (!func.isDeclaration()) {
    return findSharding(func.argument(arg), scratch, holder);
  }
  const Attribute& a = func.argAttr(arg, kShardingAttr);
  const TensorSharding* s = a.as<TensorSharding>();
  holder = s ? &a : nullptr;
  return s;
}

std::optional<TensorSharding> getFuncArgSharding(FuncOp func, unsigned arg) {
  std::optional<TensorSharding> scratch;
  const TensorSharding* s = findFuncArgSharding(func, arg, scratch);
  if (s == nullptr) return std::nullopt;
  if (scratch) return scratch;
  return *s;
}

void setFuncArgSharding(FuncOp func, unsigned arg,
                        const TensorSharding& sharding) {
  if (!func.isDeclaration()) {
    setSharding(func.argument(arg), sharding);
    return;
  }
  const TensorSharding* s =
      func.argAttr(arg, kShardingAttr).as<TensorSharding>();
  if (s == nullptr || !(*s == sharding)) {  // as store(): no-op when equal
    func.setArgAttr(arg, kShardingAttr, Attribute::of(sharding));
  }
}

void setFuncResultSharding(FuncOp func, unsigned result,
                           const TensorSharding& sharding) {
  func.setResultAttr(result, kShardingAttr, Attribute::of(sharding));
}

void setFuncResultSharding(FuncOp func, unsigned result,
                           const ShardingAttrs& attrs) {
  func.setResultAttr(result, kShardingAttr, attrs.single);
}

namespace {

// See funcArgShardings; `sharding_at(i)` reads entry i of `types`.
template <typename ShardingAt>
std::optional<TensorShardingPerValue> signatureShardings(
    const std::vector<Type>& types, const MeshTable& meshes,
    const ShardingAt& sharding_at) {
  const TensorSharding* first = nullptr;
  for (unsigned i = 0; i < types.size() && !first; ++i) {
    const TensorSharding* s = sharding_at(i);
    const Mesh* mesh = s ? meshes.resolve(*s) : nullptr;
    if (mesh && !mesh->isMaximal()) first = s;
  }
  if (!first) return std::nullopt;
  TensorShardingPerValue list;
  for (unsigned i = 0; i < types.size(); ++i) {
    const TensorSharding* s = sharding_at(i);
    list.items.push_back(
        s ? *s
          : TensorSharding::fullyOpen(
                first->mesh, types[i].isRankedTensor() ? types[i].rank() : 0));
  }
  return list;
}

}  // namespace

std::optional<TensorShardingPerValue> funcArgShardings(
    FuncOp func, const MeshTable& meshes) {
  return signatureShardings(func.argumentTypes(), meshes, [func](unsigned i) {
    return func.argAttr(i, kShardingAttr).as<TensorSharding>();
  });
}

std::optional<TensorShardingPerValue> funcResultShardings(
    FuncOp func, const MeshTable& meshes) {
  return signatureShardings(func.resultTypes(), meshes, [func](unsigned i) {
    return findFuncResultSharding(func, i);
  });
}

std::optional<TensorShardingPerValue> getShardingPerValue(Op op) {
  if (const TensorShardingPerValue* s =
          op.attr(kShardingAttr).as<TensorShardingPerValue>()) {
    return *s;
  }
  return std::nullopt;
}

void removeShardingRules(Module& module) {
  module.walk([](Op op) {
    const OpShardingRule* rule =
        op.attr(kShardingRuleAttr).as<OpShardingRule>();
    if (rule && !rule->is_custom_rule) op.removeAttr(kShardingRuleAttr);
  });
}

}  // namespace shardkit
