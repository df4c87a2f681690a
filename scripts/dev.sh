#!/usr/bin/env bash
# One entry point for developers and CI.
#
#   scripts/dev.sh run    install what is missing, build, run shardkit-opt on
#                         examples/propagation.mlir and print the result
#   scripts/dev.sh test   check formatting (scripts/check-format.sh) and that
#                         op names stay in the op registry
#                         (scripts/check-op-names.sh), build as above, run
#                         clang-tidy on the changed sources
#                         (scripts/tidy-changed.sh, at most TIDY_MAX_FILES), then
#                         every test: unit tests and our lit tests (ctest),
#                         the conformance suite in
#                         ../shared/upstream (lit-check --expect); then, when
#                         clang-14 is installed, the same tests in the
#                         sanitizer build (scripts/sanitize.sh test: ASan,
#                         UBSan, LSan) and a short fuzzing run in that build
#                         (scripts/fuzz.sh; by default the mesh target)
#
# Environment: BUILD_DIR (default build), JOBS (default nproc),
# SHARDKIT_SHARED (default ../shared next to the checkout),
# SANITIZE (default 1; 0 skips the sanitizer tests), FUZZ_SECONDS (default
# 60, the budget of all fuzz targets together; 0 skips fuzzing),
# FUZZ_TARGETS (default mesh; see scripts/fuzz.sh for the others),
# TIDY_MAX_FILES (default 6, about 15 s a file: CI stays under 30 min; 0 skips
# clang-tidy).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${BUILD_DIR:-build}"
jobs="${JOBS:-$(nproc)}"

shared="${SHARDKIT_SHARED:-$root/../shared}"

# Runs "$@", then says how long it took: CI's log shows where its time goes.
timed() {
  local start=$SECONDS
  "$@"
  echo "-- ${1##*/}: $((SECONDS - start)) s"
}

setup_and_build() {
  scripts/install-deps.sh
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSHARDKIT_WERROR=ON >/dev/null
  cmake --build "$build" -j "$jobs"
}

run_example() {
  local tool="$build/tools/shardkit-opt/shardkit-opt"
  echo "== shardkit-opt examples/propagation.mlir -sdy-propagation-pipeline"
  "$tool" examples/propagation.mlir -sdy-propagation-pipeline
}

run_tests() {
  echo "== unit and lit tests (ctest)"
  timed ctest --test-dir "$build" --output-on-failure -j "$jobs"
  if [ -x "$shared/tools/lit-check" ]; then
    echo "== conformance: lit-check $shared/upstream"
    timed "$shared/tools/lit-check" --quiet \
      --tool "$build/tools/shardkit-opt/shardkit-opt" \
      --expect tests/conformance/expected-pass.txt "$shared/upstream"
  else
    echo "dev.sh: error: $shared/tools/lit-check not found (set SHARDKIT_SHARED)" >&2
    exit 1
  fi
  if ! command -v clang++-14 >/dev/null 2>&1; then
    echo "dev.sh: clang++-14 not installed: no sanitizer tests, no fuzzing"
    return
  fi
  if [ "${SANITIZE:-1}" != 0 ]; then
    JOBS="$jobs" timed scripts/sanitize.sh test
  fi
  local seconds="${FUZZ_SECONDS:-60}"
  if [ "$seconds" != 0 ]; then
    local targets="${FUZZ_TARGETS:-mesh}"
    echo "== fuzzing, ${seconds}s for: ${targets} (scripts/fuzz.sh)"
    FUZZ_TARGETS="$targets" JOBS="$jobs" timed scripts/fuzz.sh "$seconds"
  fi
}

case "${1:-}" in
  run)
    setup_and_build
    run_example
    ;;
  test)
    scripts/install-deps.sh
    echo "== formatting (scripts/check-format.sh)"
    scripts/check-format.sh
    echo "== op names (scripts/check-op-names.sh)"
    scripts/check-op-names.sh
    timed setup_and_build
    run_example >/dev/null
    if [ "${TIDY_MAX_FILES:-6}" != 0 ]; then
      echo "== clang-tidy on changed sources (scripts/tidy-changed.sh)"
      TIDY_MAX_FILES="${TIDY_MAX_FILES:-6}" timed scripts/tidy-changed.sh "$build"
    fi
    run_tests
    echo "== dev.sh test: passed in ${SECONDS} s"
    ;;
  *)
    echo "usage: scripts/dev.sh run|test" >&2
    exit 2
    ;;
esac
