#!/usr/bin/env bash
# Times `shardkit-opt -sdy-propagation-pipeline` on a generated transformer
# module beside `mlir-opt-16 --allow-unregistered-dialect` parsing and
# printing the same generic-form text (docs/performance.md).
#
#   scripts/bench-vs-mlir.sh [OPS] [RUNS]     (defaults: 100000 ops, 7 runs)
#
# Prints the median wall time of each and their ratio. Needs a build in
# $BUILD_DIR (default build) and mlir-opt-16 (Debian's mlir-16-tools).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
ops="${1:-100000}"
runs="${2:-7}"
tool="$build/tools/shardkit-opt/shardkit-opt"
gen="$build/bench/shardkit_gen_module"
mlir_opt="${MLIR_OPT:-mlir-opt-16}"

for bin in "$tool" "$gen"; do
  if [ ! -x "$bin" ]; then
    echo "bench-vs-mlir: error: $bin not built (scripts/dev.sh run)" >&2
    exit 1
  fi
done
if ! command -v "$mlir_opt" >/dev/null 2>&1; then
  echo "bench-vs-mlir: error: $mlir_opt not found (apt-get install mlir-16-tools)" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
input="$work/module.mlir"
"$gen" "$ops" --generic16 >"$input"
echo "input: $ops ops, $(($(stat -c %s "$input") / 1024 / 1024)) MiB of generic-form text"

# Median wall time in seconds of RUNS runs of the given command.
median() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

ours=$(median "$tool" "$input" -sdy-propagation-pipeline -o "$work/ours.mlir")
theirs=$(median "$mlir_opt" --allow-unregistered-dialect "$input" -o "$work/theirs.mlir")
printf 'shardkit-opt -sdy-propagation-pipeline: %.3f s\n' "$ours"
printf '%s parse + print:          %.3f s\n' "$mlir_opt" "$theirs"
printf 'ratio: %.2f\n' "$(echo "$ours / $theirs" | bc -l)"
"$tool" "$input" -sdy-propagation-pipeline -mlir-timing -o /dev/null
