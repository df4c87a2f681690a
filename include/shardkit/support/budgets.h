// Budgets: the limits on sizes derived from the input that code checks
// before allocating, so that a small input cannot ask for gigabytes (a
// 300-byte module can declare a mesh of 2^40 devices). Exceeding one is a
// located error naming the budget, never an allocation failure
// (docs/reliability.md, "Budgets").
#ifndef SHARDKIT_SUPPORT_BUDGETS_H_
#define SHARDKIT_SUPPORT_BUDGETS_H_

#include <cstdint>

namespace shardkit {

// Devices a computation enumerates one by one (a collective_permute's cost
// in --comm-report, a GSPMD tile assignment read onto a mesh): 2^20, 8 MB
// per list of ids. Code that needs only the mesh's shape never enumerates.
inline constexpr int64_t kDeviceBudget = int64_t{1} << 20;

// Ops that inlining one function may produce (the sum over its call sites
// of the callees' inlined sizes): a call DAG of a few kilobytes can
// describe an exponential number of ops.
inline constexpr int64_t kInlinedOpBudget = int64_t{1} << 24;

// The deepest nesting (of regions, attributes or types) the module reader
// reads; passes never build modules nested deeper, so that what they print
// reads back.
inline constexpr int kMaxNestingDepth = 400;

}  // namespace shardkit

#endif  // SHARDKIT_SUPPORT_BUDGETS_H_
