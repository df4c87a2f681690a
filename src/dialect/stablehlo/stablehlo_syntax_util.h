// Internal: pieces shared by the StableHLO pretty syntaxes.
#ifndef SHARDKIT_SRC_DIALECT_STABLEHLO_STABLEHLO_SYNTAX_UTIL_H_
#define SHARDKIT_SRC_DIALECT_STABLEHLO_STABLEHLO_SYNTAX_UTIL_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/asm/op_syntax.h"
#include "src/asm/builtin_syntax.h"

namespace shardkit {
namespace hlo_syntax {

// `[1, 2]` (or `[]`) as an `array<i64: ...>` attribute.
absl::StatusOr<Attribute> parseI64List(OpReader& r);
// `[1, 2]` from an integer-list attribute; false if `attr` is not one.
bool printI64List(OpWriter& w, const Attribute& attr);
std::string i64ListText(const std::vector<int64_t>& values);
// Appends `[1, 2]` (or `[]`).
void appendI64List(std::string& out, absl::Span<const int64_t> values);
// The values of an `array<i64: ...>` attribute, read in place (what
// Attribute::i64ArrayValues copies); null for any other attribute.
const std::vector<int64_t>* i64ArrayOf(const Attribute& attr);

// `keyword = [1, 2]` into attribute `attr_name`.
absl::Status parseKeywordList(OpReader& r, std::string_view keyword,
                              std::string_view attr_name,
                              OperationState& state);

// A StableHLO enum written bare in pretty forms (`LT`), kept as the attribute
// `#stablehlo<kind VALUE>`.
absl::StatusOr<Attribute> parseEnum(OpReader& r, std::string_view kind);
// The bare VALUE of such an attribute; empty if `attr` is not one.
std::string_view enumValue(const Attribute& attr);

// `: t` or `: (ins) -> out` for ops whose operands and result may share a type.
absl::Status parseSameOrFunctional(OpReader& r, OperationState& state,
                                   size_t num_results = 1);
// (`: (ins) -> outs` is OpReader::parseTrailingFunctionalType.)

// `%a, %b, ` — operands each followed by a comma.
absl::Status parseOperandsWithTrailingComma(OpReader& r,
                                            std::vector<Value>& operands);

// `%a, %b attr-dict :`, the start of the forms whose types follow: reads the
// operands and attributes into `state` and returns where the types start.
absl::StatusOr<size_t> parseOperandsAndAttrsToColon(OpReader& r,
                                                    OperationState& state);

// The operand types an op's one result type implies.
using OperandTypesFn = std::vector<Type> (*)(Type result, size_t num_operands);
// `%a, %b attr-dict : t`: an op with one result of type `t` whose operands
// must have the types `operand_types` gives (after_all, tuple).
absl::StatusOr<Op> parseOpOfResultType(OpReader& r, OpName name,
                                       OperandTypesFn operand_types);

}  // namespace hlo_syntax

namespace ir_internal {
// The StableHLO forms of ops with a form of their own
// (stablehlo_syntax_special.cc) and of ops with regions
// (stablehlo_syntax_regions.cc).
void addStablehloSpecialSyntax(SyntaxTable& table);
void addStablehloRegionSyntax(SyntaxTable& table);
}  // namespace ir_internal

}  // namespace shardkit

#endif  // SHARDKIT_SRC_DIALECT_STABLEHLO_STABLEHLO_SYNTAX_UTIL_H_
