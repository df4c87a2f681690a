#!/usr/bin/env python3
"""Writes call graphs that stress the call passes to stdout.

  call_graphs.py dag N     @main calls @f0; each @fI calls @f(I+1) twice,
                           so inlining everything makes 2^N copies of @fN
  call_graphs.py chain N   @main calls @f0; each @fI calls @f(I+1) once
  call_graphs.py collectives N
                           a function with a chain of N collectives, each
                           reading the one before (all_gather / all_slice)
"""
import sys

T = "tensor<4xf32>"


def func(name, calls, private=True):
    lines = [f"func.func {'private ' if private else ''}@{name}(%a: {T}) -> {T} {{"]
    value = "%a"
    for i, callee in enumerate(calls):
        lines.append(f"  %{i} = call @{callee}({value}) : ({T}) -> {T}")
        value = f"%{i}"
    if not calls:
        lines.append(f"  %0 = stablehlo.negate %a : {T}")
        value = "%0"
    lines.append(f"  return {value} : {T}")
    lines.append("}")
    return "\n".join(lines)


def call_graph(n, fanout):
    out = [func("main", ["f0"], private=False)]
    for i in range(n):
        out.append(func(f"f{i}", [f"f{i + 1}"] * fanout))
    out.append(func(f"f{n}", []))
    return "\n".join(out)


def collectives(n):
    lines = ['sdy.mesh @mesh = <["x"=2]>',
             f'func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}]>}}) -> {T} {{']
    value = "%arg0"
    for i in range(n):
        if i % 2 == 0:
            op = f'sdy.all_gather [{{"x"}}] {value} out_sharding=<@mesh, [{{}}]>'
        else:
            op = f'sdy.all_slice [{{"x"}}] {value} out_sharding=<@mesh, [{{"x"}}]>'
        lines.append(f"  %{i} = {op} : {T}")
        value = f"%{i}"
    lines.append(f"  return {value} : {T}")
    lines.append("}")
    return "\n".join(lines)


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    if kind == "dag":
        print(call_graph(n, 2))
    elif kind == "chain":
        print(call_graph(n, 1))
    elif kind == "collectives":
        print(collectives(n))
    else:
        sys.exit(f"unknown kind {kind}")


if __name__ == "__main__":
    main()
