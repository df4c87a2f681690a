#include "src/passes/import/sharding_walker.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/attr_dict_rewrites.h"
#include "shardkit/ir/walk.h"

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
      if (walkOneDict(op)) continue;
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
    for (unsigned i = 0, n = func.numArguments(); i < n; ++i) {
      const Attribute& attr = func.argAttr(i, kShardingAttr);
      Attribute updated = transform(attr, site);
      if (updated.identity() != attr.identity()) {
        func.setArgAttr(i, kShardingAttr, updated);
      }
    }
    for (unsigned i = 0, n = func.numResults(); i < n; ++i) {
      const Attribute& attr = func.resultAttr(i, kShardingAttr);
      Attribute updated = transform(attr, site);
      if (updated.identity() != attr.identity()) {
        func.setResultAttr(i, kShardingAttr, updated);
      }
    }
  }

  // When all of `op`'s shardings are in one of its dictionaries and the
  // transform ignores their sites, transforms that dictionary as a whole, so
  // that ops sharing it share the result (AttrDictRewrites). Returns false,
  // having done nothing, otherwise.
  bool walkOneDict(Op op) {
    if (!site_independent_) return false;
    int which = -1;  // 0: inherent, 1: discardable
    for (int d : {0, 1}) {
      for (const NamedAttribute& a : dictOf(op, d)) {
        if (!holdsShardings(a.value)) continue;
        if (which >= 0 && which != d) return false;
        if (!site_independent_({op, a.name})) return false;
        which = d;
      }
    }
    if (which < 0) return true;
    if (rewrites_.reuse(dictOf(op, which), nullptr, {})) return true;
    // The transform may create ops (a lifted mesh), which may move every
    // op's dictionaries: the dictionary is looked up again after each call.
    absl::InlinedVector<std::pair<size_t, Attribute>, 2> changes;
    for (size_t i = 0; i < dictOf(op, which).size(); ++i) {
      const NamedAttribute& a = dictOf(op, which).entries()[i];
      Attribute updated = transform(a.value, {op, a.name});
      const Attribute& now = dictOf(op, which).entries()[i].value;
      if (updated.identity() != now.identity()) {
        changes.emplace_back(i, std::move(updated));
      }
    }
    if (changes.empty()) return true;
    rewrites_.apply(dictOf(op, which), nullptr, {}, [&](AttrDict& dict) {
      for (auto& [i, value] : changes) {
        *dict.find(dict.entries()[i].name) = value;
      }
    });
    return true;
  }
  static AttrDict& dictOf(Op op, int which) {
    return which == 0 ? op.inherentAttrs() : op.discardableAttrs();
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
  AttrDictRewrites rewrites_;
};

}  // namespace

void transformShardings(Module& module, const ShardingTransform& fn,
                        const SiteIndependent& site_independent) {
  Walker(fn, site_independent).walk(module);
}

}  // namespace shardkit::import_internal
