// Attribute: an immutable, cheaply copyable (shared) attribute value, and
// AttrDict, a dictionary of named attributes kept sorted by name as MLIR
// prints it.
//
// The sdy attributes are typed (TensorSharding, OpShardingRule, ...), as are
// MLIR's builtin attributes (integers, floats, strings, arrays, dense arrays,
// dictionaries, symbol references, types). Any other attribute — a dialect
// attribute such as `#stablehlo.dot<...>`, a dense elements literal — is
// kept as its (whitespace-normalized) text and printed back unchanged.
#ifndef SHARDKIT_IR_ATTRIBUTE_H_
#define SHARDKIT_IR_ATTRIBUTE_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "shardkit/core/collective_params.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/propagation_direction.h"
#include "shardkit/core/propagation_edges.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/internal/recent_entries.h"
#include "shardkit/ir/type.h"
#include "shardkit/support/non_copyable.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

enum class AttrKind {
  kNull,
  kUnit,
  kBool,
  kInteger,
  kFloat,
  kString,
  kSymbolRef,
  kArray,
  kDenseArray,  // array<i64: 1, 2>
  kDict,
  kType,
  kElements,  // dense<...> : tensor<...> (and other elements literals)
  kOpaque,    // any other attribute, as text
  kTensorSharding,
  kTensorShardingPerValue,
  kOpShardingRule,
  kMesh,
  kManualAxes,
  kAxisRefList,
  kListOfAxisRefLists,
  kAllToAllParamList,
  kPropagationDirection,
  kPropagationEdges,  // #sdy.propagation_edges<...>
};

class Attribute;
struct NamedAttribute;

// The typed sdy payloads, in the order of their kinds (AttrKind::
// kTensorSharding on): Attribute::of(payload) holds one, attr.as<T>() views
// it.
using SdyPayloads =
    std::tuple<TensorSharding, TensorShardingPerValue, OpShardingRule, Mesh,
               ManualAxes, AxisRefList, ListOfAxisRefLists, AllToAllParamList,
               PropagationDirection, PropagationEdges>;

namespace attr_detail {

// The index of `T` among `Ts`, or -1.
template <typename T, typename... Ts>
constexpr int indexOf(const std::tuple<Ts...>* /*types*/) {
  constexpr bool kSame[] = {std::is_same_v<T, Ts>...};
  for (int i = 0; i < static_cast<int>(sizeof...(Ts)); ++i) {
    if (kSame[i]) return i;
  }
  return -1;
}
template <typename T>
inline constexpr int kSdyPayloadIndex =
    indexOf<T>(static_cast<const SdyPayloads*>(nullptr));

}  // namespace attr_detail

template <typename T>
concept SdyPayload = attr_detail::kSdyPayloadIndex<T>
>= 0;

// The kind of the attributes that hold a `T`.
template <SdyPayload T>
inline constexpr AttrKind kSdyPayloadKind =
    static_cast<AttrKind>(static_cast<int>(AttrKind::kTensorSharding) +
                          attr_detail::kSdyPayloadIndex<T>);
static_assert(kSdyPayloadKind<PropagationEdges> == AttrKind::kPropagationEdges);

// An integer with its MLIR type's text (`i64` when written without one).
struct IntegerValue {
  int64_t value = 0;
  std::string type = "i64";
  friend bool operator==(const IntegerValue&, const IntegerValue&) = default;
};
// A float with its MLIR type's text (`f32`).
struct FloatValue {
  double value = 0;
  std::string type = "f64";
  friend bool operator==(const FloatValue&, const FloatValue&) = default;
};
// `array<i64: 1, 2>`; booleans (`array<i1: true>`) are stored as 0/1.
// An elements literal: its text up to the type (`dense<1.000000e+00>`) and its
// type.
struct ElementsValue {
  std::string literal;
  Type type;
  friend bool operator==(const ElementsValue&, const ElementsValue&) = default;
};
struct DenseArrayValue {
  std::string element_type;
  std::vector<int64_t> values;
  friend bool operator==(const DenseArrayValue&,
                         const DenseArrayValue&) = default;
};

class Attribute {
 public:
  Attribute() = default;  // the null attribute

  static Attribute unit();
  static Attribute boolean(bool value);
  static Attribute integer(int64_t value, std::string_view type = "i64");
  static Attribute floating(double value, std::string_view type = "f64");
  static Attribute string(std::string value);
  // `@name`; `name` is the text after '@' (may include `::@nested`).
  static Attribute symbolRef(std::string name);
  static Attribute array(std::vector<Attribute> elements);
  static Attribute denseArray(std::string element_type,
                              std::vector<int64_t> values);
  static Attribute i64Array(std::vector<int64_t> values) {
    return denseArray("i64", std::move(values));
  }
  static Attribute dict(std::vector<NamedAttribute> entries);
  static Attribute type(Type type);
  static Attribute elements(std::string literal, Type type);
  // Any other attribute, by its text.
  static Attribute opaque(std::string text);
  // An sdy attribute, of the kind of its payload (`Attribute::of(mesh)`).
  template <SdyPayload T>
  static Attribute of(T payload) {
    return make(kSdyPayloadKind<T>, std::move(payload));
  }

  AttrKind kind() const { return kind_; }
  explicit operator bool() const { return kind_ != AttrKind::kNull; }

  // Typed views; null when the attribute is of another kind.
  const bool* asBool() const { return get<bool>(AttrKind::kBool); }
  const IntegerValue* asInteger() const {
    return get<IntegerValue>(AttrKind::kInteger);
  }
  const FloatValue* asFloat() const {
    return get<FloatValue>(AttrKind::kFloat);
  }
  const std::string* asString() const {
    return get<std::string>(AttrKind::kString);
  }
  const std::string* asSymbolRef() const {
    return get<std::string>(AttrKind::kSymbolRef);
  }
  const std::vector<Attribute>* asArray() const {
    return get<std::vector<Attribute>>(AttrKind::kArray);
  }
  const DenseArrayValue* asDenseArray() const {
    return get<DenseArrayValue>(AttrKind::kDenseArray);
  }
  const std::vector<NamedAttribute>* asDict() const {
    return get<std::vector<NamedAttribute>>(AttrKind::kDict);
  }
  const Type* asType() const { return get<Type>(AttrKind::kType); }
  const ElementsValue* asElements() const {
    return get<ElementsValue>(AttrKind::kElements);
  }
  const std::string* asOpaque() const {
    return get<std::string>(AttrKind::kOpaque);
  }
  // The sdy payload of type `T` (`attr.as<Mesh>()`).
  template <SdyPayload T>
  const T* as() const {
    return get<T>(kSdyPayloadKind<T>);
  }

  // Copy-on-write access: the elements of an array attribute when this
  // handle is the only owner of its storage (so mutating cannot be observed
  // elsewhere); null otherwise.
  std::vector<Attribute>* mutableArrayIfUnique();

  // The integer value of an integer attribute, or of a bool.
  std::optional<int64_t> intValue() const;
  // The integers of a dense array or of an array of integers.
  std::optional<std::vector<int64_t>> intList() const;
  // The values of an `array<i64: ...>` only: what a pretty `[1, 2]` list
  // reads back as, so a printer prints such a list only from one.
  std::optional<std::vector<int64_t>> i64ArrayValues() const {
    const DenseArrayValue* d = asDenseArray();
    if (d == nullptr || d->element_type != "i64") return std::nullopt;
    return d->values;
  }

  // Same kind and equal payloads.
  friend bool operator==(const Attribute& a, const Attribute& b);
  // The address of the payload: handles copied from one another share it.
  // Equal payloads may still have different identities.
  const void* identity() const { return data_.get(); }

 private:
  template <typename T>
  const T* get(AttrKind kind) const {
    return kind_ == kind ? static_cast<const T*>(data_.get()) : nullptr;
  }
  template <typename T>
  static Attribute make(AttrKind kind, T value) {
    Attribute a;
    a.kind_ = kind;
    a.data_ = std::make_shared<const T>(std::move(value));
    return a;
  }

  AttrKind kind_ = AttrKind::kNull;
  std::shared_ptr<const void> data_;
};

// Whether `a` and `b` are the same attribute name. Most attribute names have
// 8 to 16 bytes: two overlapping words compare them without a call.
inline bool sameAttrName(std::string_view a, std::string_view b) {
  size_t n = a.size();
  if (n != b.size()) return false;
  if (n < 8 || n > 16) return std::memcmp(a.data(), b.data(), n) == 0;
  uint64_t a0, b0, a1, b1;
  std::memcpy(&a0, a.data(), 8);
  std::memcpy(&b0, b.data(), 8);
  std::memcpy(&a1, a.data() + n - 8, 8);
  std::memcpy(&b1, b.data() + n - 8, 8);
  return a0 == b0 && a1 == b1;
}

struct NamedAttribute {
  std::string name;
  Attribute value;

  friend bool operator==(const NamedAttribute&,
                         const NamedAttribute&) = default;
};

// A dictionary of attributes sorted by name. Copies share the entries
// until one of them changes (copy on write): a module's ops with equal
// attributes, as its reader makes them, hold one dictionary. The entries
// live in one block with their reference count, so reading an op's
// attribute costs one indirection, as a vector's would.
class AttrDict {
 public:
  AttrDict() = default;
  AttrDict(const AttrDict& other) : rep_(other.rep_) {
    if (rep_) rep_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  AttrDict(AttrDict&& other) noexcept : rep_(other.rep_) {
    other.rep_ = nullptr;
  }
  AttrDict& operator=(AttrDict other) noexcept {
    std::swap(rep_, other.rep_);
    return *this;
  }
  ~AttrDict() { release(rep_); }

  // The attribute called `name`, or the null attribute.
  Attribute get(std::string_view name) const {
    const Attribute* a = lookup(name);
    return a ? *a : Attribute();
  }
  // The stored attribute called `name`, or null: no copy of the handle.
  // Valid until this dictionary changes.
  const Attribute* lookup(std::string_view name) const {
    const NamedAttribute* e = findEntry(entries(), name);
    return e ? &e->value : nullptr;
  }
  // The stored attribute called `name` (for in-place updates), or null.
  Attribute* find(std::string_view name);
  bool contains(std::string_view name) const { return lookup(name) != nullptr; }
  // Adds or replaces.
  void set(std::string_view name, Attribute value);
  // Adds or replaces each of `entries` (a later entry of a name wins), in
  // O(n log n) however many there are: set() one by one would move the
  // entries after each insertion point.
  void setAll(std::vector<NamedAttribute> entries);
  // Removes; returns whether it was present.
  bool erase(std::string_view name);
  bool empty() const { return rep_ == nullptr; }
  size_t size() const { return rep_ ? rep_->size : 0; }
  absl::Span<const NamedAttribute> entries() const {
    if (rep_ == nullptr) return {};
    return absl::Span<const NamedAttribute>(rep_->data(), rep_->size);
  }
  const NamedAttribute* begin() const { return entries().begin(); }
  const NamedAttribute* end() const { return entries().end(); }
  // True if this dictionary and `other` share their entries.
  bool sharesWith(const AttrDict& other) const { return rep_ == other.rep_; }
  // True if another dictionary shares these entries (a change would copy
  // them first).
  bool isShared() const {
    return rep_ != nullptr && rep_->refs.load(std::memory_order_acquire) > 1;
  }

  friend bool operator==(const AttrDict& a, const AttrDict& b) {
    return a.rep_ == b.rep_ ||
           std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  // The reference count and size, then the entries.
  struct alignas(NamedAttribute) Rep {
    std::atomic<uint32_t> refs;
    uint32_t size;
    NamedAttribute* data() {
      return reinterpret_cast<NamedAttribute*>(this + 1);
    }
    const NamedAttribute* data() const {
      return reinterpret_cast<const NamedAttribute*>(this + 1);
    }
  };
  // A block holding `entries` (sorted, unique), or null when it is empty.
  static Rep* create(std::vector<NamedAttribute>&& entries);
  // A block of `size` entries (size > 0) whose entries are not constructed
  // yet: the caller constructs each of them in place.
  static Rep* allocate(size_t size);
  // Whether this dictionary holds entries no other dictionary shares (it may
  // then move them instead of copying).
  bool ownsEntries() const {
    return rep_ != nullptr && rep_->refs.load(std::memory_order_acquire) == 1;
  }
  // Makes this dictionary's entries its own, copying them if it shares them.
  void unshare();
  static void release(Rep* rep);
  // Replaces the entries with `entries` (sorted, unique).
  void reset(std::vector<NamedAttribute>&& entries);

  // The entry called `name` in `entries` (sorted by name), or null. Most
  // dictionaries hold a few entries whose names differ in length, so a scan
  // that compares lengths first beats a binary search.
  static const NamedAttribute* findEntry(
      absl::Span<const NamedAttribute> entries, std::string_view name) {
    constexpr size_t kLinearScanLimit = 8;
    if (entries.size() <= kLinearScanLimit) {
      for (const NamedAttribute& e : entries) {
        if (sameAttrName(e.name, name)) {
          return &e;
        }
      }
      return nullptr;
    }
    auto it = std::lower_bound(entries.begin(), entries.end(), name,
                               [](const NamedAttribute& e, std::string_view n) {
                                 return std::string_view(e.name) < n;
                               });
    if (it != entries.end() && it->name == name) return &*it;
    return nullptr;
  }

  Rep* rep_ = nullptr;
};

// The null attribute, for accessors that return a reference to a stored one.
inline const Attribute kNullAttribute;

// MLIR's text of an attribute. `elide_i64` drops the ` : i64` of integers and
// ` : f64` of floats, as MLIR does inside arrays.
std::string toString(const Attribute& attr, bool elide_i64 = false);
void appendAttribute(std::string& out, const Attribute& attr,
                     bool elide_i64 = false);
// `{a = 1 : i64, b}` (empty string for an empty dictionary when
// `omit_empty`).
void appendAttrDict(std::string& out, absl::Span<const NamedAttribute> entries);
void appendAttrDict(std::string& out,
                    absl::Span<const NamedAttribute* const> entries);
// While one is alive, appendAttribute on this thread remembers the text of
// the sdy attributes it prints (shardings, rules) by identity and reuses it:
// a module shares one attribute among the many values with equal shardings.
// An op writer likewise remembers the text of an op's attribute dictionaries
// (ops share dictionaries too). The memo holds every attribute and
// dictionary it remembers, so an identity is never reused for another one
// while the scope lives. Scopes nest.
class ScopedAttrTextMemo : public NonCopyable {
 public:
  ScopedAttrTextMemo();
  ~ScopedAttrTextMemo();

  // The remembered text of `attr`, computed by `print` the first time.
  template <typename PrintFn>
  const std::string& text(const Attribute& attr, PrintFn print) {
    auto [it, inserted] = texts_.try_emplace(attr.identity());
    if (inserted) it->second = {attr, print()};
    return it->second.second;
  }
  // The remembered text of the entries of `first` and `second` but those
  // named in `elided`, computed by `print` the first time.
  template <typename PrintFn>
  const std::string& dictText(const AttrDict& first, const AttrDict& second,
                              absl::Span<const std::string_view> elided,
                              PrintFn print) {
    // The recent texts first: the map's hash reads every elided name.
    DictKeyView view{first.begin(), second.begin(), elided};
    const DictTexts::value_type*& recent = recent_dicts_.slot(
        reinterpret_cast<uintptr_t>(view.first) * 31 +
        reinterpret_cast<uintptr_t>(view.second) + elided.size());
    if (recent != nullptr && DictKeyEq()(recent->first, view)) {
      return recent->second.text;
    }
    auto it = dict_texts_.find(view);
    if (it == dict_texts_.end()) {
      DictKey key{first.begin(), second.begin(),
                  std::vector<std::string>(elided.begin(), elided.end())};
      it = dict_texts_
               .try_emplace(std::move(key), DictText{first, second, print()})
               .first;
    }
    recent = &*it;
    return it->second.text;
  }
  static ScopedAttrTextMemo* active();

 private:
  // Dictionaries by their entries' address, and the names left out.
  struct DictKey {
    const NamedAttribute* first;
    const NamedAttribute* second;
    std::vector<std::string> elided;
  };
  struct DictKeyView {
    const NamedAttribute* first;
    const NamedAttribute* second;
    absl::Span<const std::string_view> elided;
  };
  struct DictText {
    AttrDict first, second;  // kept alive
    std::string text;
  };
  struct DictKeyHash {
    using is_transparent = void;
    template <typename K>
    size_t operator()(const K& k) const {
      size_t h = absl::HashOf(k.first, k.second, k.elided.size());
      for (std::string_view name : k.elided) {
        h = absl::HashOf(h, absl::string_view(name.data(), name.size()));
      }
      return h;
    }
  };
  struct DictKeyEq {
    using is_transparent = void;
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return a.first == b.first && a.second == b.second &&
             std::equal(
                 a.elided.begin(), a.elided.end(), b.elided.begin(),
                 b.elided.end(),
                 [](std::string_view x, std::string_view y) { return x == y; });
    }
  };

  using DictTexts =
      absl::node_hash_map<DictKey, DictText, DictKeyHash, DictKeyEq>;

  ScopedAttrTextMemo* outer_;
  absl::flat_hash_map<const void*, std::pair<Attribute, std::string>> texts_;
  DictTexts dict_texts_;
  core_detail::RecentEntries<DictTexts::value_type> recent_dicts_;
};

// MLIR's float text: `1.000000e-03` when 6 digits round-trip, else the
// shortest exact form.
std::string formatFloat(double value, std::string_view type);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_ATTRIBUTE_H_
