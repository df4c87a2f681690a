// Internal to the ir layer: a side table from the registry's op names to
// values computed once per name, looked up by OpNameEntry::index (one array
// access instead of a hash lookup per op).
#ifndef SHARDKIT_SRC_IR_OP_NAME_MAP_H_
#define SHARDKIT_SRC_IR_OP_NAME_MAP_H_

#include <optional>
#include <vector>

#include "shardkit/ir/op_name.h"

namespace shardkit::ir_internal {

// Values by op name, computed on first use. Only the process-wide
// registry's names are remembered: a module's own names (of unknown ops)
// share their indexes with other modules' and are computed each time.
// Not thread-safe: keep one per thread or per printer.
template <typename T>
class OpNameMap {
 public:
  // The value for `name`, `compute(name)` the first time it is asked.
  template <typename Compute>
  T get(OpName name, const Compute& compute) {
    const OpNameEntry* entry = name.entry();
    if (entry == nullptr || entry->module_local) return compute(name);
    if (entry->index >= slots_.size()) slots_.resize(entry->index + 1);
    std::optional<T>& slot = slots_[entry->index];
    if (!slot) slot.emplace(compute(name));
    return *slot;
  }

 private:
  std::vector<std::optional<T>> slots_;
};

}  // namespace shardkit::ir_internal

#endif  // SHARDKIT_SRC_IR_OP_NAME_MAP_H_
