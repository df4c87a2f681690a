// The module's call graph (call_graph.h).
#include "shardkit/dialect/func/call_graph.h"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>

#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// Depth-first visits from `roots` (node indices) along `edges` (each node's
// successors in order), without recursion. `on_back_edge(from, to, edge)`
// is called for an edge to a node still on the path (a cycle) and stops the
// walk when it returns false; `on_finish(node)` when all of a node's
// successors are done (post-order).
template <typename Edges, typename OnBackEdge, typename OnFinish>
void depthFirst(size_t num_nodes, const std::vector<int>& roots,
                const Edges& edges, OnBackEdge&& on_back_edge,
                OnFinish&& on_finish) {
  enum : uint8_t { kNew, kOnPath, kDone };
  std::vector<uint8_t> state(num_nodes, kNew);
  struct Frame {
    int node;
    size_t next = 0;
  };
  std::vector<Frame> path;
  for (int root : roots) {
    if (state[root] != kNew) continue;
    state[root] = kOnPath;
    path.push_back({root});
    while (!path.empty()) {
      Frame& top = path.back();
      const auto& succ = edges(top.node);
      if (top.next == succ.size()) {
        state[top.node] = kDone;
        on_finish(top.node);
        path.pop_back();
        continue;
      }
      size_t edge = top.next++;
      int to = succ[edge].first;
      if (state[to] == kOnPath) {
        if (!on_back_edge(path, to, succ[edge].second)) return;
      } else if (state[to] == kNew) {
        state[to] = kOnPath;
        path.push_back({to});
      }
    }
  }
}

}  // namespace

absl::StatusOr<CallGraph> CallGraph::build(Module& module) {
  CallGraph graph;
  for (Op op : module.functions()) {
    FuncOp func(op);
    int index = static_cast<int>(graph.funcs_.size());
    graph.funcs_.push_back(func);
    graph.nodes_.push_back(Node{func, {}, {}});
    graph.by_name_.try_emplace(std::string(func.name()), index);
    graph.by_op_id_.emplace(op.id(), index);
  }
  // Without calls, every node stands alone: no body needs a walk.
  if (!module.mayHaveOpsNamed(func::CallOp::opName())) return graph;
  for (size_t i = 0; i < graph.nodes_.size(); ++i) {
    Op func = graph.nodes_[i].func;
    std::vector<Op> calls;
    auto collect = [&](Op op) {
      if (isa<func::CallOp>(op)) calls.push_back(op);
    };
    Module::walkOp(func, collect);
    for (Op call : calls) {
      auto it = graph.by_name_.find(toAbsl(func::CallOp(call).callee()));
      if (it == graph.by_name_.end()) {
        return opError(call, strCat("'", func::CallOp(call).callee(),
                                    "' does not reference a valid function"));
      }
      graph.callee_of_.emplace(call.id(), it->second);
      graph.nodes_[it->second].calls_to.push_back(call);
    }
    graph.nodes_[i].calls_in = std::move(calls);
  }
  return graph;
}

int CallGraph::indexOf(FuncOp func) const {
  if (!func) return -1;
  auto it = by_op_id_.find(func->id());
  return it == by_op_id_.end() ? -1 : it->second;
}

int CallGraph::calleeIndex(Op call) const {
  if (!call) return -1;
  auto it = callee_of_.find(call.id());
  return it == callee_of_.end() ? -1 : it->second;
}

FuncOp CallGraph::lookup(std::string_view name) const {
  auto it = by_name_.find(toAbsl(name));
  return it == by_name_.end() ? FuncOp() : funcs_[it->second];
}

FuncOp CallGraph::calleeOf(Op call) const {
  int index = calleeIndex(call);
  return index < 0 ? FuncOp() : funcs_[index];
}

absl::Span<const Op> CallGraph::callsTo(FuncOp func) const {
  int index = indexOf(func);
  if (index < 0) return {};
  return nodes_[index].calls_to;
}

absl::Span<const Op> CallGraph::callsIn(FuncOp func) const {
  int index = indexOf(func);
  if (index < 0) return {};
  return nodes_[index].calls_in;
}

FuncOp CallGraph::mainFunc() const {
  if (FuncOp main = lookup("main")) return main;
  return funcs_.size() == 1 ? funcs_.front() : FuncOp();
}

bool CallGraph::isEntry(FuncOp func) const {
  if (FuncOp main = mainFunc()) return main.op() == func.op();
  return callsTo(func).empty();
}

namespace {

// Each node's callees (node index, call) in call order.
std::vector<std::vector<std::pair<int, Op>>> calleeLists(
    size_t num_nodes, const std::function<int(Op)>& callee,
    const std::function<absl::Span<const Op>(int)>& calls_in) {
  std::vector<std::vector<std::pair<int, Op>>> lists(num_nodes);
  for (size_t i = 0; i < num_nodes; ++i) {
    for (Op call : calls_in(static_cast<int>(i))) {
      int to = callee(call);
      if (to >= 0) lists[i].emplace_back(to, call);
    }
  }
  return lists;
}

}  // namespace

absl::Status CallGraph::checkAcyclic() const {
  auto lists = calleeLists(
      nodes_.size(), [this](Op call) { return calleeIndex(call); },
      [this](int i) { return absl::Span<const Op>(nodes_[i].calls_in); });
  std::vector<int> roots(nodes_.size());
  for (size_t i = 0; i < roots.size(); ++i) roots[i] = static_cast<int>(i);
  absl::Status status = absl::OkStatus();
  depthFirst(
      nodes_.size(),
      roots, [&](int node) -> const auto& { return lists[node]; },
      [&](const auto& path, int to, Op call) {
        std::string cycle;
        bool on = false;
        for (const auto& frame : path) {
          on = on || frame.node == to;
          if (on) strAppend(cycle, "@", funcs_[frame.node].name(), " -> ");
        }
        strAppend(cycle, "@", funcs_[to].name());
        status = opError(call, strCat("recursive call graph: ", cycle));
        return false;
      },
      [](int) {});
  return status;
}

std::vector<FuncOp> CallGraph::callersFirst() const {
  auto lists = calleeLists(
      nodes_.size(), [this](Op call) { return calleeIndex(call); },
      [this](int i) { return absl::Span<const Op>(nodes_[i].calls_in); });
  // The functions nobody calls, last first so that they end up in module
  // order; then all (only those on a cycle are left), so the walk sees all.
  std::vector<int> roots;
  for (size_t i = nodes_.size(); i-- > 0;) {
    if (nodes_[i].calls_to.empty()) roots.push_back(static_cast<int>(i));
  }
  for (size_t i = 0; i < nodes_.size(); ++i) {
    roots.push_back(static_cast<int>(i));
  }
  std::vector<FuncOp> order;
  depthFirst(
      nodes_.size(),
      roots, [&](int node) -> const auto& { return lists[node]; },
      [](const auto&, int, Op) { return true; },
      [&](int node) { order.push_back(funcs_[node]); });
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace shardkit
