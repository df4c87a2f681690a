// --comm-report and --dump-graph=json are valid JSON (hence UTF-8) whatever
// bytes the input held: here a file name with a byte that is not UTF-8,
// which every location quotes. Such a byte is written as U+FFFD.
// RUN: T=$(mktemp -d) && cp %s "$T/bad$(printf '\377').mlir" \
// RUN:   && shardkit-opt "$T"/bad*.mlir -o /dev/null --comm-report=$T/report.json \
// RUN:   && shardkit-opt "$T"/bad*.mlir --dump-graph=json > $T/graph.json \
// RUN:   && python3 -c "import json, sys; [json.load(open(f, encoding='utf-8')) for f in sys.argv[1:]]" $T/report.json $T/graph.json \
// RUN:   && grep -q 'bad\\ufffd.mlir' $T/report.json && grep -q 'bad\\ufffd.mlir' $T/graph.json && rm -rf $T
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %0 = sdy.all_gather [{"x"}] %arg0 out_sharding=<@mesh, [{}]> : tensor<8xf32>
  return %0 : tensor<8xf32>
}
