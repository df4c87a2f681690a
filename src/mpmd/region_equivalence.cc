// Structural equality of regions (region_equivalence.h).
#include "src/mpmd/region_equivalence.h"

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "shardkit/ir/module.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

class Matcher {
 public:
  bool regions(Region a, Region b) {
    if (a.numBlocks() != b.numBlocks()) return false;
    for (unsigned i = 0; i < a.numBlocks(); ++i) {
      if (!blocks(a.block(i), b.block(i))) return false;
    }
    return true;
  }

 private:
  bool blocks(Block a, Block b) {
    if (a.numArguments() != b.numArguments() || a.numOps() != b.numOps()) {
      return false;
    }
    for (unsigned i = 0; i < a.numArguments(); ++i) {
      if (!(a.argument(i).type() == b.argument(i).type())) return false;
      values_[a.argument(i)] = b.argument(i);
    }
    Block::iterator ib = b.begin();
    for (Op op_a : a) {
      if (!ops(op_a, *ib)) return false;
      ++ib;
    }
    return true;
  }

  bool ops(Op a, Op b) {
    if (a.opName() != b.opName() || a.numOperands() != b.numOperands() ||
        a.numResults() != b.numResults() || a.numRegions() != b.numRegions() ||
        !(a.inherentAttrs() == b.inherentAttrs()) ||
        !(a.discardableAttrs() == b.discardableAttrs())) {
      return false;
    }
    for (unsigned i = 0; i < a.numOperands(); ++i) {
      if (!(mapped(a.operand(i)) == b.operand(i))) return false;
    }
    for (unsigned i = 0; i < a.numResults(); ++i) {
      if (!(a.result(i).type() == b.result(i).type())) return false;
      values_[a.result(i)] = b.result(i);
    }
    for (unsigned i = 0; i < a.numRegions(); ++i) {
      if (!regions(a.region(i), b.region(i))) return false;
    }
    return true;
  }

  // The value of the other region `v` corresponds to (itself when `v` comes
  // from outside both).
  Value mapped(Value v) const {
    auto it = values_.find(v);
    return it == values_.end() ? v : it->second;
  }

  absl::flat_hash_map<Value, Value> values_;
};

void hashRegion(Region region, size_t& hash) {
  for (unsigned i = 0; i < region.numBlocks(); ++i) {
    Block block = region.block(i);
    hash = absl::HashOf(hash, block.numArguments(), block.numOps());
    for (Op op : block) {
      hash = absl::HashOf(hash, op.name(), op.numOperands(), op.numResults());
      for (Type t : op.resultTypes()) hash = absl::HashOf(hash, t.str());
      for (unsigned r = 0; r < op.numRegions(); ++r) {
        hashRegion(op.region(r), hash);
      }
    }
  }
}

}  // namespace

bool isRegionEquivalent(Region a, Region b) { return Matcher().regions(a, b); }

size_t regionShapeHash(Region region) {
  size_t hash = 0;
  hashRegion(region, hash);
  return hash;
}

}  // namespace shardkit::mpmd::mpmd_internal
