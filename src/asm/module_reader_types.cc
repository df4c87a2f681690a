// The module reader's types: `tensor<8x?xf32>`, `tuple<...>`, function types
// and any other type kept as text.
#include <algorithm>
#include <string>

#include "shardkit/asm/op_syntax.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/scanner.h"
#include "src/asm/module_reader.h"

namespace shardkit {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Collapses every run of whitespace (and `// comments`, which would swallow
// the rest of the text once it is on one line) into one space; string
// literals are kept as they are.
std::string collapseSpaces(std::string_view s) {
  std::string out;
  bool space = false;
  s = trimSpaces(s);
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
      size_t end = std::min(stringLiteralEnd(s, i), s.size());
      out.append(s.substr(i + 1, end - i - 1));
      i = end - 1;
    }
  }
  return out;
}

// MLIR's builtin integer types: `i32`, `si8`, `ui64` (widths 1 to 2^24-1).
bool isIntegerType(std::string_view t) {
  if (t.starts_with("si") || t.starts_with("ui")) {
    t.remove_prefix(2);
  } else if (t.starts_with("i")) {
    t.remove_prefix(1);
  } else {
    return false;
  }
  int64_t width = 0;
  return t.size() <= 8 && (t == "0" || t[0] != '0') && parseInt64(t, width) &&
         width >= 0 && width < (int64_t{1} << 24);
}

// MLIR's builtin types other than tensors, tuples, functions and the
// bracketed ones (complex, vector, memref).
bool isBuiltinScalarType(std::string_view t) {
  static constexpr std::string_view kFloats[] = {
      "index",  "none",       "bf16",       "f16",           "f32",
      "f64",    "f80",        "f128",       "tf32",          "f8E4M3FN",
      "f8E5M2", "f8E4M3FNUZ", "f8E5M2FNUZ", "f8E4M3B11FNUZ", "f8E4M3",
      "f8E3M4", "f8E8M0FNU",  "f4E2M1FN",   "f6E2M3FN",      "f6E3M2FN"};
  for (std::string_view name : kFloats) {
    if (t == name) return true;
  }
  return isIntegerType(t);
}

}  // namespace

absl::StatusOr<size_t> ModuleReader::scanBalanced(size_t start, Nesting nesting,
                                                  bool remember_pairs) {
  std::string_view buffer = parser_.buffer();
  // Nested regions are skipped level by level, each scan starting inside the
  // previous one: the pairs found inside a region are remembered so that the
  // text is scanned once, not once per nesting level (short `<...>`s are
  // never scanned again and are not remembered).
  bool remember = remember_pairs && nesting == Nesting::kOwnKind &&
                  start < buffer.size() && buffer[start] == '{';
  if (remember) {
    size_t cached = brace_ends_.find(start);
    if (cached != std::string_view::npos) return cached;
  }
  ScanResult scan = scanBrackets(buffer, start, nesting, [&](BracketPair pair) {
    if (remember && pair.open != start) brace_ends_.add(pair);
  });
  if (!scan.ok()) return scanError(start, scan);
  return scan.end;
}

absl::Status ModuleReader::scanError(size_t start, const ScanResult& scan) {
  return p().errorAt(scan.error_offset,
                     scanErrorMessage(parser_.buffer(), start, scan));
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
    // Types are read by the thousand: the scan is inlined here.
    ScanResult scan = scanBrackets(buffer, end);
    if (!scan.ok()) return scanError(end, scan);
    end = scan.end;
  }
  std::string_view text = buffer.substr(start, end - start);
  if (const Type* cached = cachedType(text)) {
    p().resetTo(end);
    return *cached;
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
  text = trimSpaces(text);
  if (text.starts_with("!")) {
    auto alias = type_aliases_.find(toAbsl(text));
    // An undefined alias is reported by checkOtherType.
    if (alias != type_aliases_.end()) return alias->second;
  }
  TypeContext& types = module_->types();
  auto inner = [&](std::string_view prefix) {
    return text.substr(prefix.size(), text.size() - prefix.size() - 1);
  };
  // The parts of a list in a type, each without outer whitespace.
  auto splitParts = [&](std::string_view list)
      -> absl::StatusOr<std::vector<std::string_view>> {
    absl::StatusOr<std::vector<std::string_view>> parts = splitTopLevel(list);
    if (!parts.ok()) {
      return p().errorAt(offset, strCat("malformed type '", text, "': ",
                                        fromAbsl(parts.status().message())));
    }
    return parts;
  };
  if (text.starts_with("tensor<") && text.ends_with(">")) {
    std::string_view body = trimSpaces(inner("tensor<"));
    if (body.starts_with("*")) {
      body = trimSpaces(body.substr(1));
      if (!body.starts_with("x")) {
        return p().errorAt(offset, "expected 'x' after '*' in unranked tensor");
      }
      return types.unrankedTensor(collapseSpaces(body.substr(1)));
    }
    std::vector<int64_t> dims;
    size_t i = 0;
    while (i < body.size() && (body[i] == '?' || body[i] == '-' ||
                               (body[i] >= '0' && body[i] <= '9'))) {
      if (body[i] == '-') {
        return p().errorAt(
            offset, strCat("tensor dimensions must be non-negative or '?' in '",
                           text, "'"));
      }
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
    SK_ASSIGN_OR_RETURN(std::vector<std::string_view> parts,
                        splitParts(body.substr(i)));
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
    std::string_view body = trimSpaces(inner("tuple<"));
    std::vector<Type> elements;
    if (!body.empty()) {
      SK_ASSIGN_OR_RETURN(std::vector<std::string_view> parts,
                          splitParts(body));
      for (std::string_view part : parts) {
        SK_ASSIGN_OR_RETURN(Type t, parseTypeText(part, offset, depth + 1));
        elements.push_back(t);
      }
    }
    return types.tuple(elements);
  }
  if (text.empty()) return p().errorAt(offset, "expected type");
  SK_RETURN_IF_ERROR(checkOtherType(text, offset, depth));
  std::string collapsed = collapseSpaces(text);
  // A dialect that registered its type syntax checks and spells the text.
  if (size_t dot = collapsed.find('.');
      collapsed.starts_with("!") && dot != std::string::npos) {
    const DialectTextSyntax* syntax =
        findDialectTextSyntax(std::string_view(collapsed).substr(1, dot - 1));
    if (syntax && syntax->type) {
      absl::StatusOr<std::string> canonical = syntax->type(collapsed);
      if (!canonical.ok()) {
        return p().errorAt(offset, fromAbsl(canonical.status().message()));
      }
      return types.other(*canonical);
    }
  }
  return types.other(collapsed);
}

absl::Status ModuleReader::checkOtherType(std::string_view text, size_t offset,
                                          int depth) {
  if (text.starts_with("!")) {
    // `!name` without a dialect (no '.') and without `<...>` can only be an
    // alias, and the defined ones were resolved by the caller.
    std::string_view name = text.substr(1, text.find('<') - 1);
    if (name.find('.') == std::string_view::npos &&
        text.find('<') == std::string_view::npos) {
      return p().errorAt(offset,
                         strCat("undefined symbol alias id '", name, "'"));
    }
    return absl::OkStatus();
  }
  if (isBuiltinScalarType(text)) return absl::OkStatus();
  if (text.starts_with("complex<") && text.ends_with(">")) {
    std::string_view element = text.substr(8, text.size() - 9);
    return parseTypeText(element, offset, depth + 1).status();
  }
  if ((text.starts_with("vector<") || text.starts_with("memref<")) &&
      text.ends_with(">")) {
    return absl::OkStatus();
  }
  if (text == "tensor" || text == "tuple" || text == "complex" ||
      text == "vector" || text == "memref") {
    return p().errorAt(offset, strCat("expected '<' after '", text, "'"));
  }
  return p().errorAt(offset, strCat("unknown type '", text, "'"));
}

}  // namespace shardkit
