"""What each golden op name means, as a call of real keras.ops (used by ops.py).

The meanings follow the C++ replay maps in tests/ops_*/*_golden_test.cpp and
tests/layers_preprocessing/image_ops_test.cpp: an adapter takes (inputs, kwargs) and returns the
list of outputs. Op names without an adapter call keras.ops.<name>(*inputs, **kwargs).
"""

import inspect
import math

import jax
import jax.numpy as jnp
import keras
import numpy as np

ops = keras.ops

# Golden op names with no keras.ops counterpart: left out of the oracle fixtures.
EXTENSIONS = {
    "matrix_power": "keras.ops has no matrix_power (keras-cpp adds numpy.linalg.matrix_power)",
    "column_stack": "keras.ops has no column_stack (keras-cpp adds numpy.column_stack)",
    "cpu_linear": "calls keras-cpp's fused dense kernel directly; no Keras op",
}


def extension(op, kw):
    """Why a case has no keras.ops counterpart, or None."""
    if op in EXTENSIONS:
        return EXTENSIONS[op]
    if op == "cdist" and kw.get("p", 2) not in (2, 2.0):
        return "keras.ops.cdist is Euclidean only; keras-cpp adds the p-norm argument"
    return None

A = {}  # op name -> adapter


def t(x):
    """An input array as a JAX array of the same dtype (a tensor of the JAX backend)."""
    return jnp.asarray(x)


def call(name, *args, **kw):
    """keras.ops.<name>, passing only the kwargs its signature has (a typo fails loudly)."""
    fn = getattr(ops, name)
    params = inspect.signature(fn).parameters
    unknown = set(kw) - set(params)
    assert not unknown or any(p.kind == p.VAR_KEYWORD for p in params.values()), (name, unknown)
    return fn(*args, **kw)


def as_list(y):
    return list(y) if isinstance(y, (tuple, list)) else [y]


def generic(name):
    return lambda ins, kw: as_list(call(name, *[t(x) for x in ins], **kw))


def tuplify(v):
    """JSON lists as tuples: Keras on JAX takes axes, sizes and strides as tuples (a list is an
    unhashable static argument to jit)."""
    if isinstance(v, list):
        return tuple(tuplify(e) for e in v)
    if isinstance(v, dict):
        return {k: tuplify(e) for k, e in v.items()}
    return v


def adapter(op):
    fn = A.get(op) or generic(op)
    return lambda ins, kw: fn(ins, tuplify(kw))


def number(v):
    """JSON numbers, with "inf"/"-inf" strings as floats."""
    if v == "inf":
        return math.inf
    if v == "-inf":
        return -math.inf
    return v


# ---- numpy_core ----------------------------------------------------------------------------

A["reshape"] = lambda ins, kw: [ops.reshape(t(ins[0]), kw["shape"])]
A["add_scalar"] = lambda ins, kw: [ops.add(t(ins[0]), kw["scalar"])]
A["multiply_scalar"] = lambda ins, kw: [ops.multiply(t(ins[0]), kw["scalar"])]
A["reshape_of_transpose"] = lambda ins, kw: [
    ops.reshape(ops.transpose(t(ins[0]), kw["axes"]), kw["shape"])]
A["matmul_tt"] = lambda ins, kw: [ops.matmul(ops.transpose(t(ins[0])), ops.transpose(t(ins[1])))]
A["index"] = lambda ins, kw: [t(ins[0])[kw["index"]]]


def _slice(ins, kw):
    key = tuple(slice(*s) for s in kw["slices"])
    return [ops.get_item(t(ins[0]), key)]


A["slice"] = _slice
A["arange"] = lambda ins, kw: [ops.arange(kw["start"], kw["stop"], kw["step"])]
for _n in ("zeros", "ones"):
    A[_n] = (lambda n: lambda ins, kw: [call(n, kw["shape"], dtype=kw.get("dtype"))])(_n)
A["full"] = lambda ins, kw: [ops.full(kw["shape"], kw["value"], dtype=kw.get("dtype"))]

# ---- numpy_elementwise ---------------------------------------------------------------------

OPERATORS = {"operator%": "mod", "operator&": "bitwise_and", "operator|": "bitwise_or",
             "operator^": "bitwise_xor", "operator~": "bitwise_invert"}


def elementwise(op):
    """The C++ elementwise map: name, name_scalar (a Python literal), name_transposed."""
    if op in OPERATORS:
        return elementwise(OPERATORS[op])
    if op.endswith("_scalar") and op not in A:
        base = op[: -len("_scalar")]
        return lambda ins, kw: [call(base, t(ins[0]), kw["scalar"])]
    if op.endswith("_transposed"):
        base = op[: -len("_transposed")]
        return lambda ins, kw: [call(base, ops.transpose(t(ins[0])))]
    return adapter(op)


def battery(ins, kw):
    names, arity = kw["ops"], kw.get("arity", 1)
    same = len(ins) == arity
    sub = {k: v for k, v in kw.items() if k not in ("ops", "arity")}
    out = []
    for i, n in enumerate(names):
        args = [ins[k if same else arity * i + k] for k in range(arity)]
        out += elementwise(n)(args, sub)
    return out


A["battery"] = battery
for _op in OPERATORS:
    A[_op] = elementwise(_op)
A["round"] = lambda ins, kw: [ops.round(t(ins[0]), kw.get("decimals", 0))]
A["clip"] = lambda ins, kw: [ops.clip(t(ins[0]), kw["x_min"], kw["x_max"])]

# ---- numpy_linalg --------------------------------------------------------------------------

A["norm"] = lambda ins, kw: [ops.norm(t(ins[0]), ord=number(kw.get("ord")), axis=kw.get("axis"),
                                      keepdims=kw.get("keepdims", False))]
A["cdist"] = lambda ins, kw: [ops.cdist(t(ins[0]), t(ins[1]))]  # Euclidean only in Keras
A["einsum"] = lambda ins, kw: [ops.einsum(kw["subscripts"], *[t(x) for x in ins])]
A["lstsq"] = lambda ins, kw: [ops.lstsq(t(ins[0]), t(ins[1]), rcond=number(kw.get("rcond")))]
A["pinv"] = lambda ins, kw: [ops.pinv(t(ins[0]), rcond=number(kw.get("rcond")))]
A["matrix_rank"] = lambda ins, kw: [ops.matrix_rank(t(ins[0]), tol=number(kw.get("tol")))]


def mT(x):
    return ops.swapaxes(x, -1, -2)


def qr_invariants(ins, kw):
    q, r = ops.qr(t(ins[0]), mode=kw.get("mode", "reduced"))
    return [ops.matmul(q, r), ops.matmul(mT(q), q), ops.tril(r, -1), ops.absolute(r)]


def svd_invariants(ins, kw):
    x = t(ins[0])
    u, s, vh = ops.svd(x, full_matrices=kw.get("full_matrices", True))
    k = s.shape[-1]
    uk, vk = u[..., :, :k], vh[..., :k, :]
    rebuilt = ops.matmul(ops.multiply(uk, ops.expand_dims(s, -2)), vk)
    return [s, rebuilt, ops.matmul(mT(u), u), ops.matmul(vh, mT(vh))]


def eigh_invariants(ins, kw):
    w, v = ops.eigh(t(ins[0]))
    rebuilt = ops.matmul(ops.multiply(v, ops.expand_dims(w, -2)), mT(v))
    return [w, rebuilt, ops.matmul(mT(v), v)]


A["qr_invariants"] = qr_invariants
A["svd_invariants"] = svd_invariants
A["svd_values"] = lambda ins, kw: [ops.svd(t(ins[0]), full_matrices=False, compute_uv=False)]
A["eigh_invariants"] = eigh_invariants


def jvp_tanh_matvec(ins, kw):
    a = t(ins[0])
    y, jt = jax.jvp(lambda x: ops.tanh(ops.matmul(a, x)), (t(ins[1]),), (t(ins[2]),))
    return [y, jt]


A["jvp_tanh_matvec"] = jvp_tanh_matvec

# ---- numpy_reductions ----------------------------------------------------------------------

for _n in ("sum", "max", "var", "median", "cumsum", "cumprod"):
    A[_n + "_of_transpose"] = (lambda n: lambda ins, kw: as_list(call(
        n, ops.transpose(t(ins[0]), kw["axes"]), **{k: v for k, v in kw.items() if k != "axes"}
    )))(_n)
A["max_initial"] = lambda ins, kw: [ops.max(t(ins[0]), **kw)]
A["min_initial"] = lambda ins, kw: [ops.min(t(ins[0]), **kw)]
A["trapezoid_x"] = lambda ins, kw: [ops.trapezoid(t(ins[0]), x=t(ins[1]), axis=kw.get("axis", -1))]
A["average_w"] = lambda ins, kw: [ops.average(t(ins[0]), axis=kw.get("axis"), weights=t(ins[1]))]
A["bincount_w"] = lambda ins, kw: [ops.bincount(t(ins[0]), weights=t(ins[1]), **kw)]


def canonical_partition(ins, kw):
    """argpartition's indices put in canonical order (see the C++ map): any valid partition
    gives the same values, sorted before kth, the kth value, sorted after."""
    x, kth, axis = np.asarray(ins[0]), kw["kth"], kw.get("axis", -1)
    idx = np.asarray(ops.argpartition(t(x), kth, axis=axis))
    assert idx.dtype == np.int32, idx.dtype
    src = x if axis is not None else x.reshape(-1)
    a = axis if axis is not None else 0
    n = src.shape[a]
    k = kth + n if kth < 0 else kth
    v = np.take_along_axis(src, idx, a)
    part = np.split(v, [k, k + 1], axis=a)
    return [np.concatenate([np.sort(part[0], a), part[1], np.sort(part[2], a)], a)]


A["argpartition"] = canonical_partition
A["isin"] = lambda ins, kw: [ops.isin(t(ins[0]), t(ins[1]), invert=kw.get("invert", False))]

# ---- numpy_shape ---------------------------------------------------------------------------

for _n in ("concatenate", "stack", "hstack", "vstack", "dstack"):  # ops over a list of tensors
    A[_n] = (lambda n: lambda ins, kw: [call(n, [t(x) for x in ins], **kw)])(_n)
# Per-element repeats as a tensor (jnp.repeat takes no Python sequence).
A["repeat"] = lambda ins, kw: [ops.repeat(
    t(ins[0]), t(np.asarray(kw["repeats"])) if isinstance(kw["repeats"], tuple) else kw["repeats"],
    axis=kw.get("axis"))]

for _n in ("split", "array_split", "hsplit", "vsplit", "dsplit"):
    A[_n] = (lambda n: lambda ins, kw: as_list(call(
        n, t(ins[0]), kw["sections"] if "sections" in kw else kw["indices"],
        **({"axis": kw["axis"]} if "axis" in kw else {}))))(_n)
A["view_of_transpose"] = lambda ins, kw: [ops.view(ops.transpose(t(ins[0])), kw["dtype"])]
A["ndim"] = lambda ins, kw: [ops.ndim(t(ins[0]))]
A["size"] = lambda ins, kw: [ops.size(t(ins[0]))]
A["full_like"] = lambda ins, kw: [ops.full_like(t(ins[0]), kw["value"], dtype=kw.get("dtype"))]


def _space(name):
    def f(ins, kw):
        kw = dict(kw)
        if len(ins) == 2:
            start, stop = t(ins[0]), t(ins[1])
        else:
            start, stop = kw.pop("start"), kw.pop("stop")
        return [call(name, start, stop, **kw)]
    return f


for _n in ("linspace", "logspace", "geomspace"):
    A[_n] = _space(_n)
for _n in ("bartlett", "blackman", "hamming", "hanning"):
    A[_n] = (lambda n: lambda ins, kw: [call(n, kw["M"])])(_n)
A["kaiser"] = lambda ins, kw: [ops.kaiser(kw["M"], kw["beta"])]
A["eye"] = lambda ins, kw: [ops.eye(kw["N"], kw.get("M"), k=kw.get("k", 0), dtype=kw.get("dtype"))]
A["tri"] = lambda ins, kw: [ops.tri(kw["N"], kw.get("M"), k=kw.get("k", 0), dtype=kw.get("dtype"))]
A["identity"] = lambda ins, kw: [ops.identity(kw["n"], dtype=kw.get("dtype"))]
A["meshgrid"] = lambda ins, kw: as_list(ops.meshgrid(*[t(x) for x in ins], **kw))


def get_item(ins, kw):
    key = []
    for e in kw["key"]:
        if e is None:
            key.append(None)
        elif isinstance(e, str):
            key.append(Ellipsis)
        elif "int" in e:
            key.append(e["int"])
        elif "slice" in e:
            key.append(slice(*e["slice"]))
        else:
            key.append(t(ins[1 + e["tensor"]]))
    return [ops.get_item(t(ins[0]), tuple(key))]


A["get_item"] = get_item


def select(ins, kw):
    n = kw["ncond"]
    return [ops.select([t(x) for x in ins[:n]], [t(x) for x in ins[n:]], kw.get("default", 0))]


A["select"] = select
A["unravel_index"] = lambda ins, kw: as_list(ops.unravel_index(t(ins[0]), tuple(kw["shape"])))
A["scatter"] = lambda ins, kw: [ops.scatter(t(ins[0]), t(ins[1]), tuple(kw["shape"]))]
A["core_slice"] = lambda ins, kw: [ops.slice(t(ins[0]), kw["start"], kw["shape"])]
A["slice_update"] = lambda ins, kw: [ops.slice_update(t(ins[0]), kw["start"], t(ins[1]))]

# ---- nn_ops --------------------------------------------------------------------------------

A["gelu_exact"] = lambda ins, kw: [ops.gelu(t(ins[0]), approximate=False)]
A["softmax_of_transpose"] = lambda ins, kw: [ops.softmax(ops.transpose(t(ins[0])), axis=-1)]
A["log_softmax_of_transpose"] = lambda ins, kw: [ops.log_softmax(ops.transpose(t(ins[0])), axis=-1)]


def batch_normalization(ins, kw):
    x = [t(v) for v in ins] + [None, None]
    return [ops.batch_normalization(x[0], x[1], x[2], kw["axis"], offset=x[3], scale=x[4],
                                    epsilon=kw.get("epsilon", 1e-3))]


def layer_normalization(ins, kw):
    x = [t(v) for v in ins] + [None, None]
    return [ops.layer_normalization(x[0], x[1], x[2], axis=kw.get("axis", -1),
                                    epsilon=kw.get("epsilon"))]


def rms_normalization(ins, kw):
    x = [t(v) for v in ins] + [None]
    return [ops.rms_normalization(x[0], x[1], axis=kw.get("axis", -1), epsilon=kw.get("epsilon"))]


def attention(with_mask):
    def f(ins, kw):
        x = [t(v) for v in ins] + [None, None]
        mask, bias = (x[3], x[4]) if with_mask else (None, x[3])
        return [ops.dot_product_attention(x[0], x[1], x[2], bias=bias, mask=mask,
                                          scale=kw.get("scale"),
                                          is_causal=kw.get("is_causal", False))]
    return f


A["batch_normalization"] = batch_normalization
A["layer_normalization"] = layer_normalization
A["rms_normalization"] = rms_normalization
A["dot_product_attention"] = attention(False)
A["dot_product_attention_mask"] = attention(True)


def one_hot(ins, kw):
    y = ops.one_hot(t(ins[0]), **kw)
    return [y.todense() if kw.get("sparse") else y]  # a sparse result as its dense values


A["one_hot"] = one_hot
A["moments"] = lambda ins, kw: as_list(ops.moments(t(ins[0]), kw["axes"],
                                                   keepdims=kw.get("keepdims", False)))

# ---- nn_conv -------------------------------------------------------------------------------


def vjp(name, n_inputs):
    """The gradients of <g, f(inputs)> with respect to every input (g is the last input)."""
    def f(ins, kw):
        xs = [t(v) for v in ins[:n_inputs]]
        fn = pool(name) if name.endswith("_pool") else getattr(ops, name)
        y, back = jax.vjp(lambda *a: fn(*a, **kw), *xs)
        return list(back(t(ins[n_inputs]).astype(y.dtype)))
    return f


def pool(name):
    """Pooling with strides defaulting to pool_size, passed explicitly: Keras 3.15.1's JAX
    max_pool / average_pool raise with strides=None (reduce_window gets inconsistent strides)."""
    def f(*args, **kw):
        kw.setdefault("strides", kw["pool_size"])
        return getattr(ops, name)(*args, **kw)
    return f


for _n in ("max_pool", "average_pool"):
    A[_n] = (lambda fn: lambda ins, kw: [fn(t(ins[0]), **kw)])(pool(_n))

A["conv_vjp"] = vjp("conv", 2)
A["conv_transpose_vjp"] = vjp("conv_transpose", 2)
A["max_pool_vjp"] = vjp("max_pool", 1)
A["average_pool_vjp"] = vjp("average_pool", 1)

# ---- ops_image: the op's output and, given an upstream gradient, d sum(y * up) / d images ----


def with_grad(fn, x, up):
    y = fn(t(x))
    if up is None:
        return [y]
    g = jax.grad(lambda v: jnp.sum(fn(v).astype(jnp.float64) * t(up).astype(jnp.float64)))(t(x))
    return [y, g]


def image(name, n_args):
    def f(ins, kw):
        args = [t(v) for v in ins[1:n_args]]
        up = ins[n_args] if len(ins) > n_args else None
        fn = getattr(ops.image, name)
        return with_grad(lambda x: fn(x, *args, **kw), ins[0], up)
    return f


def resize(ins, kw):
    kw = dict(kw)
    size = tuple(kw.pop("size"))
    up = ins[1] if len(ins) > 1 else None
    return with_grad(lambda x: ops.image.resize(x, size, **kw), ins[0], up)


A["resize"] = resize
A["affine_transform"] = image("affine_transform", 2)
A["map_coordinates"] = image("map_coordinates", 2)
A["crop_images"] = image("crop_images", 1)
A["pad_images"] = image("pad_images", 1)
