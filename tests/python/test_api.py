"""Unit tests of shardkit's Python API: meshes, shardings, attributes,
errors, modules and passes."""

import pickle
import threading

import pytest

import shardkit
from shardkit import Error, Mesh, Module, TensorSharding

MLP = """
sdy.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%arg0: tensor<32x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"data"}, {}]>},
                %arg1: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>})
    -> tensor<32x128xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64x128xf32>) -> tensor<32x128xf32>
  %1 = stablehlo.tanh %0 : tensor<32x128xf32>
  return %1 : tensor<32x128xf32>
}
"""


# ---- Mesh -------------------------------------------------------------------


def test_mesh_from_dict_keeps_order():
    mesh = Mesh({"data": 4, "model": 2})
    assert mesh.axis_names == ("data", "model")
    assert mesh.shape == {"data": 4, "model": 2}
    assert mesh.size == 8
    assert mesh.device_ids == tuple(range(8))
    assert mesh.name == "mesh"
    assert len(mesh) == 2
    assert mesh.axis_size("model") == 2


def test_mesh_print_parse_round_trip():
    mesh = Mesh([("x", 2), ("y", 2)], device_ids=[3, 2, 1, 0], name="m")
    assert str(mesh) == '#sdy.mesh<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>'
    assert Mesh.parse(str(mesh), "m") == mesh
    assert repr(mesh) == "Mesh({'x': 2, 'y': 2}, device_ids=[3, 2, 1, 0], name='m')"


def test_mesh_equality_and_hash():
    a = Mesh({"x": 2})
    assert a == Mesh({"x": 2})
    assert a == Mesh({"x": 2}, device_ids=[0, 1])  # explicit iota
    assert a != Mesh({"x": 2}, device_ids=[1, 0])
    assert a != Mesh({"x": 2}, name="other")
    assert a != "not a mesh"
    assert len({a, Mesh({"x": 2}, device_ids=[0, 1]), Mesh({"y": 2})}) == 2


@pytest.mark.parametrize(
    "axes, kwargs",
    [({"x": 0}, {}), ([("x", 2), ("x", 2)], {}), ({"x": 2}, {"device_ids": [0, 0]}), ({"x": "2"}, {})],
)
def test_bad_meshes_raise_error(axes, kwargs):
    with pytest.raises(Error):
        Mesh(axes, **kwargs)


# ---- TensorSharding ---------------------------------------------------------


def test_from_spec_prints_sdy_text():
    mesh = Mesh({"x": 2})
    assert str(TensorSharding.from_spec(mesh, ("x", None))) == '#sdy.sharding<@mesh, [{"x"}, {}]>'


def test_from_spec_to_spec_round_trip():
    mesh = Mesh({"data": 4, "model": 2, "pipe": 2})
    spec = (("data", "model"), None, "pipe")
    s = TensorSharding.from_spec(mesh, spec)
    assert s.to_spec() == spec
    assert s.dims == (("data", "model"), (), ("pipe",))
    assert s.rank == 3
    assert str(s) == '#sdy.sharding<@mesh, [{"data", "model"}, {}, {"pipe"}]>'


def test_from_spec_unreduced_replicated_open():
    mesh = Mesh({"x": 2, "y": 2, "z": 2})
    s = TensorSharding.from_spec(mesh, (None,), unreduced=("z", "x"), replicated="y")
    assert s.unreduced == ("x", "z")  # mesh order
    assert s.replicated == ("y",)
    assert s.unreduced_kind == "sum"
    assert str(s) == '#sdy.sharding<@mesh, [{}], replicated={"y"}, unreduced={"x", "z"}>'
    o = TensorSharding.from_spec(mesh, ("x", None), open=True)
    assert str(o) == '#sdy.sharding<@mesh, [{"x", ?}, {?}]>'
    assert o.open_dims == (0, 1)


def test_sub_axes_spelled_with_pre_size():
    mesh = Mesh({"x": 8})
    s = TensorSharding.from_spec(mesh, ("x:(1)2", "x:(2)4"))
    assert str(s) == '#sdy.sharding<@mesh, [{"x":(1)2}, {"x":(2)4}]>'
    assert s.to_spec() == ("x:(1)2", "x:(2)4")
    assert s.shard_shape([4, 8]) == [2, 2]


@pytest.mark.parametrize(
    "spec", [("nope",), ("x", "x"), "x", (1,)],
)
def test_bad_specs_raise_error(spec):
    with pytest.raises(Error):
        TensorSharding.from_spec(Mesh({"x": 2}), spec)


def test_shard_shape_and_divisibility():
    mesh = Mesh({"data": 4, "model": 2})
    s = TensorSharding.from_spec(mesh, ("data", "model"))
    assert s.shard_shape((32, 64)) == [8, 32]
    with pytest.raises(Error, match="divisible|divide"):
        s.shard_shape((30, 64))
    with pytest.raises(Error):
        s.shard_shape((32,))  # rank


def test_parse_and_equality():
    a = TensorSharding.parse('#sdy.sharding<@mesh, [{"x"}, {}]>')
    b = TensorSharding.parse('<@mesh, [{"x"}, {}]>')
    assert a == b and hash(a) == hash(b)
    assert a != TensorSharding.parse('<@mesh, [{}, {"x"}]>')
    assert repr(a) == "TensorSharding('#sdy.sharding<@mesh, [{\"x\"}, {}]>')"
    assert a.mesh is None and a.mesh_name == "mesh"
    with pytest.raises(Error, match="pass mesh="):
        a.shard_shape((4, 4))
    assert a.shard_shape((4, 4), Mesh({"x": 2})) == [2, 4]


def test_gspmd_round_trip():
    mesh = Mesh({"x": 2, "y": 2})
    s = TensorSharding.from_spec(mesh, ("x", None))
    hlo = s.to_hlo()
    assert hlo == "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"
    assert TensorSharding.from_hlo(hlo, mesh, 2) == s
    assert TensorSharding.from_hlo("{replicated}", mesh, 2).is_replicated


# ---- Attributes and errors --------------------------------------------------


def test_parse_attribute_kinds():
    assert isinstance(shardkit.parse_attribute('#sdy.mesh<["x"=2]>'), Mesh)
    s = shardkit.parse_attribute('#sdy.sharding<@mesh, [{"x"}]>')
    assert isinstance(s, TensorSharding)
    pv = shardkit.parse_attribute('#sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, []>]>')
    assert [str(x) for x in pv] == ['#sdy.sharding<@mesh, [{"x"}]>', "#sdy.sharding<@mesh, []>"]
    rule = shardkit.parse_attribute("#sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=4}>")
    assert rule.kind == "op_sharding_rule"
    assert str(rule) == "#sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=4}>"
    assert rule == shardkit.parse_attribute(str(rule)) and hash(rule) == hash(shardkit.parse_attribute(str(rule)))


def test_error_has_position_and_message():
    with pytest.raises(Error) as info:
        TensorSharding.parse('#sdy.sharding<@mesh, [{"x"} {}]>')
    e = info.value
    assert (e.line, e.col) == (1, 29)  # the second '{'
    assert "expected" in e.message
    assert isinstance(e, Exception)
    assert pickle.loads(pickle.dumps(e)).message == e.message


def test_module_error_located_in_file():
    bad = MLP.replace("tensor<32x128xf32> {\n", "tensor<32x128xf32> {\n  %x = stablehlo.bogus\n")
    with pytest.raises(Error) as info:
        Module.parse(bad, "model.mlir")
    e = info.value
    assert e.file == "model.mlir" and e.line == 6 and e.col > 0
    assert str(e).startswith("model.mlir:6:")
    assert e.diagnostics[0].severity == "error"


def test_unknown_pass_and_option_are_errors():
    m = Module.parse(MLP)
    with pytest.raises(Error, match="sdy-no-such-pass"):
        m.run_pass("sdy-no-such-pass")
    with pytest.raises(Error):
        m.run_pass("sdy-basic-propagate", no_such_option=True)


# ---- Modules ----------------------------------------------------------------


def test_propagate_and_read_shardings():
    m = Module.parse(MLP).propagate()
    assert [str(s) for s in m.argument_shardings()] == [
        '#sdy.sharding<@mesh, [{"data"}, {}]>',
        '#sdy.sharding<@mesh, [{}, {"model"}]>',
    ]
    (result,) = m.result_shardings()
    assert result.to_spec() == ("data", "model")
    assert result.shard_shape((32, 128)) == [8, 64]  # the module's mesh came along
    tanh = m.values("main")[-1]
    assert tanh.type == "tensor<32x128xf32>" and tanh.sharding == result
    assert m.value("%0").sharding.to_spec() == ("data", "model")
    assert list(m.meshes()) == ["mesh"] and m.meshes()["mesh"] == Mesh({"data": 4, "model": 2})
    assert m.functions() == ["main"]


def test_propagate_basic_strategy_and_options():
    m = Module.parse(MLP).propagate(strategy="basic", keep_sharding_rules=True)
    assert "sdy.sharding_rule" in str(m)


def test_run_pass_formats_options_like_the_cli():
    assert shardkit.pass_text("sdy-basic-propagate", keep_sharding_rules=True) == (
        "sdy-basic-propagate{keep-sharding-rules=true}"
    )
    assert shardkit.pass_text("-sdy-x", a_b=[1, 2], s="x y") == 'sdy-x{a-b=1,2 s="x y"}'
    m = Module.parse(MLP).run_pass("sdy-aggressive-propagate", propagation_strategy="basic")
    assert m.value("%1").sharding.to_spec() == ("data", "model")


def test_passes_lists_registered_passes():
    names = {p.name: p for p in shardkit.passes()}
    assert "sdy-propagation-pipeline" in names
    assert "sdy-convert-global-to-local" in names
    opts = {o[0]: o[1] for o in names["sdy-basic-propagate"].options}
    assert opts.get("keep-sharding-rules") == "bool"


def test_explain_names_the_factor_table():
    m = Module.parse(MLP).propagate(debug_sharding_origins=True)
    text = m.explain("stablehlo.dot_general")
    assert "factor table of %0 = stablehlo.dot_general" in text
    assert "where each axis came from" in text
    assert m.explain(m.value("%0")).startswith("factor table of %0")
    with pytest.raises(Error):
        m.explain("%99")
    with pytest.raises(ValueError):
        m.explain("%0", strategy="fast")


RESHARD = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>} : tensor<8x8xf32>
  %1 = sdy.reshard %0 <@mesh, [{}, {"x"}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}
"""


def test_insert_collectives_and_comm_report():
    m = Module.parse(RESHARD).insert_collectives()
    report = m.comm_report()
    assert report["collectives"], str(m)
    assert report["collectives"][0]["op"].startswith("sdy.")
    assert report["total_bytes_received_per_device"] > 0
    assert "sdy.all_to_all" in str(m) or "sdy.all_gather" in str(m)


def test_partition_gives_local_types():
    m = Module.parse(MLP).propagate().partition()
    text = str(m)
    assert "%arg0: tensor<8x64xf32>" in text and "%arg1: tensor<64x64xf32>" in text


def test_graph_dot_and_json():
    m = Module.parse(MLP).propagate()
    dot = m.to_dot()
    assert dot.startswith("digraph") and "stablehlo.dot_general" in dot
    graph = m.to_graph()
    assert graph["schema"] == "shardkit.graph/1"


def test_copy_is_independent():
    m = Module.parse(MLP)
    c = m.copy().propagate()
    assert m.result_shardings() == [None]
    assert c.result_shardings()[0] is not None


def test_threads_share_a_module_safely():
    m = Module.parse(MLP)
    errors = []

    def work():
        try:
            for _ in range(20):
                m.copy().propagate()
                str(m)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_version():
    assert shardkit.__version__.count(".") == 2
