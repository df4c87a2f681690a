"""What does a JAX program communicate? Propagates a layer whose weight is
sharded against its use, inserts the collectives and prices them."""

import json
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P  # noqa: E402

import shardkit.jax as skjax  # noqa: E402

mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
x = jax.ShapeDtypeStruct((32, 64), jnp.float32, sharding=NamedSharding(mesh, P("data", "model")))
w = jax.ShapeDtypeStruct((64, 128), jnp.float32, sharding=NamedSharding(mesh, P(None, "model")))

module = skjax.from_lowered(jax.jit(lambda x, w: (x @ w).sum(0)).lower(x, w))
module.propagate(enable_insert_explicit_collectives=True)
print(json.dumps(module.comm_report(), indent=2))
