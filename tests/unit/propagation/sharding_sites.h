// The shardings of a module, read back to state properties about them (the
// property tests of propagation and of the propagation pipeline).
#ifndef SHARDKIT_TESTS_UNIT_PROPAGATION_SHARDING_SITES_H_
#define SHARDKIT_TESTS_UNIT_PROPAGATION_SHARDING_SITES_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/core/tensor_sharding.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/graph.h"
#include "shardkit/support/strings.h"

namespace shardkit::testing {

// One sharding of a module and the type of what it describes.
struct ShardingSite {
  // Names the place, stable while the op exists: `@main arg 0`, `@main
  // result 1`, `op 12 stablehlo.add result 0 (line 7)`.
  std::string where;
  TensorSharding sharding;
  Type type;
};

// Every sharding of `module`: function argument and result shardings, and
// the sharding of every op result (an `sdy.sharding` entry, or the sharding
// a constraint or data-flow edge carries). `source` (the parsed text, if
// given) turns op locations into line numbers.
inline std::vector<ShardingSite> collectShardings(
    Module& module, std::string_view source = {}) {
  std::vector<ShardingSite> sites;
  for (Op op : module.functions()) {
    FuncOp func(op);
    std::vector<Type> results = func.resultTypes();
    for (unsigned i = 0; i < func.numArguments(); ++i) {
      if (const TensorSharding* s =
              func.argAttr(i, kShardingAttr).as<TensorSharding>()) {
        sites.push_back({strCat("@", func.name(), " arg ", i), *s,
                         func.argument(i).type()});
      }
    }
    for (unsigned i = 0; i < func.numResults(); ++i) {
      if (const TensorSharding* s =
              func.resultAttr(i, kShardingAttr).as<TensorSharding>()) {
        sites.push_back(
            {strCat("@", func.name(), " result ", i), *s, results[i]});
      }
    }
  }
  module.walk([&](Op op) {
    for (unsigned i = 0; i < op.numResults(); ++i) {
      std::optional<TensorSharding> s = getSharding(op.result(i));
      if (!s) continue;
      std::string where = strCat("op ", op.id(), " ", op.name(), " result ", i);
      if (op.location() > 0 && op.location() <= source.size()) {
        int64_t line = 1 + std::count(source.begin(),
                                      source.begin() + op.location(), '\n');
        strAppend(where, " (line ", line, ")");
      }
      sites.push_back({std::move(where), *std::move(s), op.result(i).type()});
    }
  });
  return sites;
}

}  // namespace shardkit::testing

#endif  // SHARDKIT_TESTS_UNIT_PROPAGATION_SHARDING_SITES_H_
