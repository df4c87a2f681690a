// Internal: registry rules by op signature, so that a module repeating the
// same few op signatures (every transformer layer) builds each rule once:
// RuleCache maps a signature to an index, RuleTable holds the rules.
#ifndef SHARDKIT_SRC_RULES_RULE_CACHE_H_
#define SHARDKIT_SRC_RULES_RULE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/op_sharding_rule.h"
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

// The rules a pass has built, each once per op signature: every rule in an
// allocation of its own, so that it keeps its address while the table lives
// (callers hold pointers to rules and compare them), and the index of the
// rule of each signature recorded so far.
class RuleTable {
 public:
  // The index recorded for an op of `op`'s signature (-1: the op has no
  // rule), if any.
  std::optional<int32_t> find(Op op) { return cache_.find(op); }
  // Records `index` (-1: no rule) for `op`'s signature, as RuleCache::insert.
  void record(Op op, int32_t index) { cache_.insert(op, index); }

  // Appends `rule`; returns its index.
  int32_t add(std::unique_ptr<OpShardingRule> rule) {
    rules_.push_back(std::move(rule));
    return static_cast<int32_t>(rules_.size() - 1);
  }
  int32_t add(OpShardingRule rule) {
    return add(std::make_unique<OpShardingRule>(std::move(rule)));
  }
  // Rule `index`, or null for -1.
  const OpShardingRule* get(int32_t index) const {
    return index < 0 ? nullptr : rules_[index].get();
  }
  // Moves rule `index` out of the table (into another one's add); the index
  // stays taken, by a null rule.
  std::unique_ptr<OpShardingRule> take(int32_t index) {
    return std::move(rules_[index]);
  }
  size_t size() const { return rules_.size(); }

 private:
  std::vector<std::unique_ptr<OpShardingRule>> rules_;
  RuleCache cache_;
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_RULES_RULE_CACHE_H_
