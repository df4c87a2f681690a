// An op without a sharding rule that touches a sharded value stops
// propagation: a warning says so, once per op name and propagation, at the
// first such op. -verify-diagnostics does not see it (the reference emits
// no such diagnostic), and a rule attached to the op silences it.

// RUN: shardkit-opt %s -sdy-aggressive-propagate 2>&1 >/dev/null | FileCheck %s
// CHECK:     no_rule_warning.mlir:[[# @LINE + 17]]:3: warning: 'my.scale' has no sharding rule, so propagation does not pass through it (warned once per op name); give it an attribute sdy.sharding_rule or register a rule (registerOpRule, docs/rules.md)
// CHECK-NOT: 'my.scale' has no sharding rule
// CHECK-NOT: 'my.unsharded'
// CHECK-NOT: func.call

// RUN: shardkit-opt %s -sdy-aggressive-propagate -verify-diagnostics 2>&1 | FileCheck %s --check-prefix=VERIFY --allow-empty
// VERIFY-NOT: warning

// With a rule on each op, propagation passes through and nothing is said.
// RUN: sed 's/"my.scale"(%\([a-z]*\)) :/"my.scale"(%\1) {sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {i=8, j=32}, custom>} :/' %s \
// RUN:   | shardkit-opt - -sdy-aggressive-propagate 2>%t.err | FileCheck %s --check-prefix=RULE
// RUN: not grep warning %t.err
// RULE: stablehlo.tanh %{{.*}} {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>}

sdy.mesh @mesh = <["x"=4]>

func.func @main(%x: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %y: tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %a = "my.scale"(%x) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %b = "my.scale"(%a) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %c = stablehlo.tanh %b : tensor<8x32xf32>
  %d = "my.unsharded"(%y) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %e = func.call @callee(%d) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  return %c, %e : tensor<8x32xf32>, tensor<8x32xf32>
}

func.func private @callee(%arg0: tensor<8x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x32xf32> {
  return %arg0 : tensor<8x32xf32>
}
