"""shardkit and JAX: meshes and NamedSharding both ways, modules JAX lowers,
and shardkit's propagation beside XLA's own (compare_with_xla).

JAX is imported only by this module; `import shardkit` never needs it.
docs/jax.md lists what the comparison shows and why the differences that
remain are what they are.
"""

from __future__ import annotations

import glob
import os
import tempfile
from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence, Tuple

import jax
from jax.sharding import NamedSharding, PartitionSpec

from . import Error, Mesh, Module, TensorSharding

__all__ = [
    "Comparison",
    "ShardingPair",
    "compare_with_xla",
    "from_lowered",
    "from_named_sharding",
    "to_mesh",
    "to_named_sharding",
]


def to_mesh(jax_mesh: "jax.sharding.Mesh", name: str = "mesh") -> Mesh:
    """The shardkit Mesh of a jax.sharding.Mesh: its axes in order and its
    device order (device ids of `jax_mesh.devices`, row-major)."""
    ids = [int(d.id) for d in jax_mesh.devices.flat]
    return Mesh(list(jax_mesh.shape.items()), device_ids=ids, name=name)


def _spec_entries(spec: PartitionSpec, rank: Optional[int]) -> list:
    entries = list(spec)
    if rank is not None:
        if len(entries) > rank:
            raise Error(f"error: PartitionSpec {spec} has {len(entries)} entries for a rank-{rank} tensor")
        entries += [None] * (rank - len(entries))
    return entries


def _dim_text(entry: Any) -> str:
    if entry is PartitionSpec.UNCONSTRAINED:
        return "{?}"
    if entry is None:
        return "{}"
    names = [entry] if isinstance(entry, str) else list(entry)
    return "{" + ", ".join(f'"{n}"' for n in names) + "}"


def from_named_sharding(ns: NamedSharding, rank: Optional[int] = None,
                        mesh_name: str = "mesh") -> TensorSharding:
    """The sdy sharding of a NamedSharding (its PartitionSpec, padded with
    None to `rank` when given; P.UNCONSTRAINED entries are open dimensions,
    the spec's unreduced axes unreduced)."""
    mesh = to_mesh(ns.mesh, mesh_name)
    entries = _spec_entries(ns.spec, rank)
    unreduced = tuple(sorted(getattr(ns.spec, "unreduced", ()) or (),
                             key=mesh.axis_names.index))
    if any(e is PartitionSpec.UNCONSTRAINED for e in entries):
        text = f"#sdy.sharding<@{mesh_name}, [{', '.join(_dim_text(e) for e in entries)}]"
        if unreduced:
            text += ", unreduced={" + ", ".join(f'"{a}"' for a in unreduced) + "}"
        sharding = TensorSharding.parse(text + ">")
        sharding.verify([1] * len(entries), mesh, check_divisibility=False)
        return sharding
    return TensorSharding.from_spec(mesh, entries, unreduced=unreduced)


def to_named_sharding(sharding: TensorSharding, jax_mesh: "jax.sharding.Mesh") -> NamedSharding:
    """The NamedSharding of an sdy sharding on `jax_mesh` (whose axes it
    names). Sub-axes (`"x":(1)2`) have no PartitionSpec spelling: Error."""
    entries = []
    for dim in sharding.dims:
        if any(":(" in a for a in dim):
            raise Error(f"error: {sharding} uses a sub-axis, which a PartitionSpec cannot name")
        entries.append(None if not dim else dim[0] if len(dim) == 1 else tuple(dim))
    while entries and entries[-1] is None:
        entries.pop()
    if sharding.unreduced:
        spec = PartitionSpec(*entries, unreduced=set(sharding.unreduced))
    else:
        spec = PartitionSpec(*entries)
    return NamedSharding(jax_mesh, spec)


def from_lowered(lowered: Any, filename: str = "<jax>") -> Module:
    """The shardkit Module of `jax.jit(f).lower(*args)` (or of its
    `as_text()`)."""
    text = lowered if isinstance(lowered, (str, bytes)) else lowered.as_text()
    return Module.parse(text, filename)


@dataclass
class ShardingPair:
    """One argument or result: shardkit's sharding beside XLA's."""

    kind: str  # "argument" or "result"
    index: int
    shape: Tuple[int, ...]
    shardkit: Optional[TensorSharding]
    xla: Any  # a jax.sharding.Sharding
    shardkit_hlo: str
    xla_hlo: str
    equal: bool

    def __str__(self) -> str:
        verdict = "same" if self.equal else "DIFFERENT"
        sk = str(self.shardkit) if self.shardkit is not None else "(none: replicated)"
        return (f"{self.kind} {self.index} {list(self.shape)}: {verdict}\n"
                f"  shardkit: {sk}  {self.shardkit_hlo}\n"
                f"  xla:      {self.xla_hlo}")


@dataclass
class Comparison:
    """compare_with_xla's answer: every argument and result, the module
    shardkit propagated, and its text before propagation."""

    pairs: List[ShardingPair]
    module: Module
    lowered_text: str = field(repr=False)
    # With ops=True: XLA's module right after its own Shardy propagation
    # (read by shardkit), and, when its ops line up with shardkit's (the same
    # result types in the same order in main), one ShardingPair per op
    # result ("value" pairs, index = position in main's values).
    xla_module: Optional[Module] = None
    value_pairs: Optional[List[ShardingPair]] = None

    @property
    def equal(self) -> bool:
        """True when every argument and result has XLA's sharding."""
        return all(p.equal for p in self.pairs)

    @property
    def differences(self) -> List[ShardingPair]:
        return [p for p in self.pairs if not p.equal]

    def __str__(self) -> str:
        head = "all shardings equal XLA's" if self.equal else f"{len(self.differences)} differ from XLA's"
        return "\n".join([head] + [str(p) for p in self.pairs])


def _hlo_text(sharding: Any, rank: int) -> str:
    return str(sharding._to_xla_hlo_sharding(rank))


def _pair(kind: str, index: int, shape: Tuple[int, ...], ours: Optional[TensorSharding],
          xla: Any, jax_mesh: Any, sk_mesh: Mesh) -> ShardingPair:
    rank = len(shape)
    xla_hlo = _hlo_text(xla, rank)
    if ours is None:
        ours_hlo = "{replicated}"
        ns = NamedSharding(jax_mesh, PartitionSpec())
    else:
        ours_hlo = ours.to_hlo(ours.mesh or sk_mesh)
        try:
            ns = to_named_sharding(ours, jax_mesh)
        except Error:
            ns = None
    if ns is not None:
        equal = bool(xla.is_equivalent_to(ns, rank))
    else:
        equal = ours_hlo == xla_hlo
    return ShardingPair(kind, index, shape, ours, xla, ours_hlo, xla_hlo, equal)


def _jax_mesh(shardings: Sequence[Any]) -> Any:
    for s in shardings:
        if isinstance(s, NamedSharding):
            return s.mesh
    raise Error("error: compare_with_xla needs at least one NamedSharding among the "
                "program's input and output shardings to know its mesh")


def _xla_after_propagation(lowered: Any) -> Tuple[Any, Optional[Module]]:
    """Compiles with XLA's dumps on; returns the executable and the module
    XLA's Shardy dumps after its propagation (None when it wrote none)."""
    with tempfile.TemporaryDirectory() as d:
        compiled = lowered.compile({"xla_dump_to": d, "xla_dump_hlo_pass_re": "shardy.*"})
        found = sorted(glob.glob(os.path.join(d, "shardy", "*", "*after_propagation.mlir")))
        if not found:
            return compiled, None
        with open(found[0], encoding="utf-8") as f:
            return compiled, Module.parse(f.read(), "xla-after-propagation.mlir")


def _value_pairs(ours: Module, xla: Module, sk_mesh: Mesh) -> Optional[List[ShardingPair]]:
    # Both sides are sdy shardings here: each is turned into HloSharding text
    # by the same converter (sub-axes included), and a missing sharding is
    # replicated.
    mine, theirs = ours.values("main"), xla.values("main")
    if [v.type for v in mine] != [v.type for v in theirs]:
        return None

    def hlo(s: Optional[TensorSharding]) -> str:
        return "{replicated}" if s is None else s.to_hlo(s.mesh or sk_mesh)

    pairs = []
    for i, (a, b) in enumerate(zip(mine, theirs)):
        shape = _static_shape(a.type)
        if shape is None:
            continue
        ours_hlo, xla_hlo = hlo(a.sharding), hlo(b.sharding)
        pairs.append(ShardingPair("value", i, shape, a.sharding, b.sharding, ours_hlo, xla_hlo,
                                  ours_hlo == xla_hlo))
    return pairs


def _static_shape(type_text: str) -> Optional[Tuple[int, ...]]:
    if not type_text.startswith("tensor<"):
        return None
    dims = type_text[len("tensor<"):-1].split("x")[:-1]
    if not all(d.isdigit() for d in dims):
        return None
    return tuple(int(d) for d in dims)


def compare_with_xla(jitted: Any, *args: Any, propagate: Optional[dict] = None,
                     ops: bool = False, **kwargs: Any) -> Comparison:
    """Lowers `jitted(*args, **kwargs)`, propagates the module JAX wrote with
    shardkit (-sdy-propagation-pipeline, with `propagate` as its options),
    compiles it with XLA, and sets shardkit's sharding of every argument and
    result of `main` beside XLA's (`compiled.input_shardings` /
    `output_shardings`). Two shardings are equal when they place the same
    data on the same devices (jax's is_equivalent_to). With ops=True XLA
    also dumps its module after its own Shardy propagation, which comes
    back as `xla_module`, and every op result is compared when the two
    modules' values line up (`value_pairs`)."""
    lowered = jitted.lower(*args, **kwargs)
    text = lowered.as_text()
    module = from_lowered(text)
    module.propagate(**(propagate or {}))
    xla_module = None
    if ops:
        compiled, xla_module = _xla_after_propagation(lowered)
    else:
        compiled = lowered.compile()
    xla_in = jax.tree.leaves(compiled.input_shardings[0])
    xla_out = jax.tree.leaves(compiled.output_shardings)
    in_shapes = [tuple(a.shape) for a in jax.tree.leaves(lowered.in_avals[0])]
    out_shapes = [tuple(a.shape) for a in jax.tree.leaves(lowered.out_info)]
    ours_in = module.argument_shardings("main")
    ours_out = module.result_shardings("main")
    if len(ours_in) != len(xla_in) or len(ours_out) != len(xla_out):
        raise Error(f"error: main has {len(ours_in)} arguments and {len(ours_out)} results, XLA "
                    f"{len(xla_in)} and {len(xla_out)} (jit with keep_unused=True)")
    jax_mesh = _jax_mesh(xla_in + xla_out)
    sk_mesh = next(iter(module.meshes().values()), to_mesh(jax_mesh))
    pairs = [_pair("argument", i, in_shapes[i], ours_in[i], xla_in[i], jax_mesh, sk_mesh)
             for i in range(len(xla_in))]
    pairs += [_pair("result", i, out_shapes[i], ours_out[i], xla_out[i], jax_mesh, sk_mesh)
              for i in range(len(xla_out))]
    value_pairs = None
    if xla_module is not None:
        value_pairs = _value_pairs(module, xla_module, sk_mesh)
    return Comparison(pairs, module, text, xla_module, value_pairs)
