// The StableHLO dimension-number attributes of ops (kept as text) as plain
// structs (core/dimension_numbers.h), read and written by the text layer
// (text/stablehlo_attr_text.h).
#ifndef SHARDKIT_DIALECT_STABLEHLO_STABLEHLO_ATTRS_H_
#define SHARDKIT_DIALECT_STABLEHLO_STABLEHLO_ATTRS_H_

#include <optional>

#include "shardkit/core/dimension_numbers.h"
#include "shardkit/export.h"
#include "shardkit/ir/attribute.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// Each is nullopt unless `attr` is the attribute's text, well formed.
std::optional<DotDimensionNumbers> getDotDimensionNumbers(
    const Attribute& attr);
// The same without a copy, or null: valid until the next call on this
// thread (a printer of many dots reads each one's numbers once).
const DotDimensionNumbers* findDotDimensionNumbers(const Attribute& attr);
std::optional<GatherDimensionNumbers> getGatherDimensionNumbers(
    const Attribute& attr);
std::optional<ScatterDimensionNumbers> getScatterDimensionNumbers(
    const Attribute& attr);
std::optional<ConvDimensionNumbers> getConvDimensionNumbers(
    const Attribute& attr);

// `#stablehlo.dot<...>` (empty lists omitted, as StableHLO prints it).
Attribute toAttribute(const DotDimensionNumbers& dims);
// `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`.
Attribute toAttribute(const ConvDimensionNumbers& dims);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_STABLEHLO_STABLEHLO_ATTRS_H_
