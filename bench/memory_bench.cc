// The module's size in memory: heap bytes per op of a module read from the
// generated transformer's generic text (what scripts/bench-vs-mlir.sh
// reads), without the input text the module keeps, once read and again after
// the propagation pipeline. Counted by the allocator (mallinfo2: bytes in
// use), so it includes everything the module holds: op, value and use
// records, attributes, types, names; less the IR arrays' capacity that was
// reserved and never written (Module::reservedBytes: address space, not
// memory), which is reported beside it. One iteration per size; time is not
// the point.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdio>
#include <memory>
#include <string>

#include "bench/workloads/transformer.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/passes/pipeline.h"

namespace shardkit {
namespace {

size_t heapInUse() {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

std::string generatedText(int64_t ops) {
  bench::TransformerShape shape;
  shape.layers = bench::layersForOps(ops);
  std::unique_ptr<Module> module = bench::buildTransformer(shape);
  PrintOptions options;
  options.generic = true;
  options.inherent_in_attr_dict = true;
  return printModule(*module, options);
}

void BM_ModuleBytesPerOp(benchmark::State& state) {
  std::string text = generatedText(state.range(0));
  double read_bytes = 0, pipeline_bytes = 0, ops = 0, reserved = 0;
  for (auto _ : state) {
    size_t before = heapInUse();
    // Read from a view of `text`, which stays allocated: the reader's own
    // copy is freed once read, so the count is the module alone. (Moving a
    // string in would subtract the freed input from the count.)
    absl::StatusOr<std::unique_ptr<Module>> module =
        parseModule(std::string_view(text), "bench.mlir");
    if (!module.ok()) {
      state.SkipWithError("the generated module does not read");
      return;
    }
    ops = static_cast<double>((*module)->numOps());
    reserved = static_cast<double>((*module)->reservedBytes());
    read_bytes = static_cast<double>(heapInUse() - before) - reserved;
    if (!runPropagationPipeline(**module).ok()) {
      state.SkipWithError("the pipeline fails on the generated module");
      return;
    }
    pipeline_bytes = static_cast<double>(heapInUse() - before) -
                     static_cast<double>((*module)->reservedBytes());
  }
  state.counters["ops"] = ops;
  state.counters["bytes_per_op"] = read_bytes / ops;
  state.counters["after_pipeline_bytes_per_op"] = pipeline_bytes / ops;
  state.counters["reserved_bytes_per_op"] = reserved / ops;
}
BENCHMARK(BM_ModuleBytesPerOp)
    ->ArgName("ops")
    ->Arg(10000)
    ->Arg(100000)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace shardkit
