#include "src/rules/rule_cache.h"

#include "absl/hash/hash.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/internal/mix_word.h"
#include "shardkit/ir/module.h"

namespace shardkit {
namespace {

using core_detail::mixWord;

uint64_t mixType(uint64_t h, Type type) {
  return mixWord(h, reinterpret_cast<uintptr_t>(type.identity()));
}

// Whether `op`'s regions leave its rule to the op alone: it has none, or it
// is a reduce (whose body the rule does not read).
bool regionsCacheable(Op op) {
  return op.numRegions() == 0 || isa<stablehlo::ReduceOp>(op);
}

}  // namespace

bool RuleCache::cacheable(Op op) {
  // Rules that look beyond the op (at operands' producers, users, regions)
  // are not cached.
  return !isa<stablehlo::ConcatenateOp, stablehlo::DynamicUpdateSliceOp,
              stablehlo::CustomCallOp>(op) &&
         regionsCacheable(op);
}

size_t RuleCache::hashOf(Op op) {
  // Of the inherent attributes only their number is hashed: ops of one name
  // and types rarely differ in them, and Eq tells those apart.
  uint64_t h = mixWord(reinterpret_cast<uintptr_t>(op.opName().entry()),
                       op.inherentAttrs().size());
  unsigned num_operands = op.numOperands();
  unsigned num_results = op.numResults();
  h = mixWord(h, uint64_t{num_operands} << 32 | num_results);
  for (unsigned i = 0; i < num_operands; ++i)
    h = mixType(h, op.operand(i).type());
  for (unsigned i = 0; i < num_results; ++i)
    h = mixType(h, op.result(i).type());
  return absl::HashOf(h);
}

bool RuleCache::Eq::operator()(const Key& k, const Probe& p) const {
  Op op = p.op;
  unsigned num_operands = op.numOperands();
  if (k.name.entry() != op.opName().entry() ||
      k.types.size() != num_operands + op.numResults()) {
    return false;
  }
  for (unsigned i = 0; i < num_operands; ++i) {
    if (k.types[i] != op.operand(i).type().identity()) return false;
  }
  for (unsigned i = num_operands; i < k.types.size(); ++i) {
    if (k.types[i] != op.result(i - num_operands).type().identity()) {
      return false;
    }
  }
  return k.inherent == op.inherentAttrs();
}

std::optional<int32_t> RuleCache::find(Op op) {
  // Of cacheable()'s checks only the regions' is needed: the kinds it
  // excludes by name are never inserted, so their lookups miss anyway, but
  // an op with regions may share its signature with one without.
  if (!regionsCacheable(op)) return std::nullopt;
  auto it = map_.find(Probe{op, hashOf(op)});
  if (it == map_.end()) return std::nullopt;
  return it->second;
}

void RuleCache::insert(Op op, int32_t index) {
  if (!cacheable(op)) return;
  Probe probe{op, hashOf(op)};
  if (map_.find(probe) != map_.end()) return;
  Key key{op.opName(), {}, op.inherentAttrs(), probe.hash};
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    key.types.push_back(op.operand(i).type().identity());
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    key.types.push_back(op.result(i).type().identity());
  }
  map_.emplace(std::move(key), index);
}

}  // namespace shardkit
