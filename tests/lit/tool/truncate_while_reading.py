"""Cuts a mapped input file in half while shardkit-opt reads it.

Usage: truncate_while_reading.py SHARDKIT_OPT

Every run must end with exit code 0 (the file was read before the cut) or 1
with an error (a parse error when the cut came before the file was opened,
or the tool's "changed while it was read"), never by a signal; and of runs
cut at delays from 1 ms to 0.3 s at least one must hit the read itself.
"""
import os
import subprocess
import sys
import tempfile
import time


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
        for delay in (0.001, 0.005, 0.01, 0.02, 0.04, 0.08, 0.15, 0.3):
            with open(path, "wb") as f:
                f.write(text)
            proc = subprocess.Popen([tool, path, "-o", os.devnull],
                                    stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE)
            time.sleep(delay)
            os.truncate(path, len(text) // 2)
            _, err = proc.communicate(timeout=120)
            err = err.decode(errors="replace")
            if proc.returncode < 0 or proc.returncode not in (0, 1):
                print(f"delay {delay}: exit {proc.returncode}\n{err}")
                return 1
            if proc.returncode == 1 and "error:" not in err:
                print(f"delay {delay}: exit 1 without an error\n{err}")
                return 1
            if "changed while it was read" in err:
                if f"cannot read '{path}'" not in err:
                    print(f"delay {delay}: the error does not name the file\n{err}")
                    return 1
                hits += 1
    if hits == 0:
        print("no run was cut while the file was read")
        return 1
    print(f"{hits} runs cut while reading")
    return 0


if __name__ == "__main__":
    sys.exit(main())
