// Internal to the interp layer: the evaluation of regions op by op, the
// context a kernel (the evaluation of one op kind) gets, and the table of
// kernels by op name.
#ifndef SHARDKIT_SRC_INTERP_EVALUATOR_H_
#define SHARDKIT_SRC_INTERP_EVALUATOR_H_

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "shardkit/interp/interpreter.h"
#include "shardkit/interp/literal.h"
#include "shardkit/interp/runtime_value.h"
#include "shardkit/ir/graph.h"

namespace shardkit::interp {

class ProcessGrid;

// A process of interpreter.run_parallel: its place in the grid.
struct ProcessContext {
  ProcessGrid* grid = nullptr;  // null outside run_parallel
  uint32_t replica_id = 0;
  uint32_t partition_id = 0;
  // Its index in the grid's row-major order; 0 outside run_parallel.
  uint32_t index = 0;
  // The run_parallel's place among the main process's failed checks and
  // run_parallel ops (RunState::next_epoch when it started).
  uint64_t epoch = 0;
};

// The values of one invocation of a block; a nested region's scope sees the
// values of the scopes around it (StableHLO regions may use values defined
// above them).
class Scope {
 public:
  explicit Scope(const Scope* parent) : parent_(parent) {}
  const RuntimeValue* find(Value value) const;
  void set(Value value, RuntimeValue v) { values_[value.id()] = std::move(v); }

 private:
  const Scope* parent_;
  absl::flat_hash_map<uint32_t, RuntimeValue> values_;
};

// What the processes of one run share: options and the failed checks.
struct RunState {
  Module* module = nullptr;
  RunOptions options;
  std::mutex mutex;
  // A failed check, sorted in program order by (epoch, process, sequence):
  // the main process's checks and run_parallel ops count epochs, each check
  // of a process of a run_parallel has that op's epoch, its process index
  // + 1 and its own sequence number.
  struct Failure {
    uint64_t epoch;
    uint32_t process;
    uint64_t sequence;
    Diagnostic diagnostic;
  };
  std::vector<Failure> failures;
  uint64_t next_epoch = 0;
};

using Results = std::vector<RuntimeValue>;

class Evaluator {
 public:
  Evaluator(RunState& state, ProcessContext process)
      : state_(state), process_(process) {}

  Module& module() { return *state_.module; }
  const RunOptions& options() const { return state_.options; }
  const ProcessContext& process() const { return process_; }
  RunState& state() { return state_; }

  // Runs `func` (a func.func with a body) on `args`.
  absl::StatusOr<Results> callFunction(Op func,
                                       absl::Span<const RuntimeValue> args);
  // Runs the entry block of `region` with `args` as its arguments, inside
  // `parent` (the scope of the op owning the region), and returns the
  // operands of its terminator.
  absl::StatusOr<Results> runRegion(Region region,
                                    absl::Span<const RuntimeValue> args,
                                    const Scope* parent);
  // runRegion for bodies that take and return tensors (reductions,
  // comparators): the results' tensors, which must be tensors.
  absl::StatusOr<std::vector<Tensor>> runTensorRegion(
      Region region, absl::Span<const Tensor> args, const Scope* parent);

  // Records a failed check at `op` (the run goes on).
  void reportFailedCheck(Op op, std::string message,
                         std::vector<std::string> notes);

 private:
  absl::Status runBlock(Block block, Scope& scope, Results* terminator_values);
  absl::Status runOp(Op op, Scope& scope);

  RunState& state_;
  ProcessContext process_;
  int depth_ = 0;
  uint64_t checks_ = 0;
};

// What a kernel gets: the op, its operands' values (held by the scope the
// op runs in, which does not change while the kernel runs), the evaluator
// (for regions and the process) and that scope.
class OpContext {
 public:
  OpContext(Evaluator& eval, Op op, const Scope& scope,
            std::vector<const RuntimeValue*> operands)
      : eval_(eval), op_(op), scope_(scope), operands_(std::move(operands)) {}

  Evaluator& eval() const { return eval_; }
  Op op() const { return op_; }
  const Scope& scope() const { return scope_; }
  size_t numOperands() const { return operands_.size(); }
  const RuntimeValue& operand(size_t i) const { return *operands_[i]; }
  // A copy of the operands' values (for calls and ops that pass them on).
  Results operands() const;
  // Operand `i` as a tensor (it must be one: tensorOperands checks first).
  const Tensor& tensor(size_t i) const { return operands_[i]->tensor(); }
  // Fails unless every operand is a tensor.
  absl::Status tensorOperands() const;

  // The tensor type of result `i`.
  absl::StatusOr<TensorType> resultType(size_t i) const;
  // A zero tensor of result `i`'s type.
  absl::StatusOr<Tensor> resultTensor(size_t i) const;

  // Attributes, with errors naming the attribute.
  absl::StatusOr<int64_t> intAttr(std::string_view name) const;
  // An integer attribute, or `fallback` when the op has none.
  absl::StatusOr<int64_t> intAttrOr(std::string_view name,
                                    int64_t fallback) const;
  // A dense array (`array<i64: ...>`), an array of integers, or a 1-d
  // elements attribute.
  absl::StatusOr<std::vector<int64_t>> intsAttr(std::string_view name) const;
  absl::StatusOr<std::vector<int64_t>> intsAttrOr(
      std::string_view name, std::vector<int64_t> fallback) const;
  bool boolAttrOr(std::string_view name, bool fallback) const;
  // An elements attribute as a tensor.
  absl::StatusOr<Tensor> elementsAttr(std::string_view name) const;
  // The enumerator of `#stablehlo<kind VALUE>` (`VALUE`), or empty.
  std::string_view enumAttr(std::string_view name) const;

 private:
  Evaluator& eval_;
  Op op_;
  const Scope& scope_;
  std::vector<const RuntimeValue*> operands_;
};

using Kernel = absl::StatusOr<Results> (*)(OpContext& ctx);

// The kernels by op name (built once).
class KernelTable {
 public:
  template <typename OpHandle>
  void add(Kernel kernel) {
    kernels_[OpHandle::kName] = kernel;
  }
  Kernel find(std::string_view name) const {
    auto it = kernels_.find(name);
    return it == kernels_.end() ? nullptr : it->second;
  }

 private:
  absl::flat_hash_map<std::string_view, Kernel> kernels_;
};

const KernelTable& kernelTable();

// The families of kernels (one file each).
void addElementwiseKernels(KernelTable& table);
void addConvertKernels(KernelTable& table);
void addShapeKernels(KernelTable& table);
void addControlKernels(KernelTable& table);
void addCheckKernels(KernelTable& table);
void addReductionKernels(KernelTable& table);
void addContractionKernels(KernelTable& table);
void addFftKernel(KernelTable& table);
void addGatherScatterKernels(KernelTable& table);
void addCollectiveKernels(KernelTable& table);
void addMiscKernels(KernelTable& table);

// An error of the interpreter: `message` as it is (a kernel's error without
// a location gets the op's, see Evaluator).
inline absl::Status evalError(std::string_view message) {
  return absl::InvalidArgumentError(
      absl::string_view(message.data(), message.size()));
}

}  // namespace shardkit::interp

#endif  // SHARDKIT_SRC_INTERP_EVALUATOR_H_
