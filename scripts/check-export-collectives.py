#!/usr/bin/env python3
"""Lowers every module of a directory to collectives and proves them exact.

For each module (each `// -----` chunk of each .mlir file under DIR, default
$SHARDKIT_SHARED/upstream/export, SHARDKIT_SHARED being ../shared next to the
checkout unless set, as for scripts/dev.sh), runs

  shardkit-opt MODULE -sdy-insert-explicit-reshards \\
      -sdy-reshard-to-collectives -sdy-check-collectives

and requires that -sdy-check-collectives reports nothing and that no
`sdy.reshard` is left. Reshards to or from a single device are no
collective's business: such a module must come out without reshards once
-sdy-resolve-single-device-sharding runs before the check. A module that
-sdy-insert-explicit-reshards rejects (e.g. a function argument on a single
device) still has its own reshards lowered and checked. A module of bad input
(one -sdy-verify-unreduced-axes rejects, whose collectives are wrong by
design, or one nothing can lower) is counted as rejected, not as a failure.

  scripts/check-export-collectives.py --tool build/tools/shardkit-opt/shardkit-opt [DIR]

Exit status 0 if every module passes, 1 otherwise (77, ctest's skip, when
DIR does not exist); the last line is
`N checked, P partly checked, M rejected, K failed`.
"""

import argparse
import concurrent.futures
import os
import pathlib
import subprocess
import sys
import tempfile

LOWER = ["-sdy-insert-explicit-reshards", "-sdy-reshard-to-collectives"]
CHECK = ["-sdy-check-collectives"]
RESOLVE = ["-sdy-resolve-single-device-sharding"]


def modules(path):
    """The `// -----` chunks of a file (the RUN lines are ignored)."""
    chunk = []
    for line in path.read_text().splitlines(keepends=True):
        if line.strip() == "// -----":
            yield "".join(chunk)
            chunk = []
        else:
            chunk.append(line)
    yield "".join(chunk)


def run(tool, text, passes):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(text)
        name = f.name
    try:
        proc = subprocess.run([tool, name, *passes], capture_output=True,
                              text=True, timeout=60)
        return proc.returncode, proc.stdout, proc.stderr.replace(name, "")
    finally:
        os.unlink(name)


def check(tool, where, text):
    """(status, message): status is 'ok', 'partial', 'rejected' or 'failed'."""
    passes = LOWER
    code, out, err = run(tool, text, passes + CHECK)
    if code != 0:
        lowered, _, _ = run(tool, text, LOWER)
        valid, _, _ = run(tool, text, ["-sdy-verify-unreduced-axes"])
        if valid != 0:
            return "rejected", f"{where}: rejected as bad input"
        if lowered == 0:
            return "failed", f"{where}: the check failed:\n{err.strip()}"
        # Explicit reshards reject it (e.g. a function argument on a single
        # device): its own reshards are still lowered and checked.
        passes = LOWER[1:]
        code, out, err = run(tool, text, passes + CHECK)
        if code != 0:
            return "rejected", f"{where}: rejected as bad input"
    if "sdy.reshard" not in out:
        return "ok", ""
    # Reshards to or from a single device are left for
    # -sdy-resolve-single-device-sharding, which runs the op on the device.
    code, out, err = run(tool, text, passes + RESOLVE + CHECK)
    if code == 0 and "sdy.reshard" not in out:
        return "ok", ""
    if passes != LOWER:
        return "partial", (f"{where}: explicit reshards reject it; its "
                           "collectives check out, single-device reshards "
                           "stay")
    return "failed", f"{where}: an sdy.reshard is left:\n{out}"


def default_dir():
    shared = os.environ.get("SHARDKIT_SHARED")
    if shared:
        return pathlib.Path(shared) / "upstream" / "export"
    beside = pathlib.Path(__file__).resolve().parents[1].parent / "shared"
    return beside / "upstream" / "export"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True)
    parser.add_argument("dir", nargs="?", default=str(default_dir()))
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("-v", action="store_true",
                        help="also name the modules rejected as bad input")
    args = parser.parse_args()
    root = pathlib.Path(args.dir)
    if not root.is_dir():
        print(f"no directory {root}: skipped", file=sys.stderr)
        return 77
    jobs = []
    for path in sorted(root.rglob("*.mlir")):
        for i, text in enumerate(modules(path)):
            jobs.append((f"{path.relative_to(root)}#{i}", text))
    counts = {"ok": 0, "partial": 0, "rejected": 0, "failed": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        results = pool.map(lambda job: check(args.tool, *job), jobs)
        for status, message in results:
            counts[status] += 1
            if message and (status == "failed" or args.v):
                print(message)
    print(f"{counts['ok']} checked, {counts['partial']} partly checked, "
          f"{counts['rejected']} rejected, {counts['failed']} failed")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
