#include "shardkit/ir/diagnostic.h"

#include "shardkit/core/strings.h"
#include "shardkit/text/lexer.h"

namespace shardkit {

std::string opLocation(Op op) {
  Module& m = *op.module();
  LineCol lc = lineColAt(m.source, op.location());
  return strCat(m.file_name, ":", lc.line, ":", lc.col);
}

absl::Status locatedError(Op op, std::string_view message) {
  return absl::InvalidArgumentError(
      toAbsl(strCat(opLocation(op), ": error: ", message)));
}

absl::Status opError(Op op, std::string_view message) {
  return locatedError(op, strCat("'", op.name(), "' op ", message));
}

}  // namespace shardkit
