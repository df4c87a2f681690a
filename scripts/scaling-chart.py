#!/usr/bin/env python3
"""scaling-chart: time per phase and peak memory of shardkit-opt from 1k to 1M ops.

For each size, writes the generated transformer module in generic form
(`shardkit_gen_module OPS --generic16`, what scripts/bench-vs-mlir.sh reads),
runs `shardkit-opt FILE -sdy-propagation-pipeline -mlir-timing -o /dev/null`
RUNS times and keeps the median of each phase (parse, pipeline, print, wall
time) and of the peak resident memory. Phase times are the process's CPU
time (-mlir-timing's second column): on a shared machine wall time includes
waiting for a core. Prints a Markdown table and, with
--svg, draws the chart with gnuplot (Debian's gnuplot-nox); --csv keeps the
figures.

  scripts/scaling-chart.py --runs 7 --svg docs/scaling.svg --csv /tmp/scaling.csv

The chart is drawn by hand and committed (docs/performance.md); nothing in
the build or the tests runs this script.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PHASES = ["parse", "-sdy-propagation-pipeline", "print"]


def run_once(tool, path, threads):
    """Phase times (ms), wall time (ms) and peak RSS (MB) of one run."""
    cmd = [tool, path, "-sdy-propagation-pipeline", "-mlir-timing", "-o",
           os.devnull]
    if threads:
        cmd.append(f"--threads={threads}")
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = (time.monotonic() - start) * 1000
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"scaling-chart: {' '.join(cmd)} failed:\n{stderr}")
    times = {}
    for line in stderr.splitlines():
        # Top-level phases are indented by two spaces only.
        # `  WALL ms  CPU ms  name`; CPU time is what the chart shows (wall
        # time on a shared machine includes waiting for a core).
        m = re.match(r"^\s+([0-9.]+) ms\s+([0-9.]+) ms  (\S.*)$", line)
        if m and m.group(3) in PHASES:
            times[m.group(3)] = float(m.group(2))
    times["wall"] = wall
    times["cpu"] = (usage.ru_utime + usage.ru_stime) * 1000
    times["rss_mb"] = usage.ru_maxrss / 1024
    return times


def measure(build, sizes, runs, threads):
    gen = os.path.join(build, "bench", "shardkit_gen_module")
    tool = os.path.join(build, "tools", "shardkit-opt", "shardkit-opt")
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for ops in sizes:
            path = os.path.join(work, f"m{ops}.mlir")
            with open(path, "w") as f:
                subprocess.run([gen, str(ops), "--generic16"], stdout=f,
                               check=True)
            with open(path) as f:
                n = sum(1 for line in f if " = \"" in line or "\"(" in line)
            samples = [run_once(tool, path, threads) for _ in range(runs)]
            row = {"ops": n, "mb_text": os.path.getsize(path) / 2**20}
            for key in PHASES + ["wall", "cpu", "rss_mb"]:
                row[key] = statistics.median(s.get(key, 0) for s in samples)
            rows.append(row)
            print(f"{ops}: {row}", file=sys.stderr)
            os.unlink(path)
    return rows


def table(rows):
    out = ["| ops | text | parse | pipeline | print | process CPU | wall "
           "| peak RSS |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(
            f"| {r['ops']:,} | {r['mb_text']:.1f} MB | {r['parse']:.1f} ms | "
            f"{r['-sdy-propagation-pipeline']:.1f} ms | {r['print']:.1f} ms | "
            f"{r['cpu']:.0f} ms | {r['wall']:.0f} ms | {r['rss_mb']:.0f} MB |")
    return "\n".join(out)


def draw(rows, csv_path, svg_path, title):
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        sys.exit("scaling-chart: gnuplot not found (apt-get install gnuplot-nox)")
    script = f"""
set terminal svg size 960,420 dynamic font 'sans,12' background '#ffffff'
set output '{svg_path}'
set datafile separator ','
set key top left
set logscale xy
set grid
set format x '%.0s%c'
set multiplot layout 1,2 title '{title}'
set xlabel 'ops'
set ylabel 'CPU milliseconds (median)'
plot '{csv_path}' using 1:3 with linespoints lw 2 title 'parse', \\
     '' using 1:4 with linespoints lw 2 title 'propagation pipeline', \\
     '' using 1:5 with linespoints lw 2 title 'print', \\
     '' using 1:7 with linespoints lw 2 dt 2 title 'process (CPU)', \\
     '' using 1:6 with linespoints lw 1 dt 3 title 'process (wall)'
set ylabel 'MB'
plot '{csv_path}' using 1:8 with linespoints lw 2 title 'peak RSS', \\
     '' using 1:2 with linespoints lw 2 dt 2 title 'input text'
unset multiplot
"""
    subprocess.run([gnuplot], input=script, text=True, check=True)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--build", default=os.path.join(root, "build"))
    ap.add_argument("--sizes", default="1000,10000,100000,1000000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=0,
                    help="pass --threads=N to shardkit-opt (default: its own)")
    ap.add_argument("--csv")
    ap.add_argument("--svg")
    ap.add_argument("--title", default="shardkit-opt -sdy-propagation-pipeline")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = measure(args.build, sizes, args.runs, args.threads)
    print(table(rows))
    csv_path = args.csv
    with tempfile.TemporaryDirectory() as work:
        if not csv_path:
            csv_path = os.path.join(work, "scaling.csv")
        with open(csv_path, "w") as f:
            f.write("# ops,text_mb,parse,pipeline,print,wall,cpu,rss_mb\n")
            for r in rows:
                f.write(f"{r['ops']},{r['mb_text']:.2f},{r['parse']:.2f},"
                        f"{r['-sdy-propagation-pipeline']:.2f},{r['print']:.2f},"
                        f"{r['wall']:.2f},{r['cpu']:.2f},{r['rss_mb']:.2f}\n")
        if args.svg:
            draw(rows, csv_path, os.path.abspath(args.svg), args.title)


if __name__ == "__main__":
    main()
