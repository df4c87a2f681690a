// mixWord: one step of a hash computed in place over a few words, for the
// caches that hash an op, a step or a text without building a key.
#ifndef SHARDKIT_INTERNAL_MIX_WORD_H_
#define SHARDKIT_INTERNAL_MIX_WORD_H_

#include <cstdint>

namespace shardkit::core_detail {

// 2^64 over the golden ratio, odd: the multiplier of mixWord and of the
// tables that take the top bits of a product for a slot.
inline constexpr uint64_t kGoldenRatio64 = 0x9E3779B97F4A7C15u;

// `h` with `v` mixed in: a multiply by an odd constant (2^64 over the golden
// ratio) carries every bit of both towards the high bits, and the shifted
// `h` keeps its high bits reaching the low ones. Callers finish with
// absl::HashOf, or take the high bits.
constexpr uint64_t mixWord(uint64_t h, uint64_t v) {
  return (h ^ v) * kGoldenRatio64 + (h >> 29);
}

}  // namespace shardkit::core_detail

#endif  // SHARDKIT_INTERNAL_MIX_WORD_H_
