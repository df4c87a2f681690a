// ValueList: a value type that is a list, e.g. AxisRefList or
// TensorShardingPerValue (an attribute's payload).
#ifndef SHARDKIT_CORE_VALUE_LIST_H_
#define SHARDKIT_CORE_VALUE_LIST_H_

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace shardkit {

// A list of `T`s that is a type of its own: `Tag` (any type, usually an
// incomplete struct) tells apart lists of the same elements, so that each
// has its own printing and attribute kind. It reads like its vector (size,
// `[]`, range-for, absl::Span) and compares and hashes by its elements;
// `items` is the vector itself (a `Container` of `T`s), for what changes the
// list.
template <typename T, typename Tag, typename Container = std::vector<T>>
struct ValueList {
  Container items;

  ValueList() = default;
  explicit ValueList(Container items) : items(std::move(items)) {}

  bool empty() const { return items.empty(); }
  size_t size() const { return items.size(); }
  const T* data() const { return items.data(); }
  auto begin() const { return items.begin(); }
  auto end() const { return items.end(); }
  const T& operator[](size_t i) const { return items[i]; }
  T& operator[](size_t i) { return items[i]; }
  // True if an element equals `value`.
  template <typename U>
  bool contains(const U& value) const {
    return std::find(items.begin(), items.end(), value) != items.end();
  }

  friend bool operator==(const ValueList&, const ValueList&) = default;
  template <typename H>
  friend H AbslHashValue(H h, const ValueList& list) {
    return H::combine(std::move(h), list.items);
  }
};

}  // namespace shardkit

#endif  // SHARDKIT_CORE_VALUE_LIST_H_
