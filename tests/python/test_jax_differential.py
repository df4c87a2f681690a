"""The differential suite: real JAX programs (jax_programs.py), each lowered
by JAX, propagated by shardkit and compiled by XLA; every argument and
result sharding must equal XLA's, or be a difference listed here and
explained in docs/jax.md."""

import pytest

jax = pytest.importorskip("jax")

import shardkit.jax as skjax  # noqa: E402

from jax_programs import PROGRAMS  # noqa: E402

# (program, "argument"|"result", index) -> the docs/jax.md section that
# explains why shardkit's sharding is not XLA's.
KNOWN_DIFFERENCES = {}


def test_suite_has_at_least_30_programs():
    assert len(PROGRAMS) >= 30


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_xla(name):
    if jax.device_count() < 8:
        pytest.skip("needs --xla_force_host_platform_device_count=8 (conftest.py sets it)")
    jitted, args = PROGRAMS[name]()
    comparison = skjax.compare_with_xla(jitted, *args)
    assert comparison.pairs, name
    unexplained = [p for p in comparison.differences
                   if (name, p.kind, p.index) not in KNOWN_DIFFERENCES]
    assert not unexplained, f"{name}:\n{comparison}"
    stale = [k for k in KNOWN_DIFFERENCES if k[0] == name
             and all(not (p.kind, p.index) == k[1:] or p.equal for p in comparison.pairs)
             and any((p.kind, p.index) == k[1:] for p in comparison.pairs)]
    assert not stale, f"{name}: listed as different but now equal: {stale}"
