// -sdy-check-collectives (shardkit's own): proves on host data that the
// collectives of every function do what their out shardings say. Each value
// that feeds collectives (the root) is distributed as its sharding demands,
// the collectives hanging off it run on the per-device buffers (sim layer),
// and after each one every device's buffer is compared with the shard its out
// sharding demands; the first collective where they differ is an error.
#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/core/sharding_math.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/sim/simulator.h"
#include "shardkit/support/checked_math.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/passes/export/collective_ops.h"

namespace shardkit {
namespace {

// Beyond this many elements over all devices a tree is not simulated.
constexpr int64_t kMaxSimulatedElements = int64_t{1} << 24;

// A collective of a tree, which holds its nodes in pre-order (each node's
// collectives come after it and before its next sibling): the walks below
// iterate over this list with explicit stacks, since a chain of thousands
// of collectives would overflow the call stack.
struct Node {
  Op op;
  Collective collective;
  int parent = -1;  // the node whose result it reads; -1 for the root's
};

// The collectives fed by `root`, transitively, in pre-order.
std::vector<Node> collectiveTree(Value root) {
  std::vector<Node> nodes;
  std::vector<Node> stack;
  auto pushUsers = [&](Value value, int parent) {
    size_t first = stack.size();
    for (const Value::Use& use : value.uses()) {
      Op user = use.user();
      if (std::optional<Collective> c = passes_internal::collectiveOf(user)) {
        stack.push_back(Node{user, *std::move(c), parent});
      }
    }
    std::reverse(stack.begin() + static_cast<ptrdiff_t>(first), stack.end());
  };
  pushUsers(root, -1);
  while (!stack.empty()) {
    nodes.push_back(std::move(stack.back()));
    stack.pop_back();
    pushUsers(nodes.back().op.result(0), static_cast<int>(nodes.size() - 1));
  }
  return nodes;
}

class CollectiveChecker {
 public:
  explicit CollectiveChecker(Module& module) : meshes_(module.meshTable()) {}

  absl::Status checkFunction(FuncOp func) {
    std::vector<Op> ops;
    ir_internal::collectPreOrder(func.body(), ops);
    absl::flat_hash_set<Value> roots;
    for (Op op : ops) {
      if (!passes_internal::collectiveOf(op)) continue;
      Value operand = op.operand(0);
      if (passes_internal::collectiveOf(operand.definingOp())) continue;
      if (!roots.insert(operand).second) continue;
      SK_RETURN_IF_ERROR(checkTree(operand, collectiveTree(operand)));
    }
    return absl::OkStatus();
  }

 private:
  // The sharding the root's data has: its own (an open one on the first
  // collective's mesh if it has none), unreduced over the axes collectives
  // right after it reduce (the op that made it left partial values there).
  std::optional<TensorSharding> rootSharding(
      Value root, const std::vector<Node>& users) const {
    std::optional<TensorSharding> sharding = getSharding(root);
    if (!sharding) {
      sharding = TensorSharding::fullyOpen(
          users.front().collective.out_sharding.mesh, root.type().rank());
    }
    const Mesh* mesh = meshes_.resolve(*sharding);
    if (mesh == nullptr) return std::nullopt;
    for (const Node& user : users) {
      const Collective& c = user.collective;
      if (user.parent != -1) continue;  // not right after the root
      if (c.kind != CollectiveKind::kAllReduce &&
          c.kind != CollectiveKind::kReduceScatter) {
        continue;
      }
      AxisRefVector reduced = c.axes.items;
      for (const AxisRefList& list : c.axes_per_dim) {
        reduced.insert(reduced.end(), list.begin(), list.end());
      }
      AxisRefVector partial =
          axisSetDifference(reduced, sharding->unreduced_axes, *mesh);
      if (partial.empty()) continue;
      if (sharding->unreduced_axes.empty()) {
        sharding->unreduced_kind = c.reduction;
      }
      sharding->unreduced_axes.insert(sharding->unreduced_axes.end(),
                                      partial.begin(), partial.end());
      sortAndMergeAxes(sharding->unreduced_axes, *mesh);
    }
    return sharding;
  }

  void addShardCounts(const TensorSharding& sharding,
                      std::vector<int64_t>& pads) const {
    const Mesh* mesh = meshes_.resolve(sharding);
    if (mesh == nullptr) return;
    std::vector<int64_t> counts = shardCounts(sharding, *mesh);
    for (size_t d = 0; d < counts.size() && d < pads.size(); ++d) {
      pads[d] = std::lcm(pads[d], counts[d]);
    }
  }

  absl::Status checkTree(Value root, const std::vector<Node>& users) {
    Type type = root.type();
    if (users.empty() || !type.isRankedTensor() || !type.hasStaticShape()) {
      return absl::OkStatus();
    }
    std::optional<TensorSharding> sharding = rootSharding(root, users);
    if (!sharding || sharding->rank() != type.rank()) return absl::OkStatus();
    const Mesh* mesh = meshes_.resolve(*sharding);
    std::vector<int64_t> pads(type.rank(), 1);
    addShardCounts(*sharding, pads);
    for (const Node& node : users) {
      addShardCounts(node.collective.out_sharding, pads);
    }
    // Only the residue of each dimension modulo its shard counts shapes the
    // layout: a long dimension is simulated at a size with the same residue.
    std::vector<int64_t> shape(type.shape().begin(), type.shape().end());
    int64_t elements = mesh->totalSize();
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] > 2 * pads[d]) shape[d] = pads[d] + shape[d] % pads[d];
      elements = saturatingMul(elements, std::max<int64_t>(shape[d], 1));
    }
    if (elements > kMaxSimulatedElements) {
      // Said, not skipped silently: the collectives stay unchecked.
      for (const Node& node : users) {
        emitNonFatal(diagnosticStatus(Diagnostic{
            locationOf(node.op),
            Severity::kWarning,
            strCat("not checked: simulating it takes ", elements,
                   " elements over all devices, more than the budget of ",
                   kMaxSimulatedElements),
            {}}));
      }
      return absl::OkStatus();
    }
    absl::StatusOr<DistributedTensor> tensor =
        distributeIota(shape, *sharding, *mesh, /*seed=*/root.id(), pads);
    if (!tensor.ok()) return absl::OkStatus();  // Not a sharding we model.
    return checkNodes(*tensor, users);
  }

  // Checks the nodes in pre-order, each on its parent's result; a result
  // is kept only until its last child is checked.
  absl::Status checkNodes(const DistributedTensor& root,
                          const std::vector<Node>& nodes) {
    std::vector<int> children_left(nodes.size(), 0);
    for (const Node& node : nodes) {
      if (node.parent >= 0) ++children_left[node.parent];
    }
    std::vector<std::optional<DistributedTensor>> results(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
      const Node& node = nodes[i];
      const DistributedTensor& operand =
          node.parent < 0 ? root : *results[node.parent];
      SK_ASSIGN_OR_RETURN(DistributedTensor result, checkNode(operand, node));
      if (node.parent >= 0 && --children_left[node.parent] == 0) {
        results[node.parent].reset();
      }
      if (children_left[i] > 0) results[i] = std::move(result);
    }
    return absl::OkStatus();
  }

  // The result of one collective, after checking that it holds what its
  // out sharding demands.
  absl::StatusOr<DistributedTensor> checkNode(const DistributedTensor& operand,
                                              const Node& node) {
    const Collective& c = node.collective;
    const Mesh* target_mesh = meshes_.resolve(c.out_sharding);
    if (target_mesh == nullptr) {
      return opError(node.op, "names a mesh that does not exist");
    }
    auto fail = [&](const absl::Status& status) {
      return opError(node.op, strCat("does not hold what its out sharding "
                                     "demands: ",
                                     fromAbsl(status.message())));
    };
    if (absl::Status s =
            verifyCollective(c, operand.sharding, operand.mesh, *target_mesh);
        !s.ok()) {
      return fail(s);
    }
    absl::StatusOr<DistributedTensor> result =
        simulateCollective(operand, c, *target_mesh);
    if (!result.ok()) return fail(result.status());
    if (absl::Status s = checkHoldsIota(*result, c.out_sharding, *target_mesh);
        !s.ok()) {
      return fail(s);
    }
    return result;
  }

  MeshTable meshes_;
};

}  // namespace

absl::Status checkCollectives(Module& module) {
  CollectiveChecker checker(module);
  for (FuncOp func : functionDefinitions(module)) {
    SK_RETURN_IF_ERROR(checker.checkFunction(func));
  }
  return absl::OkStatus();
}

}  // namespace shardkit
