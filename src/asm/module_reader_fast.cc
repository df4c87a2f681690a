// The module reader's fast path: a generic op in the spelling MLIR prints
// (`%0 = "dialect.op"(%a, %b#1) {attrs} : (types) -> types`, one per line,
// no properties) read straight from the characters, its tail from the tail
// cache. Of an op with regions (`... (%a) ({`) only the head is: the token
// parser reads the rest, from the `(` on, as for any generic op. Anything else
// — another spelling, a tail not yet cached, a name that does not resolve, an
// operand type that differs — is left to the token parser, which reads the op
// from its start and reports any error, so the fast path has no error messages
// of its own and changes nothing until it knows the op is good.
#include <cstring>
#include <iterator>
#include <string_view>

#include "absl/container/inlined_vector.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/text/char_classes.h"
#include "src/asm/module_reader.h"

namespace shardkit {
namespace {

// A cursor over the text that reads the few tokens of the common spelling.
// The reader's text is followed by a NUL (parseModuleInPlace's contract),
// which no token below accepts: the loops stop there without comparing the
// position with the size, and the position never passes the NUL.
class Cursor {
 public:
  Cursor(std::string_view text, size_t pos)
      : text_(text), chars_(text.data()), pos_(pos) {}

  size_t pos() const { return pos_; }
  bool at(char c) const { return chars_[pos_] == c; }
  bool consume(char c) {
    if (!at(c)) return false;
    ++pos_;
    return true;
  }
  // Spaces and tabs (an op of this spelling is on one line).
  void skipBlanks() {
    while (chars_[pos_] == ' ' || chars_[pos_] == '\t') ++pos_;
  }
  // `%name` (with its '%'), or empty.
  std::string_view valueName() {
    size_t start = pos_;
    if (!consume('%')) return {};
    while (isSuffixIdChar(chars_[pos_])) ++pos_;
    if (pos_ == start + 1) {
      pos_ = start;
      return {};
    }
    return text_.substr(start, pos_ - start);
  }
  // A decimal number of at most 6 digits (result counts and indices), or -1.
  int64_t smallNumber() {
    size_t start = pos_;
    int64_t n = 0;
    while (isDigitChar(chars_[pos_]) && pos_ - start < 6) {
      n = n * 10 + (chars_[pos_++] - '0');
    }
    if (pos_ == start || isDigitChar(chars_[pos_])) return -1;
    return n;
  }
  // A type's text on this line: a name (`f32`, `tensor`, `!a.b`) and, if a
  // `<` follows, through its matching `>` when only these brackets and no
  // quotes, parentheses or braces come before it; empty otherwise.
  std::string_view typeText() {
    size_t start = pos_;
    consume('!');
    while (isSuffixIdChar(chars_[pos_])) ++pos_;
    if (pos_ == start) return {};
    if (at('<')) {
      int depth = 0;
      for (;; ++pos_) {
        char c = chars_[pos_];
        if (c == '<') {
          ++depth;
        } else if (c == '>') {
          if (--depth == 0) break;
        } else if (c == '"' || c == '\n' || c == '(' || c == '{' || c == '[' ||
                   c == '-' || c == '\0') {
          pos_ = start;
          return {};
        }
      }
      ++pos_;  // '>'
    }
    return text_.substr(start, pos_ - start);
  }
  // The body of a quoted string without escapes on this line, or nullopt.
  std::optional<std::string_view> plainString() {
    if (!consume('"')) return std::nullopt;
    size_t start = pos_;
    while (!isStringEndChar(chars_[pos_])) ++pos_;
    if (chars_[pos_] != '"') return std::nullopt;
    return text_.substr(start, pos_++ - start);
  }

 private:
  std::string_view text_;
  const char* chars_;  // text_.data(): its NUL may be read
  size_t pos_;
};

// `(item, ...)` or `[item, ...]` at `open`, spaces and tabs allowed around
// the items, each read by `item(pos)`: the item's end, npos to decline the
// list, or an error. One past the closing bracket, npos (anything else,
// such as a line break or a comment, declines), or the item's error.
template <typename ReadItem>
absl::StatusOr<size_t> readListFast(std::string_view text, size_t open,
                                    char open_char, char close_char,
                                    const ReadItem& item) {
  constexpr size_t kNone = std::string_view::npos;
  Cursor c(text, open);
  if (!c.consume(open_char)) return kNone;
  c.skipBlanks();
  if (c.consume(close_char)) return c.pos();
  do {
    c.skipBlanks();
    if (c.at('\n') || c.at('\r') || c.at('/')) return kNone;
    SK_ASSIGN_OR_RETURN(size_t end, item(c.pos()));
    if (end == kNone) return kNone;
    c = Cursor(text, end);
    c.skipBlanks();
  } while (c.consume(','));
  return c.consume(close_char) ? c.pos() : kNone;
}

}  // namespace

OpName ModuleReader::opNameOf(std::string_view name) {
  // A module names few op kinds: most lookups end at their slot of the
  // recent names, without hashing the name.
  RecentOpName& recent =
      recent_op_names_[recentSlot(name) % std::size(recent_op_names_)];
  if (!name.empty() && recent.text.size() == name.size() &&
      std::memcmp(recent.text.data(), name.data(), name.size()) == 0) {
    return recent.name;
  }
  auto [it, inserted] = op_name_cache_.try_emplace(name);
  if (inserted) it->second = module_->opName(name);
  recent = {name, it->second};
  return it->second;
}

absl::StatusOr<bool> ModuleReader::parseGenericOpFast(Block block) {
  size_t start = p().tok().offset;
  SK_ASSIGN_OR_RETURN(size_t end, readOpFast(block, start));
  if (end == kNotRead) return false;
  if (end != kRegionOpRead) {
    SK_RETURN_IF_ERROR(readLocationAfterFastOp(start, end));
  }
  return true;
}

size_t ModuleReader::nextPlainOp(size_t end) const {
  std::string_view text = parser_.buffer();
  while (end < text.size() && isBlankChar(text[end])) ++end;
  if (end < text.size() && (text[end] == '%' || text[end] == '"')) return end;
  return kNotRead;
}

absl::Status ModuleReader::readLocationAfterFastOp(size_t start, size_t end) {
  p().resetTo(end);
  uint32_t saved_location = op_location_;
  op_location_ = static_cast<uint32_t>(start);
  // A location's error is the token parser's own (it would read the same
  // text); reading stops there.
  SK_ASSIGN_OR_RETURN(std::optional<std::string_view> loc,
                      readOptionalLocation());
  if (loc && *loc != "unknown") op_locations_.emplace_back(op_location_, *loc);
  op_location_ = saved_location;
  return absl::OkStatus();
}

absl::StatusOr<size_t> ModuleReader::readTypeFast(size_t pos, Type& type,
                                                  bool& moved_tokens) {
  Cursor c(parser_.buffer(), pos);
  std::string_view text = c.typeText();
  if (const Type* cached = text.empty() ? nullptr : cachedType(text)) {
    type = *cached;
    return c.pos();
  }
  // A type not seen yet: read (and cached) by the token parser.
  p().resetTo(pos);
  moved_tokens = true;
  SK_ASSIGN_OR_RETURN(type, parseType());
  return p().tok().offset;
}

size_t ModuleReader::readArgumentsFast(size_t open,
                                       std::vector<ParsedArgument>& args) {
  size_t first = args.size();
  bool moved_tokens = false;
  absl::StatusOr<size_t> end =
      readListFast(parser_.buffer(), open, '(', ')',
                   [&](size_t pos) -> absl::StatusOr<size_t> {
                     Cursor c(parser_.buffer(), pos);
                     ParsedArgument arg;
                     arg.offset = pos;
                     arg.name = c.valueName();
                     if (arg.name.empty() || !c.consume(':')) return kNotRead;
                     c.skipBlanks();
                     // A type's error declines too: the token parser reads the
                     // list.
                     absl::StatusOr<size_t> end =
                         readTypeFast(c.pos(), arg.type, moved_tokens);
                     if (!end.ok()) return kNotRead;
                     args.push_back(std::move(arg));
                     return *end;
                   });
  if (end.ok() && *end != kNotRead) return *end;
  args.resize(first);
  if (moved_tokens) p().resetTo(open);
  return kNotRead;
}

absl::StatusOr<size_t> ModuleReader::readTypeListFast(
    size_t open, std::vector<Type>& types) {
  std::string_view text = parser_.buffer();
  size_t first = types.size();
  bool moved_tokens = false;
  SK_ASSIGN_OR_RETURN(
      size_t end, readListFast(text, open, '(', ')',
                               [&](size_t pos) -> absl::StatusOr<size_t> {
                                 // After a comma the token parser reads a type
                                 // only if one starts there, and otherwise
                                 // expects the ')': declined, it says so.
                                 char c = text[pos];
                                 if (types.size() > first && !isIdentStart(c) &&
                                     c != '!' && c != '(') {
                                   return kNotRead;
                                 }
                                 // Where it reads one, its error is the token
                                 // parser's.
                                 Type type;
                                 SK_ASSIGN_OR_RETURN(
                                     size_t end,
                                     readTypeFast(pos, type, moved_tokens));
                                 types.push_back(type);
                                 return end;
                               }));
  if (end == kNotRead) {
    types.resize(first);
    if (moved_tokens) p().resetTo(open);
  }
  return end;
}

absl::StatusOr<std::optional<Attribute>> ModuleReader::readArrayFast(
    size_t open) {
  std::vector<Attribute> elements;
  bool moved_tokens = false;
  SK_ASSIGN_OR_RETURN(
      size_t end,
      readListFast(parser_.buffer(), open, '[', ']',
                   [&](size_t pos) -> absl::StatusOr<size_t> {
                     // A dictionary read recently, as parseDictAttr would
                     // find it once parseAttribute let it one level deeper;
                     // any other element from the tokens, whose error is the
                     // token parser's (it reads an element after '[' and
                     // after each ',').
                     const RecentDictAttr* recent =
                         depth_ < kMaxDepth ? recentDictAttrAt(pos) : nullptr;
                     if (recent != nullptr) {
                       elements.push_back(recent->value);
                       return pos + recent->text.size();
                     }
                     p().resetTo(pos);
                     moved_tokens = true;
                     SK_ASSIGN_OR_RETURN(Attribute element, parseAttribute());
                     elements.push_back(std::move(element));
                     return p().tok().offset;
                   }));
  if (end == kNotRead) {
    if (moved_tokens) p().resetTo(open);
    return std::nullopt;
  }
  p().resetTo(end);
  return Attribute::array(std::move(elements));
}

absl::Status ModuleReader::parseParenTypeList(std::vector<Type>& types) {
  SK_ASSIGN_OR_RETURN(size_t end, readTypeListFast(p().tok().offset, types));
  if (end == kNotRead) return OpReader::parseParenTypeList(types);
  p().resetTo(end);
  return absl::OkStatus();
}

size_t ModuleReader::readFastHead(size_t start, ResultNames& results) {
  Cursor c(parser_.buffer(), start);
  // Results.
  results.clear();
  if (c.at('%')) {
    do {
      c.skipBlanks();
      size_t offset = c.pos();
      std::string_view name = c.valueName();
      if (name.empty()) return kNotRead;
      uint32_t count = 1;
      if (c.consume(':')) {
        int64_t n = c.smallNumber();
        if (n < 1 || n > 0xFFFF) return kNotRead;
        count = static_cast<uint32_t>(n);
      }
      results.push_back({name, count, offset});
      c.skipBlanks();
    } while (c.consume(','));
    if (!c.consume('=')) return kNotRead;
    c.skipBlanks();
  }
  // The name.
  std::optional<std::string_view> name_text = c.plainString();
  if (!name_text) return kNotRead;
  OpName name = opNameOf(*name_text);
  if (!name.isRegistered() && !options_.allow_unregistered_dialect) {
    return kNotRead;
  }
  // Operands. The state is the last op's: its vectors keep their capacity
  // (createOp takes only the attributes).
  OperationState& state = fast_state_;
  state.name = name;
  state.operands.clear();
  state.num_regions = 0;
  if (!c.consume('(')) return kNotRead;
  c.skipBlanks();
  if (!c.consume(')')) {
    do {
      c.skipBlanks();
      std::string_view operand = c.valueName();
      if (operand.empty()) return kNotRead;
      int64_t index = -1;
      if (c.consume('#')) {
        index = c.smallNumber();
        if (index < 0) return kNotRead;
      }
      const ValueGroup* group = names_.find(operand);
      if (group == nullptr ||
          (index < 0 ? group->count != 1 : index >= group->count)) {
        return kNotRead;
      }
      state.operands.push_back(
          Value(module_,
                group->first + static_cast<uint32_t>(index < 0 ? 0 : index)));
      c.skipBlanks();
    } while (c.consume(','));
    if (!c.consume(')')) return kNotRead;
  }
  c.skipBlanks();
  return c.pos();
}

absl::StatusOr<size_t> ModuleReader::readOpFast(Block block, size_t start) {
  ResultNames results;
  size_t head_end = readFastHead(start, results);
  if (head_end == kNotRead) return kNotRead;
  std::string_view text = parser_.buffer();
  if (text.substr(head_end, 2) == "({") {
    p().resetTo(head_end);
    SK_RETURN_IF_ERROR(parseRegionOpAfterHead(block, start, results));
    return kRegionOpRead;
  }
  return readGenericOpTailFast(block, start, head_end, results);
}

size_t ModuleReader::readGenericOpTailFast(Block block, size_t start,
                                           size_t tail_start,
                                           const ResultNames& results) {
  std::string_view text = parser_.buffer();
  OperationState& state = fast_state_;
  Cursor c(text, tail_start);
  // The tail, from the cache only; it is the rest of the line.
  if (c.at('(') || c.at('<') || c.at('[')) return kNotRead;  // regions, ...
  size_t end = lineEnd(text, tail_start);
  const OpTail* cached =
      findTail(state.name.entry(), text.substr(tail_start, end - tail_start));
  if (cached == nullptr) return kNotRead;
  const OpTail& tail = *cached;
  if (tail.operand_types.size() != state.operands.size()) return kNotRead;
  for (size_t i = 0; i < state.operands.size(); ++i) {
    if (!(state.operands[i].type() == tail.operand_types[i])) return kNotRead;
  }
  // The result names: their count, and none already bound in this scope.
  uint32_t total = 0;
  for (const ResultName& r : results) total += r.count;
  if (!results.empty() && total != tail.result_types.size()) return kNotRead;
  if (results.size() > 1) {
    for (size_t i = 0; i < results.size(); ++i) {
      if (names_.boundInInnermost(results[i].name)) return kNotRead;
      for (size_t j = 0; j < i; ++j) {
        if (results[i].name == results[j].name) return kNotRead;
      }
    }
  }
  // The names name the values the op creates next. A single name binds
  // unless this scope binds it already, the last check.
  uint32_t next = static_cast<uint32_t>(module_->valueIdBound());
  for (const ResultName& r : results) {
    if (!names_.bind(r.name, {next, r.count})) return kNotRead;
    next += r.count;
  }
  // Good: create the op.
  state.inherent_attrs = tail.inherent;
  state.discardable_attrs = tail.discardable;
  state.result_types = tail.result_types;
  state.location = static_cast<uint32_t>(start);
  block.pushBack(module_->createOp(std::move(state)));
  return end;
}

}  // namespace shardkit
