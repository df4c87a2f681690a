#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (libFuzzer + ASan + UBSan) in
# build-fuzz/ and runs each for N seconds (default 60) on a copy of its seed
# corpus, so the seeds in the tree stay as written:
#   attr_parser_fuzzer    the attribute parser (tests/fuzz/corpus/attr)
#   module_reader_fuzzer  the module reader and writer (tests/fuzz/corpus/module)
#
#   scripts/fuzz.sh [seconds] [extra libFuzzer flags...]
#   e.g. scripts/fuzz.sh 0 -runs=10000000    (a fixed number of executions)
#   FUZZ_TARGETS=module_reader_fuzzer scripts/fuzz.sh 600   (one target)
#
# New inputs found during a run stay in the temporary corpus directory,
# which is printed at the end; crash inputs are written to build-fuzz/.
set -euo pipefail

seconds="${1:-60}"
shift || true
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${root}/build-fuzz"
targets="${FUZZ_TARGETS:-attr_parser_fuzzer module_reader_fuzzer}"

if [ ! -f "${build}/build.ninja" ]; then
  CC=clang-14 CXX=clang++-14 cmake -S "${root}" -B "${build}" -G Ninja \
    -DSHARDKIT_FUZZ=ON -DSHARDKIT_WERROR=ON -DSHARDKIT_BUILD_TESTS=OFF \
    -DSHARDKIT_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
# shellcheck disable=SC2086
ninja -C "${build}" -j2 $(printf 'shardkit_%s ' ${targets})

time_flag=()
if [ "${seconds}" != "0" ]; then time_flag=(-max_total_time="${seconds}"); fi

status=0
cd "${build}"
for target in ${targets}; do
  case "${target}" in
    attr_parser_fuzzer) seeds=attr ;;
    module_reader_fuzzer) seeds=module ;;
    *) echo "fuzz.sh: error: unknown target ${target}" >&2; exit 2 ;;
  esac
  corpus="$(mktemp -d -t "shardkit-fuzz-${seeds}.XXXXXX")"
  cp "${root}/tests/fuzz/corpus/${seeds}"/* "${corpus}/"
  echo "== ${target}"
  "./tests/fuzz/${target}" "${time_flag[@]}" -max_len=4096 \
    -print_final_stats=1 "$@" "${corpus}" || status=$?
  echo "fuzz: ${target} corpus kept in ${corpus}"
  [ "${status}" = 0 ] || break
done
exit "${status}"
