#!/usr/bin/env bash
# One entry point for developers and CI.
#
#   scripts/dev.sh run    install what is missing, build shardkit-opt (only
#                         the tool and its libraries), run it on
#                         examples/propagation.mlir and print the result
#   scripts/dev.sh test   check formatting (scripts/check-format.sh) and that
#                         op names stay in the op registry
#                         (scripts/check-op-names.sh), build as above, run
#                         clang-tidy on the changed sources
#                         (scripts/tidy-changed.sh, within TIDY_SECONDS), then
#                         every test: unit tests and our lit tests (ctest),
#                         the Python package's tests (scripts/python-test.sh:
#                         pip install ./python into .venv, pytest),
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
# TIDY_SECONDS (default 300: clang-tidy checks every changed file, then the
# rest of the tree for that long; 0 checks only the changed files).
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

# Installs what is missing, configures, and builds "$@" (default: all).
setup_and_build() {
  scripts/install-deps.sh
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSHARDKIT_WERROR=ON >/dev/null
  if [ $# -eq 0 ]; then
    cmake --build "$build" -j "$jobs"
  else
    cmake --build "$build" -j "$jobs" --target "$@"
  fi
}

run_example() {
  local tool="$build/tools/shardkit-opt/shardkit-opt"
  echo "== shardkit-opt examples/propagation.mlir -sdy-propagation-pipeline"
  "$tool" examples/propagation.mlir -sdy-propagation-pipeline
}

run_tests() {
  echo "== unit and lit tests (ctest)"
  timed ctest --test-dir "$build" --output-on-failure -j "$jobs"
  echo "== python package (scripts/python-test.sh)"
  JOBS="$jobs" timed scripts/python-test.sh
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
    # Only what the example needs: the tool and the libraries it links.
    setup_and_build shardkit-opt
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
    echo "== clang-tidy (scripts/tidy-changed.sh)"
    TIDY_SECONDS="${TIDY_SECONDS:-300}" timed scripts/tidy-changed.sh "$build"
    run_tests
    echo "== dev.sh test: passed in ${SECONDS} s"
    ;;
  *)
    echo "usage: scripts/dev.sh run|test" >&2
    exit 2
    ;;
esac
