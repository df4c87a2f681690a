// Status propagation helpers in the style of Abseil's internal macros.
#ifndef SHARDKIT_SUPPORT_STATUS_MACROS_H_
#define SHARDKIT_SUPPORT_STATUS_MACROS_H_

#include "absl/status/status.h"

#define SHARDKIT_CONCAT_INNER_(a, b) a##b
#define SHARDKIT_CONCAT_(a, b) SHARDKIT_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` is not OK.
#define SK_RETURN_IF_ERROR(expr)                              \
  do {                                                        \
    if (absl::Status sk_status_ = (expr); !sk_status_.ok()) { \
      return sk_status_;                                      \
    }                                                         \
  } while (false)

// `SK_ASSIGN_OR_RETURN(T x, StatusOrExpr)`: declares/assigns `x` from the
// value of a StatusOr, or returns its status.
#define SK_ASSIGN_OR_RETURN(lhs, expr) \
  SK_ASSIGN_OR_RETURN_IMPL_(SHARDKIT_CONCAT_(sk_statusor_, __LINE__), lhs, expr)
// `tmp` is an identifier and `lhs` a declaration: neither can be
// parenthesized.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define SK_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)

#endif  // SHARDKIT_SUPPORT_STATUS_MACROS_H_
