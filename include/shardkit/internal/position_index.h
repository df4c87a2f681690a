// PositionIndex: a hash index of positions in a caller's array (mesh axes by
// name, a module's meshes by name, sub-axes by their three integers), and
// TripleKey, the integer triple the core sorts by.
//
// Both exist so that the header-only core instantiates few containers and
// sorts: every translation unit that includes the core compiles what it
// instantiates (docs/performance.md, "Compiling the core"). The index is a
// plain open-addressing table of 64-bit slots, with the hashing and
// equality left to the caller.
#ifndef SHARDKIT_INTERNAL_POSITION_INDEX_H_
#define SHARDKIT_INTERNAL_POSITION_INDEX_H_

#include <compare>
#include <cstdint>
#include <string_view>
#include <vector>

namespace shardkit::core_detail {

// Three integers ordered lexicographically (one type, so that one std::sort
// is instantiated for every sort of integer tuples in the core).
struct TripleKey {
  int64_t first = 0;
  int64_t second = 0;
  int64_t third = 0;
  friend bool operator==(const TripleKey&, const TripleKey&) = default;
  friend auto operator<=>(const TripleKey&, const TripleKey&) = default;
};

// FNV-1a over the bytes of `s`.
inline uint64_t hashName(std::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (char c : s) {
    h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  }
  return h;
}

// A mix of the three integers of `key`.
inline uint64_t hashTriple(const TripleKey& key) {
  uint64_t h = static_cast<uint64_t>(key.first) * 0x9E3779B97F4A7C15ull;
  h = (h ^ static_cast<uint64_t>(key.second)) * 0xC2B2AE3D27D4EB4Full;
  h = (h ^ static_cast<uint64_t>(key.third)) * 0x165667B19E3779F9ull;
  return h ^ (h >> 29);
}

// A set of positions (0 to 2^31 - 2) in an array the caller owns, each
// stored with its hash. Lookups take the hash of what is sought and a
// predicate that tells whether a position holds it. At most half the slots
// are used, so a probe ends soon at an empty slot.
class PositionIndex {
 public:
  size_t size() const { return count_; }
  void clear() {
    slots_.clear();
    count_ = 0;
  }

  // The position added with hash `hash` for which `holds(position)` is
  // true, or -1.
  template <typename Holds>
  int32_t find(uint64_t hash, Holds holds) const {
    if (slots_.empty()) return -1;
    const uint32_t h = fold(hash);
    const size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      const uint64_t slot = slots_[i];
      if (slot == 0) return -1;
      const int32_t position = static_cast<int32_t>(slot & 0xFFFFFFFFu) - 1;
      if ((slot >> 32) == h && holds(position)) return position;
    }
  }

  // Adds `position` with hash `hash`. The caller adds no two positions that
  // hold the same thing (find() first).
  void add(int32_t position, uint64_t hash) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    place(fold(hash), position);
    ++count_;
  }

 private:
  static uint32_t fold(uint64_t hash) {
    return static_cast<uint32_t>(hash ^ (hash >> 32));
  }
  void place(uint32_t h, int32_t position) {
    const size_t mask = slots_.size() - 1;
    size_t i = h & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = (uint64_t{h} << 32) | static_cast<uint32_t>(position + 1);
  }
  // Doubles the table (at least 16 slots).
  void grow() {
    std::vector<uint64_t> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), 0);
    for (uint64_t slot : old) {
      if (slot == 0) continue;
      place(static_cast<uint32_t>(slot >> 32),
            static_cast<int32_t>(slot & 0xFFFFFFFFu) - 1);
    }
  }

  std::vector<uint64_t> slots_;  // 0: empty; else hash << 32 | position + 1
  size_t count_ = 0;
};

}  // namespace shardkit::core_detail

#endif  // SHARDKIT_INTERNAL_POSITION_INDEX_H_
