"""Cuts a mapped input file short while shardkit-opt reads it.

Usage: truncate_while_reading.py SHARDKIT_OPT

Each run waits until the tool has mapped the file (its /proc/PID/smaps names
it) and cuts it: at a page boundary (the pages past it fault: SIGBUS), or in
the middle of a page (that page reads as NULs past the cut, with no fault).
Every run must end with exit code 0 (the file was read before the cut) or 1
with the tool's "changed while it was read" and nothing else, never by a
signal; and at least one run of each kind must have been cut while the file
was read.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

PAGE = os.sysconf("SC_PAGE_SIZE")


def mapped(pid, path, written):
    """Whether PID has mapped PATH; with `written`, also whether it has
    written the NUL after the text (the mapping's last page is then the
    process's own: smaps counts it as anonymous)."""
    try:
        with open(f"/proc/{pid}/smaps") as smaps:
            entries = smaps.read().split("\n")
    except OSError:
        return False
    # The writable last page is a mapping of its own.
    for i, line in enumerate(entries):
        if not line.endswith(path):
            continue
        if not written:
            return True
        for field in entries[i + 1:]:
            if field.startswith("Anonymous:"):
                if int(field.split()[1]) > 0:
                    return True
                break
    return False


def module_text():
    lines = ["func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {"]
    lines.append("  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>")
    for i in range(1, 400000):
        lines.append(f"  %{i} = stablehlo.add %{i - 1}, %arg0 : tensor<8xf32>")
    lines.append("  return %399999 : tensor<8xf32>\n}\n")
    return "\n".join(lines).encode()


def run_once(tool, path, text, cut, delay):
    """Runs the tool on a fresh copy of TEXT at PATH and cuts it to CUT bytes:
    with `delay` None, as soon as it is mapped (the tool stopped meanwhile);
    otherwise `delay` seconds after the NUL past the text is written. Returns
    whether the run was cut while reading, or an error."""
    with open(path, "wb") as f:
        f.write(text)
    proc = subprocess.Popen([tool, path, "-o", os.devnull],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while proc.poll() is None and time.time() < deadline:
        if mapped(proc.pid, path, written=delay is not None):
            if delay is None:
                proc.send_signal(signal.SIGSTOP)
                os.truncate(path, cut)
                proc.send_signal(signal.SIGCONT)
            else:
                time.sleep(delay)
                os.truncate(path, cut)
            break
    _, err = proc.communicate(timeout=120)
    err = err.decode(errors="replace")
    was_cut = "changed while it was read" in err
    if proc.returncode not in (0, 1) or (proc.returncode == 1) != was_cut:
        return f"exit {proc.returncode}\n{err}"
    if was_cut:
        expected = (f"shardkit-opt: error: cannot read '{path}': "
                    "the file changed while it was read\n")
        if err != expected:
            return f"expected only:\n{expected}got:\n{err}"
    return was_cut


def main():
    tool = sys.argv[1]
    text = module_text()
    aligned = len(text) // 2 // PAGE * PAGE
    # A cut at a page boundary as soon as the file is mapped: the NUL the
    # tool writes past the text faults (SIGBUS). Cuts mid-page a little
    # after that NUL is written: the line index is built by then and the
    # reader meets NULs at the cut, with no fault, before its end.
    runs = [("page boundary", aligned, None)] * 2
    runs += [("mid-page", aligned + PAGE // 2, d) for d in (0.005, 0.02, 0.05)]
    hits = {kind: 0 for kind, _, _ in runs}
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, "big.mlir")
        for kind, cut, delay in runs:
            result = run_once(tool, path, text, cut, delay)
            if isinstance(result, str):
                print(f"{kind} cut (delay {delay}): {result}")
                return 1
            hits[kind] += bool(result)
    for kind, count in hits.items():
        if count == 0:
            print(f"no {kind} cut happened while the file was read")
            return 1
        print(f"{kind}: {count} runs cut while reading")
    return 0


if __name__ == "__main__":
    sys.exit(main())
