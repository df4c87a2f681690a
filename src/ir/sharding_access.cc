#include "shardkit/ir/sharding_access.h"

#include <utility>

#include "shardkit/ir/func.h"
#include "shardkit/ir/sdy_ops.h"

namespace shardkit {
namespace {

// The attribute name an sdy op keeps its result's sharding in, if it does.
std::string_view ownShardingAttr(Op op) {
  if (op.hasTrait(OpTrait::kReshardLike) || isa<sdy::DataFlowEdgeOp>(op)) {
    return "sharding";
  }
  if (op.hasTrait(OpTrait::kCollective)) return "out_sharding";
  if (isa<sdy::ManualComputationOp, sdy::NamedComputationOp>(op)) {
    return "out_shardings";
  }
  return {};
}

}  // namespace

std::optional<TensorShardingPerValue> getShardingPerValue(Op op) {
  if (const TensorShardingPerValue* s =
          op.attr(kShardingAttr).asTensorShardingPerValue()) {
    return *s;
  }
  return std::nullopt;
}

std::optional<TensorSharding> getSharding(Value value) {
  if (const TensorSharding* s = findSharding(value)) return *s;
  return std::nullopt;
}

const TensorSharding* findSharding(Value value) {
  if (value.isBlockArgument()) {
    Block block = value.ownerBlock();
    Op parent = block.parentOp();
    if (isa<FuncOp>(parent) && block == parent.region(0).front()) {
      return FuncOp(parent)
          .argAttr(value.index(), kShardingAttr)
          .asTensorSharding();
    }
    return nullptr;
  }
  Op op = value.definingOp();
  if (std::string_view attr = ownShardingAttr(op); !attr.empty()) {
    const Attribute& a = op.attr(attr);
    if (const TensorSharding* s = a.asTensorSharding()) return s;
    if (const TensorShardingPerValue* s = a.asTensorShardingPerValue()) {
      if (value.index() < s->shardings.size())
        return &s->shardings[value.index()];
    }
    return nullptr;
  }
  if (const TensorShardingPerValue* s =
          op.attr(kShardingAttr).asTensorShardingPerValue()) {
    if (value.index() < s->shardings.size())
      return &s->shardings[value.index()];
  }
  return nullptr;
}

const Attribute& ShardingAttrCache::single(const TensorSharding& sharding) {
  auto [it, inserted] = single_.try_emplace(sharding);
  if (inserted) it->second = Attribute::tensorSharding(sharding);
  return it->second;
}

const Attribute& ShardingAttrCache::perValue(const TensorSharding& sharding) {
  auto [it, inserted] = per_value_.try_emplace(sharding);
  if (inserted) {
    it->second = Attribute::tensorShardingPerValue(
        TensorShardingPerValue(std::vector<TensorSharding>{sharding}));
  }
  return it->second;
}

bool setSharding(Value value, TensorSharding sharding,
                 ShardingAttrCache* cache) {
  auto single = [&]() {
    return cache ? cache->single(sharding)
                 : Attribute::tensorSharding(std::move(sharding));
  };
  if (value.isBlockArgument()) {
    Block block = value.ownerBlock();
    Op parent = block.parentOp();
    if (!isa<FuncOp>(parent) || !(block == parent.region(0).front()))
      return false;
    FuncOp(parent).setArgAttr(value.index(), kShardingAttr, single());
    return true;
  }
  Op op = value.definingOp();
  std::string_view attr = ownShardingAttr(op);
  if (attr == "sharding" || attr == "out_sharding") {
    op.setAttr(attr, single());
    return true;
  }
  std::string_view list_attr = attr.empty() ? kShardingAttr : attr;
  if (cache && op.numResults() == 1) {
    op.setAttr(list_attr, cache->perValue(sharding));
    return true;
  }
  TensorShardingPerValue shardings;
  const TensorShardingPerValue* existing =
      op.attr(list_attr).asTensorShardingPerValue();
  if (existing && existing->shardings.size() == op.numResults()) {
    shardings = *existing;
  } else {
    shardings.shardings.reserve(op.numResults());
    for (unsigned i = 0; i < op.numResults(); ++i) {
      shardings.shardings.push_back(
          i == value.index() ? TensorSharding()
                             : TensorSharding::fullyOpen(
                                   sharding.mesh, op.result(i).type().rank()));
    }
  }
  shardings.shardings[value.index()] = std::move(sharding);
  op.setAttr(list_attr,
             Attribute::tensorShardingPerValue(std::move(shardings)));
  return true;
}

ShardingAttrs ShardingAttrs::of(const TensorSharding& sharding) {
  return {Attribute::tensorSharding(sharding),
          Attribute::tensorShardingPerValue(
              TensorShardingPerValue(std::vector<TensorSharding>{sharding}))};
}

bool setSharding(Value value, const TensorSharding& sharding,
                 const ShardingAttrs& attrs) {
  if (value.isBlockArgument()) {
    Block block = value.ownerBlock();
    Op parent = block.parentOp();
    if (!isa<FuncOp>(parent) || !(block == parent.region(0).front()))
      return false;
    FuncOp(parent).setArgAttr(value.index(), kShardingAttr, attrs.single);
    return true;
  }
  Op op = value.definingOp();
  std::string_view attr = ownShardingAttr(op);
  if (attr == "sharding" || attr == "out_sharding") {
    op.setAttr(attr, attrs.single);
    return true;
  }
  if (op.numResults() == 1) {
    op.setAttr(attr.empty() ? kShardingAttr : attr, attrs.per_value);
    return true;
  }
  return setSharding(value, sharding, /*cache=*/nullptr);
}

void removeShardingRules(Module& module) {
  module.walk([](Op op) {
    const OpShardingRule* rule = op.attr(kShardingRuleAttr).asOpShardingRule();
    if (rule && !rule->is_custom_rule) op.removeAttr(kShardingRuleAttr);
  });
}

}  // namespace shardkit
