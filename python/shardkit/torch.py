"""shardkit and PyTorch DTensor: a DeviceMesh and its placements
(Shard(d), Replicate(), Partial()) <-> sdy shardings. Pure Python.

torch is optional: with torch installed, to_placements returns
torch.distributed.tensor's Shard/Replicate/Partial and every function takes
them and a DeviceMesh; without it, the classes below stand in (same
constructors and predicates), and a mesh is a shardkit.Mesh.

The mapping: mesh dimension i of the DeviceMesh is mesh axis i (named by
`mesh_dim_names`, or `dim{i}`). Shard(d) on mesh dimension i puts axis i on
tensor dimension d; several mesh dimensions sharding one tensor dimension
go major-first in mesh-dimension order, as DTensor lays them out. Partial
on mesh dimension i makes axis i unreduced (its reduce_op must be one the
sdy sharding can name: sum, max, min). Replicate adds nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Sequence

from . import Error, Mesh, TensorSharding

try:  # pragma: no cover - depends on the environment
    from torch.distributed.tensor import Partial as _TorchPartial
    from torch.distributed.tensor import Replicate as _TorchReplicate
    from torch.distributed.tensor import Shard as _TorchShard

    HAVE_TORCH = True
except Exception:  # torch missing, or built without distributed
    HAVE_TORCH = False

__all__ = ["HAVE_TORCH", "Partial", "Replicate", "Shard", "from_placements",
           "mesh_from_device_mesh", "to_placements"]


@dataclass(frozen=True)
class Shard:
    """Stands in for torch.distributed.tensor.Shard without torch."""

    dim: int

    def is_shard(self, dim: Optional[int] = None) -> bool:
        return dim is None or dim == self.dim

    def is_replicate(self) -> bool:
        return False

    def is_partial(self) -> bool:
        return False


@dataclass(frozen=True)
class Replicate:
    """Stands in for torch.distributed.tensor.Replicate without torch."""

    def is_shard(self, dim: Optional[int] = None) -> bool:
        return False

    def is_replicate(self) -> bool:
        return True

    def is_partial(self) -> bool:
        return False


@dataclass(frozen=True)
class Partial:
    """Stands in for torch.distributed.tensor.Partial without torch."""

    reduce_op: str = "sum"

    def is_shard(self, dim: Optional[int] = None) -> bool:
        return False

    def is_replicate(self) -> bool:
        return False

    def is_partial(self) -> bool:
        return True


def mesh_from_device_mesh(device_mesh: Any, name: str = "mesh") -> Mesh:
    """The shardkit Mesh of a DeviceMesh (a shardkit.Mesh is returned as
    it is): one axis per mesh dimension, devices in the DeviceMesh's order."""
    if isinstance(device_mesh, Mesh):
        return device_mesh
    shape = tuple(device_mesh.mesh.shape)
    names = device_mesh.mesh_dim_names or tuple(f"dim{i}" for i in range(len(shape)))
    ids = [int(i) for i in device_mesh.mesh.flatten().tolist()]
    return Mesh(list(zip(names, shape)), device_ids=ids, name=name)


_SDY_REDUCTIONS = {"sum": "sum", "avg": None, "max": "max", "min": "min"}


def _reduce_op(placement: Any) -> str:
    op = str(getattr(placement, "reduce_op", "sum")).lower()
    op = op.split(".")[-1]  # RedOpType.SUM and friends
    if _SDY_REDUCTIONS.get(op) is None:
        raise Error(f"error: Partial({op!r}) has no sdy equivalent (sum, max or min)")
    return op


def from_placements(device_mesh: Any, placements: Sequence[Any], rank: int) -> TensorSharding:
    """The sdy sharding of a rank-`rank` DTensor with `placements` (one per
    mesh dimension) on `device_mesh`."""
    mesh = mesh_from_device_mesh(device_mesh)
    names = mesh.axis_names
    if len(placements) != len(names):
        raise Error(f"error: {len(placements)} placements for a mesh of {len(names)} dimensions")
    dims: List[List[str]] = [[] for _ in range(rank)]
    unreduced: List[str] = []
    ops = set()
    for axis, p in zip(names, placements):
        if p.is_partial():
            unreduced.append(axis)
            ops.add(_reduce_op(p))
        elif p.is_shard():
            d = p.dim if p.dim >= 0 else p.dim + rank
            if not 0 <= d < rank:
                raise Error(f"error: Shard({p.dim}) of a rank-{rank} tensor")
            dims[d].append(axis)
        elif not p.is_replicate():
            raise Error(f"error: unknown placement {p!r}")
    if len(ops) > 1:
        raise Error(f"error: Partial placements with different reduce ops {sorted(ops)}")
    spec = [None if not d else tuple(d) for d in dims]
    sharding = TensorSharding.from_spec(mesh, spec, unreduced=unreduced)
    if ops and ops != {"sum"}:
        # A max or min partial: the sdy text names the reduction.
        op = ops.pop()
        sharding = TensorSharding.parse(str(sharding).replace(", unreduced={", f", unreduced={op}{{", 1))
    return sharding


def _make(kind: str, *args: Any) -> Any:
    if HAVE_TORCH:
        return {"shard": _TorchShard, "replicate": _TorchReplicate, "partial": _TorchPartial}[kind](*args)
    return {"shard": Shard, "replicate": Replicate, "partial": Partial}[kind](*args)


def to_placements(sharding: TensorSharding, device_mesh: Any) -> List[Any]:
    """The placements (one per mesh dimension) of an sdy sharding. Error
    for what DTensor's Shard cannot say: a sub-axis, or a tensor dimension
    whose axes are not in mesh-dimension order."""
    mesh = mesh_from_device_mesh(device_mesh)
    names = list(mesh.axis_names)
    placements: List[Any] = [_make("replicate") for _ in names]
    for d, axes in enumerate(sharding.dims):
        order = []
        for a in axes:
            if a not in names:
                raise Error(f"error: {sharding} uses {a!r}, not a whole axis of the mesh")
            order.append(names.index(a))
            placements[names.index(a)] = _make("shard", d)
        if order != sorted(order):
            raise Error(f"error: dimension {d} of {sharding} takes its axes out of mesh order, "
                        "which Shard placements cannot express")
    for a in sharding.unreduced:
        if a not in names:
            raise Error(f"error: unreduced {a!r} is not a whole axis of the mesh")
        placements[names.index(a)] = _make("partial", sharding.unreduced_kind)
    return placements
