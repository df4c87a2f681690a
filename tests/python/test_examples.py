"""examples/python/'s JAX scripts run and print what they promise."""

import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("jax")

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "jax"


def run(name, *args):
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8")
    out = subprocess.run([sys.executable, str(EXAMPLES / name), *args], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_explain():
    out = run("explain.py")
    assert "factor table of" in out and "stablehlo.dot_general" in out
    assert "where each axis came from" in out


def test_comm_report():
    out = run("comm_report.py")
    assert '"op": "sdy.all_to_all"' in out and '"total_bytes_received_per_device"' in out


def test_draw_graph(tmp_path):
    target = tmp_path / "g.dot"
    run("draw_graph.py", str(target))
    assert target.read_text().startswith("digraph")
