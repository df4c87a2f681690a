// Internal: registry rules by op signature, so that a module repeating the
// same few op signatures (every transformer layer) builds each rule once.
#ifndef SHARDKIT_SRC_PROPAGATION_RULE_CACHE_H_
#define SHARDKIT_SRC_PROPAGATION_RULE_CACHE_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/ir/graph.h"

namespace shardkit {

// Maps an op's signature — name, operand and result types, inherent
// attributes — to a caller's rule index, for the ops whose registry rule
// depends on nothing else.
class RuleCache {
 public:
  // The index recorded for an op with the same signature, if any.
  std::optional<int32_t> find(Op op) const;
  // Records `index` for `op`'s signature (ignored if its rule looks beyond
  // the op itself).
  void insert(Op op, int32_t index);

 private:
  struct Key {
    std::string_view name;  // owned by the op's interned OpName
    std::vector<Type> types;
    AttrDict inherent;
    friend bool operator==(const Key&, const Key&) = default;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      h = H::combine(std::move(h), k.name, k.types.size());
      for (Type t : k.types) h = H::combine(std::move(h), t.str());
      for (const NamedAttribute& a : k.inherent) {
        h = H::combine(std::move(h), a.name);
      }
      return h;
    }
  };
  static std::optional<Key> keyOf(Op op);
  absl::flat_hash_map<Key, int32_t> map_;
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_PROPAGATION_RULE_CACHE_H_
