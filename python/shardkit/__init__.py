"""shardkit: axis-based tensor shardings and sharding propagation (what
OpenXLA Shardy does, without MLIR), from Python.

    >>> import shardkit
    >>> mesh = shardkit.Mesh({"data": 4, "model": 2})
    >>> s = shardkit.TensorSharding.from_spec(mesh, ("data", None))
    >>> print(s)
    #sdy.sharding<@mesh, [{"data"}, {}]>
    >>> s.shard_shape((32, 64))
    [8, 64]

Interop: shardkit.jax (JAX meshes, NamedSharding, lowered modules, and a
comparison with XLA's own propagation) and shardkit.torch (DTensor
placements), each imported on its own. See docs/python.md.
"""

from ._error import Diagnostic, Error
from ._shardkit import Attribute, Mesh, TensorSharding, __version__, parse_attribute
from ._module import Module, PassInfo, Value, pass_text, passes

__all__ = [
    "Attribute",
    "Diagnostic",
    "Error",
    "Mesh",
    "Module",
    "PassInfo",
    "TensorSharding",
    "Value",
    "__version__",
    "parse_attribute",
    "pass_text",
    "passes",
]
