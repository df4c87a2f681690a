// Structure-aware libFuzzer target for the propagation pipeline. The custom
// mutator reads the input as a module and, when it parses and verifies,
// changes it the way a user's module varies: a value or function result gets
// a new sharding built from the module's own meshes and axes (open or
// closed dimensions, priorities, replicated axes), loses its sharding, or
// two operands of the same type trade places; otherwise (or one time in
// four) it mutates the bytes. Each module is then propagated
// (-sdy-propagation-pipeline, with export passes chosen by the input) and
// the result must print, read back and verify: propagation never turns a
// valid module into an invalid one, and an error carries a location. Explicit
// reshards' dry runs and propagation's classification on a second thread
// must agree with one thread.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_syntax.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/propagation/propagate.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace shardkit {
namespace {

constexpr std::string_view kFile = "fuzz.mlir";

// The values a mutation may reshard: function arguments and op results.
std::vector<Value> shardableValues(Module& module) {
  std::vector<Value> values;
  module.walk([&](Op op) {
    for (Value v : op.results()) values.push_back(v);
    if (FuncOp func = dynCast<FuncOp>(op); func && !func.isDeclaration()) {
      for (Value v : func.body().arguments()) values.push_back(v);
    }
  });
  return values;
}

// A sharding of `type` on one of the module's meshes, chosen by `rng`.
std::optional<TensorSharding> randomSharding(Module& module, Type type,
                                             std::mt19937& rng) {
  if (!type.isRankedTensor()) return std::nullopt;
  MeshTable meshes = module.meshTable();
  if (meshes.empty()) return std::nullopt;
  const std::string& name = meshes.names()[rng() % meshes.size()];
  const Mesh& mesh = *meshes.find(name);
  std::vector<bool> used(mesh.axes.size(), false);
  auto take = [&]() -> std::optional<AxisRef> {
    if (mesh.axes.empty()) return std::nullopt;
    size_t i = rng() % mesh.axes.size();
    if (used[i]) return std::nullopt;
    used[i] = true;
    int64_t size = mesh.axes[i].size;
    // Now and then a sub-axis: the lower half of an even axis.
    if (size % 4 == 0 && rng() % 4 == 0) {
      return AxisRef(mesh.axes[i].name, SubAxisInfo{1, size / 2});
    }
    return AxisRef(mesh.axes[i].name);
  };
  TensorSharding sharding;
  sharding.mesh = MeshOrRef::ref(name);
  for (int64_t d = 0; d < type.rank(); ++d) {
    DimensionSharding dim;
    dim.is_closed = rng() % 2;
    for (int k = rng() % 3; k > 0; --k) {
      if (std::optional<AxisRef> axis = take()) dim.axes.push_back(*axis);
    }
    if (rng() % 8 == 0) dim.priority = rng() % 3;
    sharding.dim_shardings.push_back(std::move(dim));
  }
  if (rng() % 4 == 0) {
    if (std::optional<AxisRef> axis = take()) {
      if (!axis->isSubAxis()) sharding.replicated_axes.push_back(*axis);
    }
  }
  return sharding;
}

// Applies one structural change; false if there was nothing to change.
bool mutateModule(Module& module, std::mt19937& rng) {
  std::vector<Value> values = shardableValues(module);
  switch (rng() % 4) {
    case 0:
    case 1: {
      if (values.empty()) return false;
      Value v = values[rng() % values.size()];
      std::optional<TensorSharding> s = randomSharding(module, v.type(), rng);
      return s && setSharding(v, *s);
    }
    case 2: {
      std::vector<FuncOp> funcs;
      for (Op op : module.functions()) funcs.push_back(FuncOp(op));
      if (funcs.empty()) return false;
      FuncOp func = funcs[rng() % funcs.size()];
      if (func.numResults() == 0) return false;
      unsigned i = rng() % func.numResults();
      std::optional<TensorSharding> s =
          randomSharding(module, func.resultTypes()[i], rng);
      if (!s) return false;
      setFuncResultSharding(func, i, *s);
      return true;
    }
    default: {
      std::vector<Op> ops;
      module.walk([&](Op op) {
        if (op.numOperands() >= 2) ops.push_back(op);
      });
      if (ops.empty()) return false;
      Op op = ops[rng() % ops.size()];
      unsigned a = rng() % op.numOperands(), b = rng() % op.numOperands();
      Value va = op.operand(a), vb = op.operand(b);
      if (a == b || va.type() != vb.type()) return false;
      op.setOperand(a, vb);
      op.setOperand(b, va);
      return true;
    }
  }
}

void checkLocated(const absl::Status& status, std::string_view input) {
  std::string_view message = fromAbsl(status.message());
  for (const Diagnostic& d : diagnosticsOf(status)) {
    if (d.message.empty()) fuzz::fail("an error without a message", input);
  }
  if (message.empty()) fuzz::fail("an error without a message", input);
}

}  // namespace
}  // namespace shardkit

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  shardkit::registerMpmdSyntax();
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size,
                                          size_t max_size, unsigned int seed) {
  using namespace shardkit;
  std::mt19937 rng(seed);
  if (rng() % 4 != 0) {
    absl::StatusOr<std::unique_ptr<Module>> module = parseModule(
        std::string_view(reinterpret_cast<const char*>(data), size), kFile);
    if (module.ok()) {
      bool changed = false;
      for (int n = 1 + rng() % 3; n > 0; --n) {
        changed = mutateModule(**module, rng) || changed;
      }
      std::string text = printModule(**module);
      if (changed && text.size() <= max_size) {
        std::memcpy(data, text.data(), text.size());
        return text.size();
      }
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

namespace {

// Runs `outcome(copy, threads)` on two copies of `module`, with one and
// with two threads, and fails when the outcomes (the module as text, or the
// error) differ: what runs on a second thread must not change the result.
template <typename Outcome>
void checkSameOnTwoThreads(shardkit::Module& module, std::string_view input,
                           std::string_view what, const Outcome& outcome) {
  using namespace shardkit;
  std::string text = printModule(module);
  absl::StatusOr<std::unique_ptr<Module>> one = parseModule(text, kFile);
  absl::StatusOr<std::unique_ptr<Module>> two = parseModule(text, kFile);
  if (!one.ok() || !two.ok()) return;  // the read-back check reports it
  std::string one_text = outcome(**one, 1);
  std::string two_text = outcome(**two, 2);
  if (one_text != two_text) {
    fuzz::fail(strCat(what, " on two threads differs from one thread"), input,
               strCat(one_text, "\n----\n", two_text));
  }
}

// Explicit reshards with dry runs on two threads (every function, however
// small): the dry runs may never skip a visit that changes the module.
void checkDryRunsAgree(shardkit::Module& module, std::string_view input) {
  using namespace shardkit;
  checkSameOnTwoThreads(
      module, input, "explicit reshards", [](Module& m, int threads) {
        InsertExplicitReshardsOptions options;
        options.threads = threads;
        options.parallel_min_ops = 0;
        absl::Status status = insertExplicitReshards(m, options);
        return status.ok() ? printModule(m)
                           : strCat("error: ", fromAbsl(status.message()));
      });
}

// Propagation classifying the ops on a second thread (every module, however
// small): the module, statistics and error are those of one thread.
void checkPreclassificationAgrees(shardkit::Module& module,
                                  std::string_view input) {
  using namespace shardkit;
  checkSameOnTwoThreads(
      module, input, "propagation", [](Module& m, int threads) {
        PropagationOptions options;
        options.strategy = PropagationStrategy::kAggressive;
        options.op_priorities = true;
        options.user_priorities = true;
        options.threads = threads;
        options.parallel_min_ops = 0;
        absl::StatusOr<PropagationStats> stats = propagate(m, options);
        if (!stats.ok()) {
          return strCat("error: ", fromAbsl(stats.status().message()));
        }
        return strCat(printModule(m), stats->op_visits, " ", stats->updates);
      });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shardkit;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(input, kFile);
  if (!module.ok()) return 0;
  std::vector<std::string> passes = {"sdy-propagation-pipeline"};
  switch (size % 4) {
    case 1:
      passes.push_back("sdy-insert-explicit-reshards");
      passes.push_back("sdy-reshard-to-collectives");
      break;
    case 2:
      passes = {"sdy-basic-propagate", "canonicalize"};
      break;
    case 3:
      passes.push_back("canonicalize");
      break;
  }
  if (size % 4 == 0) checkPreclassificationAgrees(**module, input);
  for (const std::string& pass : passes) {
    if (pass == "sdy-insert-explicit-reshards") {
      checkDryRunsAgree(**module, input);
    }
    absl::Status status = runPass(**module, pass, PassOptions());
    if (!status.ok()) {
      checkLocated(status, input);
      return 0;
    }
  }
  std::string printed = printModule(**module);
  absl::StatusOr<std::unique_ptr<Module>> again = parseModule(printed, kFile);
  if (!again.ok()) {
    fuzz::fail("the propagated module does not read back", input,
               strCat(printed, "\n", fromAbsl(again.status().message())));
  }
  return 0;
}
