#!/bin/sh
# render.sh TOOL INPUT WORKDIR DOT PYTHON: propagates INPUT, renders its
# --dump-graph=dot with Graphviz and checks the --dump-graph=json schema.
set -eu
tool="$1" input="$2" work="$3" dot="$4" python="$5"
mkdir -p "$work"
if [ -z "$dot" ] || [ ! -x "$dot" ]; then
  echo "render.sh: Graphviz 'dot' not found (scripts/install-deps.sh installs graphviz)" >&2
  exit 1
fi
"$tool" "$input" -sdy-propagation-pipeline \
  --dump-graph=dot >"$work/graph.dot"
"$dot" -Tsvg "$work/graph.dot" -o "$work/graph.svg"
grep -q '<svg' "$work/graph.svg"
grep -q "fillcolor=" "$work/graph.dot"  # the constraint is highlighted
"$tool" "$input" -sdy-propagation-pipeline --dump-graph=json >"$work/graph.json"
"$python" - "$work/graph.json" <<'PY'
import json, sys
graph = json.load(open(sys.argv[1]))
assert graph["schema"] == "shardkit.graph/1", graph["schema"]
assert graph["meshes"][0]["axes"][0] == {"name": "x", "size": 2}
ops = graph["functions"][0]["ops"]
assert {"id", "name", "kind", "parent", "location", "operands", "results",
        "rule"} <= set(ops[0]), ops[0]
dot = [op for op in ops if op["name"] == "stablehlo.dot_general"][0]
assert dot["rule"].startswith("#sdy.op_sharding_rule<"), dot["rule"]
assert dot["results"][0]["sharding"] is not None
print("graph dump: DOT renders, JSON has", len(ops), "ops")
PY
