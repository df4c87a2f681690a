// The module reader's caches: a large module repeats the same dialect
// attributes, attribute dictionaries and op signatures thousands of times, so
// each distinct text is read once and what it read is shared (attributes are
// immutable). A text is found by the one scanner (text/scanner.h);
// whatever that scan cannot delimit is read uncached, so errors are the
// parser's own.
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string_view>
#include <vector>

#include "shardkit/internal/mix_word.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/text/scanner.h"
#include "src/asm/module_reader.h"

namespace shardkit {
namespace {

constexpr size_t npos = std::string_view::npos;

// Where the bracketed text at `open_at` ends, or npos, also when it is longer
// than any text worth remembering (a function's dictionary holding the
// attributes of its thousands of arguments): such a text would be scanned
// and hashed whole only to be read once.
size_t balancedEnd(std::string_view text, size_t open_at) {
  constexpr size_t kMaxCachedText = 8192;
  return scanBrackets(text.substr(0, open_at + kMaxCachedText), open_at).end;
}

size_t skipSpaces(std::string_view text, size_t i) {
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' ||
                             text[i] == '\n' || text[i] == '\r')) {
    ++i;
  }
  return i;
}

// Where a tail goes among the recent tails (modulo their count): its op
// name, its size and three of its words, not its whole text.
size_t tailSlot(const OpNameEntry* name, std::string_view text) {
  uint64_t x =
      core_detail::mixWord(reinterpret_cast<uintptr_t>(name), text.size());
  if (text.size() >= 8) {
    for (size_t at : {size_t{0}, (text.size() - 8) / 2, text.size() - 8}) {
      uint64_t word;
      std::memcpy(&word, text.data() + at, sizeof(word));
      x = core_detail::mixWord(x, word);
    }
  }
  return static_cast<size_t>(x >> 40);
}

}  // namespace

const ModuleReader::OpTail* ModuleReader::findTail(const OpNameEntry* name,
                                                   std::string_view text) {
  RecentTail& recent =
      recent_tails_[tailSlot(name, text) % std::size(recent_tails_)];
  if (recent.tail != nullptr && recent.name == name && recent.text == text) {
    return recent.tail;
  }
  auto it = tail_cache_.find(TailKey(name, toAbsl(text)));
  if (it == tail_cache_.end()) return nullptr;
  recent = {name, text, &it->second};
  return &it->second;
}

bool ModuleReader::consumedThrough(size_t end) const {
  size_t next = parser_.tok().offset;
  return next >= end && skipSpaces(parser_.buffer(), end) == next;
}

template <typename T, typename Parse>
absl::StatusOr<T> ModuleReader::readCached(
    absl::flat_hash_map<std::string_view, T, TextHash>& cache, size_t start,
    size_t end, const Parse& parse) {
  if (end == npos) return parse();
  std::string_view key = parser_.buffer().substr(start, end - start);
  if (auto it = cache.find(key); it != cache.end()) {
    p().resetTo(end);
    return it->second;
  }
  SK_ASSIGN_OR_RETURN(T value, parse());
  if (consumedThrough(end)) cache.emplace(key, value);
  return value;
}

absl::StatusOr<Attribute> ModuleReader::parseDialectAttr() {
  Token token = p().tok();
  size_t name_end = token.offset + token.spelling.size();
  std::string_view buffer = parser_.buffer();
  size_t end = name_end < buffer.size() && buffer[name_end] == '<'
                   ? balancedEnd(buffer, name_end)
                   : npos;
  return readCached(dialect_attr_cache_, token.offset, end,
                    [&] { return parseDialectAttrUncached(); });
}

absl::StatusOr<std::vector<NamedAttribute>> ModuleReader::parseDictEntries() {
  size_t start = p().tok().offset;
  size_t end =
      p().at(TokenKind::kLBrace) ? balancedEnd(parser_.buffer(), start) : npos;
  return readCached(dict_cache_, start, end,
                    [&] { return parseDictEntriesUncached(); });
}

const ModuleReader::RecentDictAttr* ModuleReader::recentDictAttrAt(
    size_t start) const {
  // A text that starts with a whole dictionary read before is that
  // dictionary (the scan that delimits it would end at the same brace).
  std::string_view rest = parser_.buffer().substr(start);
  for (const RecentDictAttr& recent : recent_dict_attrs_) {
    if (!recent.text.empty() && rest.size() >= recent.text.size() &&
        std::memcmp(rest.data(), recent.text.data(), recent.text.size()) == 0) {
      return &recent;
    }
  }
  return nullptr;
}

absl::StatusOr<Attribute> ModuleReader::parseDictAttr() {
  size_t start = p().tok().offset;
  std::string_view rest = parser_.buffer().substr(start);
  if (const RecentDictAttr* recent = recentDictAttrAt(start)) {
    p().resetTo(start + recent->text.size());
    return recent->value;
  }
  size_t end = balancedEnd(parser_.buffer(), start);
  SK_ASSIGN_OR_RETURN(Attribute dict,
                      readCached(dict_attr_cache_, start, end,
                                 [&]() -> absl::StatusOr<Attribute> {
                                   SK_ASSIGN_OR_RETURN(
                                       std::vector<NamedAttribute> entries,
                                       parseDictEntriesUncached());
                                   return Attribute::dict(std::move(entries));
                                 }));
  if (end != npos && consumedThrough(end)) {
    recent_dict_attrs_[next_recent_dict_attr_++ %
                       std::size(recent_dict_attrs_)] = {
        rest.substr(0, end - start), dict};
  }
  return dict;
}

absl::Status ModuleReader::parseGenericOpTailUncached(
    OperationState& state, std::vector<NamedAttribute>& attrs,
    std::vector<Type>& operand_types, size_t& types_offset) {
  if (p().at(TokenKind::kLBrace)) {
    SK_ASSIGN_OR_RETURN(attrs, parseDictEntries());
    SK_RETURN_IF_ERROR(addAttributes(state, attrs, p().tok().offset));
  }
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kColon, "':'"));
  types_offset = p().tok().offset;
  return parseFunctionalType(operand_types, state.result_types);
}

// A generic op's tail is usually the rest of its line, and the same text
// (e.g. `{attrs} : (tensor<8xf32>) -> tensor<8xf32>`) recurs across the
// module: the op's name and the line are the cache key, used when the tail
// reads exactly the line.
absl::Status ModuleReader::parseGenericOpTail(OperationState& state) {
  std::string_view buffer = parser_.buffer();
  size_t start = p().tok().offset;
  size_t end = lineEnd(buffer, start);
  std::string_view text = buffer.substr(start, end - start);
  // Properties may have given attributes already.
  bool fresh = state.inherent_attrs.empty() && state.discardable_attrs.empty();
  std::vector<Type> operand_types;
  size_t types_offset = 0;
  if (const OpTail* cached = findTail(state.name.entry(), text)) {
    const OpTail& tail = *cached;
    if (fresh) {
      state.inherent_attrs = tail.inherent;
      state.discardable_attrs = tail.discardable;
    } else {
      // A cached attribute may repeat a property: an error where the
      // dictionary ends, as when read.
      SK_RETURN_IF_ERROR(
          addAttributes(state, tail.attrs, start + tail.colon_at));
    }
    operand_types = tail.operand_types;
    state.result_types = tail.result_types;
    types_offset = start + tail.types_at;
    p().resetTo(end);
  } else {
    std::vector<NamedAttribute> attrs;
    SK_RETURN_IF_ERROR(
        parseGenericOpTailUncached(state, attrs, operand_types, types_offset));
    if (consumedThrough(end)) {
      size_t colon = buffer.rfind(':', types_offset);
      OpTail tail{{},
                  {},
                  {},
                  operand_types,
                  state.result_types,
                  colon - start,
                  types_offset - start};
      std::vector<NamedAttribute> inherent, discardable;
      for (const NamedAttribute& e : attrs) {
        (state.name.isInherentAttr(e.name) ? inherent : discardable)
            .push_back(e);
      }
      tail.inherent.setAll(std::move(inherent));
      tail.discardable.setAll(std::move(discardable));
      // This op shares the dictionaries with the ops that repeat the tail.
      if (fresh) {
        state.inherent_attrs = tail.inherent;
        state.discardable_attrs = tail.discardable;
      }
      tail.attrs = std::move(attrs);
      tail_cache_.emplace(TailKey(state.name.entry(), toAbsl(text)),
                          std::move(tail));
    }
  }
  return checkOperandTypes(state.operands, operand_types, types_offset);
}

size_t ModuleReader::lineEnd(std::string_view buffer, size_t start) {
  size_t end = buffer.find('\n', start);
  if (end == npos) end = buffer.size();
  while (end > start && (buffer[end - 1] == ' ' || buffer[end - 1] == '\r')) {
    --end;
  }
  return end;
}

}  // namespace shardkit
