#include "tools/shardkit-opt/source_names.h"

#include <cctype>

namespace shardkit {
namespace {

bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.' || c == '-';
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

size_t skipSpaces(std::string_view text, size_t at) {
  while (at < text.size() && isSpace(text[at])) ++at;
  return at;
}

// At `at` (just after a `%name` token): an optional `:COUNT`, then what
// follows the name in a result list: ',' (another result) or '='. Returns
// the offset after the '=' of the list, or npos if `%name` is not a result
// being defined (a use, an argument `%a: tensor<...>`).
size_t afterResultList(std::string_view text, size_t at) {
  while (true) {
    at = skipSpaces(text, at);
    if (at < text.size() && text[at] == ':') {
      size_t digits = skipSpaces(text, at + 1);
      size_t end = digits;
      while (end < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[end]))) {
        ++end;
      }
      if (end == digits) return std::string_view::npos;
      at = skipSpaces(text, end);
    }
    if (at >= text.size()) return std::string_view::npos;
    if (text[at] == '=') {
      // `==` never follows a result list; `=` alone does.
      return at + 1;
    }
    if (text[at] != ',') return std::string_view::npos;
    at = skipSpaces(text, at + 1);
    if (at >= text.size() || text[at] != '%') return std::string_view::npos;
    ++at;
    while (at < text.size() && isNameChar(text[at])) ++at;
  }
}

// The start of the result list `%name` at `at` belongs to: back over
// `%other[:N] ,` pieces on the same statement.
size_t resultListStart(std::string_view text, size_t at) {
  size_t start = at;
  while (true) {
    size_t back = start;
    while (back > 0 && (text[back - 1] == ' ' || text[back - 1] == '\t')) {
      --back;
    }
    if (back == 0 || text[back - 1] != ',') return start;
    --back;
    while (back > 0 && (text[back - 1] == ' ' || text[back - 1] == '\t')) {
      --back;
    }
    // Back over `NAME[:N]` to its '%'.
    size_t name_end = back;
    while (back > 0 && (isNameChar(text[back - 1]) || text[back - 1] == ':')) {
      --back;
    }
    if (back == 0 || back == name_end || text[back - 1] != '%') return start;
    start = back - 1;
  }
}

// The op name after a result list's '=', pretty (`dialect.op`) or quoted
// (the generic form).
std::string opNameAt(std::string_view text, size_t at) {
  at = skipSpaces(text, at);
  bool quoted = at < text.size() && text[at] == '"';
  if (quoted) ++at;
  size_t end = at;
  while (end < text.size() && isNameChar(text[end])) ++end;
  return std::string(text.substr(at, end - at));
}

}  // namespace

std::optional<SourceDefinition> findSourceDefinition(std::string_view text,
                                                     std::string_view name) {
  // `%h#1` names a result of the op defining `%h`.
  name = name.substr(0, name.find('#'));
  if (name.size() < 2 || name.front() != '%') return std::nullopt;
  for (size_t at = text.find(name); at != std::string_view::npos;
       at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    if (end < text.size() && isNameChar(text[end])) continue;  // `%h2`
    size_t after = afterResultList(text, end);
    if (after == std::string_view::npos) continue;
    size_t start = resultListStart(text, at);
    return SourceDefinition{static_cast<uint32_t>(start),
                            opNameAt(text, after)};
  }
  return std::nullopt;
}

Op findOpAt(Module& module, const SourceDefinition& definition) {
  Op named;
  Op any;
  for (Op func : module.functions()) {
    auto visit = [&](Op op) {
      if (named || op == func || op.location() != definition.offset) return;
      if (op.name() == definition.op_name) {
        named = op;
      } else if (!any) {
        any = op;
      }
    };
    Module::walkOp(func, visit);
    if (named) return named;
  }
  return any;
}

}  // namespace shardkit
