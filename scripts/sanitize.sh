#!/usr/bin/env bash
# The sanitizer build: clang-14 with AddressSanitizer (LeakSanitizer
# included) and UndefinedBehaviorSanitizer, plus libFuzzer's coverage
# instrumentation of the libraries, in one build directory that the
# sanitizer tests and the fuzzers (scripts/fuzz.sh) share, so the libraries
# compile once.
#
#   scripts/sanitize.sh build [TARGET...]  configure if needed, then build
#                                          TARGETs (default: the unit tests,
#                                          shardkit-opt and every fuzzer)
#   scripts/sanitize.sh test               build the unit tests and
#                                          shardkit-opt, then run them, our
#                                          lit tests and the conformance
#                                          suite under the sanitizers
#
# Any sanitizer report (an error, undefined behaviour, a leak at exit) fails
# `test`, even in a conformance case that fails anyway: the reports go to
# files under $SANITIZE_BUILD_DIR/sanitizer-logs, printed at the end.
#
# Environment: SANITIZE_BUILD_DIR (default build-sanitize), JOBS (default
# 2), SHARDKIT_SHARED (as in dev.sh), SANITIZERS (the -fsanitize= list,
# default address,undefined; set when the build directory is configured:
# `undefined` alone in a directory of its own makes fuzzers for long runs
# faster, without ASan's memory checks).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SANITIZE_BUILD_DIR:-${root}/build-sanitize}"
jobs="${JOBS:-2}"
fuzzers=(shardkit_attr_parser_fuzzer shardkit_mesh_fuzzer shardkit_rule_fuzzer
         shardkit_module_reader_fuzzer shardkit_cli_fuzzer
         shardkit_verify_diagnostics_fuzzer shardkit_propagation_fuzzer)

configure() {
  [ -f "${build}/build.ninja" ] && return
  # -O2 for the fuzzers' speed; line tables are enough for sanitizer stack
  # traces and cost far less to compile than full debug information.
  CC=clang-14 CXX=clang++-14 cmake -S "${root}" -B "${build}" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
    -DSHARDKIT_FUZZ=ON -DSHARDKIT_WERROR=ON -DSHARDKIT_BUILD_TESTS=ON \
    -DSHARDKIT_SANITIZERS="${SANITIZERS:-address,undefined}" \
    -DSHARDKIT_BUILD_BENCH=OFF >/dev/null
}

unit_targets() {
  ninja -C "${build}" -t targets all | grep -o '^shardkit_unit_[a-z_]*' |
    sort -u
}

build_targets() {
  configure
  if [ "$#" -eq 0 ]; then
    # shellcheck disable=SC2046
    set -- $(unit_targets) shardkit_opt "${fuzzers[@]}"
  fi
  ninja -C "${build}" -j "${jobs}" "$@"
}

run_tests() {
  local shared="${SHARDKIT_SHARED:-${root}/../shared}"
  local logs="${build}/sanitizer-logs"
  rm -rf "${logs}"
  mkdir -p "${logs}"
  export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:log_path=${logs}/asan"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=${logs}/ubsan"
  local status=0
  echo "== sanitizers: unit and lit tests (ctest in ${build})"
  ctest --test-dir "${build}" -R '^shardkit_(unit_|lit$)' --output-on-failure \
    -j "${jobs}" || status=1
  echo "== sanitizers: conformance (lit-check ${shared}/upstream)"
  "${shared}/tools/lit-check" --quiet \
    --tool "${build}/tools/shardkit-opt/shardkit-opt" \
    --expect "${root}/tests/conformance/expected-pass.txt" \
    "${shared}/upstream" | tail -n 3 || status=1
  if compgen -G "${logs}/*" >/dev/null; then
    echo "sanitize.sh: error: sanitizer reports:" >&2
    for log in "${logs}"/*; do
      echo "--- ${log}" >&2
      head -n 40 "${log}" >&2
    done
    status=1
  fi
  return "${status}"
}

case "${1:-}" in
  build)
    shift
    build_targets "$@"
    ;;
  test)
    # Only what the tests run: the fuzzers are built by scripts/fuzz.sh,
    # for the targets it is asked to run.
    configure
    # shellcheck disable=SC2046
    build_targets $(unit_targets) shardkit_opt
    run_tests
    ;;
  *)
    echo "usage: scripts/sanitize.sh build [TARGET...] | test" >&2
    exit 2
    ;;
esac
