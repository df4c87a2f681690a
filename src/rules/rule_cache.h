// Internal: registry rules by op signature, so that a module repeating the
// same few op signatures (every transformer layer) builds each rule once.
#ifndef SHARDKIT_SRC_RULES_RULE_CACHE_H_
#define SHARDKIT_SRC_RULES_RULE_CACHE_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
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
  // A signature that refers to the op's own data: looking one up copies
  // nothing.
  struct KeyView {
    std::string_view name;  // owned by the op's interned OpName
    absl::Span<const Type> types;
    const AttrDict* inherent = nullptr;

    friend bool operator==(const KeyView& a, const KeyView& b) {
      return a.name.data() == b.name.data() && a.types == b.types &&
             *a.inherent == *b.inherent;
    }
    template <typename H>
    friend H AbslHashValue(H h, const KeyView& k) {
      // One module's types are uniqued: their identities tell them apart.
      // Of the inherent attributes only their number is hashed: ops of one
      // name and types rarely differ in them, and operator== tells those
      // apart.
      h = H::combine(std::move(h), k.name.data(), k.types.size());
      for (Type t : k.types) h = H::combine(std::move(h), t.identity());
      return H::combine(std::move(h), k.inherent->size());
    }
  };
  // The stored copy of a signature.
  struct Key {
    std::string_view name;
    std::vector<Type> types;
    AttrDict inherent;
    KeyView view() const { return {name, types, &inherent}; }
  };
  struct Hash {
    using is_transparent = void;
    size_t operator()(const KeyView& k) const {
      return absl::Hash<KeyView>()(k);
    }
    size_t operator()(const Key& k) const { return (*this)(k.view()); }
  };
  struct Eq {
    using is_transparent = void;
    static KeyView view(const KeyView& k) { return k; }
    static KeyView view(const Key& k) { return k.view(); }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return view(a) == view(b);
    }
  };
  // The view of `op`'s signature (types in `types_`), or nullopt if its rule
  // is not cached.
  std::optional<KeyView> viewOf(Op op);

  absl::flat_hash_map<Key, int32_t, Hash, Eq> map_;
  std::vector<Type> types_;  // scratch for viewOf
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_RULES_RULE_CACHE_H_
