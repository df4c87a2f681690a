#!/usr/bin/env bash
# Installs the Debian packages shardkit builds and tests with. Idempotent:
# installs only what is missing, runs `apt-get update` at most once.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config python3
  libabsl-dev libfmt-dev catch2 libbenchmark-dev
  llvm-14-tools            # FileCheck
  clang-14 libclang-rt-14-dev  # fuzzing and sanitizers
  clang-format-14 clang-tidy-14  # scripts/check-format.sh, tidy-changed.sh
  ccache                   # used when installed: faster rebuilds
  graphviz                 # dot: renders --dump-graph=dot in the tests
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
