// The errors of the GSPMD passes at a function argument or result: at the
// function, naming the value ("argument 0: GSPMD: ...").
//
// Internal to the passes layer.
#ifndef SHARDKIT_SRC_PASSES_GSPMD_ERRORS_H_
#define SHARDKIT_SRC_PASSES_GSPMD_ERRORS_H_

#include <string_view>

#include "absl/status/status.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/strings.h"

namespace shardkit::passes_internal {

inline absl::Status functionValueError(Op func, const absl::Status& status,
                                       std::string_view what, unsigned index) {
  return locatedError(
      func, strCat(what, " ", index, ": ", fromAbsl(status.message())));
}

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_GSPMD_ERRORS_H_
