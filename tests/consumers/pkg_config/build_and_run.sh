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
"$cxx" $(pkg-config --cflags shardkit) "$here/main.cc" -o "$work/consumer" \
  $(pkg-config --libs shardkit)
"$work/consumer"
# The C API alone: its header and -lshardkit_c.
libdir="$(pkg-config --variable=libdir shardkit)"
includedir="$(pkg-config --variable=includedir shardkit)"
"$cc" -std=c11 -I"$includedir" "$here/c_main.c" -o "$work/c_consumer" \
  -L"$libdir" -lshardkit_c -Wl,-rpath,"$libdir"
"$work/c_consumer"
