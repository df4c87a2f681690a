// Deep copies of ops and regions (clone.h).
#include "shardkit/ir/clone.h"

#include <vector>

namespace shardkit {
namespace {

Value mapped(const ValueMap& map, Value value) {
  auto it = map.find(value);
  return it == map.end() ? value : it->second;
}

class Cloner {
 public:
  explicit Cloner(ValueMap& map) : map_(map) {}

  Op cloneOp(Op op) {
    OperationState state(op.opName());
    for (Value operand : op.operands()) {
      state.operands.push_back(mapped(map_, operand));
    }
    state.result_types = op.resultTypes();
    state.inherent_attrs = op.inherentAttrs();
    state.discardable_attrs = op.discardableAttrs();
    state.num_regions = op.numRegions();
    state.location = op.location();
    Op clone = op.module()->createOp(state);
    copies_.push_back(clone);
    for (unsigned i = 0; i < op.numResults(); ++i) {
      map_[op.result(i)] = clone.result(i);
    }
    for (unsigned r = 0; r < op.numRegions(); ++r) {
      cloneRegion(op.region(r), clone.region(r));
    }
    return clone;
  }

  // Blocks (and their arguments) first, so that an op may use a value of a
  // later block.
  void cloneRegion(Region from, Region to) {
    std::vector<Block> blocks;
    for (unsigned b = 0; b < from.numBlocks(); ++b) {
      Block original = from.block(b);
      Block copy = to.addBlock();
      for (Value arg : original.arguments()) {
        map_[arg] = copy.addArgument(arg.type());
      }
      blocks.push_back(copy);
    }
    for (unsigned b = 0; b < from.numBlocks(); ++b) {
      for (Op op : from.block(b)) blocks[b].pushBack(cloneOp(op));
    }
  }

  // Operands that named a value copied only after their user.
  void remapLateOperands() {
    for (Op copy : copies_) {
      for (unsigned i = 0; i < copy.numOperands(); ++i) {
        Value now = mapped(map_, copy.operand(i));
        if (!(now == copy.operand(i))) copy.setOperand(i, now);
      }
    }
  }

 private:
  ValueMap& map_;
  std::vector<Op> copies_;
};

}  // namespace

Op cloneOp(Op op, ValueMap& map) {
  Cloner cloner(map);
  Op clone = cloner.cloneOp(op);
  cloner.remapLateOperands();
  return clone;
}

void cloneRegionInto(Region from, Region to, ValueMap& map) {
  Cloner cloner(map);
  cloner.cloneRegion(from, to);
  cloner.remapLateOperands();
}

}  // namespace shardkit
