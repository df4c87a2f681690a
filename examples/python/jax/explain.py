"""Why did each value of a JAX program get its sharding? Lowers a small MLP,
propagates it with shardkit keeping the origins, and explains its matmul."""

import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P  # noqa: E402

import shardkit.jax as skjax  # noqa: E402

mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
x = jax.ShapeDtypeStruct((32, 64), jnp.float32, sharding=NamedSharding(mesh, P("data")))
w = jax.ShapeDtypeStruct((64, 128), jnp.float32, sharding=NamedSharding(mesh, P(None, "model")))

module = skjax.from_lowered(jax.jit(lambda x, w: jnp.tanh(x @ w)).lower(x, w))
module.propagate(debug_sharding_origins=True)
for value in module.values("main"):
    print(f"{value.name:6} {value.type:22} {value.sharding}")
print()
print(module.explain("stablehlo.dot_general"))
