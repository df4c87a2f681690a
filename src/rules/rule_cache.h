// Internal: registry rules by op signature, so that a module repeating the
// same few op signatures (every transformer layer) builds each rule once.
#ifndef SHARDKIT_SRC_RULES_RULE_CACHE_H_
#define SHARDKIT_SRC_RULES_RULE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
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
  std::optional<int32_t> find(Op op);
  // Records `index` for `op`'s signature (ignored if its rule looks beyond
  // the op itself).
  void insert(Op op, int32_t index);

 private:
  // A signature as `op` holds it, with its hash: a lookup reads the op's
  // types in place instead of copying them.
  struct Probe {
    Op op;
    size_t hash = 0;
  };
  // The stored copy of a signature. Types are compared by identity: one
  // module's types are uniqued (a type of another module would only miss).
  struct Key {
    OpName name;
    std::vector<const void*> types;  // Type::identity(), operands first
    AttrDict inherent;
    size_t hash = 0;
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(const Probe& p) const { return p.hash; }
    size_t operator()(const Key& k) const { return k.hash; }
  };
  struct Eq {
    using is_transparent = void;
    bool operator()(const Key& a, const Key& b) const {
      return a.name == b.name && a.types == b.types && a.inherent == b.inherent;
    }
    bool operator()(const Key& k, const Probe& p) const;
    bool operator()(const Probe& p, const Key& k) const {
      return (*this)(k, p);
    }
  };
  // Whether `op`'s registry rule depends on the op alone.
  static bool cacheable(Op op);
  // The hash of `op`'s signature (Key::hash of its copy).
  static size_t hashOf(Op op);

  absl::flat_hash_map<Key, int32_t, Hash, Eq> map_;
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_RULES_RULE_CACHE_H_
