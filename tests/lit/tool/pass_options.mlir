// Flags and pass options are checked once, before any input is read: one
// `shardkit-opt: error:` line and exit 1, however many chunks the input has
// and even if the input does not exist.

// RUN: not shardkit-opt %s -split-input-file '-sdy-aggressive-propagate=keep-sharding-rules=yes' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOOL --implicit-check-not=error --implicit-check-not=-----
// BOOL: shardkit-opt: error: pass '-sdy-aggressive-propagate' option 'keep-sharding-rules' expects true or false, got 'yes'

// RUN: not shardkit-opt /no/such/file.mlir '-sdy-propagation-pipeline=propagation-strategy=greedy' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHOICE --implicit-check-not=error
// CHOICE: shardkit-opt: error: pass '-sdy-propagation-pipeline' option 'propagation-strategy' expects one of 'aggressive', 'basic', 'basic-then-aggressive', got 'greedy'

// RUN: not shardkit-opt /no/such/file.mlir '-sdy-aggressive-propagate=no-such-option=1' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KEY
// KEY: shardkit-opt: error: pass '-sdy-aggressive-propagate' has no option 'no-such-option'

// RUN: not shardkit-opt %s '-sdy-aggressive-propagate=module-dump-directory={a' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BRACE
// BRACE: shardkit-opt: error: invalid pass options 'module-dump-directory={a': unbalanced '{'

// RUN: not shardkit-opt %s '-sdy-aggressive-propagate=module-dump-directory="a' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=QUOTE
// QUOTE: shardkit-opt: error: unterminated quote in pass options

// Booleans are read as LLVM's command line reads them.
// RUN: for v in true TRUE True 1 false FALSE False 0; do \
// RUN:   shardkit-opt %s -sdy-aggressive-propagate=keep-sharding-rules=$v >/dev/null || exit 1; done
// RUN: shardkit-opt %s -sdy-aggressive-propagate=keep-sharding-rules >/dev/null

// Bytes that are not printable UTF-8 are escaped in messages.
// RUN: not shardkit-opt %s "$(printf -- '-sdy-aggressive-propagate=a\001\377b')" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BYTES
// BYTES: has no option 'a\01\FFb'
// RUN: printf 'func.func @f(%%a: tensor<2xf32> {sdy.sharding=#sdy.sharding<@"m\351\000\303\251", [{}]>}) {\n  return\n}\n' \
// RUN:   | not shardkit-opt - 2>&1 | FileCheck %s --check-prefix=INPUT
// INPUT: <stdin>:1:1: error: 'func.func' op arg 0 - unknown mesh: @m\E9\00é

// Unknown flags, a missing -o argument and two inputs.
// RUN: not shardkit-opt %s -no-such-flag 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: shardkit-opt: error: unknown option or pass '-no-such-flag' (see --help)
// RUN: not shardkit-opt %s -o 2>&1 | FileCheck %s --check-prefix=NOOUT
// NOOUT: shardkit-opt: error: option '-o' requires a value (-o FILE)
// RUN: not shardkit-opt %s %s 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: shardkit-opt: error: more than one input file

func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}

// -----

func.func @other(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  return %arg0 : tensor<8xf32>
}
