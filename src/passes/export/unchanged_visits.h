// Internal to -sdy-insert-explicit-reshards: the op visits that changed
// nothing, by everything such a visit reads (the op's rule, and each
// tensor's type and sharding; the mesh table does not change during the
// pass). A model repeats its layers, so most dots repeat one of a few visits:
// a repeat is looked up here instead of projecting the shardings again.
#ifndef SHARDKIT_SRC_PASSES_EXPORT_UNCHANGED_VISITS_H_
#define SHARDKIT_SRC_PASSES_EXPORT_UNCHANGED_VISITS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/hash/hash.h"
#include "absl/types/span.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/internal/mix_word.h"
#include "shardkit/ir/attribute.h"

namespace shardkit::passes_internal {

// A visit's inputs as the pass reads them: `rule` at an address that stays
// valid while the set lives; per tensor (operands, then results) its type's
// identity (Type::identity), its sharding, null for none, and the attribute
// holding that sharding (findSharding), null for a computed one. They are
// read while the module is as they were found: a visit that changed
// nothing is remembered (the set copies the holders), a visit that changed
// the module is not.
struct VisitInputs {
  const OpShardingRule* rule = nullptr;
  absl::Span<const void* const> types;
  absl::Span<const TensorSharding* const> shardings;
  absl::Span<const Attribute* const> holders;
};

class UnchangedVisits {
 public:
  // A repeat is first looked up by the addresses of its shardings (cheap:
  // the module's ops share their sharding attributes), then by their value.
  bool contains(const VisitInputs& inputs) {
    bool by_address = allHeld(inputs);
    if (by_address && by_address_.contains(inputs)) return true;
    if (!visits_.contains(inputs)) return false;
    if (by_address) rememberAddresses(inputs);
    return true;
  }
  void insert(const VisitInputs& inputs) {
    Visit visit;
    visit.rule = inputs.rule;
    visit.types.assign(inputs.types.begin(), inputs.types.end());
    for (const TensorSharding* s : inputs.shardings) {
      visit.shardings.push_back(s ? std::optional<TensorSharding>(*s)
                                  : std::nullopt);
    }
    visits_.insert(std::move(visit));
    if (allHeld(inputs)) rememberAddresses(inputs);
  }
  size_t size() const { return visits_.size(); }

 private:
  // A visit known by the addresses of its shardings. It keeps copies of
  // the attributes holding them: while it lives, an equal address is the
  // same, unchanged sharding.
  struct AddressVisit {
    const OpShardingRule* rule = nullptr;
    absl::InlinedVector<const void*, 4> types;
    absl::InlinedVector<const TensorSharding*, 4> shardings;
    absl::InlinedVector<Attribute, 4> holders;
  };
  struct AddressHash {
    using is_transparent = void;
    template <typename V>
    size_t operator()(const V& v) const {
      uint64_t h = ruleAndTypesHash(v);
      for (const TensorSharding* s : v.shardings) {
        h = core_detail::mixWord(h, reinterpret_cast<uintptr_t>(s));
      }
      return absl::HashOf(h);
    }
  };
  struct AddressEq {
    using is_transparent = void;
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return sameRuleAndTypes(a, b) &&
             std::equal(a.shardings.begin(), a.shardings.end(),
                        b.shardings.begin(), b.shardings.end());
    }
  };
  // What both sets start their hash and equality with.
  template <typename V>
  static uint64_t ruleAndTypesHash(const V& v) {
    uint64_t h = reinterpret_cast<uintptr_t>(v.rule);
    for (const void* type : v.types) {
      h = core_detail::mixWord(h, reinterpret_cast<uintptr_t>(type));
    }
    return h;
  }
  template <typename A, typename B>
  static bool sameRuleAndTypes(const A& a, const B& b) {
    return a.rule == b.rule && std::equal(a.types.begin(), a.types.end(),
                                          b.types.begin(), b.types.end());
  }
  // Whether every sharding of `v` is held by an attribute (or absent).
  static bool allHeld(const VisitInputs& v) {
    if (v.holders.size() != v.shardings.size()) return false;
    for (size_t i = 0; i < v.shardings.size(); ++i) {
      if (v.shardings[i] != nullptr && v.holders[i] == nullptr) return false;
    }
    return true;
  }
  void rememberAddresses(const VisitInputs& v) {
    AddressVisit visit;
    visit.rule = v.rule;
    visit.types.assign(v.types.begin(), v.types.end());
    visit.shardings.assign(v.shardings.begin(), v.shardings.end());
    for (const Attribute* holder : v.holders) {
      visit.holders.push_back(holder ? *holder : Attribute());
    }
    by_address_.insert(std::move(visit));
  }

  // A stored visit: copies of the shardings.
  struct Visit {
    const OpShardingRule* rule = nullptr;
    absl::InlinedVector<const void*, 4> types;
    absl::InlinedVector<std::optional<TensorSharding>, 4> shardings;
  };
  static const TensorSharding* at(const VisitInputs& v, size_t i) {
    return v.shardings[i];
  }
  static const TensorSharding* at(const Visit& v, size_t i) {
    return v.shardings[i] ? &*v.shardings[i] : nullptr;
  }
  // Hash and equality for stored visits and VisitInputs alike.
  struct Hash {
    using is_transparent = void;
    template <typename V>
    size_t operator()(const V& v) const {
      uint64_t h = ruleAndTypesHash(v);
      for (size_t i = 0; i < v.shardings.size(); ++i) {
        const TensorSharding* s = at(v, i);
        h = s ? core_detail::mixWord(h, shapeOf(*s))
              : core_detail::mixWord(h, 1);
      }
      return absl::HashOf(h);
    }
  };
  // Cheaper than absl's hash of the whole sharding (no string is hashed,
  // only its length and first character): Eq tells the rare collisions
  // apart.
  static uint64_t shapeOf(const TensorSharding& s) {
    auto axes = [](uint64_t h, const AxisRefVector& list) {
      h = core_detail::mixWord(h, list.size());
      for (const AxisRef& a : list) {
        uint64_t first = a.name.empty() ? 0 : static_cast<uint8_t>(a.name[0]);
        h = core_detail::mixWord(h, a.name.size() << 8 | first);
        if (a.sub_axis_info) {
          h = core_detail::mixWord(
              h, static_cast<uint64_t>(a.sub_axis_info->pre_size) << 32 ^
                     static_cast<uint64_t>(a.sub_axis_info->size));
        }
      }
      return h;
    };
    uint64_t h =
        core_detail::mixWord(s.mesh.name().size(), s.dim_shardings.size());
    for (const DimensionSharding& d : s.dim_shardings) {
      h = core_detail::mixWord(
          axes(h, d.axes),
          static_cast<uint64_t>(d.priority.value_or(-1)) << 1 | d.is_closed);
    }
    h = axes(axes(h, s.replicated_axes), s.unreduced_axes);
    return core_detail::mixWord(h, static_cast<uint64_t>(s.unreduced_kind));
  }
  struct Eq {
    using is_transparent = void;
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      if (!sameRuleAndTypes(a, b) || a.shardings.size() != b.shardings.size()) {
        return false;
      }
      for (size_t i = 0; i < a.shardings.size(); ++i) {
        const TensorSharding* x = at(a, i);
        const TensorSharding* y = at(b, i);
        if ((x == nullptr) != (y == nullptr) || (x && !(*x == *y))) {
          return false;
        }
      }
      return true;
    }
  };

  absl::flat_hash_set<Visit, Hash, Eq> visits_;
  absl::flat_hash_set<AddressVisit, AddressHash, AddressEq> by_address_;
};

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_EXPORT_UNCHANGED_VISITS_H_
