#include "src/passes/import/sharding_walker.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/ir/func.h"
#include "shardkit/ir/sharding_site.h"
#include "src/ir/collect_ops.h"

namespace shardkit::import_internal {
namespace {

bool holdsShardings(const Attribute& attr) {
  return attr.kind() == AttrKind::kTensorSharding ||
         attr.kind() == AttrKind::kTensorShardingPerValue;
}

class Walker {
 public:
  Walker(const ShardingTransform& fn, const SiteIndependent& site_independent)
      : fn_(fn), site_independent_(site_independent) {}

  void walk(Module& module) {
    std::vector<Op> ops;
    ir_internal::collectPreOrder(module.body(), ops);
    std::vector<std::string> names;
    for (Op op : ops) {
      if (isa<FuncOp>(op)) walkSignature(FuncOp(op));
      names.clear();
      for (const AttrDict* dict :
           {&op.inherentAttrs(), &op.discardableAttrs()}) {
        for (const NamedAttribute& a : *dict) {
          if (holdsShardings(a.value)) names.push_back(a.name);
        }
      }
      std::sort(names.begin(), names.end());
      for (const std::string& name : names) {
        ShardingSite site{op, name};
        const Attribute& attr = op.attr(name);
        Attribute updated = transform(attr, site);
        if (updated.identity() != attr.identity()) op.setAttr(name, updated);
      }
    }
  }

 private:
  void walkSignature(FuncOp func) {
    ShardingSite site{func.op(), {}};
    for (unsigned i = 0; i < func.numArguments(); ++i) {
      const Attribute& attr = func.argAttr(i, kShardingAttr);
      Attribute updated = transform(attr, site);
      if (updated.identity() != attr.identity()) {
        func.setArgAttr(i, kShardingAttr, updated);
      }
    }
    for (unsigned i = 0; i < func.numResults(); ++i) {
      const Attribute& attr = func.resultAttr(i, kShardingAttr);
      Attribute updated = transform(attr, site);
      if (updated.identity() != attr.identity()) {
        func.setResultAttr(i, kShardingAttr, updated);
      }
    }
  }

  // `attr` transformed: the same handle if nothing changes (or it holds no
  // sharding). Attributes many ops share are transformed once where the
  // transform ignores the site.
  Attribute transform(const Attribute& attr, const ShardingSite& site) {
    if (!holdsShardings(attr)) return attr;
    bool memoizable = site_independent_ && site_independent_(site);
    if (memoizable) {
      auto it = memo_.find(attr.identity());
      if (it != memo_.end()) return it->second.second;
    }
    Attribute updated = compute(attr, site);
    // The memo keeps the input alive so that its address isn't reused.
    if (memoizable) memo_.emplace(attr.identity(), std::pair(attr, updated));
    return updated;
  }

  Attribute compute(const Attribute& attr, const ShardingSite& site) {
    if (const TensorSharding* s = attr.as<TensorSharding>()) {
      TensorSharding updated = fn_(*s, site);
      if (updated == *s) return attr;
      return Attribute::of(std::move(updated));
    }
    const TensorShardingPerValue* list = attr.as<TensorShardingPerValue>();
    std::optional<TensorShardingPerValue> updated;
    for (size_t i = 0; i < list->items.size(); ++i) {
      TensorSharding s = fn_(list->items[i], site);
      if (!updated && s == list->items[i]) continue;
      if (!updated) updated = *list;
      updated->items[i] = std::move(s);
    }
    if (!updated) return attr;
    return Attribute::of(*std::move(updated));
  }

  const ShardingTransform& fn_;
  const SiteIndependent& site_independent_;
  absl::flat_hash_map<const void*, std::pair<Attribute, Attribute>> memo_;
};

}  // namespace

void transformShardings(Module& module, const ShardingTransform& fn,
                        const SiteIndependent& site_independent) {
  Walker(fn, site_independent).walk(module);
}

}  // namespace shardkit::import_internal
