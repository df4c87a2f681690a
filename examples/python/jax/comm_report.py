"""What does a JAX program communicate? Its activation changes from rows
over "data" to columns over "data" (a with_sharding_constraint); shardkit
propagates, turns the constraint into a reshard, lowers it to collectives
and prices them."""

import json
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P  # noqa: E402

import shardkit.jax as skjax  # noqa: E402

mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
x = jax.ShapeDtypeStruct((32, 64), jnp.float32, sharding=NamedSharding(mesh, P("data")))


def f(x):
    y = jax.lax.with_sharding_constraint(x * 2, NamedSharding(mesh, P(None, "data")))
    return jnp.sin(y)


module = skjax.from_lowered(jax.jit(f).lower(x))
module.propagate()
module.insert_collectives()
print(json.dumps(module.comm_report(), indent=2))
