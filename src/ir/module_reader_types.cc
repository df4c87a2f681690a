// The module reader's types: `tensor<8x?xf32>`, `tuple<...>`, function types
// and any other type kept as text.
#include <string>

#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"
#include "src/ir/bracket_scan.h"
#include "src/ir/module_reader.h"

namespace shardkit {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The characters of a shape and an element type (`8x?xf32`, `!quant.q`).
bool isPlainTypeChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z') || c == '?' || c == '_' || c == '.';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

// Collapses every run of whitespace (and `// comments`, which would swallow
// the rest of the text once it is on one line) into one space; string
// literals are kept as they are.
std::string collapseSpaces(std::string_view s) {
  std::string out;
  bool space = false;
  s = trim(s);
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
      space = true;
      continue;
    }
    if (isSpace(c)) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
    if (c == '"') {  // copy the string literal through its closing quote
      for (++i; i < s.size(); ++i) {
        out += s[i];
        if (s[i] == '\\' && i + 1 < s.size()) {
          out += s[++i];
        } else if (s[i] == '"') {
          break;
        }
      }
    }
  }
  return out;
}

// Splits `s` at commas that are not nested in brackets or strings.
std::vector<std::string_view> splitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  bool in_string = false;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '<' || c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == '>' && !(i > 0 && s[i - 1] == '-')) || c == ')' ||
               c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(trim(s.substr(start)));
  return parts;
}

}  // namespace

absl::StatusOr<size_t> ModuleReader::scanBalanced(size_t start, char open,
                                                  char close) {
  // Nested regions are skipped level by level, each scan starting inside the
  // previous one: the pairs found inside a region are remembered so that the
  // text is scanned once, not once per nesting level (short `<...>`s are
  // never scanned again and are not remembered).
  bool remember = open == '{';
  if (remember) {
    size_t cached = brace_ends_.find(start);
    if (cached != std::string_view::npos) return cached;
  }
  bool nest_all = open == '<';
  size_t fast_end = scanBracketsFast(parser_.buffer(), start, open, close,
                                     nest_all, [&](BracketPair pair) {
                                       if (remember && pair.open != start)
                                         brace_ends_.add(pair);
                                     });
  if (fast_end != std::string_view::npos) return fast_end;
  Lexer lexer(parser_.buffer());
  lexer.resetTo(start);
  auto kindOf = [](char c) {
    switch (c) {
      case '<':
        return TokenKind::kLess;
      case '>':
        return TokenKind::kGreater;
      case '(':
        return TokenKind::kLParen;
      case ')':
        return TokenKind::kRParen;
      case '{':
        return TokenKind::kLBrace;
      case '}':
        return TokenKind::kRBrace;
      case '[':
        return TokenKind::kLSquare;
      default:
        return TokenKind::kRSquare;
    }
  };
  TokenKind open_kind = kindOf(open);
  TokenKind close_kind = kindOf(close);
  // Not plainly balanced: rescan token by token for a precise error. A
  // dialect body `<...>` must nest every kind of bracket properly (as in
  // MLIR), so that the text kept for it never unbalances an enclosing region;
  // other scans count only their own bracket.
  auto closerOf = [](TokenKind k) {
    switch (k) {
      case TokenKind::kLess:
        return TokenKind::kGreater;
      case TokenKind::kLParen:
        return TokenKind::kRParen;
      case TokenKind::kLSquare:
        return TokenKind::kRSquare;
      case TokenKind::kLBrace:
        return TokenKind::kRBrace;
      default:
        return TokenKind::kEof;  // not an opening bracket
    }
  };
  auto isClosing = [](TokenKind k) {
    return k == TokenKind::kGreater || k == TokenKind::kRParen ||
           k == TokenKind::kRSquare || k == TokenKind::kRBrace;
  };
  struct Open {
    TokenKind kind;
    size_t offset;
  };
  std::vector<Open> opens;
  while (true) {
    Token t = lexer.next();
    if (t.kind == TokenKind::kEof || t.kind == TokenKind::kError) {
      return p().errorAt(
          start, strCat("unbalanced '", std::string(1, open),
                        "': no matching '", std::string(1, close), "'"));
    }
    bool counted =
        nest_all ? (closerOf(t.kind) != TokenKind::kEof || isClosing(t.kind))
                 : (t.kind == open_kind || t.kind == close_kind);
    if (!counted || (opens.empty() && t.kind != open_kind)) continue;
    if (t.kind == open_kind ||
        (nest_all && closerOf(t.kind) != TokenKind::kEof)) {
      opens.push_back({t.kind, t.offset});
      continue;
    }
    if (closerOf(opens.back().kind) != t.kind) {
      return p().errorAt(t.offset, strCat("unbalanced '", t.spelling, "' in '",
                                          std::string(1, open), "...",
                                          std::string(1, close), "'"));
    }
    Open matched = opens.back();
    opens.pop_back();
    size_t end = t.offset + t.spelling.size();
    if (remember && matched.kind == open_kind)
      brace_ends_.add({matched.offset, end});
    if (opens.empty()) return end;
  }
}

absl::StatusOr<Type> ModuleReader::parseType() {
  const Token& tok = p().tok();
  if (tok.kind == TokenKind::kLParen) {
    // Function types nest through parseFunctionalType: guard the stack.
    SK_RETURN_IF_ERROR(enter());
    std::vector<Type> inputs, results;
    absl::Status status = parseFunctionalType(inputs, results);
    leave();
    SK_RETURN_IF_ERROR(status);
    return module_->types().function(inputs, results);
  }
  if (tok.kind != TokenKind::kBareIdent && tok.kind != TokenKind::kBangIdent) {
    return p().errorExpected("type");
  }
  size_t start = tok.offset;
  size_t end = start + tok.spelling.size();
  std::string_view buffer = parser_.buffer();
  if (end < buffer.size() && buffer[end] == '<') {
    // Most types are `tensor<8x?xf32>`: no nested brackets to balance.
    size_t i = end + 1;
    while (i < buffer.size() && isPlainTypeChar(buffer[i])) ++i;
    if (i < buffer.size() && buffer[i] == '>') {
      end = i + 1;
    } else {
      SK_ASSIGN_OR_RETURN(end, scanBalanced(end, '<', '>'));
    }
  }
  std::string_view text = buffer.substr(start, end - start);
  auto cached = type_cache_.find(text);
  if (cached != type_cache_.end()) {
    p().resetTo(end);
    return cached->second;
  }
  SK_ASSIGN_OR_RETURN(Type type, parseTypeText(text, start, 0));
  type_cache_.emplace(text, type);
  p().resetTo(end);
  return type;
}

absl::StatusOr<Type> ModuleReader::parseTypeText(std::string_view text,
                                                 size_t offset, int depth) {
  if (depth > 64) return p().errorAt(offset, "type nested too deeply");
  // The structure is read from the text without comments and line breaks.
  std::string storage;
  if (depth == 0) {
    storage = collapseSpaces(text);
    text = storage;
  }
  text = trim(text);
  if (text.starts_with("!")) {
    auto alias = type_aliases_.find(toAbsl(text));
    if (alias != type_aliases_.end()) return alias->second;
  }
  TypeContext& types = module_->types();
  auto inner = [&](std::string_view prefix) {
    return text.substr(prefix.size(), text.size() - prefix.size() - 1);
  };
  if (text.starts_with("tensor<") && text.ends_with(">")) {
    std::string_view body = trim(inner("tensor<"));
    if (body.starts_with("*")) {
      body = trim(body.substr(1));
      if (!body.starts_with("x")) {
        return p().errorAt(offset, "expected 'x' after '*' in unranked tensor");
      }
      return types.unrankedTensor(collapseSpaces(body.substr(1)));
    }
    std::vector<int64_t> dims;
    size_t i = 0;
    while (i < body.size() &&
           (body[i] == '?' || (body[i] >= '0' && body[i] <= '9'))) {
      if (body[i] == '?') {
        dims.push_back(kDynamicSize);
        ++i;
      } else {
        size_t j = i;
        while (j < body.size() && body[j] >= '0' && body[j] <= '9') ++j;
        int64_t d = 0;
        if (!parseInt64(body.substr(i, j - i), d)) {
          return p().errorAt(offset,
                             "tensor dimension does not fit in 64 bits");
        }
        dims.push_back(d);
        i = j;
      }
      if (i >= body.size() || body[i] != 'x') {
        return p().errorAt(
            offset, strCat("expected 'x' after a dimension in '", text, "'"));
      }
      ++i;
    }
    std::vector<std::string_view> parts = splitTopLevel(body.substr(i));
    // An element type never starts like a dimension (`tensor<8x 32>`).
    if (parts.empty() || parts[0].empty() || parts.size() > 2 ||
        parts[0][0] == '?' || (parts[0][0] >= '0' && parts[0][0] <= '9')) {
      return p().errorAt(offset,
                         strCat("expected an element type in '", text, "'"));
    }
    SK_ASSIGN_OR_RETURN(Type element,
                        parseTypeText(parts[0], offset, depth + 1));
    std::string encoding = parts.size() == 2 ? collapseSpaces(parts[1]) : "";
    return types.rankedTensor(dims, element.str(), encoding);
  }
  if (text.starts_with("tuple<") && text.ends_with(">")) {
    std::string_view body = trim(inner("tuple<"));
    std::vector<Type> elements;
    if (!body.empty()) {
      for (std::string_view part : splitTopLevel(body)) {
        SK_ASSIGN_OR_RETURN(Type t, parseTypeText(part, offset, depth + 1));
        elements.push_back(t);
      }
    }
    return types.tuple(elements);
  }
  if (text.empty()) return p().errorAt(offset, "expected type");
  return types.other(collapseSpaces(text));
}

}  // namespace shardkit
