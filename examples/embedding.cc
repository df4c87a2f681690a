// Embedding shardkit (docs/embedding.md): build a graph in C++, propagate,
// read the shardings back, and see an error located in the caller's code.
#include <cstdio>

#include "shardkit/dialect/graph_builder.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/passes/pipeline.h"

using namespace shardkit;

int main() {
  Module module;
  GraphBuilder b(module);
  b.mesh("mesh", Mesh({{"data", 4}, {"model", 2}}));

  // mlp(x: 32x64, w: 64x128) = sum over columns of tanh(x @ w)
  FuncOp mlp = b.func("mlp", {b.tensorType({32, 64}), b.tensorType({64, 128})});
  MeshOrRef mesh = MeshOrRef::ref("mesh");
  DimensionSharding data({AxisRef("data")}, /*is_closed=*/true);
  DimensionSharding model({AxisRef("model")}, /*is_closed=*/true);
  setSharding(mlp.argument(0), TensorSharding(mesh, {data, {}}));
  setSharding(mlp.argument(1), TensorSharding(mesh, {{}, model}));

  b.setLocation(DebugLocation::fileLineCol("model.py", 12, 5));
  Value h =
      b.unary(UnaryKind::kTanh, b.matmul(mlp.argument(0), mlp.argument(1)));
  b.setLocation(DebugLocation::fileLineCol("model.py", 13, 5));
  Value zero = b.constant(b.tensorType({}), "0.000000e+00");
  Value sum = b.reduce(h, zero, {1}, ReduceKind::kAdd);
  b.ret({sum});
  if (!b.status().ok() || !verifyModule(module).ok()) return 1;

  // Propagate with the default options (aggressive, op priorities).
  PipelineOptions options;
  if (absl::Status s = runPropagationPipeline(module, options); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  std::optional<TensorSharding> h_sharding = getSharding(h);
  std::optional<TensorSharding> sum_sharding = getSharding(sum);
  std::printf("tanh: %s\nsum:  %s\n", toAttrString(*h_sharding).c_str(),
              toAttrString(*sum_sharding).c_str());
  if (toString(*h_sharding) != R"(<@mesh, [{"data"}, {"model"}]>)" ||
      toString(*sum_sharding) != R"(<@mesh, [{"data"}]>)")
    return 1;

  // A shape that does not fit is reported at the op and where it was made.
  Module broken;
  GraphBuilder c(broken);
  FuncOp f = c.func("f", {c.tensorType({8, 6})});
  c.setLocation(DebugLocation::fileLineCol("model.py", 20, 9));
  c.ret({c.reshape(f.argument(0), {5, 10})});
  std::string error(c.status().message());
  std::printf("%s\n", error.c_str());
  return error == "model.py:20:9 (%0): error: 'stablehlo.reshape' op reshape "
                  "of 48 elements to [5, 10] (50 elements)"
             ? 0
             : 1;
}
