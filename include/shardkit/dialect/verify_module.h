// Verification of a whole module: every sdy attribute against the types it
// describes and the mesh it names, and every op's own constraints through the
// verifier hook its kind registered (OpInfo::verify).
#ifndef SHARDKIT_DIALECT_VERIFY_MODULE_H_
#define SHARDKIT_DIALECT_VERIFY_MODULE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

class ShardingVerifyMemo;

struct VerifyOptions {
  // Threads that verify side by side the ops of a block (a function body)
  // of at least kParallelVerifyMinOps ops, in chunks. The diagnostics are
  // those of a one-thread run, in the same order. Verifier hooks then run on
  // several threads at once, each on its own ops (see OpInfo::verify).
  int threads = 1;
};

// The smallest block (in ops) whose ops verify on several threads: below
// it, starting threads costs more than it saves.
inline constexpr size_t kParallelVerifyMinOps = 20000;

// OK, or InvalidArgument carrying one Diagnostic per violation
// (diagnostic.h), located at the op that violates it, in module order.
absl::Status verifyModule(Module& module, const VerifyOptions& options = {});

// Verifies one op (not its regions' ops); an error is located at `op`.
absl::Status verifyOp(Op op, const MeshTable& meshes);

// What a verifier hook may look at besides its op: the module's meshes and
// the manual axes of the enclosing manual computations.
class VerifyContext {
 public:
  // `memo`, when given, remembers which (sharding, type) pairs verified OK so
  // that the many values sharing one sharding attribute verify once; it
  // must not outlive the shardings it saw (verifyModule keeps one per run).
  VerifyContext(const MeshTable& meshes,
                const std::vector<std::string>& bound_manual_axes,
                ShardingVerifyMemo* memo = nullptr)
      : meshes_(meshes), bound_(bound_manual_axes), memo_(memo) {}

  const MeshTable& meshes() const { return meshes_; }
  // The manual axes of the sdy.manual_computation ops the op is nested in.
  const std::vector<std::string>& boundManualAxes() const { return bound_; }

  // OK if `sharding` may describe a value of `type`: the type is shardable (a
  // ranked tensor, or a tuple of one) and the sharding is valid on its mesh
  // for the type's shape without naming a bound manual axis.
  absl::Status verifySharding(const TensorSharding& sharding, Type type) const;
  // The same for the TensorSharding that `attr` holds (InvalidArgument if it
  // holds none), remembered in the memo when there is one.
  absl::Status verifySharding(const Attribute& attr, Type type) const;

  // The memo, or null.
  ShardingVerifyMemo* memo() const { return memo_; }

 private:
  const MeshTable& meshes_;
  const std::vector<std::string>& bound_;
  ShardingVerifyMemo* memo_;
};

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_VERIFY_MODULE_H_
