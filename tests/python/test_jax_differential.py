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

# The programs whose main, after propagation, has the same values (result
# types in order) in shardkit's module and in XLA's: every op's sharding is
# compared there. In the others XLA's import has rewritten ops (dot_general
# to dot, expanded or fused elementwise chains, constants), so values do
# not line up one to one.
ALIGNED = {
    "all_unsharded_with_constraint", "batched_einsum", "concat_sharded_dim", "concatenate",
    "cond", "conflict_same_axis", "constraint_then_reduce", "contracting_both_sharded",
    "conv2d_batch", "custom_partitioning_reduction_rule", "custom_partitioning_rule",
    "dynamic_slice", "dynamic_update_slice", "embedding_lookup", "mlp_two_layers_fsdp",
    "out_shardings_given", "reduce_sum_sharded_axis", "remat", "reshape_flatten_two_axes",
    "reshape_merge", "reshape_split", "reshape_sub_axes", "reverse", "scatter_add",
    "shard_map_partial_manual", "shard_map_psum", "switch", "three_axis_mesh_einsum",
    "transpose", "unsharded_argument_from_use", "while_loop", "with_sharding_constraint",
}


def test_suite_has_at_least_30_programs():
    assert len(PROGRAMS) >= 30


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_matches_xla(name):
    if jax.device_count() < 8:
        pytest.skip("needs --xla_force_host_platform_device_count=8 (conftest.py sets it)")
    jitted, args = PROGRAMS[name]()
    comparison = skjax.compare_with_xla(jitted, *args, ops=True)
    assert comparison.pairs, name
    # Every op result too, where XLA's module after its propagation lines up
    # with ours (docs/jax.md: ALIGNED lists the programs where it must).
    if name in ALIGNED:
        assert comparison.value_pairs is not None, f"{name}: values no longer line up with XLA's"
    if comparison.value_pairs is not None:
        bad = [p for p in comparison.value_pairs if not p.equal]
        assert not bad, f"{name}:\n" + "\n".join(map(str, bad))
    unexplained = [p for p in comparison.differences
                   if (name, p.kind, p.index) not in KNOWN_DIFFERENCES]
    assert not unexplained, f"{name}:\n{comparison}"
    stale = [k for k in KNOWN_DIFFERENCES if k[0] == name
             and all(not (p.kind, p.index) == k[1:] or p.equal for p in comparison.pairs)
             and any((p.kind, p.index) == k[1:] for p in comparison.pairs)]
    assert not stale, f"{name}: listed as different but now equal: {stale}"
