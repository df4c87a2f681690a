// The graph IR at scale: reading and printing a generated 100,000-op module
// (bytes/s of text), building and walking a 1,000,000-op function by hand,
// and the IR's storage per op (Module::storageBytes() / numOps(), reported as
// the `bytes_per_op` counter; attribute payloads are shared and not counted).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

constexpr int kModuleOps = 100000;
constexpr int kBuiltOps = 1000000;

// A function of `num_ops` ops in the shape JAX emits: elementwise chains,
// shardings on some results, sharding constraints and constants, and a
// reduce with a body every 100 ops.
std::string generateModule(int num_ops) {
  std::string text =
      "sdy.mesh @mesh = <[\"x\"=8, \"y\"=4]>\n"
      "func.func @main(%arg0: tensor<256x128xf32> {sdy.sharding = "
      "#sdy.sharding<@mesh, [{\"x\"}, {?}]>}, %arg1: tensor<256x128xf32>) -> "
      "tensor<256x128xf32> {\n"
      "  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>\n";
  int last = -1;
  auto name = [](int i) {
    return i < 0 ? std::string("%arg0") : strCat("%", i);
  };
  int i = 0;
  while (i < num_ops - 2) {
    std::string prev = name(last);
    switch (i % 5) {
      case 0:
        strAppend(text, "  %", i, " = stablehlo.add ", prev,
                  ", %arg1 : tensor<256x128xf32>\n");
        break;
      case 1:
        strAppend(text, "  %", i, " = stablehlo.multiply ", prev, ", ", prev,
                  " {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{\"x\"}, "
                  "{\"y\"}]>]>} : tensor<256x128xf32>\n");
        break;
      case 2:
        strAppend(text, "  %", i, " = sdy.sharding_constraint ", prev,
                  " <@mesh, [{\"x\", ?}, {?}]> : tensor<256x128xf32>\n");
        break;
      case 3:
        strAppend(text, "  %", i, " = stablehlo.negate ", prev,
                  " : tensor<256x128xf32>\n");
        break;
      default:
        strAppend(
            text, "  %", i, " = stablehlo.transpose ", prev,
            ", dims = [0, 1] : (tensor<256x128xf32>) -> tensor<256x128xf32>\n");
        break;
    }
    last = i++;
    if (i % 100 == 0 && i < num_ops - 6) {
      // reduce + broadcast back: 4 ops (reduce, its add and return, broadcast).
      strAppend(text, "  %", i, " = stablehlo.reduce(", name(last),
                " init: %cst) across dimensions = [1] : (tensor<256x128xf32>, "
                "tensor<f32>) -> tensor<256xf32>\n"
                "   reducer(%a: tensor<f32>, %b: tensor<f32>)  {\n"
                "    %r = stablehlo.add %a, %b : tensor<f32>\n"
                "    stablehlo.return %r : tensor<f32>\n"
                "  }\n");
      strAppend(text, "  %", i + 1, " = stablehlo.broadcast_in_dim %", i,
                ", dims = [0] : (tensor<256xf32>) -> tensor<256x128xf32>\n");
      last = i + 1;
      i += 4;  // the ids of the nested ops are not used
    }
  }
  strAppend(text, "  return ", name(last), " : tensor<256x128xf32>\n}\n");
  return text;
}

const std::string& moduleText() {
  static const std::string* text = new std::string(generateModule(kModuleOps));
  return *text;
}

// Storage per op without the attribute entries (the `+ attributes` part).
double bytesPerOpWithoutAttrs(Module& module) {
  size_t entries = 0;
  module.walk([&](Op op) {
    entries += op.inherentAttrs().size() + op.discardableAttrs().size();
  });
  size_t bytes = module.storageBytes() - entries * sizeof(NamedAttribute);
  return static_cast<double>(bytes) / module.numOps();
}

std::unique_ptr<Module> parseOrDie(const std::string& text, bool verify) {
  ParseOptions options;
  options.verify = verify;
  absl::StatusOr<std::unique_ptr<Module>> module =
      parseModule(text, "bench.mlir", options);
  if (!module.ok()) {
    std::fprintf(stderr, "%s\n",
                 std::string(fromAbsl(module.status().message())).c_str());
    std::abort();
  }
  return std::move(*module);
}

void BM_ReadModule(benchmark::State& state) {
  const std::string& text = moduleText();
  bool verify = state.range(0) != 0;
  size_t ops = 0;
  double bytes_per_op = 0, without_attrs = 0;
  for (auto _ : state) {
    std::unique_ptr<Module> module = parseOrDie(text, verify);
    state.PauseTiming();
    ops = module->numOps();
    bytes_per_op = static_cast<double>(module->storageBytes()) / ops;
    without_attrs = bytesPerOpWithoutAttrs(*module);
    state.ResumeTiming();
    benchmark::DoNotOptimize(module.get());
  }
  state.SetBytesProcessed(
      static_cast<int64_t>(state.iterations() * text.size()));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * ops));
  state.counters["ops"] = static_cast<double>(ops);
  state.counters["bytes_per_op"] = bytes_per_op;
  state.counters["bytes_per_op_without_attrs"] = without_attrs;
}
BENCHMARK(BM_ReadModule)
    ->ArgName("verify")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

void BM_PrintModule(benchmark::State& state) {
  std::unique_ptr<Module> module = parseOrDie(moduleText(), /*verify=*/false);
  PrintOptions options;
  options.generic = state.range(0) != 0;
  size_t bytes = 0;
  for (auto _ : state) {
    std::string text = printModule(*module, options);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(
      static_cast<int64_t>(state.iterations() * module->numOps()));
}
BENCHMARK(BM_PrintModule)
    ->ArgName("generic")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

// Builds `@f(%arg0) -> tensor` with a chain of `num_ops` unary ops, a
// sharding on every 10th result, and the return.
std::unique_ptr<Module> buildFunction(int num_ops) {
  auto module = std::make_unique<Module>();
  Type t = module->types().rankedTensor({256, 128}, "f32");
  FuncOp func = FuncOp::create(*module, "f", {t}, {t});
  module->body().pushBack(func.op());
  Block body = func.body();
  OpName names[] = {module->opName("stablehlo.negate"),
                    module->opName("stablehlo.abs"),
                    module->opName("stablehlo.exponential")};
  TensorSharding sharding(
      MeshOrRef::ref("mesh"),
      {DimensionSharding({AxisRef("x")}, true), DimensionSharding::open()});
  Attribute per_value = Attribute::of(TensorShardingPerValue({sharding}));
  Value v = func.argument(0);
  OperationState state;
  state.result_types = {t};
  for (int i = 0; i < num_ops; ++i) {
    state.name = names[i % 3];
    state.operands.assign(1, v);
    state.discardable_attrs = AttrDict();
    if (i % 10 == 0) state.discardable_attrs.set(kShardingAttr, per_value);
    Op op = module->createOp(state);
    body.pushBack(op);
    v = op.result(0);
  }
  OperationState ret(module->opName("func.return"));
  ret.operands = {v};
  body.pushBack(module->createOp(ret));
  return module;
}

void BM_BuildFunction(benchmark::State& state) {
  size_t ops = 0;
  double bytes_per_op = 0, without_attrs = 0;
  for (auto _ : state) {
    std::unique_ptr<Module> module =
        buildFunction(static_cast<int>(state.range(0)));
    state.PauseTiming();
    ops = module->numOps();
    bytes_per_op = static_cast<double>(module->storageBytes()) / ops;
    without_attrs = bytesPerOpWithoutAttrs(*module);
    state.ResumeTiming();
    benchmark::DoNotOptimize(module.get());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * ops));
  state.counters["bytes_per_op"] = bytes_per_op;
  state.counters["bytes_per_op_without_attrs"] = without_attrs;
}
BENCHMARK(BM_BuildFunction)->Arg(kBuiltOps)->Unit(benchmark::kMillisecond);

void BM_WalkFunction(benchmark::State& state) {
  std::unique_ptr<Module> module =
      buildFunction(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    size_t sharded = 0;
    module->walk([&](Op op) {
      if (op.numResults() == 1 && getSharding(op.result(0))) ++sharded;
    });
    benchmark::DoNotOptimize(sharded);
  }
  state.SetItemsProcessed(
      static_cast<int64_t>(state.iterations() * module->numOps()));
}
BENCHMARK(BM_WalkFunction)->Arg(kBuiltOps)->Unit(benchmark::kMillisecond);

// Walking and visiting every use of every value (the use lists).
void BM_WalkUses(benchmark::State& state) {
  std::unique_ptr<Module> module =
      buildFunction(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    size_t uses = 0;
    module->walk([&](Op op) {
      for (unsigned i = 0; i < op.numResults(); ++i)
        uses += op.result(i).numUses();
    });
    benchmark::DoNotOptimize(uses);
  }
  state.SetItemsProcessed(
      static_cast<int64_t>(state.iterations() * module->numOps()));
}
BENCHMARK(BM_WalkUses)->Arg(kBuiltOps)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace shardkit
