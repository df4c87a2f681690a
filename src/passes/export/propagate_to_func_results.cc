// -sdy-propagate-to-func-results.
#include <optional>

#include "shardkit/dialect/func/call_graph.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/passes/call_passes.h"
#include "shardkit/support/status_macros.h"

namespace shardkit {

absl::Status propagateToFuncResults(Module& module) {
  SK_ASSIGN_OR_RETURN(CallGraph calls, CallGraph::build(module));
  for (FuncOp func : calls.functions()) {
    Op ret = func.returnOp();
    if (calls.isEntry(func) || !ret) continue;
    for (unsigned i = 0; i < ret.numOperands() && i < func.numResults(); ++i) {
      if (std::optional<TensorSharding> s = getSharding(ret.operand(i))) {
        setFuncResultSharding(func, i, *s);
      } else {
        func.resultAttrList().removeEntry(i, kShardingAttr);
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
