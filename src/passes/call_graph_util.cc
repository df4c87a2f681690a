#include "src/passes/call_graph_util.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/budgets.h"
#include "shardkit/support/checked_math.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit::passes_internal {
namespace {

// A function once every call in it is inlined: its op count and the depth
// of its deepest region (the body is depth 1).
struct Inlined {
  int64_t ops = 0;
  int64_t depth = 1;
};

// Walks `func`'s body with an explicit stack (no recursion on the input's
// nesting); `done` holds every callee's figures.
Inlined inlinedSize(FuncOp func, const CallGraph& calls, bool nested,
                    const absl::flat_hash_map<uint32_t, Inlined>& done) {
  Inlined result;
  std::vector<std::pair<Block, int64_t>> stack{{func.body(), 1}};
  while (!stack.empty()) {
    Block block = stack.back().first;
    int64_t depth = stack.back().second;
    stack.pop_back();
    result.depth = std::max(result.depth, depth);
    for (Op op : block) {
      result.ops = saturatingAdd(result.ops, 1);
      if (isa<func::CallOp>(op)) {
        FuncOp callee = calls.calleeOf(op);
        auto it = callee ? done.find(callee->id()) : done.end();
        if (it != done.end()) {
          result.ops = saturatingAdd(result.ops, it->second.ops);
          if (nested) {
            result.depth = std::max(result.depth, depth + it->second.depth);
          }
        }
      }
      forEachBlock(op, [&](Block inner) {
        stack.push_back({inner, depth + 1});
      });
    }
  }
  return result;
}

}  // namespace

absl::StatusOr<CallGraph> acyclicCallGraph(Module& module) {
  SK_ASSIGN_OR_RETURN(CallGraph calls, CallGraph::build(module));
  SK_RETURN_IF_ERROR(calls.checkAcyclic());
  return calls;
}

absl::Status checkInlinedSize(const CallGraph& calls, std::string_view pass,
                              bool nested) {
  std::vector<FuncOp> order = calls.callersFirst();
  absl::flat_hash_map<uint32_t, Inlined> done;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    FuncOp func = *it;
    if (func.isDeclaration()) continue;
    Inlined size = inlinedSize(func, calls, nested, done);
    done[func->id()] = size;
    if (!calls.callsTo(func).empty()) continue;
    if (size.ops > kInlinedOpBudget) {
      return opError(func, strCat(pass, " would make @", func.name(), " ",
                                  size.ops, " ops, more than the budget of ",
                                  kInlinedOpBudget, " ops"));
    }
    // The module and the function add two levels to the body's.
    if (nested && size.depth + 2 > kMaxNestingDepth) {
      return opError(func, strCat(pass, " would nest regions ", size.depth + 2,
                                  " levels deep in @", func.name(),
                                  ", more than the reader reads back (",
                                  kMaxNestingDepth, ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::passes_internal
