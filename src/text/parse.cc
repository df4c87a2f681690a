#include "shardkit/text/parse.h"

#include <cstring>
#include <utility>
#include <vector>

#include "shardkit/support/strings.h"
#include "shardkit/text/attr_parser.h"
#include "shardkit/text/parser_base.h"
#include "src/text/attr_fast_path.h"

namespace shardkit {
namespace {

// Runs `parse` on `text` after an optional `#sdy.<mnemonic>` prefix, and
// requires the whole text to be consumed.
// Skips `#sdy.<mnemonic>` if the text starts with a `#` name.
absl::Status skipMnemonic(ParserBase& p, std::string_view mnemonic) {
  if (mnemonic.empty() || !p.at(TokenKind::kHashIdent)) {
    return absl::OkStatus();
  }
  if (p.tok().spelling.substr(1) != mnemonic) {
    return p.withLineCol(p.errorExpected("'#" + std::string(mnemonic) + "'"));
  }
  p.advance();
  return absl::OkStatus();
}

template <typename T, typename Fn>
absl::StatusOr<T> parseWhole(std::string_view text, std::string_view mnemonic,
                             Fn&& parse) {
  ParserBase p(text);
  AttrParser attrs(p);
  absl::Status prefix = skipMnemonic(p, mnemonic);
  const bool prefix_ok = prefix.ok();
  // One result object, returned by every path (the value is not moved).
  absl::StatusOr<T> result =
      prefix_ok ? parse(attrs) : absl::StatusOr<T>(std::move(prefix));
  if (!prefix_ok) return result;
  if (!result.ok()) {
    result = p.withLineCol(result.status());
  } else if (!p.at(TokenKind::kEof)) {
    result = p.withLineCol(p.errorExpected("end of input"));
  } else if (p.hasExtraErrors()) {
    // An error the reference reports without stopping still fails the parse.
    ParserBase::ExtraError first = p.extraErrors().front();
    result = p.withLineCol(p.errorAt(first.offset, first.message));
  }
  return result;
}

// parseWhole with the AttrParser method `parse`.
template <typename T>
absl::StatusOr<T> parseWhole(std::string_view text, std::string_view mnemonic,
                             absl::StatusOr<T> (AttrParser::*parse)()) {
  return parseWhole<T>(text, mnemonic,
                       [parse](AttrParser& a) { return (a.*parse)(); });
}

// parseWhole for a text the fast path (attr_fast_path.h) may take whole: when
// it reads the attribute and only blanks follow, no token is made at all;
// otherwise the token parser reads the text again from its start. A short
// text is scanned in a NUL-terminated copy on the stack (the scan then need
// not check for the end): copying it costs less than the checks.
template <typename T>
absl::StatusOr<T> parseWholeFast(std::string_view text,
                                 std::string_view mnemonic,
                                 size_t (*fast)(std::string_view, size_t, T&,
                                                TextEnd),
                                 absl::StatusOr<T> (AttrParser::*parse)()) {
  constexpr size_t kCopied = 256;
  absl::StatusOr<T> result(absl::in_place);
  size_t end;
  if (text.size() < kCopied) {
    char copy[kCopied];
    std::memcpy(copy, text.data(), text.size());
    copy[text.size()] = '\0';
    end = fast(std::string_view(copy, text.size()), 0, *result, TextEnd::kNul);
  } else {
    end = fast(text, 0, *result, TextEnd::kUnknown);
  }
  if (end != std::string_view::npos &&
      text.find_first_not_of(" \t\n\r", end) == std::string_view::npos) {
    return result;
  }
  result = parseWhole(text, mnemonic, parse);
  return result;
}

}  // namespace

absl::StatusOr<Mesh> parseMesh(std::string_view text) {
  return parseWholeFast(text, "sdy.mesh", &fastParseMesh,
                        &AttrParser::parseMesh);
}

absl::StatusOr<AxisRef> parseAxisRef(std::string_view text) {
  return parseWhole(text, "", &AttrParser::parseAxisRef);
}

absl::StatusOr<AxisRefList> parseAxisRefList(std::string_view text) {
  return parseWhole<AxisRefList>(
      text, "", [](AttrParser& a) -> absl::StatusOr<AxisRefList> {
        absl::StatusOr<AxisRefVector> axes = a.parseAxisRefList();
        if (!axes.ok()) return axes.status();
        return AxisRefList(*std::move(axes));
      });
}

absl::StatusOr<DimensionSharding> parseDimensionSharding(
    std::string_view text) {
  return parseWhole(text, "", &AttrParser::parseDimensionSharding);
}

absl::StatusOr<TensorSharding> parseTensorSharding(std::string_view text) {
  return parseWholeFast(text, "sdy.sharding", &fastParseTensorSharding,
                        &AttrParser::parseTensorSharding);
}

absl::StatusOr<TensorShardingPerValue> parseTensorShardingPerValue(
    std::string_view text) {
  return parseWhole(text, "sdy.sharding_per_value",
                    &AttrParser::parseTensorShardingPerValue);
}

absl::StatusOr<OpShardingRule> parseOpShardingRule(std::string_view text) {
  return parseWhole(text, "sdy.op_sharding_rule",
                    &AttrParser::parseOpShardingRule);
}

absl::StatusOr<ManualAxes> parseManualAxes(std::string_view text) {
  return parseWhole(text, "", &AttrParser::parseManualAxes);
}

absl::StatusOr<ListOfAxisRefLists> parseListOfAxisRefLists(
    std::string_view text) {
  return parseWhole(text, "", &AttrParser::parseListOfAxisRefLists);
}

absl::StatusOr<AllToAllParamList> parseAllToAllParamList(
    std::string_view text) {
  return parseWhole(text, "", &AttrParser::parseAllToAllParamList);
}

absl::StatusOr<PropagationDirection> parsePropagationDirection(
    std::string_view text) {
  return parseWhole(text, "", &AttrParser::parsePropagationDirection);
}

absl::StatusOr<PropagationEdges> parsePropagationEdges(std::string_view text) {
  return parseWhole(text, "sdy.propagation_edges",
                    &AttrParser::parsePropagationEdges);
}

}  // namespace shardkit
