// Mistakes on the command line, each one line before any input is read:
// a flag that needs a value, a value where none is taken, and suggestions
// of the nearest flag or pass (edit distance) for a mistyped one.

// RUN: not shardkit-opt /no/such/input.mlir --comm-report 2>&1 | FileCheck %s --check-prefix=COMM
// COMM: shardkit-opt: error: option '--comm-report' requires a value (--comm-report=FILE)
// RUN: not shardkit-opt /no/such/input.mlir --comm-report= 2>&1 | FileCheck %s --check-prefix=COMM
// RUN: not shardkit-opt /no/such/input.mlir --explain-op 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// EXPLAIN: shardkit-opt: error: option '--explain-op' requires a value (--explain-op=NAME|%VALUE)
// RUN: not shardkit-opt /no/such/input.mlir -mlir-print-ir-after 2>&1 | FileCheck %s --check-prefix=AFTER
// AFTER: shardkit-opt: error: option '-mlir-print-ir-after' requires a value (-mlir-print-ir-after=PASS[,PASS])
// RUN: not shardkit-opt /no/such/input.mlir --help=yes 2>&1 | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: shardkit-opt: error: option '--help' takes no value
// RUN: not shardkit-opt /no/such/input.mlir -mlir-print-ir-after-all=maybe 2>&1 | FileCheck %s --check-prefix=BOOL
// BOOL: shardkit-opt: error: option '-mlir-print-ir-after-all' takes true or false, got 'maybe'

// A mistyped pass or flag gets the nearest name, with its own dashes.
// RUN: not shardkit-opt /no/such/input.mlir -sdy-propagation-pipelin 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: shardkit-opt: error: unknown option or pass '-sdy-propagation-pipelin'; did you mean '-sdy-propagation-pipeline'? (see --help)
// RUN: not shardkit-opt /no/such/input.mlir -sdy-agressive-propagate=keep-sharding-rules=true 2>&1 | FileCheck %s --check-prefix=OPTS
// OPTS: unknown option or pass '-sdy-agressive-propagate=keep-sharding-rules=true'; did you mean '-sdy-aggressive-propagate'?
// RUN: not shardkit-opt /no/such/input.mlir -comm-reprt=- 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: shardkit-opt: error: unknown option or pass '-comm-reprt=-'; did you mean '--comm-report'? (see --help)
// RUN: not shardkit-opt /no/such/input.mlir -mlir-print-ir-afterall 2>&1 | FileCheck %s --check-prefix=IRFLAG
// IRFLAG: did you mean '-mlir-print-ir-after-all'?
// An unrelated word gets no suggestion.
// RUN: not shardkit-opt /no/such/input.mlir -frobnicate 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: shardkit-opt: error: unknown option or pass '-frobnicate' (see --help)

// Pass names given as values are checked too.
// RUN: not shardkit-opt /no/such/input.mlir -mlir-print-ir-before=sdy-basic-propagat 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BEFORE
// BEFORE: shardkit-opt: error: -mlir-print-ir-before: unknown pass 'sdy-basic-propagat'; did you mean 'sdy-basic-propagate'?
// RUN: not shardkit-opt /no/such/input.mlir '--pass-pipeline=builtin.module(sdy-add-data-flow-edge)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PIPE
// PIPE: shardkit-opt: error: unknown pass 'sdy-add-data-flow-edge' in pipeline 'builtin.module(sdy-add-data-flow-edge)'; did you mean 'sdy-add-data-flow-edges'?

// A mistyped pass option gets the nearest option of that pass.
// RUN: not shardkit-opt /no/such/input.mlir -sdy-aggressive-propagate=keep-sharding-rule=true 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPTION
// OPTION: shardkit-opt: error: pass '-sdy-aggressive-propagate' has no option 'keep-sharding-rule'; did you mean 'keep-sharding-rules'?
// RUN: not shardkit-opt /no/such/input.mlir '--pass-pipeline=sdy-propagation-pipeline{enable-insert-explicit-collective=true}' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PIPEOPTION
// PIPEOPTION: has no option 'enable-insert-explicit-collective'; did you mean 'enable-insert-explicit-collectives'?
