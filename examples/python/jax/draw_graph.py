"""Draw a JAX program's sharded graph: writes Graphviz DOT (to the file
named by the first argument, or stdout). `dot -Tsvg` renders it."""

import os
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P  # noqa: E402

import shardkit.jax as skjax  # noqa: E402

mesh = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
a = jax.ShapeDtypeStruct((16, 8), jnp.float32, sharding=NamedSharding(mesh, P("x")))
b = jax.ShapeDtypeStruct((8, 4), jnp.float32, sharding=NamedSharding(mesh, P(None, "y")))

module = skjax.from_lowered(jax.jit(lambda a, b: jax.nn.relu(a @ b) + 1).lower(a, b)).propagate()
dot = module.to_dot()
if len(sys.argv) > 1:
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write(dot)
else:
    print(dot)
