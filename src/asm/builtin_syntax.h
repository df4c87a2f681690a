// Internal to the ir layer: the registration of shardkit's own pretty forms,
// one function per dialect file. The syntax registry (syntax.cc) calls them
// once, before its first lookup.
#ifndef SHARDKIT_SRC_ASM_BUILTIN_SYNTAX_H_
#define SHARDKIT_SRC_ASM_BUILTIN_SYNTAX_H_

#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "shardkit/asm/op_syntax.h"

namespace shardkit::ir_internal {

// Keyed by the names the op tables and typed handles hold, which live as long
// as the process.
using SyntaxTable = absl::flat_hash_map<std::string_view, OpSyntax>;

void addSdySyntax(SyntaxTable& table);        // sdy_syntax.cc
void addFuncSyntax(SyntaxTable& table);       // func_syntax.cc
void addStablehloSyntax(SyntaxTable& table);  // stablehlo_syntax*.cc

}  // namespace shardkit::ir_internal

#endif  // SHARDKIT_SRC_ASM_BUILTIN_SYNTAX_H_
