// Names for new top-level symbols, unique in the module the way MLIR's symbol
// table makes them: `name` if free, else `name_N` with N from one counter
// the namer shares between all names (so `bar`, `bar_0`, `foo`, `foo_1`).
// Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_SYMBOL_NAMER_H_
#define SHARDKIT_SRC_PASSES_SYMBOL_NAMER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_set.h"
#include "shardkit/ir/graph.h"
#include "shardkit/support/strings.h"

namespace shardkit::passes_internal {

class SymbolNamer {
 public:
  explicit SymbolNamer(Module& module) {
    for (Op op : module.body()) {
      if (const std::string* name = op.attr("sym_name").asString()) {
        taken_.insert(*name);
      }
    }
  }
  std::string unique(std::string_view name) {
    std::string candidate(name);
    while (taken_.contains(candidate)) {
      candidate = strCat(name, "_", counter_++);
    }
    taken_.insert(candidate);
    return candidate;
  }

 private:
  absl::flat_hash_set<std::string> taken_;
  int64_t counter_ = 0;
};

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_SYMBOL_NAMER_H_
