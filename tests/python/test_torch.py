"""shardkit.torch: DTensor placements <-> sdy shardings, on values (torch is
not needed: the stand-in placements are used without it)."""

import pytest

import shardkit
from shardkit import Mesh, TensorSharding
from shardkit import torch as sktorch

MESH = Mesh({"dp": 2, "tp": 4})


def test_shard_and_replicate():
    s = sktorch.from_placements(MESH, [sktorch.Shard(0), sktorch.Replicate()], 2)
    assert str(s) == '#sdy.sharding<@mesh, [{"dp"}, {}]>'
    assert sktorch.to_placements(s, MESH) == [sktorch.Shard(0), sktorch.Replicate()]


def test_two_mesh_dims_on_one_tensor_dim_go_major_first():
    s = sktorch.from_placements(MESH, [sktorch.Shard(1), sktorch.Shard(1)], 2)
    assert s.to_spec() == (None, ("dp", "tp"))
    assert sktorch.to_placements(s, MESH) == [sktorch.Shard(1), sktorch.Shard(1)]


def test_negative_shard_dim():
    s = sktorch.from_placements(MESH, [sktorch.Replicate(), sktorch.Shard(-1)], 3)
    assert s.to_spec() == (None, None, "tp")


def test_partial_is_unreduced():
    s = sktorch.from_placements(MESH, [sktorch.Partial(), sktorch.Shard(0)], 2)
    assert str(s) == '#sdy.sharding<@mesh, [{"tp"}, {}], unreduced={"dp"}>'
    assert sktorch.to_placements(s, MESH) == [sktorch.Partial("sum"), sktorch.Shard(0)]


def test_partial_max_names_its_reduction():
    s = sktorch.from_placements(MESH, [sktorch.Partial("max"), sktorch.Replicate()], 1)
    assert str(s) == '#sdy.sharding<@mesh, [{}], unreduced=max{"dp"}>'
    assert s.unreduced_kind == "max"
    assert sktorch.to_placements(s, MESH)[0] == sktorch.Partial("max")


@pytest.mark.parametrize("placements, rank", [
    ([sktorch.Shard(2), sktorch.Replicate()], 2),
    ([sktorch.Replicate()], 2),
    ([sktorch.Partial("avg"), sktorch.Replicate()], 2),
    ([sktorch.Partial("sum"), sktorch.Partial("max")], 2),
])
def test_bad_placements(placements, rank):
    with pytest.raises(shardkit.Error):
        sktorch.from_placements(MESH, placements, rank)


def test_what_shard_cannot_say():
    out_of_order = TensorSharding.from_spec(MESH, (("tp", "dp"),))
    with pytest.raises(shardkit.Error, match="mesh order"):
        sktorch.to_placements(out_of_order, MESH)
    sub = TensorSharding.from_spec(MESH, ("tp:(1)2",))
    with pytest.raises(shardkit.Error, match="whole axis"):
        sktorch.to_placements(sub, MESH)


class FakeDeviceMesh:
    """The two attributes of torch's DeviceMesh that the mapping reads."""

    class _Ids:
        def __init__(self, rows):
            self.rows = rows
            self.shape = (len(rows), len(rows[0]))

        def flatten(self):
            return self

        def tolist(self):
            return [i for r in self.rows for i in r]

    def __init__(self, rows, names):
        self.mesh = self._Ids(rows)
        self.mesh_dim_names = names


def test_device_mesh_axes_and_device_order():
    dm = FakeDeviceMesh([[0, 2], [1, 3]], ("dp", "tp"))
    m = sktorch.mesh_from_device_mesh(dm)
    assert m.shape == {"dp": 2, "tp": 2} and m.device_ids == (0, 2, 1, 3)
    s = sktorch.from_placements(dm, [sktorch.Shard(0), sktorch.Shard(1)], 2)
    assert s.to_spec() == ("dp", "tp")
    unnamed = sktorch.mesh_from_device_mesh(FakeDeviceMesh([[0, 1]], None))
    assert unnamed.axis_names == ("dim0", "dim1")


@pytest.mark.skipif(not sktorch.HAVE_TORCH, reason="torch is not installed")
def test_torch_placements_are_torch_classes():  # pragma: no cover
    from torch.distributed.tensor import Shard

    s = TensorSharding.from_spec(MESH, ("dp", None))
    assert isinstance(sktorch.to_placements(s, MESH)[0], Shard)
