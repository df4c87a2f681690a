#!/usr/bin/env bash
# Fails (exit 1, listing the files) if any tracked C or C++ file differs from
# what clang-format-14 makes of it with the repository's .clang-format.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
format="${CLANG_FORMAT:-clang-format-14}"
if ! command -v "$format" >/dev/null 2>&1; then
  echo "check-format: $format not found (Debian package clang-format-14)" >&2
  exit 1
fi
mapfile -t files < <(git ls-files '*.h' '*.cc' '*.c')
# One clang-format process per batch of files; its diagnostics name the file.
mapfile -t bad < <(printf '%s\0' "${files[@]}" |
  xargs -0 -n 64 "$format" --dry-run -Werror 2>&1 |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
if [ ${#bad[@]} -ne 0 ]; then
  echo "check-format: not clang-formatted (run: $format -i FILE):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
