#!/usr/bin/env bash
# check-op-names: op identity is the op registry's business. A string literal
# starting with a dialect prefix ("sdy. "stablehlo. "func. "mpmd.) may only
# appear in the files below: the op tables, the syntax tables, the typed-op
# definitions and the attribute-name constants. Everywhere else code asks an
# op's traits or its typed handle (see include/shardkit/ir/op_base.h).
#
#   scripts/check-op-names.sh    exit 0, or 1 with the offending lines
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

allowed=(
  # Op tables (names, inherent attributes, traits, verifier hooks).
  src/ir/stablehlo_ops.cc
  src/ir/op_signatures.cc
  src/mpmd/syntax.cc
  src/mpmd/syntax_regions.cc
  # Typed-op definitions and attribute-name constants.
  include/shardkit/ir/attr_names.h
  include/shardkit/ir/func.h
  include/shardkit/ir/sdy_ops.h
  include/shardkit/ir/stablehlo_ops.h
  include/shardkit/mpmd/ops.h
  # Syntax tables: how each op is read and printed.
  src/ir/func_syntax.cc
  src/ir/sdy_syntax.cc
  src/ir/stablehlo_syntax.cc
  src/ir/stablehlo_syntax_regions.cc
  src/ir/stablehlo_syntax_special.cc
  # Dialect attribute syntax (`#sdy.sharding<...>`, `#stablehlo.dot<...>`),
  # not op names.
  src/ir/module_reader_attrs.cc
  src/text/parse.cc
  src/text/stablehlo_attrs.cc
  # The `#stablehlo.replica_group_mesh_axes` and `#stablehlo.mesh` attributes
  # -sdy-lift-inlined-meshes rewrites.
  src/passes/import/lift_inlined_meshes.cc
  # A verifier message of core ("... a parent sdy.manual_computation op").
  include/shardkit/core/verify_sharding.h
)

pattern='"(sdy|stablehlo|func|mpmd)\.'
exclude=()
for f in "${allowed[@]}"; do exclude+=(-e "^$f:"); done

offending=$(grep -rnE "$pattern" src include tools | grep -v "${exclude[@]}" || true)
if [ -n "$offending" ]; then
  echo "check-op-names: op-name string literals outside the op registry," >&2
  echo "syntax tables and typed-op definitions (use a typed handle or a" >&2
  echo "trait, see include/shardkit/ir/op_base.h):" >&2
  echo "$offending" >&2
  exit 1
fi
