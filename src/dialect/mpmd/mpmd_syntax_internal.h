// Internal to the mpmd layer: pieces the op syntaxes (syntax.cc,
// syntax_regions.cc) share.
#ifndef SHARDKIT_SRC_DIALECT_MPMD_MPMD_SYNTAX_INTERNAL_H_
#define SHARDKIT_SRC_DIALECT_MPMD_MPMD_SYNTAX_INTERNAL_H_

#include <string>
#include <string_view>

namespace shardkit::mpmd::mpmd_internal {

// `"text"` with MLIR's escapes.
std::string quotedString(std::string_view s);

// Registers the syntaxes of fragment, fragment_call, named_computation and
// for (syntax_regions.cc).
void registerRegionOpSyntaxes();

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_DIALECT_MPMD_MPMD_SYNTAX_INTERNAL_H_
