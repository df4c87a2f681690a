#!/usr/bin/env bash
# Builds the attribute-parser fuzzer with clang-14 (libFuzzer + ASan + UBSan)
# in build-fuzz/ and runs it for N seconds (default 60) on a copy of the seed
# corpus, so the seeds in the tree stay as written.
#
#   scripts/fuzz.sh [seconds] [extra libFuzzer flags...]
#   e.g. scripts/fuzz.sh 0 -runs=10000000    (a fixed number of executions)
#
# New inputs found during the run stay in the temporary corpus directory,
# which is printed at the end; crash inputs are written to build-fuzz/.
set -euo pipefail

seconds="${1:-60}"
shift || true
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${root}/build-fuzz"

if [ ! -f "${build}/build.ninja" ]; then
  CC=clang-14 CXX=clang++-14 cmake -S "${root}" -B "${build}" -G Ninja \
    -DSHARDKIT_FUZZ=ON -DSHARDKIT_WERROR=ON -DSHARDKIT_BUILD_TESTS=OFF \
    -DSHARDKIT_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
ninja -C "${build}" -j2 attr_parser_fuzzer

corpus="$(mktemp -d -t shardkit-fuzz-corpus.XXXXXX)"
cp "${root}"/tests/fuzz/corpus/attr/* "${corpus}/"

time_flag=()
if [ "${seconds}" != "0" ]; then time_flag=(-max_total_time="${seconds}"); fi

cd "${build}"
status=0
./tests/fuzz/attr_parser_fuzzer "${time_flag[@]}" -max_len=4096 \
  -print_final_stats=1 "$@" "${corpus}" || status=$?
echo "fuzz: corpus kept in ${corpus}"
exit "${status}"
