#!/usr/bin/env bash
# Runs clang-tidy-14 (checks in .clang-tidy) on the C++ sources a change
# touches: the files that differ from BASE (default: the merge base with
# main, or HEAD~1 on main itself) plus uncommitted ones. Needs the
# compile_commands.json of a configured build directory.
#
#   scripts/tidy-changed.sh [BUILD_DIR] [BASE]
#
# TIDY_MAX_FILES (default: no limit) bounds the cost (about 15 s a file): a
# larger change checks that many files, chosen in name order.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${1:-build}"
tidy="${CLANG_TIDY:-clang-tidy-14}"
if ! command -v "$tidy" >/dev/null 2>&1; then
  echo "tidy-changed: $tidy not found (Debian package clang-tidy-14)" >&2
  exit 1
fi
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy-changed: $build/compile_commands.json missing (configure first)" >&2
  exit 1
fi
base="${2:-}"
if [ -z "$base" ]; then
  if git rev-parse -q --verify main >/dev/null &&
     [ "$(git rev-parse HEAD)" != "$(git rev-parse main)" ]; then
    base="$(git merge-base HEAD main)"
  elif git rev-parse -q --verify HEAD~1 >/dev/null; then
    base=HEAD~1
  else
    echo "tidy-changed: no base revision; nothing to check"
    exit 0
  fi
fi
mapfile -t files < <({ git diff --name-only --diff-filter=AMR "$base" -- '*.cc';
                       git ls-files --others --exclude-standard -- '*.cc'; } |
                     sort -u | grep -E '^(src|tools)/' || true)
if [ ${#files[@]} -eq 0 ]; then
  echo "tidy-changed: no changed library or tool sources since $base"
  exit 0
fi
max="${TIDY_MAX_FILES:-0}"
if [ "$max" -gt 0 ] && [ ${#files[@]} -gt "$max" ]; then
  echo "tidy-changed: ${#files[@]} changed files; checking the first $max"
  files=("${files[@]:0:$max}")
fi
echo "tidy-changed: ${#files[@]} file(s) since $base"
status=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  if ! "$tidy" -p "$build" --quiet \
       --extra-arg=-Wno-unknown-warning-option "$f" 2>/dev/null; then
    status=1
  fi
done
exit $status
