"""shardkit.jax: meshes and NamedSharding both ways, lowered modules, and
compare_with_xla's report."""

import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import shardkit  # noqa: E402
import shardkit.jax as skjax  # noqa: E402


@pytest.fixture
def jmesh():
    if jax.device_count() < 8:
        pytest.skip("needs 8 host devices")
    return jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)


def test_to_mesh(jmesh):
    m = skjax.to_mesh(jmesh)
    assert m.shape == {"data": 4, "model": 2}
    assert m.device_ids == tuple(int(d.id) for d in jmesh.devices.flat)


@pytest.mark.parametrize("spec, rank, text", [
    (P("data", None), 2, '[{"data"}, {}]'),
    (P(("data", "model")), 2, '[{"data", "model"}, {}]'),
    (P(None, "model"), 3, '[{}, {"model"}, {}]'),
    (P(P.UNCONSTRAINED, "data"), 2, '[{?}, {"data"}]'),
])
def test_from_named_sharding(jmesh, spec, rank, text):
    s = skjax.from_named_sharding(NamedSharding(jmesh, spec), rank)
    assert str(s) == f"#sdy.sharding<@mesh, {text}>"


def test_named_sharding_round_trip(jmesh):
    for spec in [P("data"), P(None, "model"), P(("model", "data"), None), P()]:
        ns = NamedSharding(jmesh, spec)
        back = skjax.to_named_sharding(skjax.from_named_sharding(ns, 2), jmesh)
        assert back.is_equivalent_to(ns, 2), spec


def test_to_named_sharding_rejects_sub_axes(jmesh):
    s = shardkit.TensorSharding.from_spec(skjax.to_mesh(jmesh), ("data:(1)2",))
    with pytest.raises(shardkit.Error, match="sub-axis"):
        skjax.to_named_sharding(s, jmesh)


def test_from_named_sharding_rank_too_small(jmesh):
    with pytest.raises(shardkit.Error):
        skjax.from_named_sharding(NamedSharding(jmesh, P("data", "model")), 1)


def test_from_lowered_takes_lowered_or_text(jmesh):
    x = jax.ShapeDtypeStruct((8, 4), jnp.float32, sharding=NamedSharding(jmesh, P("data")))
    lowered = jax.jit(lambda a: jnp.sin(a) * 2).lower(x)
    for source in (lowered, lowered.as_text()):
        m = skjax.from_lowered(source).propagate()
        assert m.result_shardings()[0].to_spec() == ("data", None)


def test_compare_with_xla_reports_every_value(jmesh):
    x = jax.ShapeDtypeStruct((8, 4), jnp.float32, sharding=NamedSharding(jmesh, P("data")))
    w = jax.ShapeDtypeStruct((4, 6), jnp.float32, sharding=NamedSharding(jmesh, P(None, "model")))
    c = skjax.compare_with_xla(jax.jit(lambda a, b: a @ b), x, w)
    assert [(p.kind, p.index) for p in c.pairs] == [("argument", 0), ("argument", 1), ("result", 0)]
    assert c.equal, str(c)
    assert c.pairs[2].shardkit.to_spec() == ("data", "model")
    assert "all shardings equal" in str(c)


def test_a_different_sharding_is_reported(jmesh):
    xla = NamedSharding(jmesh, P("data"))
    wrong = shardkit.TensorSharding.from_spec(skjax.to_mesh(jmesh), ("model", None))
    pair = skjax._pair("result", 0, (8, 4), wrong, xla, jmesh, skjax.to_mesh(jmesh))
    assert not pair.equal and "DIFFERENT" in str(pair)
    right = skjax.from_named_sharding(xla, 2)
    assert skjax._pair("result", 0, (8, 4), right, xla, jmesh, skjax.to_mesh(jmesh)).equal


def test_compare_every_op_with_xlas_module(jmesh):
    x = jax.ShapeDtypeStruct((8, 4), jnp.float32, sharding=NamedSharding(jmesh, P("data")))
    w = jax.ShapeDtypeStruct((4, 6), jnp.float32, sharding=NamedSharding(jmesh, P(None, "model")))
    c = skjax.compare_with_xla(jax.jit(lambda a, b: jnp.tanh(a @ b)), x, w, ops=True)
    assert c.xla_module is not None
    assert "main" in c.xla_module.functions()
    assert c.value_pairs, (str(c.module), str(c.xla_module))
    assert all(p.equal for p in c.value_pairs), "\n".join(map(str, c.value_pairs))
