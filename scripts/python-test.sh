#!/usr/bin/env bash
# The Python package's tests: makes (or reuses) the project's virtual
# environment .venv in the checkout with the pinned tools of
# python/requirements-dev.txt (pytest, nanobind, scikit-build-core, jax and
# jaxlib for the CPU), installs ./python into it, and runs pytest on
# tests/python/.
#
# When the checkout's build (BUILD_DIR, default build) exists, it is
# installed into BUILD_DIR/python-prefix and the extension links its static
# layers (python/CMakeLists.txt, SHARDKIT_PREFIX), building in
# BUILD_DIR/python-ext: only the extension's own files compile. Otherwise
# the extension builds the layers itself, in build-python/. Both folders are
# kept between runs, so a rebuild compiles only what changed, through ccache
# when it is installed. When the package registry cannot be reached and the
# environment lacks a pinned tool, the tests are skipped with a message and
# the script succeeds; any other failure fails it.
#
# Environment: SHARDKIT_VENV (default .venv), PYTHON (default python3, for
# making the venv), JOBS (default nproc), PYTEST_ARGS (extra pytest flags,
# split at spaces).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="${SHARDKIT_VENV:-$root/.venv}"
requirements="$root/python/requirements-dev.txt"
stamp="$venv/.shardkit-requirements"

if [ ! -x "$venv/bin/python" ]; then
  echo "== python: creating $venv"
  "${PYTHON:-python3}" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)

# The pinned tools, installed once per version of the requirements file.
if ! cmp -s "$requirements" "$stamp"; then
  echo "== python: installing $(grep -cv '^#' "$requirements") pinned tools"
  if ! "${pip[@]}" install -q -r "$requirements"; then
    probe="$(mktemp -d)"
    if ! "${pip[@]}" download -q --no-deps --timeout 20 --retries 1 \
        -d "$probe" "$(grep -m1 '^pytest' "$requirements")" >/dev/null 2>&1; then
      rm -rf "$probe"
      echo "python-test.sh: the package registry cannot be reached and" \
           "$venv lacks the pinned tools: Python tests skipped"
      exit 0
    fi
    rm -rf "$probe"
    echo "python-test.sh: error: installing $requirements failed" >&2
    exit 1
  fi
  cp "$requirements" "$stamp"
fi

echo "== python: pip install ./python"
export CMAKE_BUILD_PARALLEL_LEVEL="${JOBS:-$(nproc)}"
start=$SECONDS
build="${BUILD_DIR:-build}"
[[ "$build" = /* ]] || build="$root/$build"
config=()
if [ -f "$build/build.ninja" ] || [ -f "$build/Makefile" ]; then
  # Fails when the build is partial (dev.sh run builds only the tool).
  if cmake --install "$build" --prefix "$build/python-prefix" >/dev/null 2>&1; then
    config=(-C "cmake.define.SHARDKIT_PREFIX=$build/python-prefix"
            -C "build-dir=$build/python-ext")
  else
    echo "-- $build is not fully built: the extension builds the layers itself"
  fi
fi
"${pip[@]}" install -q --no-build-isolation --no-deps "${config[@]}" ./python
echo "-- pip install ./python: $((SECONDS - start)) s"

echo "== python: pytest tests/python"
# shellcheck disable=SC2086
exec "$venv/bin/python" -m pytest -q tests/python ${PYTEST_ARGS:-}
