// Inputs large along one dimension are read, verified, propagated and
// printed in time linear in that dimension: each of these once took
// minutes (a quadratic algorithm) and now takes well under a second (a few
// seconds in the sanitizer build). bench/input_scaling measures the time
// per element of every dimension; this test keeps the worst offenders from
// coming back.

// 200,000 axes in one dimension sharding, and as replicated axes.
// RUN: python3 -c "n = 200000; axes = ', '.join('\"a%d\"' % i for i in range(n)); print('sdy.mesh @m = <[' + ', '.join('\"a%d\"=1' % i for i in range(n)) + ']>'); print('func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{' + axes + '}]>}, %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{}], replicated={' + axes + '}>}) -> tensor<8xf32> {\n  %0 = stablehlo.add %arg0, %arg1 : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}')" \
// RUN:   | timeout 60 shardkit-opt - -sdy-propagation-pipeline | FileCheck %s --check-prefix=AXES
// AXES: stablehlo.add

// 100,000 attributes on one op.
// RUN: python3 -c "print('func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n  %0 = stablehlo.abs %arg0 {' + ', '.join('a%d = %d' % (i, i) for i in range(100000)) + '} : tensor<8xf32>\n  return %0 : tensor<8xf32>\n}')" \
// RUN:   | timeout 60 shardkit-opt - -sdy-propagation-pipeline | FileCheck %s --check-prefix=ATTRS
// ATTRS: a99999 = 99999

// A rank-20,000 tensor, each dimension sharded on its own axis.
// RUN: python3 -c "n = 20000; t = 'tensor<' + 'x'.join(['1'] * n) + 'xf32>'; print('sdy.mesh @m = <[' + ', '.join('\"a%d\"=1' % i for i in range(n)) + ']>'); print('func.func @f(%arg0: ' + t + ' {sdy.sharding = #sdy.sharding<@m, [' + ', '.join('{\"a%d\"}' % i for i in range(n)) + ']>}) -> ' + t + ' {\n  %0 = stablehlo.abs %arg0 : ' + t + '\n  return %0 : ' + t + '\n}')" \
// RUN:   | timeout 60 shardkit-opt - -sdy-propagation-pipeline | FileCheck %s --check-prefix=RANK
// (The import pipeline removes the size-1 axes, as the reference's does.)
// RANK: stablehlo.abs %arg0
