// Internal to the ir layer: the StableHLO op table (stablehlo_ops.cc), which
// the StableHLO syntax (stablehlo_syntax.cc) reads for the pretty forms that
// families of ops share.
#ifndef SHARDKIT_SRC_DIALECT_STABLEHLO_STABLEHLO_OPS_TABLE_H_
#define SHARDKIT_SRC_DIALECT_STABLEHLO_STABLEHLO_OPS_TABLE_H_

#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "absl/types/span.h"
#include "shardkit/ir/op_name.h"
#include "shardkit/ir/op_signature.h"

namespace shardkit::ir_internal {

// The pretty forms families of StableHLO ops share.
enum class HloForm : uint8_t {
  // Generic form, or a form of the op's own that a syntax file registers.
  kNone,
  kElementwise,      // `%a, %b attr-dict : t` (or a functional type)
  kFunctional,       // `operands attr-dict : (ins) -> outs`
  kKeywordList,      // `%x, dims = [...] attr-dict : types`
  kKeywordInt,       // `%x, dim = N attr-dict : types`
  kNullary,          // `attr-dict : t`
  kLast = kNullary,  // for enum tables (support/enum_table.h)
};

struct StablehloOpRow {
  std::string_view name;
  OpSignature signature;
  std::initializer_list<std::string_view> inherent;
  OpTraits traits;
  HloForm form = HloForm::kNone;
};

// Every StableHLO op kind shardkit registers.
absl::Span<const StablehloOpRow> stablehloOpTable();

}  // namespace shardkit::ir_internal

#endif  // SHARDKIT_SRC_DIALECT_STABLEHLO_STABLEHLO_OPS_TABLE_H_
