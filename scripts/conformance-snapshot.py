#!/usr/bin/env python3
"""conformance-snapshot: record what shardkit-opt prints on every upstream case.

Runs the tool stage of every RUN line of every case that lit-check would run
(same case splitting, same substitutions) and writes one file per case and
RUN line with the tool's exit code, stdout and stderr. Two snapshots taken
with different builds are compared with `diff -r`: a refactoring that must
keep outputs byte-identical shows no difference.

  scripts/conformance-snapshot.py --tool build/tools/shardkit-opt/shardkit-opt \
      --out /tmp/snap-before ../shared/upstream
  ... change, rebuild ...
  scripts/conformance-snapshot.py --tool ... --out /tmp/snap-after ../shared/upstream
  diff -r /tmp/snap-before /tmp/snap-after

Only cases whose id is in --only (a lit-check --write-passing file) are run
when it is given.
"""
import argparse
import importlib.machinery
import importlib.util
import os
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


def load_lit_check(path):
    loader = importlib.machinery.SourceFileLoader("lit_check", path)
    spec = importlib.util.spec_from_loader("lit_check", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def tool_commands(runs, tool, case_path):
    """The tool stage of each RUN line, as argument lists."""
    out = []
    for run in runs:
        for stage in run.split("|"):
            words = shlex.split(stage.strip())
            if not words or words[0] not in ("sdy_opt", "mpmd_opt"):
                continue
            words = [w for w in words if w not in ("2>&1", "-split-input-file",
                                                   "--split-input-file")]
            words = [case_path if w == "%s" else w for w in words]
            out.append([tool] + words[1:])
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--tool", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only")
    ap.add_argument("--lit-check",
                    default=os.path.join(here, "..", "..", "shared", "tools", "lit-check"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    lc = load_lit_check(args.lit_check)
    tool = os.path.abspath(args.tool)
    only = None
    if args.only:
        with open(args.only) as f:
            only = {l.strip() for l in f if l.strip() and not l.startswith("#")}
    os.makedirs(args.out, exist_ok=True)
    jobs = []
    for path, id_root in lc.collect(args.paths):
        with open(path, errors="replace") as f:
            text = f.read()
        runs = lc.run_lines(text)
        if not runs:
            continue
        rel = os.path.relpath(path, id_root)
        split_input = any("-split-input-file" in r for r in runs)
        whole_done = False
        for name, case_text in lc.split_cases(text, split_input):
            cid = rel + name.split(" ")[0]
            if only is not None and cid not in only:
                continue
            if isinstance(case_text, tuple):
                # A case of a file run whole (lit-check judges each label's
                # part of one output): the file's output is recorded once.
                if whole_done:
                    continue
                whole_done = True
                cid, case_text = rel + "#whole", text
            jobs.append((cid, runs, case_text))

    workdir = tempfile.mkdtemp(prefix="snapshot-")

    def run_one(job):
        idx, (cid, runs, case_text) = job
        case_path = os.path.join(workdir, f"case{idx}.mlir")
        with open(case_path, "w") as f:
            f.write(case_text)
        parts = []
        for k, cmd in enumerate(tool_commands(runs, tool, case_path)):
            try:
                proc = subprocess.run(cmd, capture_output=True, timeout=60)
                rc, so, se = proc.returncode, proc.stdout, proc.stderr
            except subprocess.TimeoutExpired:
                rc, so, se = "timeout", b"", b""
            se = se.replace(case_path.encode(), b"CASE")
            parts.append(b"== run %d exit %s\n" % (k, str(rc).encode()) + so +
                         b"\n== stderr\n" + se)
        safe = cid.replace("/", "__")
        with open(os.path.join(args.out, safe), "wb") as f:
            f.write(b"".join(parts))
        os.unlink(case_path)

    with ThreadPoolExecutor(max_workers=args.j) as pool:
        list(pool.map(run_one, enumerate(jobs)))
    os.rmdir(workdir)
    print(f"{len(jobs)} cases written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
