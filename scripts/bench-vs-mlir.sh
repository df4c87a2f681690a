#!/usr/bin/env bash
# Times `shardkit-opt -sdy-propagation-pipeline` on a generated transformer
# module beside `mlir-opt-16 --allow-unregistered-dialect` parsing and
# printing the same generic-form text (docs/performance.md).
#
#   scripts/bench-vs-mlir.sh [OPS] [RUNS]     (defaults: 100000 ops, 7 runs)
#
# Runs the two tools alternately RUNS times each (after one untimed run of
# each) and prints the median wall time and the median peak resident memory
# of each, their ratios, the load average before and after, and one
# -mlir-timing report of shardkit-opt.
# Set MLIR_OPT=none to time shardkit-opt alone (e.g. on the 1M-op module).
# Needs a build in $BUILD_DIR (default build) and mlir-opt-16 (Debian's
# mlir-16-tools) and /usr/bin/time.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
ops="${1:-100000}"
runs="${2:-7}"
tool="$build/tools/shardkit-opt/shardkit-opt"
gen="$build/bench/shardkit_gen_module"
mlir_opt="${MLIR_OPT:-mlir-opt-16}"

for bin in "$tool" "$gen" /usr/bin/time; do
  if [ ! -x "$bin" ]; then
    echo "bench-vs-mlir: error: $bin not found (scripts/dev.sh run builds the tools)" >&2
    exit 1
  fi
done
if [ "$mlir_opt" != none ] && ! command -v "$mlir_opt" >/dev/null 2>&1; then
  echo "bench-vs-mlir: error: $mlir_opt not found (apt-get install mlir-16-tools)" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
input="$work/module.mlir"
"$gen" "$ops" --generic16 >"$input"
op_lines=$(grep -c '"(' "$input" || true)
echo "input: $op_lines ops, $(($(stat -c %s "$input") / 1024 / 1024)) MiB of generic-form text"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Appends "SECONDS KB CPU_SECONDS" (wall time, peak RSS, user + system CPU
# time) of one run of the command to the file named by the first argument.
# On a shared machine wall time includes waiting for a core; CPU time
# doesn't.
sample() {
  local log="$1" start end
  shift
  # Bash's clock: no process started around the timed one but /usr/bin/time.
  start=$EPOCHREALTIME
  /usr/bin/time -f "%M %U %S" -o "$work/usage" "$@" >/dev/null
  end=$EPOCHREALTIME
  read -r kb user sys <"$work/usage"
  echo "$(echo "$end - $start" | bc) $kb $(echo "$user + $sys" | bc)" >>"$log"
}

# The median of column $2 of file $1.
median() {
  sort -g -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

# Both print to /dev/null: the printing is timed, not the file system (into
# a file, shardkit-opt also syncs it to disk before renaming it into place,
# which mlir-opt does not).
# One untimed run of each first, as benchmarks warm up: the input was just
# written and the binaries may not have run for a while, and on this kind of
# shared host the first runs after a quiet spell are slower for a reason
# neither tool controls.
"$tool" "$input" -sdy-propagation-pipeline -o /dev/null
if [ "$mlir_opt" != none ]; then
  "$mlir_opt" --allow-unregistered-dialect "$input" -o /dev/null
fi
for _ in $(seq "$runs"); do
  sample "$work/ours" "$tool" "$input" -sdy-propagation-pipeline -o /dev/null
  if [ "$mlir_opt" != none ]; then
    sample "$work/theirs" "$mlir_opt" --allow-unregistered-dialect "$input" -o /dev/null
  fi
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"

ours_s=$(median "$work/ours" 1)
ours_kb=$(median "$work/ours" 2)
ours_cpu=$(median "$work/ours" 3)
printf 'shardkit-opt -sdy-propagation-pipeline: %.3f s wall  %.3f s CPU  %6.1f MB peak RSS  (medians of %d)\n' \
  "$ours_s" "$ours_cpu" "$(echo "$ours_kb / 1024" | bc -l)" "$runs"
if [ "$mlir_opt" != none ]; then
  theirs_s=$(median "$work/theirs" 1)
  theirs_kb=$(median "$work/theirs" 2)
  theirs_cpu=$(median "$work/theirs" 3)
  printf '%s parse + print:          %.3f s wall  %.3f s CPU  %6.1f MB peak RSS\n' \
    "$mlir_opt" "$theirs_s" "$theirs_cpu" "$(echo "$theirs_kb / 1024" | bc -l)"
  printf 'ratio (shardkit-opt / %s): wall time %.3f, CPU time %.3f, peak RSS %.2f\n' \
    "$mlir_opt" "$(echo "$ours_s / $theirs_s" | bc -l)" \
    "$(echo "$ours_cpu / $theirs_cpu" | bc -l)" "$(echo "$ours_kb / $theirs_kb" | bc -l)"
fi
"$tool" "$input" -sdy-propagation-pipeline -mlir-timing -o /dev/null
