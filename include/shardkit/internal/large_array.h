// An allocator for arrays that grow to many megabytes and are read in no
// particular order: a module's op, value and operand tables, the propagation
// driver's tables indexed by value or op id.
//
// On Linux, an allocation of at least kHugePageBytes is a heap block
// (aligned_alloc) aligned to and rounded up to that size and marked for
// transparent huge pages (madvise MADV_HUGEPAGE): a walk over a large
// module's tables then misses the TLB far less often (docs/performance.md,
// "Why it is fast"). A freed block goes back to the heap like any other.
// Smaller arrays, and other systems, use operator new. Where the kernel
// gives no huge pages, the block is ordinary memory.
//
// Internal to shardkit's layers; not part of the public API.
#ifndef SHARDKIT_INTERNAL_LARGE_ARRAY_H_
#define SHARDKIT_INTERNAL_LARGE_ARRAY_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace shardkit::core_detail {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// `bytes` in a huge-page-aligned block marked for huge pages, or null if
// `bytes` is below kHugePageBytes or the system has no huge pages to ask
// for. Throws std::bad_alloc when the allocation fails, as operator new
// would.
inline void* allocateLargeArray(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes < kHugePageBytes) return nullptr;
  size_t rounded = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  void* p = std::aligned_alloc(kHugePageBytes, rounded);
  if (p == nullptr) throw std::bad_alloc();
  ::madvise(p, rounded, MADV_HUGEPAGE);
  return p;
#else
  (void)bytes;
  return nullptr;
#endif
}

// Releases `p` if allocateLargeArray(bytes) made it (returns true); false
// for an allocation of operator new.
inline bool deallocateLargeArray(void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes < kHugePageBytes) return false;
  std::free(p);
  return true;
#else
  (void)p;
  (void)bytes;
  return false;
#endif
}

template <typename T>
class LargeArrayAllocator {
 public:
  using value_type = T;

  LargeArrayAllocator() = default;
  template <typename U>
  LargeArrayAllocator(const LargeArrayAllocator<U>&) noexcept {}  // NOLINT

  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    if (void* p = allocateLargeArray(n * sizeof(T))) return static_cast<T*>(p);
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, size_t n) noexcept {
    if (!deallocateLargeArray(p, n * sizeof(T))) {
      std::allocator<T>().deallocate(p, n);
    }
  }

  template <typename U>
  friend bool operator==(const LargeArrayAllocator&,
                         const LargeArrayAllocator<U>&) {
    return true;
  }
};

// A std::vector whose storage comes from LargeArrayAllocator.
template <typename T>
using LargeVector = std::vector<T, LargeArrayAllocator<T>>;

}  // namespace shardkit::core_detail

#endif  // SHARDKIT_INTERNAL_LARGE_ARRAY_H_
