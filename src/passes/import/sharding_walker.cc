#include "src/passes/import/sharding_walker.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "shardkit/ir/func.h"
#include "shardkit/ir/sharding_access.h"
#include "src/passes/import/value_sharding.h"

namespace shardkit::import_internal {
namespace {

void transformFunctionSignature(FuncOp func, const ShardingTransform& fn) {
  ShardingSite site{func.op(), {}};
  for (unsigned i = 0; i < func.numArguments(); ++i) {
    const TensorSharding* s = func.argAttr(i, kShardingAttr).asTensorSharding();
    if (!s) continue;
    TensorSharding updated = fn(*s, site);
    if (!(updated == *s)) {
      func.setArgAttr(i, kShardingAttr, Attribute::tensorSharding(updated));
    }
  }
  for (unsigned i = 0; i < func.numResults(); ++i) {
    const TensorSharding* s =
        func.resultAttr(i, kShardingAttr).asTensorSharding();
    if (!s) continue;
    TensorSharding updated = fn(*s, site);
    if (!(updated == *s)) {
      func.setResultAttr(i, kShardingAttr, Attribute::tensorSharding(updated));
    }
  }
}

void transformOpAttribute(Op op, const std::string& name,
                          const ShardingTransform& fn) {
  Attribute attr = op.attr(name);
  ShardingSite site{op, name};
  if (const TensorSharding* s = attr.asTensorSharding()) {
    TensorSharding updated = fn(*s, site);
    if (!(updated == *s)) op.setAttr(name, Attribute::tensorSharding(updated));
    return;
  }
  if (const TensorShardingPerValue* list = attr.asTensorShardingPerValue()) {
    TensorShardingPerValue updated = *list;
    for (TensorSharding& s : updated.shardings) s = fn(s, site);
    if (!(updated == *list)) {
      op.setAttr(name, Attribute::tensorShardingPerValue(std::move(updated)));
    }
  }
}

}  // namespace

void transformShardings(Module& module, const ShardingTransform& fn) {
  std::vector<Op> ops;
  collectPreOrder(module.body(), ops);
  for (Op op : ops) {
    if (FuncOp::isa(op)) transformFunctionSignature(FuncOp(op), fn);
    std::vector<std::string> names;
    for (const NamedAttribute& a : op.inherentAttrs()) names.push_back(a.name);
    for (const NamedAttribute& a : op.discardableAttrs()) {
      names.push_back(a.name);
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) transformOpAttribute(op, name, fn);
  }
}

}  // namespace shardkit::import_internal
