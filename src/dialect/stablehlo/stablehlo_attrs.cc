#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"

#include <array>
#include <string>

#include "shardkit/text/stablehlo_attr_text.h"

namespace shardkit {
namespace {

// `parse` of the attribute's text, or nullopt when it has none.
template <typename Parse>
auto parseOpaque(const Attribute& attr, Parse parse)
    -> decltype(parse(std::string_view())) {
  const std::string* text = attr.asOpaque();
  if (!text) return std::nullopt;
  return parse(*text);
}

}  // namespace

const DotDimensionNumbers* findDotDimensionNumbers(const Attribute& attr) {
  // A module shares one attribute among its dots with equal dimension
  // numbers (the reader interns them): remember the last few, holding the
  // attributes so that their identities cannot be reused meanwhile.
  struct Entry {
    Attribute attr;
    std::optional<DotDimensionNumbers> dims;
  };
  thread_local std::array<Entry, 4> recent;
  thread_local size_t next = 0;
  if (attr.identity() != nullptr) {
    for (const Entry& e : recent) {
      if (e.attr.identity() == attr.identity()) {
        return e.dims ? &*e.dims : nullptr;
      }
    }
  }
  Entry& entry = recent[next];
  next = (next + 1) % recent.size();
  // An attribute without identity (null) is parsed into the entry too, and
  // never found there again.
  entry = Entry{attr.identity() != nullptr ? attr : Attribute(),
                parseOpaque(attr, parseDotDimensionNumbersAttr)};
  return entry.dims ? &*entry.dims : nullptr;
}

std::optional<DotDimensionNumbers> getDotDimensionNumbers(
    const Attribute& attr) {
  const DotDimensionNumbers* dims = findDotDimensionNumbers(attr);
  return dims ? std::optional<DotDimensionNumbers>(*dims) : std::nullopt;
}

std::optional<GatherDimensionNumbers> getGatherDimensionNumbers(
    const Attribute& attr) {
  return parseOpaque(attr, parseGatherDimensionNumbersAttr);
}

std::optional<ScatterDimensionNumbers> getScatterDimensionNumbers(
    const Attribute& attr) {
  return parseOpaque(attr, parseScatterDimensionNumbersAttr);
}

std::optional<ConvDimensionNumbers> getConvDimensionNumbers(
    const Attribute& attr) {
  return parseOpaque(attr, parseConvDimensionNumbersAttr);
}

Attribute toAttribute(const DotDimensionNumbers& dims) {
  return Attribute::opaque(printDotDimensionNumbersAttr(dims));
}

Attribute toAttribute(const ConvDimensionNumbers& dims) {
  return Attribute::opaque(printConvDimensionNumbersAttr(dims));
}

}  // namespace shardkit
