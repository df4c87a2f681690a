#!/bin/sh
# Builds and runs a C++ and a C program against the installed shardkit with
# pkg-config only: build_and_run.sh PREFIX WORKDIR CXX CC
set -eu
prefix="$1" work="$2" cxx="$3" cc="$4"
here="$(cd "$(dirname "$0")" && pwd)"
PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name shardkit.pc | head -n 1)")"
export PKG_CONFIG_PATH
mkdir -p "$work"
pkg-config --exists --print-errors 'shardkit >= 0.1'
# shellcheck disable=SC2046
"$cxx" -std=c++20 $(pkg-config --cflags shardkit) "$here/main.cc" -o "$work/consumer" \
  $(pkg-config --libs shardkit)
"$work/consumer"
# A C++23 consumer stays C++23 (the .pc file names no -std=).
# shellcheck disable=SC2046
"$cxx" -std=c++23 -DSHARDKIT_EXPECT_CXX_ABOVE_20 $(pkg-config --cflags shardkit) \
  "$here/main.cc" -o "$work/consumer23" $(pkg-config --libs shardkit)
"$work/consumer23"
# The C API alone, through its own .pc file.
pkg-config --exists --print-errors 'shardkit_c >= 0.1'
libdir="$(pkg-config --variable=libdir shardkit_c)"
# shellcheck disable=SC2046
"$cc" -std=c11 $(pkg-config --cflags shardkit_c) "$here/c_main.c" \
  -o "$work/c_consumer" $(pkg-config --libs shardkit_c) -Wl,-rpath,"$libdir"
"$work/c_consumer"
