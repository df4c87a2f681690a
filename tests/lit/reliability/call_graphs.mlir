// The call passes check what inlining would build before building it: a
// call DAG of a few kilobytes whose full inlining has 2^60 ops, and a call
// chain deeper than the reader's nesting limit, are located errors, fast.
// (docs/reliability.md, "Budgets" and "Depth")
// RUN: T=$(mktemp -d) && python3 $(dirname %s)/call_graphs.py dag 60 > $T/dag.mlir \
// RUN:   && not shardkit-opt $T/dag.mlir -sdy-flatten-call-graph 2>&1 | FileCheck %s --check-prefix=DAG-FLATTEN \
// RUN:   && not shardkit-opt $T/dag.mlir -sdy-import-func-calls 2>&1 | FileCheck %s --check-prefix=DAG-IMPORT \
// RUN:   && not shardkit-opt $T/dag.mlir -sdy-propagation-pipeline 2>&1 | FileCheck %s --check-prefix=DAG-FLATTEN && rm -rf $T
// DAG-FLATTEN: dag.mlir:1:1: error: 'func.func' op -sdy-flatten-call-graph would make @main {{[0-9]+}} ops, more than the budget of 16777216 ops
// DAG-IMPORT: dag.mlir:1:1: error: 'func.func' op -sdy-import-func-calls would make @main {{[0-9]+}} ops, more than the budget of 16777216 ops

// A DAG within the budget is flattened and imported.
// RUN: python3 $(dirname %s)/call_graphs.py dag 6 | shardkit-opt - -sdy-flatten-call-graph | FileCheck %s --check-prefix=SMALL
// RUN: python3 $(dirname %s)/call_graphs.py dag 6 | shardkit-opt - -sdy-propagation-pipeline -o /dev/null
// SMALL-COUNT-64: stablehlo.negate

// A chain 2,000 calls deep would nest 2,000 named computations: the reader
// could not read the output back, so the pass refuses it; 300 deep is
// imported and the output reads back.
// RUN: T=$(mktemp -d) && python3 $(dirname %s)/call_graphs.py chain 2000 > $T/chain.mlir \
// RUN:   && not shardkit-opt $T/chain.mlir -sdy-import-func-calls 2>&1 | FileCheck %s --check-prefix=DEEP \
// RUN:   && not shardkit-opt $T/chain.mlir -sdy-propagation-pipeline 2>&1 | FileCheck %s --check-prefix=DEEP && rm -rf $T
// DEEP: chain.mlir:1:1: error: 'func.func' op -sdy-import-func-calls would nest regions 2004 levels deep in @main, more than the reader reads back (400)
// RUN: python3 $(dirname %s)/call_graphs.py chain 300 | shardkit-opt - -sdy-import-func-calls | shardkit-opt - | FileCheck %s --check-prefix=READBACK
// READBACK: sdy.named_computation<"f299">
