#!/usr/bin/env python3
"""run_lit.py: runs shardkit's own lit tests (tests/lit/**/*.mlir).

Each test file has one or more `// RUN:` lines (a trailing backslash continues
a line). A RUN line is a shell pipeline run with bash and `pipefail`, after
these substitutions:

  %s            the test file's path
  %t            a path of the test's own in a fresh temporary directory
                (`%t.json`, `%t2` name files beside it)
  shardkit-opt  the tool under test (--tool)
  FileCheck     the FileCheck binary (--filecheck)
  not CMD       succeeds when CMD fails (a shell function)

`-split-input-file` and `-verify-diagnostics` are options of shardkit-opt
itself and are passed through. A file passes when all its RUN lines exit 0;
a file without RUN lines fails. Stdlib only.

Usage: run_lit.py --tool PATH [--filecheck PATH] [-v] FILE_OR_DIR...
The last line printed is 'N passed, M failed'; the exit code is 1 when any
test failed.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

RUN_RE = re.compile(r"^\s*//\s*RUN:\s?(.*)$")
PRELUDE = "not() { if \"$@\"; then return 1; else return 0; fi; }\n"


def run_lines(text):
    """The RUN commands of a file, continuation lines joined."""
    commands, pending = [], ""
    for line in text.splitlines():
        match = RUN_RE.match(line)
        if not match:
            continue
        part = match.group(1).rstrip()
        if part.endswith("\\"):
            pending += part[:-1] + " "
            continue
        commands.append((pending + part).strip())
        pending = ""
    if pending:
        commands.append(pending.strip())
    return commands


def substitute(command, path, tool, filecheck, temp):
    """Replaces %s, %t and the tool names (whole words only)."""
    command = command.replace("%s", shlex.quote(path))
    command = command.replace("%t", shlex.quote(temp))
    command = re.sub(r"(?<![\w/.-])shardkit-opt(?![\w/.-])", shlex.quote(tool), command)
    command = re.sub(r"(?<![\w/.-])FileCheck(?![\w/.-])", shlex.quote(filecheck), command)
    return command


def find_tests(paths):
    tests = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                tests.extend(os.path.join(root, f) for f in sorted(files)
                             if f.endswith(".mlir"))
        else:
            tests.append(path)
    return tests


def find_filecheck(explicit):
    candidates = [explicit] if explicit else [
        "FileCheck", "FileCheck-14", "/usr/lib/llvm-14/bin/FileCheck"]
    for candidate in candidates:
        found = shutil.which(candidate)
        if found:
            return found
    sys.exit("run_lit.py: FileCheck not found (Debian package llvm-14-tools)")


def run_test(path, tool, filecheck, timeout):
    """Returns (passed, report) for one test file."""
    with open(path, encoding="utf-8") as f:
        commands = run_lines(f.read())
    if not commands:
        return False, "no RUN line"
    with tempfile.TemporaryDirectory() as temp_dir:
        temp = os.path.join(temp_dir, os.path.basename(path) + ".tmp")
        for command in commands:
            shell = substitute(command, path, tool, filecheck, temp)
            try:
                result = subprocess.run(
                    ["bash", "-o", "pipefail", "-c", PRELUDE + shell],
                    capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                return False, f"RUN: {command}\ntimed out after {timeout}s"
            if result.returncode != 0:
                return False, (f"RUN: {command}\nexit code {result.returncode}\n"
                               f"{result.stdout}{result.stderr}")
    return True, ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True, help="the shardkit-opt binary")
    parser.add_argument("--filecheck", help="the FileCheck binary")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per RUN line")
    parser.add_argument("-v", action="store_true", help="list passing tests too")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    tool = os.path.abspath(args.tool)
    if not os.access(tool, os.X_OK):
        sys.exit(f"run_lit.py: {tool} is not an executable")
    filecheck = find_filecheck(args.filecheck)
    tests = find_tests(args.paths)
    if not tests:
        sys.exit("run_lit.py: no .mlir tests found")
    passed = failed = 0
    for path in tests:
        ok, report = run_test(path, tool, filecheck, args.timeout)
        if ok:
            passed += 1
            if args.v:
                print(f"PASS {path}")
        else:
            failed += 1
            print(f"FAIL {path}")
            for line in report.rstrip().splitlines():
                print(f"    | {line}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
