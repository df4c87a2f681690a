#include "src/propagation/rule_cache.h"

namespace shardkit {

std::optional<RuleCache::Key> RuleCache::keyOf(Op op) {
  std::string_view name = op.name();
  // Rules that look beyond the op (at operands' producers, users, regions)
  // are not cached.
  if (name == "stablehlo.concatenate" ||
      name == "stablehlo.dynamic_update_slice" ||
      name == "stablehlo.custom_call" ||
      (op.numRegions() > 0 && name != "stablehlo.reduce")) {
    return std::nullopt;
  }
  Key key{name, op.operandTypes(), op.inherentAttrs()};
  for (unsigned i = 0; i < op.numResults(); ++i) {
    key.types.push_back(op.result(i).type());
  }
  return key;
}

std::optional<int32_t> RuleCache::find(Op op) const {
  std::optional<Key> key = keyOf(op);
  if (!key) return std::nullopt;
  auto it = map_.find(*key);
  if (it == map_.end()) return std::nullopt;
  return it->second;
}

void RuleCache::insert(Op op, int32_t index) {
  if (std::optional<Key> key = keyOf(op)) map_.emplace(std::move(*key), index);
}

}  // namespace shardkit
