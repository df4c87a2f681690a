// Where a value's sharding lives and how to read or change it: a function
// argument's `sdy.sharding` argument attribute, an op result's entry in the
// op's `sdy.sharding` list, or the sharding an sdy op carries itself
// (sharding_constraint, reshard, data_flow_edge, collectives' out_sharding,
// manual/named computation out_shardings).
#ifndef SHARDKIT_IR_SHARDING_ACCESS_H_
#define SHARDKIT_IR_SHARDING_ACCESS_H_

#include <optional>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/ir/attr_names.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

// The sharding of `value`, or nullopt when it has none.
std::optional<TensorSharding> getSharding(Value value);
// Same, without a copy: the sharding as the module stores it (valid until
// the attribute holding it changes), or null.
const TensorSharding* findSharding(Value value);

// Shares the attributes setSharding stores between equal shardings: one
// `#sdy.sharding` and one single-entry `#sdy.sharding_per_value` per distinct
// sharding, so that giving many values the same sharding copies nothing.
class ShardingAttrCache {
 public:
  const Attribute& single(const TensorSharding& sharding);
  const Attribute& perValue(const TensorSharding& sharding);

 private:
  absl::flat_hash_map<TensorSharding, Attribute> single_;
  absl::flat_hash_map<TensorSharding, Attribute> per_value_;
};

// Sets the sharding of `value`. For an op result without an `sdy.sharding`
// list, the other results get fully open shardings on the same mesh. Returns
// false when the value has no place for a sharding (e.g. the argument of a
// block that is not a function's entry block). With a `cache`, the stored
// attribute may be shared with other values.
bool setSharding(Value value, TensorSharding sharding,
                 ShardingAttrCache* cache = nullptr);

// The attributes setSharding stores for one sharding, for a caller that
// keeps them per sharding itself (e.g. by an interned id) instead of hashing
// shardings in a ShardingAttrCache.
struct ShardingAttrs {
  Attribute single;     // `#sdy.sharding`
  Attribute per_value;  // a single-entry `#sdy.sharding_per_value`
  static ShardingAttrs of(const TensorSharding& sharding);
};
// Same as setSharding with a cache, storing `attrs`, which hold `sharding`.
bool setSharding(Value value, const TensorSharding& sharding,
                 const ShardingAttrs& attrs);

// The shardings of all results of `op` (`sdy.sharding`), if any.
std::optional<TensorShardingPerValue> getShardingPerValue(Op op);

// Removes every `sdy.sharding_rule` in `module` except custom rules, which
// the user gave.
void removeShardingRules(Module& module);

}  // namespace shardkit

#endif  // SHARDKIT_IR_SHARDING_ACCESS_H_
