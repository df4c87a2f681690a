// Visiting and rewriting every tensor sharding of a module: function argument
// and result shardings, and every op attribute that is a sharding or a list of
// shardings (`sdy.sharding`, a constraint's or edge's `sharding`, a
// collective's `out_sharding`, a computation's `in_shardings` /
// `out_shardings`).
//
// Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_IMPORT_SHARDING_WALKER_H_
#define SHARDKIT_SRC_PASSES_IMPORT_SHARDING_WALKER_H_

#include <functional>
#include <string_view>

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/ir/graph.h"

namespace shardkit::import_internal {

// Where a sharding sits: on `op` (a func.func for argument/result shardings)
// in attribute `attr` (empty for function arguments and results).
struct ShardingSite {
  Op op;
  std::string_view attr;
};

using ShardingTransform =
    std::function<TensorSharding(const TensorSharding&, const ShardingSite&)>;

// Whether `fn`'s result at `site` depends on the sharding alone. Where it
// does, an attribute many ops share is transformed once and the result shared
// too.
using SiteIndependent = std::function<bool(const ShardingSite&)>;

// Replaces every sharding `s` of the module by `fn(s, site)`. Order: ops in
// pre-order; for a function, its arguments then its results then its body;
// for an op, its attributes by name. Attributes are only rewritten when a
// sharding changes.
void transformShardings(Module& module, const ShardingTransform& fn,
                        const SiteIndependent& site_independent = {});

}  // namespace shardkit::import_internal

#endif  // SHARDKIT_SRC_PASSES_IMPORT_SHARDING_WALKER_H_
