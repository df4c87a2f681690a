// CallGraph: the module's functions by name and the `func.call` ops between
// them, read once so that passes and propagation can ask "who calls F" and
// "what does this call call" without scanning the module.
//
// It is a snapshot: a pass that adds or removes functions or calls builds a
// new one.
#ifndef SHARDKIT_DIALECT_FUNC_CALL_GRAPH_H_
#define SHARDKIT_DIALECT_FUNC_CALL_GRAPH_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/dialect/func/func_ops.h"

namespace shardkit {

class CallGraph {
 public:
  // Fails (at the call) if a call names no function of the module.
  static absl::StatusOr<CallGraph> build(Module& module);

  // The module's functions, in module order.
  const std::vector<FuncOp>& functions() const { return funcs_; }
  // The function called `name`, or null.
  FuncOp lookup(std::string_view name) const;
  // The function `call` calls (null for a call the graph doesn't know).
  FuncOp calleeOf(Op call) const;
  // The calls to `func`, in the order a walk of the module meets them.
  absl::Span<const Op> callsTo(FuncOp func) const;
  // The calls in `func`'s body (nested regions included), in order.
  absl::Span<const Op> callsIn(FuncOp func) const;

  // The entry function: the one named `main`, else the module's only
  // function; null if there is neither.
  FuncOp mainFunc() const;
  // Whether the module is entered through `func`: it is the main function,
  // or the module has none and nobody calls `func`.
  bool isEntry(FuncOp func) const;
  // An error at the first call of a cycle (`@a -> @b -> @a`) if a function
  // calls itself, directly or through others.
  absl::Status checkAcyclic() const;
  // Every function after all of its callers: the reverse of a post-order
  // walk from the functions nobody calls (the last one first, so that they
  // keep their module order) that visits each function's callees in call
  // order. In a graph with cycles the order within a cycle is arbitrary.
  std::vector<FuncOp> callersFirst() const;

 private:
  struct Node {
    FuncOp func;
    std::vector<Op> calls_in;
    std::vector<Op> calls_to;
  };
  int indexOf(FuncOp func) const;
  int calleeIndex(Op call) const;

  std::vector<FuncOp> funcs_;
  std::vector<Node> nodes_;  // parallel to funcs_
  absl::flat_hash_map<std::string, int> by_name_;
  absl::flat_hash_map<uint32_t, int> by_op_id_;
  absl::flat_hash_map<uint32_t, int> callee_of_;  // call op id -> node
};

}  // namespace shardkit

#endif  // SHARDKIT_DIALECT_FUNC_CALL_GRAPH_H_
