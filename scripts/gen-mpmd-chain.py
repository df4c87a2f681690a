#!/usr/bin/env python3
"""Writes an mpmd program of N named computations in a chain over M meshes
(computation k is named s<k mod 4M> and runs on mesh k mod M: the names
repeat, as a loop's iterations do, so the assignment stays short), for
timing mpmd_opt-style pipelines at scale:

  scripts/gen-mpmd-chain.py N [MESHES] > chain.mlir
  shardkit-opt chain.mlir -mpmd-import-pipeline="name-to-mesh-assignment=$(
      scripts/gen-mpmd-chain.py N MESHES --assignment)" \
      -mpmd-optimize-pipeline -mpmd-sharding-propagation-pipeline \
      -mpmd-export-pipeline -o /dev/null

Each computation is a dot and a tanh on a [8, 16] activation with a weight
of its own, so every stage boundary between meshes is a transfer."""
import sys


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0])
    meshes = int(args[1]) if len(args) > 1 else 4
    if "--assignment" in sys.argv:
        names = min(n, 4 * meshes)
        print(",".join(f"s{k}@m{k % meshes}" for k in range(names)))
        return
    topo = ", ".join(f'<"m{i}": <["x"=2]>>' for i in range(meshes))
    act, w = "tensor<8x16xf32>", "tensor<16x16xf32>"
    params = ", ".join([f"%x: {act}"] + [f"%w{k}: {w}" for k in range(n)])
    out = [f"func.func @main({params}) -> {act} attributes {{",
           f"    topology = #mpmd.topology<{topo}>}} {{"]
    prev = "%x"
    names = 4 * meshes
    for k in range(n):
        out += [
            f'  %h{k} = mpmd.named_computation<"s{k % names}"> ({prev}, %w{k})',
            f"      (%a: {act}, %b: {w}) {{",
            f"    %0 = stablehlo.dot %a, %b : ({act}, {w}) -> {act}",
            f"    %1 = stablehlo.tanh %0 : {act}",
            f"    mpmd.return %1 : {act}",
            f"  }} : ({act}, {w}) -> {act}",
        ]
        prev = f"%h{k}"
    out += [f"  return {prev} : {act}", "}"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
