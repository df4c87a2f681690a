#!/usr/bin/env python3
"""check-core-compile-time: the compile-time budget of the header-only core.

Compiles one translation unit that includes every header under
include/shardkit/core/ (detail/ too) and fails when compiling it costs more
than the budget (default 2 s). What is measured is the compiler's CPU time
(user + system, the driver and everything it runs), not the wall time, so
that other jobs on a shared machine count as little as possible; the
compilation is repeated up to --tries times and the cheapest run counts.

  scripts/check-core-compile-time.py [--compiler g++] [-- FLAGS]
  (FLAGS default to the build's: -std=c++20 -O2 -g)
  (a benchmark, not a test: run it on a quiet machine; docs/performance.md)

It also compiles, alternately with the core, a file that includes only the
standard, Abseil and fmt headers the core headers include (the floor: what
any user of those libraries pays), and prints the difference, the core's
own cost, which compares across machines better than the total.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time


def core_headers(include_dir):
    root = os.path.join(include_dir, "shardkit", "core")
    headers = []
    for dirpath, _, files in os.walk(root):
        for name in files:
            if name.endswith(".h"):
                path = os.path.join(dirpath, name)
                headers.append(os.path.relpath(path, include_dir))
    return sorted(headers)


def external_includes(include_dir, headers):
    """The #include lines of `headers` that name no shardkit header."""
    lines = set()
    for header in headers:
        with open(os.path.join(include_dir, header)) as f:
            for line in f:
                m = re.match(r'\s*#\s*include\s*([<"][^>"]+[>"])', line)
                if m and not m.group(1)[1:].startswith("shardkit/"):
                    lines.add(f"#include {m.group(1)}\n")
    return sorted(lines)


def compile_once(command):
    """Runs `command`; returns (cpu seconds, wall seconds, completed process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compiler", default=os.environ.get("CXX", "g++"))
    ap.add_argument("--include-dir",
                    default=os.path.join(here, "..", "include"))
    ap.add_argument("--budget", type=float, default=2.0,
                    help="seconds of compiler CPU time (default 2)")
    ap.add_argument("--tries", type=int, default=3)
    ap.add_argument("flags", nargs="*",
                    help="compiler flags (after --); default: the build's "
                    "-std=c++20 -O2 -g")
    args = ap.parse_args()
    if not args.flags:
        args.flags = ["-std=c++20", "-O2", "-g"]

    include_dir = os.path.abspath(args.include_dir)
    headers = core_headers(include_dir)
    if not headers:
        print(f"error: no headers under {include_dir}/shardkit/core",
              file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="core-budget-") as tmp:
        def command_for(name, lines):
            source = os.path.join(tmp, name + ".cc")
            with open(source, "w") as f:
                f.writelines(lines)
            return [args.compiler, *args.flags, f"-I{include_dir}", "-c",
                    source, "-o", os.path.join(tmp, name + ".o")]
        core = command_for("all_core_headers",
                           [f'#include "{h}"\n' for h in headers])
        floor = command_for("their_includes",
                            external_includes(include_dir, headers))
        runs, floor_runs = [], []
        for _ in range(max(1, args.tries)):
            for command, into in ((core, runs), (floor, floor_runs)):
                cpu, wall, proc = compile_once(command)
                if proc.returncode != 0:
                    print(" ".join(command), file=sys.stderr)
                    print(proc.stdout + proc.stderr, file=sys.stderr)
                    print("error: the file does not compile", file=sys.stderr)
                    return 1
                into.append((cpu, wall))
            if min(runs)[0] <= args.budget:
                break
    cpu, wall = min(runs)
    floor_cpu = min(floor_runs)[0]
    print(f"{len(headers)} core headers: {cpu:.2f} s CPU ({wall:.2f} s wall), "
          f"budget {args.budget:.2f} s, {len(runs)} run(s); their std, absl "
          f"and fmt includes alone: {floor_cpu:.2f} s; the core's own: "
          f"{cpu - floor_cpu:.2f} s", flush=True)
    if cpu > args.budget:
        print("error: including the core headers costs more than the budget",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
