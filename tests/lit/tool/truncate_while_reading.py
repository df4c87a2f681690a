"""Cuts a mapped input file in half while shardkit-opt reads it.

Usage: truncate_while_reading.py SHARDKIT_OPT

Each run waits until the tool has mapped the file (its /proc/PID/maps names
it), then cuts the file. Every run must end with exit code 0 (the file was
read before the cut) or 1 with the tool's "changed while it was read", never
by a signal; and at least one of the runs must have been cut while the file
was read.
"""
import os
import subprocess
import sys
import tempfile
import time


def mapped(pid, path):
    try:
        with open(f"/proc/{pid}/maps") as maps:
            return path in maps.read()
    except OSError:
        return False


def main():
    tool = sys.argv[1]
    lines = ["func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {"]
    lines.append("  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>")
    for i in range(1, 400000):
        lines.append(f"  %{i} = stablehlo.add %{i - 1}, %arg0 : tensor<8xf32>")
    lines.append("  return %399999 : tensor<8xf32>\n}\n")
    text = "\n".join(lines).encode()
    hits = 0
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "big.mlir")
        for attempt in range(5):
            with open(path, "wb") as f:
                f.write(text)
            proc = subprocess.Popen([tool, path, "-o", os.devnull],
                                    stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE)
            deadline = time.time() + 60
            while proc.poll() is None and time.time() < deadline:
                if mapped(proc.pid, path):
                    os.truncate(path, len(text) // 2)
                    break
            _, err = proc.communicate(timeout=120)
            err = err.decode(errors="replace")
            cut = "changed while it was read" in err
            if proc.returncode not in (0, 1) or (proc.returncode == 1) != cut:
                print(f"run {attempt}: exit {proc.returncode}\n{err}")
                return 1
            if cut:
                if f"cannot read '{path}'" not in err:
                    print(f"run {attempt}: the error does not name the file\n{err}")
                    return 1
                hits += 1
    if hits == 0:
        print("no run was cut while the file was read")
        return 1
    print(f"{hits} runs cut while reading")
    return 0


if __name__ == "__main__":
    sys.exit(main())
