#include "src/rules/rule_cache.h"

#include "shardkit/ir/stablehlo_ops.h"

namespace shardkit {

std::optional<RuleCache::KeyView> RuleCache::viewOf(Op op) {
  // Rules that look beyond the op (at operands' producers, users, regions)
  // are not cached.
  if (isa<stablehlo::ConcatenateOp, stablehlo::DynamicUpdateSliceOp,
          stablehlo::CustomCallOp>(op) ||
      (op.numRegions() > 0 && !isa<stablehlo::ReduceOp>(op))) {
    return std::nullopt;
  }
  std::string_view name = op.name();
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
