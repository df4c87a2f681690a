// -sdy-flatten-call-graph: a function called more than once gets a copy per
// call.
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/ir/clone.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/passes/call_passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/passes/call_graph_util.h"
#include "src/passes/symbol_namer.h"

namespace shardkit {
namespace {

// The calls in `func`'s body, in walk order.
std::vector<Op> callsIn(FuncOp func) {
  std::vector<Op> calls;
  auto collect = [&](Op op) {
    if (isa<func::CallOp>(op)) calls.push_back(op);
  };
  Module::walkOp(func, collect);
  return calls;
}

class Flattener {
 public:
  Flattener(Module& module, const CallGraph& calls)
      : module_(module), namer_(module) {
    for (FuncOp func : calls.functions()) {
      functions_.emplace(std::string(func.name()), func);
    }
  }

  // Depth first from `root`: the first call of a function keeps it (and the
  // walk goes into it), the others get copies.
  absl::Status flattenFrom(FuncOp root) {
    struct Frame {
      std::vector<Op> calls;
      size_t next = 0;
    };
    std::vector<Frame> stack;
    stack.push_back({callsIn(root)});
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next == top.calls.size()) {
        stack.pop_back();
        continue;
      }
      Op call = top.calls[top.next++];
      FuncOp callee = lookup(func::CallOp(call).callee());
      if (called_.insert(std::string(callee.name())).second) {
        stack.push_back({callsIn(callee)});
        continue;
      }
      SK_ASSIGN_OR_RETURN(FuncOp copy, copyRecursively(callee, 0));
      call.setAttr("callee", Attribute::symbolRef(std::string(copy.name())));
    }
    return absl::OkStatus();
  }

 private:
  FuncOp lookup(std::string_view name) const {
    auto it = functions_.find(toAbsl(name));
    return it == functions_.end() ? FuncOp() : it->second;
  }

  // A copy of `func` whose calls call copies of their callees, recursively;
  // the callees' copies are added to the module before the caller's.
  absl::StatusOr<FuncOp> copyRecursively(FuncOp func, int depth) {
    // The graph is acyclic, so its depth is bounded by the function count;
    // this bounds the recursion for the stack's sake.
    constexpr int kMaxDepth = 10000;
    if (depth > kMaxDepth) {
      return opError(func, strCat("call graph deeper than ", kMaxDepth,
                                  " calls; cannot flatten it"));
    }
    ValueMap map;
    FuncOp copy(cloneOp(func, map));
    for (Op call : callsIn(copy)) {
      FuncOp callee = lookup(func::CallOp(call).callee());
      SK_ASSIGN_OR_RETURN(FuncOp callee_copy,
                          copyRecursively(callee, depth + 1));
      call.setAttr("callee",
                   Attribute::symbolRef(std::string(callee_copy.name())));
    }
    if (!copy->hasAttr(kOriginalFuncNameAttr)) {
      copy->setAttr(kOriginalFuncNameAttr,
                    Attribute::string(std::string(func.name())));
    }
    std::string name = namer_.unique(func.name());
    copy->setAttr("sym_name", Attribute::string(name));
    module_.body().pushBack(copy);
    functions_.emplace(std::move(name), copy);
    return copy;
  }

  Module& module_;
  passes_internal::SymbolNamer namer_;
  absl::flat_hash_map<std::string, FuncOp> functions_;
  absl::flat_hash_set<std::string> called_;  // functions whose call is kept
};

}  // namespace

absl::Status flattenCallGraph(Module& module) {
  if (!module.mayHaveOpsNamed(func::CallOp::opName())) return absl::OkStatus();
  SK_ASSIGN_OR_RETURN(CallGraph calls,
                      passes_internal::acyclicCallGraph(module));
  SK_RETURN_IF_ERROR(passes_internal::checkInlinedSize(
      calls, "-sdy-flatten-call-graph", /*nested=*/false));
  Flattener flattener(module, calls);
  for (FuncOp func : calls.functions()) {
    if (calls.callsTo(func).empty()) {
      SK_RETURN_IF_ERROR(flattener.flattenFrom(func));
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
