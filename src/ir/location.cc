#include "shardkit/ir/location.h"

#include "shardkit/support/strings.h"
#include "shardkit/text/lexer.h"

namespace shardkit {

DebugLocation DebugLocation::fileLineCol(std::string_view file, int64_t line,
                                         int64_t col) {
  DebugLocation loc;
  loc.text_.clear();
  appendQuoted(loc.text_, file);
  strAppend(loc.text_, ":", line, ":", col);
  loc.file_ = std::string(file);
  loc.line_ = line;
  loc.col_ = col;
  return loc;
}

DebugLocation DebugLocation::named(std::string_view name) {
  return named(name, DebugLocation());
}

DebugLocation DebugLocation::named(std::string_view name,
                                   const DebugLocation& child) {
  DebugLocation loc;
  loc.text_.clear();
  appendQuoted(loc.text_, name);
  if (!child.isUnknown()) {
    strAppend(loc.text_, "(", child.text_, ")");
    loc.file_ = child.file_;
    loc.line_ = child.line_;
    loc.col_ = child.col_;
  }
  return loc;
}

DebugLocation DebugLocation::fromText(std::string_view text) {
  DebugLocation loc;
  loc.text_ = std::string(text);
  loc.findFileLineCol();
  return loc;
}

std::string DebugLocation::toString() const {
  return strCat("loc(", text_, ")");
}

// A string literal followed by `:LINE:COL`, the first in the text.
void DebugLocation::findFileLineCol() {
  Lexer lexer(text_);
  Token prev = lexer.next();
  while (prev.kind != TokenKind::kEof && prev.kind != TokenKind::kError) {
    Token colon1 = lexer.next();
    if (prev.kind == TokenKind::kString && colon1.kind == TokenKind::kColon) {
      Token line = lexer.next();
      Token colon2 = lexer.next();
      Token col = lexer.next();
      int64_t l = 0, c = 0;
      if (line.kind == TokenKind::kInteger &&
          colon2.kind == TokenKind::kColon && col.kind == TokenKind::kInteger &&
          parseInt64(line.spelling, l) && parseInt64(col.spelling, c)) {
        std::string file;
        if (!Lexer::unescape(prev.spelling, file)) return;
        file_ = std::move(file);
        line_ = l;
        col_ = c;
        return;
      }
      prev = col;
      continue;
    }
    prev = colon1;
  }
}

}  // namespace shardkit
