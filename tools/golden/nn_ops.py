"""Fixtures for keras.ops.nn (activations, softmax, losses, normalization, encodings,
attention). Writes tests/golden/nn_ops.npz.

References are computed in float64 (NumPy, and torch.nn.functional where it has the function)
and cast to the dtype Keras returns. Where Keras's formula (through JAX) differs from the
textbook one, the reference follows Keras and the comment says so.
"""

import math

import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

f = Fixture("nn_ops", seed=7)
r = f.randn
EPS = 1e-7  # keras.config.epsilon()


def f64(x):
    return np.asarray(x).astype(np.float64)


def t64(x):
    return torch.from_numpy(f64(x))


def keep(y, like):
    """y (float64) cast to the dtype of `like` (a float array)."""
    return np.asarray(y).astype(np.asarray(like).dtype)


# ---- activations: reference formulas in float64, as jax.nn writes them ---------------------
def sigmoid(x):
    return torch.sigmoid(t64(x)).numpy()


def relu6(x):
    return np.minimum(np.maximum(x, 0), 6)


ACT = {
    "relu": lambda x: np.maximum(x, 0),
    "relu6": relu6,
    "sigmoid": sigmoid,
    "sparse_sigmoid": lambda x: 0.5 * np.clip(x + 1, 0, 2),
    "softplus": lambda x: np.logaddexp(x, 0),
    "softsign": lambda x: x / (np.abs(x) + 1),
    "soft_shrink": lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0.0)),
    "sparse_plus": lambda x: np.where(x <= -1, 0.0, np.where(x >= 1, x, (x + 1) ** 2 / 4)),
    "silu": lambda x: F.silu(t64(x)).numpy(),
    "swish": lambda x: F.silu(t64(x)).numpy(),
    "squareplus": lambda x: (x + np.sqrt(x * x + 4)) / 2,
    "log_sigmoid": lambda x: F.logsigmoid(t64(x)).numpy(),
    "leaky_relu": lambda x: np.where(x >= 0, x, 0.2 * x),
    "hard_sigmoid": lambda x: relu6(x + 3) / 6,
    "hard_silu": lambda x: x * relu6(x + 3) / 6,
    "hard_swish": lambda x: x * relu6(x + 3) / 6,
    "elu": lambda x: np.where(x > 0, x, np.expm1(np.minimum(x, 0))),
    "selu": lambda x: F.selu(t64(x)).numpy(),
    "gelu": lambda x: F.gelu(t64(x), approximate="tanh").numpy(),
    "gelu_exact": lambda x: F.gelu(t64(x)).numpy(),
    "celu": lambda x: F.celu(t64(x), alpha=1.0).numpy(),
    "tanh_shrink": lambda x: x - np.tanh(x),
    "hard_tanh": lambda x: np.clip(x, -1, 1),
    "hard_shrink": lambda x: np.where(np.abs(x) > 0.5, x, 0.0),
}
# The ones with a fused cpu kernel also get float16 cases.
NATIVE = ["squareplus"]
FUSED = ["relu", "relu6", "sigmoid", "softplus", "silu", "log_sigmoid", "leaky_relu", "elu",
         "gelu", "gelu_exact", "hard_tanh"]

edge = np.array([np.nan, np.inf, -np.inf, 0.0, 1.0, -1.0, 3.0, -3.0, 20.0, -20.0], np.float32)
for name, fn in ACT.items():
    # Random values and the edge cases (NaN, +-inf, 0, +-1, +-3, +-20) in one array.
    x = np.concatenate([r(18) * 3, edge]).reshape(4, 7)
    with np.errstate(all="ignore"):
        # squareplus cancels for large negative x: Keras computes the formula in float32, so
        # the reference does too.
        f.case(f"{name}_f32", name, [x], keep(fn(x if name in NATIVE else f64(x)), x))
        f.case(f"{name}_f64", name, [f64(x)], fn(f64(x)))
    if name in ("relu", "sigmoid", "gelu", "softplus"):
        e = np.zeros((0, 3), np.float32)
        f.case(f"{name}_empty", name, [e], e)
        s = np.float32(-0.75)
        f.case(f"{name}_0d", name, [s], keep(fn(f64(s)), s))
    if name in FUSED:
        h = (r(4, 6) * 3).astype(np.float16)
        f.case(f"{name}_f16", name, [h], keep(fn(f64(h)), h))

# Integers: relu and hard_tanh keep them (maximum(x, 0) and where(..., 1, -1, x) in JAX);
# the others compute in floatx.
xi = np.array([-3, -1, 0, 2, 7], np.int32)
f.case("relu_int", "relu", [xi], np.maximum(xi, 0))
f.case("hard_tanh_int", "hard_tanh", [xi], np.clip(xi, -1, 1).astype(np.int32))
f.case("relu6_int", "relu6", [xi], relu6(xi).astype(np.float32))
f.case("sigmoid_int", "sigmoid", [xi], keep(sigmoid(xi), np.float32(0)))
f.case("leaky_relu_int", "leaky_relu", [xi], np.where(xi >= 0, xi, 0.2 * xi).astype(np.float32))

# Parameters.
x = r(4, 5) * 3
f.case("leaky_relu_slope", "leaky_relu", [x], keep(np.where(x >= 0, x, 0.01 * f64(x)), x),
       negative_slope=0.01)
f.case("elu_alpha", "elu", [x], keep(np.where(x > 0, x, 0.5 * np.expm1(np.minimum(f64(x), 0))), x),
       alpha=0.5)
f.case("celu_alpha", "celu", [x], keep(F.celu(t64(x), alpha=2.0).numpy(), x), alpha=2.0)
f.case("squareplus_b", "squareplus", [x], keep((f64(x) + np.sqrt(f64(x) ** 2 + 1)) / 2, x), b=1.0)
f.case("soft_shrink_t", "soft_shrink", [x],
       keep(np.where(x > 1, x - 1.0, np.where(x < -1, x + 1.0, 0.0)), x), threshold=1.0)
f.case("hard_shrink_t", "hard_shrink", [x], keep(np.where(np.abs(x) > 1, x, 0.0), x), threshold=1.0)
f.case("threshold", "threshold", [x], np.where(x > 0.3, x, -2.0).astype(np.float32),
       threshold=0.3, default_value=-2.0)
f.case("threshold_int", "threshold", [xi], np.where(xi > 0, xi, 5).astype(np.int32),
       threshold=0, default_value=5)
# An int input with a float default value promotes to floatx, as jnp.where does.
f.case("threshold_int_float", "threshold", [xi], np.where(xi > 0, xi, 0.5).astype(np.float32),
       threshold=0, default_value=0.5)

# glu: a * sigmoid(b) over the two halves of an axis.
x = r(4, 6)
f.case("glu_last", "glu", [x], keep(F.glu(t64(x), dim=-1).numpy(), x))
f.case("glu_axis0", "glu", [x], keep(F.glu(t64(x), dim=0).numpy(), x), axis=0)
f.case("glu_f64", "glu", [f64(x)], F.glu(t64(x), dim=-1).numpy())
f.case("glu_odd_raises", "glu", [r(3, 5)], [], raises="ValueError")

# ---- softmax and log_softmax ---------------------------------------------------------------
def softmax_ref(x, axis):
    return torch.softmax(t64(x), dim=axis).numpy() if isinstance(axis, int) else \
        np.exp(log_softmax_ref(x, axis))


def log_softmax_ref(x, axis):
    x = f64(x)
    m = np.max(x, axis=axis, keepdims=True)
    return (x - m) - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


for name, ref in [("softmax", softmax_ref), ("log_softmax", log_softmax_ref)]:
    x = r(3, 5) * 2
    f.case(f"{name}_last", name, [x], keep(ref(x, -1), x))
    f.case(f"{name}_axis0", name, [x], keep(ref(x, 0), x), axis=0)
    x3 = r(2, 3, 4)
    f.case(f"{name}_middle", name, [x3], keep(ref(x3, 1), x3), axis=1)
    f.case(f"{name}_axes", name, [x3], keep(ref(x3, (0, 2)), x3), axis=[0, 2])
    f.case(f"{name}_axes_last_two", name, [x3], keep(ref(x3, (1, 2)), x3), axis=[-2, -1])
    f.case(f"{name}_all", name, [x3], keep(ref(x3, None), x3), axis=None)
    f.case(f"{name}_f64", name, [f64(x3)], ref(x3, -1))
    h = (r(4, 9) * 3).astype(np.float16)
    f.case(f"{name}_f16", name, [h], keep(ref(h, -1), h))
    f.case(f"{name}_int", name, [np.array([[1, 2, 3], [0, 0, 5]], np.int32)],
           keep(ref(np.array([[1, 2, 3], [0, 0, 5]]), -1), np.float32(0)))
    big = np.array([[1000.0, 1001.0, 999.0], [-1000.0, -1002.0, -1001.0]], np.float32)
    f.case(f"{name}_large", name, [big], keep(ref(big, -1), big))
    # Long rows (vector path with a tail), a strided block (axis not last, inner > 1) and one
    # wider than the cpu kernel's column block.
    long = r(4, 37) * 4
    f.case(f"{name}_long", name, [long], keep(ref(long, -1), long))
    blk = r(3, 30, 5)
    f.case(f"{name}_block", name, [blk], keep(ref(blk, 1), blk), axis=1)
    wide = r(1, 3, 260)
    f.case(f"{name}_wide", name, [wide], keep(ref(wide, 1), wide), axis=1)
    # Non-contiguous input: the test transposes first.
    t = r(5, 4)
    f.case(f"{name}_transposed", f"{name}_of_transpose", [t], keep(ref(t.T, -1), t))
    e = np.zeros((0, 4), np.float32)
    f.case(f"{name}_empty", name, [e], e)
    f.case(f"{name}_0d_all", name, [np.float32(2.5)], keep(ref(np.array(2.5), None), np.float32(0)),
           axis=None)
    # NaN anywhere in a line makes the whole line NaN; +inf too (inf - inf); a line of -inf
    # only is NaN (0 / 0), as jax.nn.softmax gives.
    special = np.array([[1.0, np.nan, 2.0], [1.0, np.inf, 2.0], [-np.inf, -np.inf, -np.inf],
                        [-np.inf, 0.0, 1.0]], np.float32)
    with np.errstate(all="ignore"):
        xs = f64(special)
        m = np.max(xs, axis=-1, keepdims=True)
        ls = (xs - m) - np.log(np.sum(np.exp(xs - m), axis=-1, keepdims=True))
        expect = ls if name == "log_softmax" else np.exp(xs - m) / np.sum(np.exp(xs - m), -1,
                                                                           keepdims=True)
    f.case(f"{name}_nan_inf", name, [special], keep(expect, special))
    f.case(f"{name}_bad_axis_raises", name, [x], [], axis=2, raises="ValueError")
    f.case(f"{name}_0d_raises", name, [np.float32(1)], [], raises="ValueError")


# ---- sparsemax (the projection onto the simplex; see softmax.cpp about Keras 3.16) ----------
def sparsemax_ref(x, axis=-1):
    x = np.moveaxis(f64(x), axis, -1)
    z = -np.sort(-x, axis=-1)
    cs = np.cumsum(z, axis=-1)
    k = np.arange(1, x.shape[-1] + 1)
    support = z - (cs - 1) / k > 0
    kk = support.sum(-1, keepdims=True)
    tau = (np.take_along_axis(cs, kk - 1, axis=-1) - 1) / kk
    return np.moveaxis(np.maximum(x - tau, 0), -1, axis)


x = r(4, 6) * 0.7
f.case("sparsemax", "sparsemax", [x], keep(sparsemax_ref(x), x))
f.case("sparsemax_axis0", "sparsemax", [x], keep(sparsemax_ref(x, 0), x), axis=0)
f.case("sparsemax_f64", "sparsemax", [f64(x)], sparsemax_ref(x))
f.case("sparsemax_keras_doc", "sparsemax", [np.array([-0.5, 0, 1, 2, 3], np.float32)],
       np.array([0, 0, 0, 0, 1], np.float32))
f.case("sparsemax_two", "sparsemax", [np.array([[0.0, 0.5, 1.0]], np.float32)],
       np.array([[0.0, 0.25, 0.75]], np.float32))
f.case("sparsemax_empty", "sparsemax", [np.zeros((0, 3), np.float32)], np.zeros((0, 3), np.float32))
f.case("sparsemax_bad_axis_raises", "sparsemax", [x], [], axis=2, raises="ValueError")

# ---- cross-entropies -----------------------------------------------------------------------
def bce_ref(t, o, from_logits):
    t, o = f64(t), f64(o)
    if from_logits:
        ls = F.logsigmoid(torch.from_numpy(o)).numpy()
        lns = F.logsigmoid(torch.from_numpy(-o)).numpy()
        return -t * ls - (1 - t) * lns
    # Keras clips with epsilon in the output's dtype; in float32 1 - 1e-7 rounds to
    # 1 - 2^-23 * 1 (0.99999988).
    lo, hi = np.float32(EPS), np.float32(1 - EPS)
    p = np.clip(o, f64(lo), f64(hi))
    return -(t * np.log(p) + (1 - t) * np.log(1 - p))


t = (f.uniform(0, 1, 3, 4) > 0.5).astype(np.float32)
p = f.uniform(0.01, 0.99, 3, 4)
p[0, 0], p[0, 1] = 0.0, 1.0  # clipped
f.case("bce", "binary_crossentropy", [t, p], keep(bce_ref(t, p, False), p))
lg = r(3, 4) * 4
lg[1, 0], lg[1, 1] = 100.0, -100.0
f.case("bce_logits", "binary_crossentropy", [t, lg], keep(bce_ref(t, lg, True), lg),
       from_logits=True)
f.case("bce_logits_f64", "binary_crossentropy", [f64(t), f64(lg)], bce_ref(t, lg, True),
       from_logits=True)
ti = t.astype(np.int32)
f.case("bce_int_target", "binary_crossentropy", [ti, p], keep(bce_ref(ti, p, False), p))
soft = f.uniform(0, 1, 3, 4)
f.case("bce_soft_logits", "binary_crossentropy", [soft, lg], keep(bce_ref(soft, lg, True), lg),
       from_logits=True)
f.case("bce_shape_raises", "binary_crossentropy", [t, r(4, 3)], [], raises="ValueError")


def cce_ref(t, o, from_logits, axis=-1):
    t, o = f64(t), f64(o)
    if from_logits:
        lp = log_softmax_ref(o, axis)
    else:
        o = o / o.sum(axis=axis, keepdims=True)
        lo, hi = np.float32(EPS), np.float32(1 - EPS)
        lp = np.log(np.clip(o, f64(lo), f64(hi)))
    return -np.sum(t * lp, axis=axis)


t = np.eye(5, dtype=np.float32)[[0, 3, 1, 4]]
o = f.uniform(0.05, 2, 4, 5)  # unnormalized: Keras divides by the sum first
f.case("cce", "categorical_crossentropy", [t, o], keep(cce_ref(t, o, False), o))
lg = r(4, 5) * 3
f.case("cce_logits", "categorical_crossentropy", [t, lg], keep(cce_ref(t, lg, True), lg),
       from_logits=True)
f.case("cce_axis0", "categorical_crossentropy", [t.T.copy(), lg.T.copy()],
       keep(cce_ref(t.T, lg.T, True, 0), lg), from_logits=True, axis=0)
f.case("cce_f64", "categorical_crossentropy", [f64(t), f64(o)], cce_ref(t, o, False))
ts = f.uniform(0, 1, 4, 5)
ts /= ts.sum(-1, keepdims=True)
f.case("cce_soft", "categorical_crossentropy", [ts, lg], keep(cce_ref(ts, lg, True), lg),
       from_logits=True)
oz = o.copy()
oz[0, 0] = 0.0  # log(0) guarded by the clip
f.case("cce_zero_prob", "categorical_crossentropy", [t, oz], keep(cce_ref(t, oz, False), o))
f.case("cce_shape_raises", "categorical_crossentropy", [t, r(4, 4)], [], raises="ValueError")
f.case("cce_rank0_raises", "categorical_crossentropy", [np.float32(1), np.float32(1)], [],
       raises="ValueError")


def scce_ref(labels, o, from_logits, axis=-1):
    o = f64(o)
    classes = o.shape[axis]
    onehot = np.moveaxis(np.eye(classes)[labels], -1, axis)
    return cce_ref(onehot, o, from_logits, axis)


labels = np.array([0, 3, 1, 4], np.int32)
f.case("scce", "sparse_categorical_crossentropy", [labels, o], keep(scce_ref(labels, o, False), o))
f.case("scce_logits", "sparse_categorical_crossentropy", [labels, lg],
       keep(scce_ref(labels, lg, True), lg), from_logits=True)
f.case("scce_trailing_one", "sparse_categorical_crossentropy", [labels[:, None], lg],
       keep(scce_ref(labels, lg, True), lg), from_logits=True)
f.case("scce_int64_labels", "sparse_categorical_crossentropy", [labels.astype(np.int64), lg],
       keep(scce_ref(labels, lg, True), lg), from_logits=True)
f.case("scce_f64", "sparse_categorical_crossentropy", [labels, f64(lg)],
       scce_ref(labels, lg, True), from_logits=True)
# Keras multiplies by a float32 one-hot: a float16 output gives a float32 loss.
lh = lg.astype(np.float16)
f.case("scce_f16", "sparse_categorical_crossentropy", [labels, lh],
       scce_ref(labels, log_softmax_ref(lh, -1).astype(np.float16), True).astype(np.float32),
       from_logits=True, rtol=2e-5, atol=1e-5)  # measured 1.1e-5: float16 log-probabilities
seq = r(2, 5, 3) * 2  # (B, C, T) with classes on axis 1
sl = f.randint(0, 5, 2, 3)
f.case("scce_axis1", "sparse_categorical_crossentropy", [sl, seq],
       keep(scce_ref(sl, seq, True, 1), seq), from_logits=True, axis=1)
f.case("scce_out_of_range_raises", "sparse_categorical_crossentropy",
       [np.array([0, 5, 1, 2], np.int32), lg], [], raises="IndexError")
f.case("scce_negative_raises", "sparse_categorical_crossentropy",
       [np.array([0, -1, 1, 2], np.int32), lg], [], raises="IndexError")
f.case("scce_shape_raises", "sparse_categorical_crossentropy", [labels[:3], lg], [],
       raises="ValueError")

a, b = f.uniform(0, 1, 2, 4, 4, 3), f.uniform(0, 1, 2, 4, 4, 3)
mse = np.mean((f64(a) - f64(b)) ** 2)
f.case("psnr", "psnr", [a, b], np.float32(20 * math.log10(1.0) - 10 * math.log10(mse)), max_val=1.0)
f.case("psnr_255", "psnr", [a * 255, b * 255],
       np.float32(20 * math.log10(255.0) - 10 * math.log10(np.mean((f64(a * 255) - f64(b * 255)) ** 2))),
       max_val=255.0)
f.case("psnr_shape_raises", "psnr", [a, b[0]], [], max_val=1.0, raises="ValueError")

# ---- normalization -------------------------------------------------------------------------
x = r(3, 4, 5) * 2 + 1
for axes, kd in [([0], False), ([0, 2], False), ([1], True), ([-1], False)]:
    m = f64(x).mean(axis=tuple(axes), keepdims=kd)
    v = f64(x).var(axis=tuple(axes), keepdims=kd)
    name = "moments_" + "_".join(str(a % 3) for a in axes) + ("_keepdims" if kd else "")
    f.case(name, "moments", [x], [keep(m, x), keep(v, x)], axes=axes, keepdims=kd)
f.case("moments_f64", "moments", [f64(x)], [f64(x).mean(axis=0), f64(x).var(axis=0)], axes=[0])
h = (r(6, 4) * 3).astype(np.float16)
f.case("moments_f16", "moments", [h], [keep(f64(h).mean(0), h), keep(f64(h).var(0), h)], axes=[0])
xi = np.array([[0, 1, 2, 3, 100]], np.int32)
# The Keras docstring example: integers give float32 statistics (21.2, 1553.36).
f.case("moments_int", "moments", [xi],
       [f64(xi).mean(axis=1).astype(np.float32), f64(xi).var(axis=1).astype(np.float32)], axes=[1])

x = r(2, 3, 4)
mean, var = f.uniform(-1, 1, 3), f.uniform(0.5, 2, 3)
off, sc = r(3), r(3)
shape = (1, 3, 1)


def bn_ref(x, mean, var, off, sc, eps, shape):
    y = (f64(x) - f64(mean).reshape(shape)) / np.sqrt(f64(var).reshape(shape) + eps)
    if sc is not None:
        y = y * f64(sc).reshape(shape)
    if off is not None:
        y = y + f64(off).reshape(shape)
    return y


f.case("batch_norm", "batch_normalization", [x, mean, var, off, sc],
       keep(bn_ref(x, mean, var, off, sc, 1e-3, shape), x), axis=1)
f.case("batch_norm_plain", "batch_normalization", [x, mean, var],
       keep(bn_ref(x, mean, var, None, None, 1e-3, shape), x), axis=1)
m4, v4 = f.uniform(-1, 1, 4), f.uniform(0.5, 2, 4)
o4, s4 = r(4), r(4)
f.case("batch_norm_last_eps", "batch_normalization", [x, m4, v4, o4, s4],
       keep(bn_ref(x, m4, v4, o4, s4, 0.1, (1, 1, 4)), x), axis=-1, epsilon=0.1)
f.case("batch_norm_f64", "batch_normalization", [f64(x), f64(mean), f64(var), f64(off), f64(sc)],
       bn_ref(x, mean, var, off, sc, 1e-3, shape), axis=1)
f.case("batch_norm_bad_mean_raises", "batch_normalization", [x, m4, var], [], axis=1,
       raises="ValueError")


def ln_ref(x, gamma, beta, axes, eps):
    x64 = f64(x)
    mu = x64.mean(axis=axes, keepdims=True)
    var = x64.var(axis=axes, keepdims=True)
    y = (x64 - mu) / np.sqrt(var + eps)
    if gamma is not None:
        y = y * f64(gamma)
    if beta is not None:
        y = y + f64(beta)
    return y


x = r(2, 3, 4) * 2 + 0.5
g, bt = r(4), r(4)
f.case("layer_norm", "layer_normalization", [x, g, bt], keep(ln_ref(x, g, bt, -1, EPS), x))
f.case("layer_norm_plain", "layer_normalization", [x], keep(ln_ref(x, None, None, -1, EPS), x))
g2, b2 = r(3, 4), r(3, 4)
f.case("layer_norm_two_axes", "layer_normalization", [x, g2, b2],
       keep(ln_ref(x, g2, b2, (1, 2), EPS), x), axis=[1, 2])
g3 = r(3)
f.case("layer_norm_middle", "layer_normalization", [x, g3],
       keep(ln_ref(x, g3.reshape(1, 3, 1), None, 1, 1e-3), x), axis=1, epsilon=1e-3)
f.case("layer_norm_f64", "layer_normalization", [f64(x), f64(g), f64(bt)],
       ln_ref(x, g, bt, -1, EPS))
h = x.astype(np.float16)
f.case("layer_norm_f16", "layer_normalization", [h, g.astype(np.float16), bt.astype(np.float16)],
       keep(ln_ref(h, g.astype(np.float16), bt.astype(np.float16), -1, EPS), h))
xi = np.array([[1, 2, 3, 10]], np.int32)
f.case("layer_norm_int", "layer_normalization", [xi],
       ln_ref(xi, None, None, -1, EPS).astype(np.float32).astype(np.int32))


def rms_ref(x, scale, axes, eps):
    x64 = f64(x)
    y = x64 / np.sqrt(np.mean(x64 ** 2, axis=axes, keepdims=True) + eps)
    return y * f64(scale) if scale is not None else y


f.case("rms_norm", "rms_normalization", [x, g], keep(rms_ref(x, g, -1, EPS), x))
f.case("rms_norm_plain", "rms_normalization", [x], keep(rms_ref(x, None, -1, EPS), x))
f.case("rms_norm_axes", "rms_normalization", [x], keep(rms_ref(x, None, (1, 2), 1e-5), x),
       axis=[1, 2], epsilon=1e-5)
f.case("rms_norm_f16", "rms_normalization", [h, g.astype(np.float16)],
       keep(rms_ref(h, g.astype(np.float16), -1, EPS), h))
f.case("rms_norm_0d", "rms_normalization", [np.float32(-2.0)],
       np.array([-2.0 / math.sqrt(4.0 + EPS)], np.float32))


def normalize_ref(x, axis, order, eps=EPS):
    x64 = f64(x)
    if x64.ndim == 0:
        x64 = x64[None]
    if order == 2:
        sq = np.sum(x64 ** 2, axis=axis, keepdims=True)
        return x64 / np.sqrt(np.maximum(sq, eps * eps))
    norm = np.linalg.norm(x64, ord=order, axis=axis, keepdims=True)
    return x64 / np.maximum(norm, eps)


x = r(3, 4)
x[1] = 0.0  # a zero vector: divided by epsilon, stays 0
for order in (1, 2, 3):
    f.case(f"normalize_o{order}", "normalize", [x], keep(normalize_ref(x, -1, order), x),
           order=order)
f.case("normalize_axis0", "normalize", [x], keep(normalize_ref(x, 0, 2), x), axis=0)
f.case("normalize_two_axes", "normalize", [x], keep(normalize_ref(x, (0, 1), 2), x), axis=[0, 1])
f.case("normalize_matrix_o1", "normalize", [x], keep(normalize_ref(x, (0, 1), 1), x), axis=[0, 1],
       order=1)
f.case("normalize_int", "normalize", [np.array([[1, 2, 3], [4, 5, 6]], np.int32)],
       normalize_ref(np.array([[1, 2, 3], [4, 5, 6]]), -1, 2).astype(np.float32))
f.case("normalize_0d", "normalize", [np.float32(-3)], np.array([-1.0], np.float32))
f.case("normalize_f64", "normalize", [f64(x)], normalize_ref(x, -1, 2))
f.case("normalize_order0_raises", "normalize", [x], [], order=0, raises="ValueError")

# ---- one_hot, multi_hot --------------------------------------------------------------------
def one_hot_ref(x, n, axis=-1, dtype=np.float32):
    x = np.asarray(x)
    y = (x[..., None] == np.arange(n)).astype(dtype)
    return np.moveaxis(y, -1, axis)


lab = np.array([1, 3, 2, 0], np.int32)
f.case("one_hot", "one_hot", [lab], one_hot_ref(lab, 4), num_classes=4)
lab2 = np.array([[0, 2], [1, 5], [-1, 3]], np.int32)  # 5 and -1 are out of range: zeros
f.case("one_hot_2d_out_of_range", "one_hot", [lab2], one_hot_ref(lab2, 4), num_classes=4)
f.case("one_hot_axis0", "one_hot", [lab2], one_hot_ref(lab2, 4, 0), num_classes=4, axis=0)
f.case("one_hot_axis1", "one_hot", [lab2], one_hot_ref(lab2, 3, 1), num_classes=3, axis=1)
f.case("one_hot_int32", "one_hot", [lab], one_hot_ref(lab, 5, dtype=np.int32), num_classes=5,
       dtype="int32")
f.case("one_hot_int64_input", "one_hot", [lab.astype(np.int64)], one_hot_ref(lab, 4),
       num_classes=4)
f.case("one_hot_float_input", "one_hot", [np.array([1.0, 2.5, 0.0], np.float32)],
       one_hot_ref(np.array([1.0, 2.5, 0.0]), 3), num_classes=3)
f.case("one_hot_0d", "one_hot", [np.int32(2)], one_hot_ref(np.int32(2), 3), num_classes=3)
f.case("one_hot_empty", "one_hot", [np.zeros((0,), np.int32)], np.zeros((0, 3), np.float32),
       num_classes=3)
f.case("one_hot_zero_classes", "one_hot", [lab], np.zeros((4, 0), np.float32), num_classes=0)
f.case("one_hot_negative_classes_raises", "one_hot", [lab], [], num_classes=-1,
       raises="ValueError")
f.case("one_hot_sparse_raises", "one_hot", [lab], [], num_classes=4, sparse=True,
       raises="NotImplementedError")
f.case("one_hot_bad_axis_raises", "one_hot", [lab], [], num_classes=4, axis=3,
       raises="ValueError")


def multi_hot_ref(x, n, axis=-1, dtype=np.float32):
    x = np.asarray(x).astype(np.int32)
    red = 1 if x.ndim > 1 else 0
    return one_hot_ref(x, n, axis, dtype).max(axis=red)


mh = np.array([[0, 4, 4], [1, 2, 7]], np.int32)
f.case("multi_hot", "multi_hot", [mh], multi_hot_ref(mh, 5), num_classes=5)
f.case("multi_hot_1d", "multi_hot", [np.array([0, 4], np.int32)],
       multi_hot_ref(np.array([0, 4]), 5), num_classes=5)
f.case("multi_hot_axis0", "multi_hot", [mh], multi_hot_ref(mh, 5, 0), num_classes=5, axis=0)
m3 = f.randint(0, 6, 2, 3, 4)
f.case("multi_hot_3d", "multi_hot", [m3], multi_hot_ref(m3, 6), num_classes=6)
f.case("multi_hot_int", "multi_hot", [mh], multi_hot_ref(mh, 5, dtype=np.int32), num_classes=5,
       dtype="int32")
f.case("multi_hot_float_input", "multi_hot", [mh.astype(np.float32) + 0.25], multi_hot_ref(mh, 5),
       num_classes=5)


# ---- dot_product_attention (jax.nn.dot_product_attention, implementation="xla") ------------
def attention_ref(q, k, v, bias=None, mask=None, scale=None, is_causal=False):
    B, T, N, H = q.shape
    S, K = k.shape[1], k.shape[2]
    G = N // K
    low = q.dtype in (np.float16,)
    logits_max = np.finfo(np.float64 if q.dtype == np.float64 else np.float32).max
    scale = 1.0 / math.sqrt(H) if scale is None else scale
    kx, vx = np.repeat(f64(k), G, axis=2), np.repeat(f64(v), G, axis=2)
    logits = np.einsum("btnh,bsnh->bnts", f64(q), kx) * scale
    if bias is not None:
        logits = logits + f64(bias)
    keepm = None
    if mask is not None:
        keepm = np.broadcast_to(mask, logits.shape)
    if is_causal:
        c = np.tril(np.ones((T, S), bool))
        keepm = c if keepm is None else np.logical_and(keepm, c)
    if keepm is not None:
        logits = np.where(keepm, logits, -0.7 * logits_max)
    probs = torch.softmax(torch.from_numpy(logits), -1).numpy()
    if low:
        probs = probs.astype(q.dtype).astype(np.float64)  # JAX casts probs to the input dtype
    return np.einsum("bnts,bsnh->btnh", probs, vx).astype(q.dtype)


q, k, v = r(2, 4, 3, 5), r(2, 6, 3, 5), r(2, 6, 3, 5)
f.case("attention", "dot_product_attention", [q, k, v], attention_ref(q, k, v))
f.case("attention_scale", "dot_product_attention", [q, k, v], attention_ref(q, k, v, scale=0.3),
       scale=0.3)
f.case("attention_f64", "dot_product_attention", [f64(q), f64(k), f64(v)],
       attention_ref(f64(q), f64(k), f64(v)))
qg = r(2, 4, 4, 5)
kg, vg = r(2, 6, 2, 5), r(2, 6, 2, 5)
f.case("attention_gqa", "dot_product_attention", [qg, kg, vg], attention_ref(qg, kg, vg))
k1, v1 = r(2, 6, 1, 5), r(2, 6, 1, 5)
f.case("attention_mqa", "dot_product_attention", [qg, k1, v1], attention_ref(qg, k1, v1))
bias = r(2, 3, 4, 6)
f.case("attention_bias", "dot_product_attention", [q, k, v, bias], attention_ref(q, k, v, bias))
b2 = r(4, 6)
f.case("attention_bias_2d", "dot_product_attention", [q, k, v, b2], attention_ref(q, k, v, b2))
bg = r(2, 1, 4, 6)
# atol 2 float32 ulps at the outputs' scale of 1: an element near 0.02 sums terms of about 1, and
# another BLAS's order (LibTorch 2.15's) lands 1.05 ulps of 1 away from NumPy's float64 value.
f.case("attention_gqa_bias_one_head", "dot_product_attention", [qg, kg, vg, bg],
       attention_ref(qg, kg, vg, bg), atol=2.5e-7)
mask = f.uniform(0, 1, 2, 1, 4, 6) > 0.4
mask[0, 0, 1, :] = False  # a fully masked row: uniform weights over the -0.7*max logits
f.case("attention_mask", "dot_product_attention_mask", [q, k, v, mask],
       attention_ref(q, k, v, mask=mask))
qc = r(1, 5, 2, 4)
kc, vc = r(1, 5, 2, 4), r(1, 5, 2, 4)
f.case("attention_causal", "dot_product_attention", [qc, kc, vc],
       attention_ref(qc, kc, vc, is_causal=True), is_causal=True)
kl, vl = r(1, 7, 2, 4), r(1, 7, 2, 4)
f.case("attention_causal_rect", "dot_product_attention", [qc, kl, vl],
       attention_ref(qc, kl, vl, is_causal=True), is_causal=True)
mc = f.uniform(0, 1, 1, 2, 5, 7) > 0.3
bc = r(1, 2, 5, 7)
f.case("attention_causal_mask_bias", "dot_product_attention_mask", [qc, kl, vl, mc, bc],
       attention_ref(qc, kl, vl, bias=bc, mask=mc, is_causal=True), is_causal=True)
qh, kh, vh = q.astype(np.float16), k.astype(np.float16), v.astype(np.float16)
f.case("attention_f16", "dot_product_attention", [qh, kh, vh], attention_ref(qh, kh, vh))
f.case("attention_rank3_raises", "dot_product_attention", [r(2, 3, 2)] * 3, [],
       raises="ValueError")
f.case("attention_heads_raises", "dot_product_attention", [r(1, 2, 3, 2), r(1, 2, 2, 2),
                                                           r(1, 2, 2, 2)], [],
       raises="ValueError")
f.case("attention_bias_heads_raises", "dot_product_attention",
       [r(1, 1, 4, 2), r(1, 2, 2, 2), r(1, 2, 2, 2), r(1, 3, 1, 2)], [], raises="ValueError")

# ---- the cpu backend's fused dense epilogue (Backend::linear), no op uses it yet ------------
# One case: x @ w + bias through each activation the epilogue knows (gelu is the exact one).
xl, wl, bl = r(3, 4), r(4, 5), r(5)
zl = f64(xl) @ f64(wl) + f64(bl)
acts = [zl, np.maximum(zl, 0), sigmoid(zl), np.tanh(zl), F.gelu(torch.from_numpy(zl)).numpy(),
        F.silu(torch.from_numpy(zl)).numpy()]
f.case("cpu_linear", "cpu_linear", [xl, wl, bl], [a.astype(np.float32) for a in acts])

f.save()
