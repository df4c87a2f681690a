#include "shardkit/internal/large_array.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <utility>

namespace shardkit::core_detail {
namespace {

constexpr size_t kLargeCount = kHugePageBytes / sizeof(uint64_t) + 3;

bool onHugePageBoundary(const void* p) {
  return reinterpret_cast<uintptr_t>(p) % kHugePageBytes == 0;
}

TEST_CASE("allocateLargeArray takes only arrays of a huge page or more") {
  CHECK(allocateLargeArray(kHugePageBytes - 1) == nullptr);
  CHECK_FALSE(deallocateLargeArray(nullptr, kHugePageBytes - 1));
  void* p = allocateLargeArray(kHugePageBytes + 1);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  REQUIRE(p != nullptr);
  CHECK(onHugePageBoundary(p));
  // The whole rounded-up size is usable.
  static_cast<char*>(p)[2 * kHugePageBytes - 1] = 1;
  CHECK(deallocateLargeArray(p, kHugePageBytes + 1));
#else
  CHECK(p == nullptr);
#endif
}

TEST_CASE("LargeVector keeps its elements across the huge-page threshold") {
  LargeVector<uint64_t> v(10);
  std::iota(v.begin(), v.end(), uint64_t{0});
  // Growing past the threshold moves the elements to a large array.
  v.resize(kLargeCount);
  for (size_t i = 10; i < v.size(); ++i) v[i] = i;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  CHECK(onHugePageBoundary(v.data()));
#endif
  bool in_order = true;
  for (size_t i = 0; i < v.size(); ++i) in_order = in_order && v[i] == i;
  CHECK(in_order);
  // Copies and moves keep the elements; shrinking goes back below it.
  LargeVector<uint64_t> copy = v;
  CHECK(copy == v);
  LargeVector<uint64_t> moved = std::move(copy);
  CHECK(moved == v);
  moved.resize(5);
  moved.shrink_to_fit();
  CHECK(moved == LargeVector<uint64_t>{0, 1, 2, 3, 4});
  CHECK(LargeArrayAllocator<int>() == LargeArrayAllocator<uint64_t>());
}

TEST_CASE("LargeArrayAllocator refuses a count whose size overflows") {
  LargeArrayAllocator<uint64_t> allocator;
  CHECK_THROWS_AS(allocator.allocate(SIZE_MAX / 4), std::bad_array_new_length);
}

}  // namespace
}  // namespace shardkit::core_detail
