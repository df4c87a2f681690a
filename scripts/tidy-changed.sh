#!/usr/bin/env bash
# Runs clang-tidy-14 (checks in .clang-tidy) on the C++ sources: first every
# file a change touches, then, while the time budget lasts, the rest of the
# tree. Needs the compile_commands.json of a configured build directory.
#
#   scripts/tidy-changed.sh [BUILD_DIR] [BASE]
#
# The change is everything since BASE: by default the commit in .ci/tidy-base
# (the last commit that landed), or the merge base with main on a branch,
# plus uncommitted files. Changed files are all checked, whatever the budget.
# Then other files of src/ and tools/ are checked in an order that starts at a
# different place each day, until TIDY_SECONDS (default 300) have passed, so
# the whole tree is covered over successive runs. TIDY_JOBS (default: nproc)
# files are checked at a time; TIDY_SECONDS=0 checks only the change.
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
  elif [ -f .ci/tidy-base ] &&
       git rev-parse -q --verify "$(cat .ci/tidy-base)^{commit}" >/dev/null; then
    base="$(cat .ci/tidy-base)"
  elif git rev-parse -q --verify HEAD~1 >/dev/null; then
    base=HEAD~1
  fi
fi
changed=()
if [ -n "$base" ]; then
  mapfile -t changed < <({ git diff --name-only --diff-filter=AMR "$base" -- '*.cc';
                           git ls-files --others --exclude-standard -- '*.cc'; } |
                         sort -u | grep -E '^(src|tools)/' || true)
fi
mapfile -t all < <(git ls-files -- 'src/*.cc' 'tools/*.cc')
# The rest of the tree, rotated by the day of the year.
rest=()
for f in "${all[@]}"; do
  printf '%s\n' "${changed[@]}" | grep -qxF "$f" || rest+=("$f")
done
if [ ${#rest[@]} -gt 0 ]; then
  start=$(( 10#$(date +%j) * 37 % ${#rest[@]} ))
  rest=("${rest[@]:$start}" "${rest[@]:0:$start}")
fi
jobs="${TIDY_JOBS:-$(nproc)}"
budget="${TIDY_SECONDS:-300}"
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# Checks "$@" TIDY_JOBS at a time; with a budget, stops starting new files
# once it is spent. Prints how many were checked.
check() {
  local limit="$1"; shift
  local started=$SECONDS n=0
  local -a pids=()
  for f in "$@"; do
    [ -f "$f" ] || continue
    if [ "$limit" -ge 0 ] && [ $((SECONDS - started)) -ge "$limit" ]; then
      break
    fi
    ( "$tidy" -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option \
        "$f" > "$logs/$serial.log" 2>/dev/null ||
        echo "$f" > "$logs/$serial.failed" ) &
    pids+=($!)
    n=$((n + 1))
    serial=$((serial + 1))
    if [ ${#pids[@]} -ge "$jobs" ]; then
      wait "${pids[0]}" || true
      pids=("${pids[@]:1}")
    fi
  done
  wait || true
  checked=$n
}

status=0
serial=0
echo "tidy-changed: ${#changed[@]} changed file(s) since ${base:-(none)}"
check -1 "${changed[@]}"
if [ "$budget" -gt 0 ] && [ ${#rest[@]} -gt 0 ]; then
  check "$budget" "${rest[@]}"
  echo "tidy-changed: $checked of ${#rest[@]} other file(s) in ${budget} s"
fi
for failed in "$logs"/*.failed; do
  [ -e "$failed" ] || continue
  cat "${failed%.failed}.log"
  echo "tidy-changed: $(cat "$failed") has findings" >&2
  status=1
done
exit $status
