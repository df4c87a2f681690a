"""The real JAX programs of the differential suite (test_jax_differential.py):
each a function of no arguments returning (jitted, args), its inputs
jax.ShapeDtypeStruct values with NamedSharding on meshes of 2 to 8 host
devices whose axes are Auto (so XLA's Shardy, not JAX, decides what is left
open)."""

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

PROGRAMS = {}


def program(fn):
    PROGRAMS[fn.__name__] = fn
    return fn


def mesh(**axes):
    return jax.make_mesh(tuple(axes.values()), tuple(axes), axis_types=(AxisType.Auto,) * len(axes))


def sds(m, shape, *spec, dtype=jnp.float32):
    sharding = NamedSharding(m, P(*spec)) if m is not None else None
    return jax.ShapeDtypeStruct(shape, dtype, sharding=sharding)


def jit(f, **kw):
    return jax.jit(f, keep_unused=True, **kw)


def _layer_norm(x, g, b):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) * lax.rsqrt(var + 1e-5) * g + b


def _attention(x, wq, wk, wv, wo, heads):
    b, s, d = x.shape
    q = (x @ wq).reshape(b, s, heads, d // heads)
    k = (x @ wk).reshape(b, s, heads, d // heads)
    v = (x @ wv).reshape(b, s, heads, d // heads)
    a = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) / (d // heads) ** 0.5, axis=-1)
    return jnp.einsum("bhqk,bkhd->bqhd", a, v).reshape(b, s, d) @ wo


@program
def mlp():
    m = mesh(data=4, model=2)
    f = lambda x, w1, w2: jax.nn.relu(x @ w1) @ w2
    return jit(f), (sds(m, (32, 64), "data"), sds(m, (64, 128), None, "model"), sds(m, (128, 64), "model"))


@program
def mlp_with_bias():
    m = mesh(data=2, model=4)
    f = lambda x, w, b: jnp.tanh(x @ w + b)
    return jit(f), (sds(m, (16, 32), "data"), sds(m, (32, 64), None, "model"), sds(m, (64,)))


@program
def mlp_two_layers_fsdp():
    m = mesh(fsdp=8)
    f = lambda x, w1, w2: jax.nn.gelu(x @ w1) @ w2
    return jit(f), (sds(m, (64, 32), "fsdp"), sds(m, (32, 128), "fsdp"), sds(m, (128, 32), "fsdp"))


@program
def attention():
    m = mesh(data=2, model=2)
    def f(q, k, v):
        s = jax.nn.softmax(q @ k.T / 8.0, axis=-1)
        return s @ v
    return jit(f), (sds(m, (16, 64), "data"), sds(m, (16, 64)), sds(m, (16, 64), None, "model"))


@program
def multi_head_attention():
    m = mesh(data=2, model=4)
    f = lambda x, wq, wk, wv, wo: _attention(x, wq, wk, wv, wo, heads=4)
    w = sds(m, (64, 64), None, "model")
    return jit(f), (sds(m, (4, 16, 64), "data"), w, w, w, sds(m, (64, 64), "model"))


@program
def transformer_block():
    m = mesh(data=2, model=2)
    def f(x, g, b, wq, wk, wv, wo, w1, w2):
        h = x + _attention(_layer_norm(x, g, b), wq, wk, wv, wo, heads=2)
        return h + jax.nn.relu(_layer_norm(h, g, b) @ w1) @ w2
    d = 32
    w = sds(m, (d, d), None, "model")
    return jit(f), (sds(m, (4, 8, d), "data"), sds(m, (d,)), sds(m, (d,)), w, w, w,
                    sds(m, (d, d), "model"), sds(m, (d, 4 * d), None, "model"),
                    sds(m, (4 * d, d), "model"))


@program
def layer_norm():
    m = mesh(batch=4)
    return jit(_layer_norm), (sds(m, (8, 16, 32), "batch"), sds(m, (32,)), sds(m, (32,)))


@program
def rms_norm():
    m = mesh(batch=2, seq=2)
    f = lambda x, g: x * lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6) * g
    return jit(f), (sds(m, (4, 8, 16), "batch", "seq"), sds(m, (16,)))


@program
def conv2d_batch():
    m = mesh(data=4)
    f = lambda x, k: lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jit(f), (sds(m, (8, 16, 16, 3), "data"), sds(m, (3, 3, 3, 8)))


@program
def conv2d_features():
    m = mesh(data=2, model=2)
    f = lambda x, k: jax.nn.relu(lax.conv_general_dilated(x, k, (2, 2), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW")))
    return jit(f), (sds(m, (4, 8, 16, 16), "data"), sds(m, (16, 8, 3, 3), "model"))


@program
def scan_rnn():
    m = mesh(data=4)
    def f(h0, xs, w):
        def step(h, x):
            h = jnp.tanh(h @ w + x)
            return h, h.sum(-1)
        return lax.scan(step, h0, xs)
    return jit(f), (sds(m, (8, 16), "data"), sds(m, (5, 8, 16), None, "data"), sds(m, (16, 16)))


@program
def fori_loop_matmul():
    m = mesh(x=2, y=2)
    f = lambda a, w: lax.fori_loop(0, 3, lambda i, a: jnp.tanh(a @ w), a)
    return jit(f), (sds(m, (16, 16), "x"), sds(m, (16, 16), None, "y"))


@program
def while_loop():
    m = mesh(x=4)
    def f(v):
        return lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.5), (0, v))[1]
    return jit(f), (sds(m, (32, 8), "x"),)


@program
def cond():
    m = mesh(x=2, y=2)
    f = lambda p, a, b: lax.cond(p, lambda: a @ b, lambda: a @ b * 2.0)
    return jit(f), (sds(m, (), dtype=jnp.bool_), sds(m, (8, 16), "x"), sds(m, (16, 8), None, "y"))


@program
def switch():
    m = mesh(x=4)
    f = lambda i, a: lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], a)
    return jit(f), (sds(m, (), dtype=jnp.int32), sds(m, (16, 4), "x"))


@program
def shard_map_psum():
    m = mesh(x=4)
    def inner(a):
        return lax.psum(a.sum(0, keepdims=True), "x")
    f = lambda a: jax.shard_map(inner, mesh=m, in_specs=P("x"), out_specs=P())(a) * 2
    return jit(f), (sds(m, (16, 8), "x"),)


@program
def shard_map_partial_manual():
    m = mesh(x=2, y=2)
    def inner(a):
        return lax.psum(a, "x")
    f = lambda a: jnp.sin(jax.shard_map(inner, mesh=m, in_specs=P("x"), out_specs=P(), axis_names={"x"})(a))
    return jit(f), (sds(m, (8, 16), "x", "y"),)


@program
def with_sharding_constraint():
    m = mesh(data=2, model=4)
    def f(a, b):
        h = a @ b
        h = lax.with_sharding_constraint(h, NamedSharding(m, P("data", "model")))
        return jnp.exp(h).sum(0)
    return jit(f), (sds(m, (16, 32)), sds(m, (32, 64)))


@program
def constraint_then_reduce():
    m = mesh(x=2, y=2)
    def f(a):
        a = lax.with_sharding_constraint(a * 2, NamedSharding(m, P(None, ("x", "y"))))
        return a.max(0), a.min(1)
    return jit(f), (sds(m, (8, 16)),)


@program
def reduce_sum_sharded_axis():
    m = mesh(x=8)
    f = lambda a: a.sum(0)
    return jit(f), (sds(m, (64, 16), "x"),)


@program
def argmax():
    m = mesh(x=2, y=4)
    f = lambda a: jnp.argmax(a, axis=1)
    return jit(f), (sds(m, (8, 32), "x", "y"),)


@program
def gather_take():
    m = mesh(x=4)
    f = lambda table, idx: jnp.take(table, idx, axis=0)
    return jit(f), (sds(m, (32, 16), None, "x"), sds(m, (8,), "x", dtype=jnp.int32))


@program
def embedding_lookup():
    m = mesh(data=2, model=2)
    f = lambda table, ids: table[ids].sum(-1)
    return jit(f), (sds(m, (64, 32), None, "model"), sds(m, (4, 8), "data", dtype=jnp.int32))


@program
def scatter_add():
    m = mesh(x=4)
    f = lambda a, idx, upd: a.at[idx].add(upd)
    return jit(f), (sds(m, (16, 8), None, "x"), sds(m, (4,), dtype=jnp.int32), sds(m, (4, 8), None, "x"))


@program
def dynamic_slice():
    m = mesh(x=2, y=2)
    f = lambda a, i: lax.dynamic_slice(a, (i, 0), (4, 16))
    return jit(f), (sds(m, (16, 16), None, "y"), sds(m, (), dtype=jnp.int32))


@program
def dynamic_update_slice():
    m = mesh(x=4)
    f = lambda a, u, i: lax.dynamic_update_slice(a, u, (0, i))
    return jit(f), (sds(m, (16, 16), "x"), sds(m, (16, 4), "x"), sds(m, (), dtype=jnp.int32))


@program
def transpose():
    m = mesh(x=2, y=4)
    f = lambda a: jnp.transpose(a, (2, 0, 1)) + 1
    return jit(f), (sds(m, (8, 16, 4), "x", "y"),)


@program
def reshape_merge():
    m = mesh(x=4)
    f = lambda a: a.reshape(32, 16) * 2
    return jit(f), (sds(m, (8, 4, 16), "x"),)


@program
def reshape_split():
    m = mesh(x=2, y=2)
    f = lambda a: jnp.sin(a.reshape(4, 8, 4, 4))
    return jit(f), (sds(m, (32, 16), "x", "y"),)


@program
def concatenate():
    m = mesh(x=4)
    f = lambda a, b: jnp.concatenate([a, b], axis=1)
    return jit(f), (sds(m, (16, 8), "x"), sds(m, (16, 4), "x"))


@program
def broadcast_add():
    m = mesh(x=2, y=2)
    f = lambda a, b: a[:, None, :] + b[None, :, :]
    return jit(f), (sds(m, (8, 16), "x"), sds(m, (4, 16), None, "y"))


@program
def cumsum():
    m = mesh(x=4)
    f = lambda a: jnp.cumsum(a, axis=1)
    return jit(f), (sds(m, (16, 32), "x"),)


@program
def batched_einsum():
    m = mesh(b=2, h=2, d=2)
    f = lambda a, b: jnp.einsum("bij,bjk->bik", a, b)
    return jit(f), (sds(m, (4, 8, 16), "b", "h"), sds(m, (4, 16, 8), "b", None, "d"))


@program
def cross_entropy():
    m = mesh(data=4, model=2)
    def f(logits, labels):
        lp = jax.nn.log_softmax(logits, axis=-1)
        return -jnp.take_along_axis(lp, labels[:, None], axis=-1).mean()
    return jit(f), (sds(m, (32, 16), "data", "model"), sds(m, (32,), "data", dtype=jnp.int32))


@program
def pad_and_slice():
    m = mesh(x=2)
    f = lambda a: jnp.pad(a, ((0, 0), (2, 2)))[:, 1:-1]
    return jit(f), (sds(m, (16, 12), "x"),)


@program
def select_where():
    m = mesh(x=2, y=2)
    f = lambda a, b: jnp.where(a > 0, a, b * 2)
    return jit(f), (sds(m, (16, 8), "x"), sds(m, (16, 8), None, "y"))


@program
def iota_compare():
    m = mesh(x=8)
    f = lambda a: jnp.where(jnp.arange(64)[:, None] < 10, a, 0.0)
    return jit(f), (sds(m, (64, 4), "x"),)


@program
def sort():
    m = mesh(x=4)
    f = lambda a: jnp.sort(a, axis=1)
    return jit(f), (sds(m, (16, 8), "x"),)


@program
def out_shardings_given():
    m = mesh(x=2, y=2)
    f = lambda a, b: (a @ b, a.sum())
    return (jit(f, out_shardings=(NamedSharding(m, P(None, "y")), NamedSharding(m, P()))),
            (sds(m, (8, 16), "x"), sds(m, (16, 8))))


@program
def custom_partitioning_rule():
    # A custom op with a Shardy sharding rule (einsum-like notation): the
    # lowered module carries it as the custom call's sdy.sharding_rule.
    from jax.experimental.custom_partitioning import custom_partitioning

    @custom_partitioning
    def scaled_add(a, b):
        return a + 2 * b

    def partition(m, arg_shapes, result_shape):
        out = result_shape.sharding
        return m, lambda a, b: a + 2 * b, out, (out, out)

    scaled_add.def_partition(partition=partition, sharding_rule="i j, i j -> i j")
    m = mesh(x=4, y=2)
    f = lambda a, b: jnp.exp(scaled_add(a, b))
    return jit(f), (sds(m, (16, 8), "x"), sds(m, (16, 8), None, "y"))


@program
def custom_partitioning_reduction_rule():
    from jax.experimental.custom_partitioning import custom_partitioning

    @custom_partitioning
    def row_sum(a):
        return a.sum(1)

    def partition(m, arg_shapes, result_shape):
        out = result_shape.sharding
        arg = NamedSharding(m, P(out.spec[0] if out.spec else None, None))
        return m, lambda a: a.sum(1), out, (arg,)

    row_sum.def_partition(partition=partition, sharding_rule="i j -> i")
    m = mesh(x=2, y=2)
    return jit(lambda a: row_sum(a) + 1), (sds(m, (16, 8), "x"),)


@program
def unsharded_argument_from_use():
    m = mesh(x=4)
    f = lambda a, b: a * b
    return jit(f), (sds(m, (16, 8), "x"), sds(m, (16, 8)))


# Conflicts, sub-axes, pooling, nested jits, remat and gradients.


@program
def conflict_same_axis():
    m = mesh(x=4)
    return jit(lambda a, b: a @ b), (sds(m,(16,16),"x"), sds(m,(16,16),None,"x"))

@program
def contracting_both_sharded():
    m = mesh(x=2, y=2)
    return jit(lambda a, b: a @ b), (sds(m,(16,16),None,"x"), sds(m,(16,16),"y"))

@program
def reshape_sub_axes():
    m = mesh(x=4, y=2)
    return jit(lambda a: jnp.sin(a.reshape(2, 16, 8))), (sds(m,(32,8),"x"),)

@program
def reshape_flatten_two_axes():
    m = mesh(x=2, y=4)
    return jit(lambda a: a.reshape(64) * 2), (sds(m,(8,8),"x","y"),)

@program
def avg_pool():
    m = mesh(x=4)
    f = lambda a: lax.reduce_window(a, 0., lax.add, (1,2,2,1), (1,2,2,1), "VALID")
    return jit(f), (sds(m,(8,16,16,4),"x"),)

@program
def reverse():
    m = mesh(x=2,y=2)
    return jit(lambda a: jnp.flip(a, 1) + 1), (sds(m,(16,32),"x","y"),)

@program
def all_unsharded_with_constraint():
    m = mesh(x=4, y=2)
    def f(a, b):
        h = lax.with_sharding_constraint(a @ b, NamedSharding(m, P("x", "y")))
        return h * 2
    return jit(f), (sds(m,(16,32)), sds(m,(32,16)))

@program
def nested_jit():
    m = mesh(x=4)
    g = jax.jit(lambda a: jnp.sin(a) * 3)
    return jit(lambda a, b: g(a) + g(b)), (sds(m,(16,8),"x"), sds(m,(16,8)))

@program
def three_axis_mesh_einsum():
    m = mesh(a=2, b=2, c=2)
    f = lambda x, w: jnp.einsum("bsd,dhk->bshk", x, w)
    return jit(f), (sds(m,(4,8,16),"a","b"), sds(m,(16,4,8),None,"c"))

@program
def scan_with_weights_sharded():
    m = mesh(x=2, y=2)
    def f(ws, x):
        return lax.scan(lambda c, w: (jnp.tanh(c @ w), None), x, ws)[0]
    return jit(f), (sds(m,(3,16,16),None,None,"y"), sds(m,(8,16),"x"))

@program
def remat():
    m = mesh(x=4)
    f = jax.checkpoint(lambda a, b: jnp.sin(a @ b))
    return jit(f), (sds(m,(16,16),"x"), sds(m,(16,16)))

@program
def grad_mlp():
    m = mesh(data=4, model=2)
    loss = lambda w, x: jnp.sum(jnp.tanh(x @ w) ** 2)
    return jit(jax.grad(loss)), (sds(m,(32,64),None,"model"), sds(m,(16,32),"data"))

@program
def concat_sharded_dim():
    m = mesh(x=2)
    return jit(lambda a, b: jnp.concatenate([a, b], 0)), (sds(m,(8,4),"x"), sds(m,(8,4),"x"))
