#!/usr/bin/env python3
"""run_tutorial.py: runs every command of docs/tutorial.md and checks that it
prints what the tutorial shows.

The tutorial's files are the fenced blocks right after a line
`<!-- file: NAME -->`; they are written to a fresh directory. Its commands
are the ```console blocks: each line `$ COMMAND` is run there with bash
(stderr merged into stdout, `shardkit-opt` being the tool under test), and
the lines after it, up to the next `$ ` line or the end of the block, are
what it must print, exactly. A command that exits non-zero fails the test
unless the block follows `<!-- fails -->`. Stdlib only.

Usage: run_tutorial.py --tool PATH DOC
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

FILE_RE = re.compile(r"^<!-- file: (\S+) -->$")
FENCE_RE = re.compile(r"^```(\w*)$")


def blocks(text):
    """(marker, language, lines) per fenced block; marker is the comment line
    just before it (or '')."""
    lines = text.splitlines()
    out, i = [], 0
    while i < len(lines):
        match = FENCE_RE.match(lines[i])
        if not match or not match.group(1):
            i += 1
            continue
        marker = lines[i - 1] if i > 0 and lines[i - 1].startswith("<!--") else ""
        end = i + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        out.append((marker, match.group(1), lines[i + 1:end]))
        i = end + 1
    return out


def commands(lines):
    """(command, expected lines) per `$ ` line of a console block."""
    out = []
    for line in lines:
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("doc")
    args = parser.parse_args()
    with open(args.doc, encoding="utf-8") as f:
        parsed = blocks(f.read())
    failures, ran = 0, 0
    with tempfile.TemporaryDirectory() as work:
        bin_dir = os.path.join(work, ".bin")
        os.mkdir(bin_dir)
        os.symlink(os.path.abspath(args.tool), os.path.join(bin_dir, "shardkit-opt"))
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
        for marker, language, lines in parsed:
            match = FILE_RE.match(marker)
            if match:
                with open(os.path.join(work, match.group(1)), "w") as f:
                    f.write("\n".join(lines) + "\n")
                continue
            if language != "console":
                continue
            may_fail = marker == "<!-- fails -->"
            for command, expected in commands(lines):
                ran += 1
                result = subprocess.run(["bash", "-c", command + " 2>&1"], cwd=work,
                                        env=env, capture_output=True, text=True)
                got = result.stdout.rstrip("\n").split("\n") if result.stdout else []
                want = list(expected)
                while want and want[-1] == "":
                    want.pop()
                if got != want or (result.returncode != 0 and not may_fail):
                    failures += 1
                    print(f"FAIL: $ {command} (exit {result.returncode})")
                    print("--- the tutorial shows\n" + "\n".join(want))
                    print("--- it printed\n" + "\n".join(got))
    print(f"{ran - failures} passed, {failures} failed")
    if ran == 0:
        sys.exit("run_tutorial.py: no commands found")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
