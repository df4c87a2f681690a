// A transformer-like workload for the propagation benchmarks: an embedding
// projection, then `layers` blocks of self-attention and an MLP (dot_generals,
// reshapes into heads, transposes, a softmax built from reduce / broadcast /
// elementwise ops, residual adds), with the input sharded over the batch and
// every weight sharded over "model" on one dimension, as a user would
// annotate it.
#ifndef SHARDKIT_BENCH_WORKLOADS_TRANSFORMER_H_
#define SHARDKIT_BENCH_WORKLOADS_TRANSFORMER_H_

#include <cstdint>
#include <memory>

#include "shardkit/ir/graph.h"

namespace shardkit::bench {

struct TransformerShape {
  int64_t layers = 1;
  int64_t batch = 8;
  int64_t seq = 128;
  int64_t model = 512;
  int64_t heads = 8;
  int64_t hidden = 2048;
};

// Builds the module (one public `@main`).
std::unique_ptr<Module> buildTransformer(const TransformerShape& shape);

// The number of layers that gives roughly `ops` ops.
int64_t layersForOps(int64_t ops);

}  // namespace shardkit::bench

#endif  // SHARDKIT_BENCH_WORKLOADS_TRANSFORMER_H_
