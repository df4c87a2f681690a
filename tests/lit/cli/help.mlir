// --help is generated from the flag table: every flag the parser accepts is
// listed with its value placeholder, then the passes; --list-passes prints
// the passes (summary, options) alone.

// RUN: shardkit-opt --help | FileCheck %s --check-prefix=HELP
// HELP:      USAGE: shardkit-opt [options] [FILE|-]
// HELP:      OPTIONS:
// HELP-NEXT:   -o FILE
// HELP-NEXT:   --pass-pipeline=PIPELINE
// HELP:        -verify-each[=BOOL]
// HELP:        -mlir-print-ir-before=PASS[,PASS]
// HELP:        -mlir-print-ir-after=PASS[,PASS]
// HELP:        -mlir-print-ir-before-all
// HELP:        -mlir-print-ir-after-all
// HELP:        -mlir-print-ir-after-failure
// HELP:        --explain-op=NAME|%VALUE
// HELP:        --comm-report=FILE
// HELP:        --list-passes
// HELP:        --help
// HELP:      PASSES
// HELP:        -sdy-propagation-pipeline
// HELP:            enable-insert-explicit-collectives:

// Every flag --help shows is accepted (each is given with a value where it
// takes one, on an input that does not exist: flags are read first).
// RUN: shardkit-opt --help | sed -n 's/^  \(--*[a-z][a-z-]*\).*/\1/p' \
// RUN:   | grep -v -e '^-o$' -e '^-sdy-' -e '^-mpmd-' -e '^-symbol-dce$' -e '^--help$' \
// RUN:     -e '^--version$' -e '^--list-passes$' -e '^--interpret$' > %t.flags
// RUN: test $(wc -l < %t.flags) -ge 20
// RUN: while read flag; do \
// RUN:   out=$(shardkit-opt /no/such/input.mlir "$flag" 2>&1); \
// RUN:   case "$out" in *"unknown option"*) echo "$flag: $out"; exit 1;; esac; \
// RUN: done < %t.flags

// RUN: shardkit-opt --list-passes | FileCheck %s --check-prefix=LIST
// LIST-NOT:  OPTIONS:
// LIST:      -sdy-aggressive-propagate
// LIST-NEXT:     Runs sharding propagation with the aggressive strategy
// LIST-NEXT:       keep-sharding-rules: keep the op sharding rules
// LIST:      -sdy-insert-explicit-reshards
// LIST-NEXT:     Inserts explicit reshards
// LIST-NEXT:       enable-full-version:
