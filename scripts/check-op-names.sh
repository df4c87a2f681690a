#!/usr/bin/env bash
# check-op-names: op identity is the op registry's business. A string literal
# starting with a dialect prefix ("sdy. "stablehlo. "func. "mpmd.) may only
# appear in the dialects' own folders (op tables, syntax tables, typed-op
# definitions, attribute-name constants) and the few files below. Everywhere else code asks an
# op's traits or its typed handle (see include/shardkit/ir/op_base.h).
#
#   scripts/check-op-names.sh    exit 0, or 1 with the offending lines
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

allowed=(
  # A dialect's own folders: its op tables (names, inherent attributes,
  # traits, verifier hooks), typed-op definitions, attribute-name constants
  # and syntax tables.
  src/dialect/
  include/shardkit/dialect/
  # Dialect attribute syntax (`#sdy.sharding<...>`, `#stablehlo.dot<...>`),
  # not op names.
  src/asm/module_reader_attrs.cc
  src/text/parse.cc
  src/text/stablehlo_attr_text.cc
  # The `#stablehlo.replica_group_mesh_axes` and `#stablehlo.mesh` attributes
  # -sdy-lift-inlined-meshes rewrites and the interpreter reads.
  src/passes/import/lift_inlined_meshes.cc
  src/interp/mesh_axes_groups.cc
  # A verifier message of core ("... a parent sdy.manual_computation op").
  include/shardkit/core/verify_sharding.h
)

pattern='"(sdy|stablehlo|func|mpmd)\.'
exclude=()
for f in "${allowed[@]}"; do
  if [ ! -e "$f" ]; then
    echo "check-op-names: allowed path $f does not exist" >&2
    exit 1
  fi
  case "$f" in
    */) exclude+=(-e "^$f") ;;
    *) exclude+=(-e "^$f:") ;;
  esac
done

offending=$(grep -rnE "$pattern" src include tools | grep -v "${exclude[@]}" || true)
if [ -n "$offending" ]; then
  echo "check-op-names: op-name string literals outside the op registry," >&2
  echo "syntax tables and typed-op definitions (use a typed handle or a" >&2
  echo "trait, see include/shardkit/ir/op_base.h):" >&2
  echo "$offending" >&2
  exit 1
fi
