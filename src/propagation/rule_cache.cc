#include "src/propagation/rule_cache.h"

namespace shardkit {

std::optional<RuleCache::KeyView> RuleCache::viewOf(Op op) {
  std::string_view name = op.name();
  // Rules that look beyond the op (at operands' producers, users, regions)
  // are not cached.
  if (name == "stablehlo.concatenate" ||
      name == "stablehlo.dynamic_update_slice" ||
      name == "stablehlo.custom_call" ||
      (op.numRegions() > 0 && name != "stablehlo.reduce")) {
    return std::nullopt;
  }
  types_.clear();
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    types_.push_back(op.operand(i).type());
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    types_.push_back(op.result(i).type());
  }
  return KeyView{name, types_, &op.inherentAttrs()};
}

std::optional<int32_t> RuleCache::find(Op op) {
  std::optional<KeyView> key = viewOf(op);
  if (!key) return std::nullopt;
  auto it = map_.find(*key);
  if (it == map_.end()) return std::nullopt;
  return it->second;
}

void RuleCache::insert(Op op, int32_t index) {
  std::optional<KeyView> view = viewOf(op);
  if (!view) return;
  if (map_.find(*view) != map_.end()) return;
  map_.emplace(
      Key{view->name, std::vector<Type>(view->types.begin(), view->types.end()),
          *view->inherent},
      index);
}

}  // namespace shardkit
