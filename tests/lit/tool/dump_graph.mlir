// --dump-graph writes the sharded graph instead of the module
// (docs/graph-dump.md); --version prints the version.
// RUN: shardkit-opt %s -sdy-propagation-pipeline --dump-graph=dot \
// RUN:   | FileCheck %s --check-prefix=DOT
// RUN: shardkit-opt %s --dump-graph=json | FileCheck %s --check-prefix=JSON
// RUN: not shardkit-opt %s --dump-graph=svg 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: shardkit-opt --version | FileCheck %s --check-prefix=VERSION

// DOT: digraph shardkit {
// DOT:   subgraph cluster_0 {
// DOT:     label="@main";
// DOT:     v{{[0-9]+}} [shape=ellipse, label="%arg0 : tensor<8x16xf32>\n#sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>"];
// DOT:     op[[DOT:[0-9]+]] [label="%0 : tensor<8x4xf32>\nstablehlo.dot_general\n#sdy.sharding<@mesh, [{}, {}]>"];
// DOT:     v{{[0-9]+}} -> op[[DOT]];
// DOT:     op[[RESHARD:[0-9]+]] [label="%1 : tensor<8x4xf32>\nsdy.reshard\n#sdy.sharding<@mesh, [{}, {}]>", style=filled, fillcolor=gold];
// DOT:     op[[DOT]] -> op[[RESHARD]];

// JSON:      "schema": "shardkit.graph/1",
// JSON:      "meshes": [
// JSON-NEXT:   {"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}], "device_ids": []}
// JSON:      {"id": {{[0-9]+}}, "name": "stablehlo.dot_general", "kind": "op", "parent": null, "location": "{{.*}}dump_graph.mlir:[[@LINE+13]]:3",
// JSON-NEXT:  "operands": ["%arg0", "%arg1"],
// JSON-NEXT:  "results": [{"name": "%0", "type": "tensor<8x4xf32>", "sharding": null}],
// JSON-NEXT:  "rule": "#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=4, k=16} reduction={k}>"}

// BAD: shardkit-opt: error: --dump-graph must be 'dot' or 'json', got 'svg'

// VERSION: shardkit-opt {{[0-9]+\.[0-9]+\.[0-9]+}}

sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %b: tensor<16x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] :
      (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{}, {}]> : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
