#!/usr/bin/env bash
# Runs the libFuzzer targets (tests/fuzz/) on seed corpora made from our own
# tests (scripts/fuzz_seeds.py), built by scripts/sanitize.sh in the build
# directory the sanitizer tests share (clang-14, ASan + UBSan + LSan).
#
#   scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]
#
# SECONDS is the budget of the whole run, split evenly between the targets
# (default 120; 0: no time limit, e.g. with -runs=N). The targets, each a
# fuzzer binary and a corpus:
#   attr         attr_parser_fuzzer         sdy attribute syntax
#   mesh         mesh_fuzzer                sdy and StableHLO mesh text
#   rule         rule_fuzzer                op sharding rules, the builder's
#                                           notation and API, the per-op step
#   module       module_reader_fuzzer       the module reader and writer
#   mpmd         module_reader_fuzzer       the same on mpmd modules
#   cli          cli_fuzzer                 flags and pass option strings
#   verify       verify_diagnostics_fuzzer  -verify-diagnostics annotations
#   propagation  propagation_fuzzer         structure-aware: mutated modules
#                                           through the propagation pipeline
#
#   FUZZ_TARGETS="module rule" scripts/fuzz.sh 600       two targets, 5 min each
#   FUZZ_TARGETS=attr scripts/fuzz.sh 0 -runs=10000000   a fixed number of runs
#   FUZZ_CORPUS_DIR=DIR keeps each target's corpus in DIR/TARGET across runs
#   (seeded on first use); otherwise a temporary copy is used and printed.
#
# Each target ends with a line `fuzz: TARGET execs=N seconds=S execs/s=R`.
# Crash, leak and timeout inputs are written to
# $SANITIZE_BUILD_DIR/fuzz-artifacts/.
set -euo pipefail

seconds="${1:-120}"
shift || true
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SANITIZE_BUILD_DIR:-${root}/build-sanitize}"
targets="${FUZZ_TARGETS:-attr mesh rule module mpmd cli verify propagation}"

binary_of() {
  case "$1" in
    attr) echo attr_parser_fuzzer ;;
    mesh) echo mesh_fuzzer ;;
    rule) echo rule_fuzzer ;;
    module | mpmd) echo module_reader_fuzzer ;;
    cli) echo cli_fuzzer ;;
    verify) echo verify_diagnostics_fuzzer ;;
    propagation) echo propagation_fuzzer ;;
    *) echo "fuzz.sh: error: unknown target $1" >&2; exit 2 ;;
  esac
}

binaries=()
count=0
for target in ${targets}; do
  binaries+=("shardkit_$(binary_of "${target}")")
  count=$((count + 1))
done
# shellcheck disable=SC2046
"${root}/scripts/sanitize.sh" build $(printf '%s\n' "${binaries[@]}" | sort -u)

time_flag=()
if [ "${seconds}" != "0" ]; then
  per_target=$((seconds / count))
  [ "${per_target}" -ge 1 ] || per_target=1
  time_flag=(-max_total_time="${per_target}")
fi
artifacts="${build}/fuzz-artifacts"
mkdir -p "${artifacts}"

# libFuzzer's entropic scheduler spends most of the time updating feature
# frequencies for the targets that see tens of thousands of features (the
# module reader and the pipeline): without it they run several times faster.
flags_of() {
  case "$1" in
    module | mpmd | propagation) echo -entropic=0 ;;
  esac
}

status=0
for target in ${targets}; do
  if [ -n "${FUZZ_CORPUS_DIR:-}" ]; then
    corpus="${FUZZ_CORPUS_DIR}/${target}"
    [ -d "${corpus}" ] || python3 "${root}/scripts/fuzz_seeds.py" "${target}" \
      "${corpus}" >/dev/null
  else
    corpus="$(mktemp -d -t "shardkit-fuzz-${target}.XXXXXX")"
    python3 "${root}/scripts/fuzz_seeds.py" "${target}" "${corpus}" >/dev/null
  fi
  log="$(mktemp -t "shardkit-fuzz-${target}-log.XXXXXX")"
  echo "== ${target} ($(binary_of "${target}"), corpus ${corpus})"
  start=$(date +%s)
  # shellcheck disable=SC2046
  "${build}/tests/fuzz/$(binary_of "${target}")" "${time_flag[@]}" \
    -max_len=4096 -timeout=30 -print_final_stats=1 $(flags_of "${target}") \
    -artifact_prefix="${artifacts}/${target}-" "$@" "${corpus}" \
    >"${log}" 2>&1 || status=$?
  elapsed=$(($(date +%s) - start))
  grep -E "^(INFO: .*corpus|#[0-9]+ *DONE|==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)" \
    "${log}" | tail -n 5 || true
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "${log}" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "${log}" | tail -n 1)
  echo "fuzz: ${target} execs=${execs:-0} seconds=${elapsed} execs/s=${rate:-0}"
  if [ "${status}" != 0 ]; then
    echo "fuzz.sh: error: ${target} failed; its log:" >&2
    tail -n 60 "${log}" >&2
    break
  fi
  rm -f "${log}"
done
exit "${status}"
