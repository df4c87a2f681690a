#include "src/passes/wrap_value.h"

#include <utility>

namespace shardkit::passes_internal {

Op wrapValue(Module& module, OperationState state, Value value, Op anchor) {
  state.operands = {value};
  state.result_types = {value.type()};
  Op wrapper = module.createOp(state);
  if (anchor) {
    anchor.parentBlock().insertAfter(anchor, wrapper);
  } else if (value.isBlockArgument()) {
    value.ownerBlock().pushFront(wrapper);
  } else {
    Op def = value.definingOp();
    def.parentBlock().insertAfter(def, wrapper);
  }
  value.replaceUsesWithIf(wrapper.result(0), [wrapper](const Value::Use& use) {
    return !(use.user() == wrapper);
  });
  return wrapper;
}

}  // namespace shardkit::passes_internal
