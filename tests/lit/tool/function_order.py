#!/usr/bin/env python3
"""function_order.py reverse|sort FILE: helps determinism.mlir compare
outputs across function orders. FILE ('-' for stdin) is a module as
shardkit-opt prints it: top-level ops indented by two spaces, each function
ending at its `  }` line.

  reverse  prints the module with its functions in reverse order (other
           top-level ops, e.g. meshes, stay first)
  sort     prints the top-level ops (functions whole), sorted: the same text
           for two modules that differ only in the order of their functions
"""
import sys


def top_level_ops(text):
    lines = text.splitlines()
    assert lines[0].startswith("module") and lines[-1] == "}", "not a module"
    ops, current = [], None
    for line in lines[1:-1]:
        if current is not None:
            current.append(line)
            if line == "  }":
                ops.append("\n".join(current))
                current = None
        elif line.startswith("  func.func") and line.endswith("{"):
            current = [line]
        else:
            ops.append(line)
    assert current is None, "unterminated function"
    return ops


def main():
    mode, path = sys.argv[1], sys.argv[2]
    text = sys.stdin.read() if path == "-" else open(path).read()
    ops = top_level_ops(text)
    if mode == "reverse":
        funcs = [op for op in ops if op.startswith("  func.func")]
        others = [op for op in ops if not op.startswith("  func.func")]
        print("\n".join(["module {"] + others + funcs[::-1] + ["}"]))
    else:
        print("\n".join(sorted(ops)))


if __name__ == "__main__":
    main()
