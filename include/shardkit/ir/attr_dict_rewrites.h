// Rewriting the attribute dictionaries of many ops so that ops sharing a
// dictionary still share it afterwards.
#ifndef SHARDKIT_IR_ATTR_DICT_REWRITES_H_
#define SHARDKIT_IR_ATTR_DICT_REWRITES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "absl/container/node_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"
#include "shardkit/export.h"
#include "shardkit/internal/recent_entries.h"
#include "shardkit/ir/attribute.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The reader gives ops with equal attributes one dictionary (AttrDict is
// copy on write). A pass that changed each op's dictionary on its own would
// copy the shared entries once per op. With this memo a shared dictionary
// is rewritten once per distinct rewrite and every op that held it gets the
// one result; a dictionary no other op holds is rewritten in place. Empty
// dictionaries count as one shared dictionary: ops without attributes that
// get the same attribute share the result too.
//
// A rewrite is named by `(what, name)`: the caller guarantees that equal
// names mean equal rewrites, and that a rewrite depends on nothing but the
// dictionary's entries (`what` is typically the identity of the attribute
// it stores under `name`, which the result then keeps alive). The memo keeps
// each input alive, so a remembered address is never reused.
class AttrDictRewrites {
 public:
  // Gives `dict` the remembered result of the rewrite `(what, name)` of its
  // entries and returns true, if there is one; returns false otherwise. For
  // a caller whose rewrite costs something to prepare.
  bool reuse(AttrDict& dict, const void* what, std::string_view name) {
    if (!dict.empty() && !dict.isShared()) return false;
    const AttrDict* result = find(KeyView{dict.begin(), what, name});
    if (result == nullptr) return false;
    dict = *result;
    return true;
  }
  // Applies `rewrite(AttrDict&)` to `dict`, or gives `dict` the result of
  // the same rewrite of the same entries.
  template <typename Rewrite>
  void apply(AttrDict& dict, const void* what, std::string_view name,
             const Rewrite& rewrite) {
    if (!dict.empty() && !dict.isShared()) {
      rewrite(dict);
      return;
    }
    // Looked up by a view first: most rewrites repeat, and a hit then
    // copies no name.
    if (const AttrDict* result = find(KeyView{dict.begin(), what, name})) {
      dict = *result;
      return;
    }
    auto it =
        done_.try_emplace(Key{dict.begin(), what, std::string(name)}).first;
    it->second.first = dict;
    rewrite(dict);
    it->second.second = dict;
  }

 private:
  struct Key {
    const NamedAttribute* entries;
    const void* what;
    std::string name;
  };
  // A key to look up with, without copying the name.
  struct KeyView {
    const NamedAttribute* entries;
    const void* what;
    std::string_view name;
  };
  static KeyView view(const Key& k) { return {k.entries, k.what, k.name}; }
  static KeyView view(const KeyView& k) { return k; }
  struct Hash {
    using is_transparent = void;
    template <typename K>
    size_t operator()(const K& k) const {
      KeyView v = view(k);
      return absl::HashOf(v.entries, v.what,
                          absl::string_view(v.name.data(), v.name.size()));
    }
  };
  struct Eq {
    using is_transparent = void;
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      KeyView x = view(a), y = view(b);
      return x.entries == y.entries && x.what == y.what && x.name == y.name;
    }
  };
  // The input, kept alive, and the result, by the rewrite.
  using Done =
      absl::node_hash_map<Key, std::pair<AttrDict, AttrDict>, Hash, Eq>;
  // The result remembered for `key`, or null: from its slot of the recent
  // rewrites (internal/recent_entries.h), else from the map.
  const AttrDict* find(const KeyView& key) {
    const Done::value_type*& recent =
        recent_.slot(reinterpret_cast<uintptr_t>(key.entries) ^
                     reinterpret_cast<uintptr_t>(key.what) ^ key.name.size());
    if (recent != nullptr && Eq()(recent->first, key)) {
      return &recent->second.second;
    }
    auto it = done_.find(key);
    if (it == done_.end()) return nullptr;
    recent = &*it;
    return &it->second.second;
  }

  Done done_;
  core_detail::RecentEntries<Done::value_type> recent_;
};

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_ATTR_DICT_REWRITES_H_
