"""The core and activation layers against PyTorch (tests/layers_core/layers_core_test.cpp):
EinsumDense (torch.einsum), Embedding (F.embedding, gradient to the table), Identity, Lambda,
Masking, Activation, ELU (F.elu), LeakyReLU (F.leaky_relu), PReLU (F.prelu), ReLU and Softmax
(torch.softmax, with masks). Each case stores the output, the gradients of
sum(output * upstream) with respect to the float inputs and the trainable weights (in Keras
layout), and for the masking layers the output mask (tests/support/layer_harness.h)."""

import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

f = Fixture("layers_core", seed=11)
torch.set_default_dtype(torch.float64)


def t64(a, grad=True):
    return torch.tensor(np.asarray(a).astype(np.float64), requires_grad=grad)


def finish(name, op, x_list, weights, y, ups, dtype, extra_outs=(), **kwargs):
    """Backpropagates sum(y * up) and writes the case: inputs, weights, upstream in; outputs,
    gradients of the float inputs and of the weights out."""
    ys = y if isinstance(y, (list, tuple)) else [y]
    loss = sum((yi * torch.tensor(u.astype(np.float64))).sum() for yi, u in zip(ys, ups))
    leaves = [t for t, _ in x_list if t is not None] + [t for t, _ in weights]
    loss.backward()
    outs = [yi.detach().numpy().astype(dtype) for yi in ys]
    outs += [t.grad.numpy().astype(dtype) for t in leaves]
    outs += list(extra_outs)
    arrays = [a for _, a in x_list] + [a for _, a in weights] + list(ups)
    kwargs.setdefault("rtol", 1e-5)
    kwargs.setdefault("atol", 1e-5)
    f.case(name, op, arrays, outs, n_inputs=len(x_list), n_weights=len(weights),
           dtype=np.dtype(dtype).name, **kwargs)


# ---- EinsumDense -------------------------------------------------------------------------------

ACTS = {"linear": lambda z: z, "relu": torch.relu, "tanh": torch.tanh}


def einsum_case(name, equation, x_shape, kernel_shape, bias_shape, output_shape, bias_axes,
                activation="linear", dtype=np.float32):
    x = f.randn(*x_shape, dtype=dtype)
    k = f.randn(*kernel_shape, dtype=dtype) * 0.5
    tx, tk = t64(x), t64(k)
    y = torch.einsum(equation, tx, tk)
    weights = [(tk, k)]
    if bias_axes is not None:
        b = f.randn(*bias_shape, dtype=dtype) * 0.5
        tb = t64(b)
        y = y + tb
        weights.append((tb, b))
    y = ACTS[activation](y)
    up = f.randn(*y.shape, dtype=dtype)
    finish(name, "einsum_dense", [(tx, x)], weights, y, [up], dtype, equation=equation,
           output_shape=output_shape, bias_axes=bias_axes, activation=activation)


einsum_case("ed_dense", "ab,bc->ac", (3, 5), (5, 4), (4,), [4], "c")
einsum_case("ed_sequence", "abc,cd->abd", (2, 3, 5), (5, 4), (4,), [None, 4], "d", "relu")
einsum_case("ed_heads", "abc,cde->abde", (2, 3, 4), (4, 2, 3), (2, 3), [None, 2, 3], "de")
einsum_case("ed_heads_bias_e", "abc,cde->abde", (2, 3, 4), (4, 2, 3), (3,), [None, 2, 3], "e")
einsum_case("ed_left_ellipsis", "...b,bc->...c", (2, 3, 5), (5, 4), (4,), [4], "c", "tanh")
einsum_case("ed_right_ellipsis", "ab...,bc->ac...", (2, 5, 3), (5, 4), (4, 1), [4], "c")
einsum_case("ed_two_contractions", "abcd,cde->abe", (2, 3, 4, 5), (4, 5, 3), (3,), [None, 3],
            "e")
einsum_case("ed_transposed_out", "abc,cd->adb", (2, 3, 5), (5, 4), (4, 1), [4, None], "d")
einsum_case("ed_no_bias", "ab,bc->ac", (4, 3), (3, 2), None, [2], None, "tanh")
einsum_case("ed_float64", "abc,cd->abd", (2, 3, 4), (4, 3), (3,), [None, 3], "d",
            dtype=np.float64)

# ---- Embedding ---------------------------------------------------------------------------------


def embedding_case(name, ids, input_dim, output_dim, mask_zero=False, dtype=np.float32):
    table = f.randn(input_dim, output_dim, dtype=dtype)
    tt = t64(table)
    y = F.embedding(torch.tensor(np.asarray(ids).astype(np.int64)), tt)
    up = f.randn(*y.shape, dtype=dtype)
    extra = [np.asarray(ids) != 0] if mask_zero else []
    finish(name, "embedding", [(None, ids)], [(tt, table)], y, [up], dtype, extra,
           input_dim=input_dim, output_dim=output_dim, mask_zero=mask_zero)


embedding_case("emb_int32", f.randint(0, 7, 3, 4), 7, 5)
embedding_case("emb_repeated_ids", np.array([[1, 1, 1], [2, 1, 6]], np.int32), 7, 3)
embedding_case("emb_int64_3d", f.randint(0, 6, 2, 3, 2, dtype=np.int64), 6, 4)
embedding_case("emb_mask_zero", np.array([[3, 1, 0, 0], [2, 0, 4, 0]], np.int32), 5, 3,
               mask_zero=True)
embedding_case("emb_float64", f.randint(0, 4, 5), 4, 3, dtype=np.float64)
for bad_name, bad_ids in (("emb_id_too_large", [[0, 7]]), ("emb_negative_id", [[-1, 2]])):
    bad = np.array(bad_ids, np.int32)
    try:  # PyTorch rejects these ids too.
        F.embedding(torch.tensor(bad.astype(np.int64)), torch.zeros(7, 2))
        raise AssertionError("expected an IndexError")
    except IndexError:
        pass
    f.case(bad_name, "embedding", [bad], [], input_dim=7, output_dim=2, mask_zero=False,
           n_inputs=1, n_weights=0, dtype="float32", raises="ValueError")

# ---- Identity, Lambda, Masking -----------------------------------------------------------------

x = f.randn(2, 3, 4)
tx = t64(x)
finish("identity", "identity", [(tx, x)], [], tx * 1.0, [f.randn(2, 3, 4)], np.float32)

LAMBDAS = {
    "swish_minus_half_square": lambda z: z * torch.sigmoid(z) - 0.5 * z * z,
    "sum_last_keepdims": lambda z: z.sum(-1, keepdim=True),
}
for fn_name, fn in LAMBDAS.items():
    x = f.randn(3, 4)
    tx = t64(x)
    y = fn(tx)
    finish("lambda_" + fn_name, "lambda", [(tx, x)], [], y, [f.randn(*y.shape)], np.float32,
           function=fn_name)


def masking_case(name, x, mask_value, dtype=np.float32):
    x = x.astype(dtype)
    tx = t64(x)
    keep = (tx != mask_value).any(-1, keepdim=True)
    y = tx * keep.to(tx.dtype)
    finish(name, "masking", [(tx, x)], [], y, [f.randn(*x.shape, dtype=dtype)], dtype,
           [keep.squeeze(-1).numpy()], mask_value=mask_value)


xm = f.randn(2, 4, 3)
xm[0, 1, :] = 0.0
xm[1, 3, :] = 0.0
xm[1, 0, 1] = 0.0  # one zero feature alone does not mask the step
masking_case("masking_zero", xm, 0.0)
xm = f.randn(3, 5, 2)
xm[0, 0, :] = 1.5
xm[2, 2:, :] = 1.5
xm[1, 1, 0] = 1.5
masking_case("masking_value", xm, 1.5)
xm = f.randn(2, 3, 2, 2)
xm[1, 2, 1, :] = -1.0
masking_case("masking_4d_float64", xm, -1.0, np.float64)

# ---- Activation layers -------------------------------------------------------------------------

ACTIVATIONS = {
    "relu": torch.relu,
    "relu6": F.relu6,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "softmax": lambda z: torch.softmax(z, -1),
    "log_softmax": lambda z: torch.log_softmax(z, -1),
    "gelu": F.gelu,
    "elu": F.elu,
    "selu": F.selu,
    "softplus": F.softplus,
    "softsign": F.softsign,
    "silu": F.silu,
    "mish": F.mish,
    "hard_sigmoid": F.hardsigmoid,
    "leaky_relu": lambda z: F.leaky_relu(z, 0.2),
    "exponential": torch.exp,
    "linear": lambda z: z * 1.0,
}
for act, fn in ACTIVATIONS.items():
    x = f.randn(3, 5) * 2
    if act == "hard_sigmoid":  # keep away from the kinks at +-3
        x[np.abs(np.abs(x) - 3) < 0.05] += 0.2
    tx = t64(x)
    finish("activation_" + act, "activation", [(tx, x)], [], fn(tx), [f.randn(3, 5)],
           np.float32, activation=act)


def away_from(x, points, eps=0.02):
    for p in points:
        near = np.abs(x - p) < eps
        x[near] += 2 * eps
    return x


def unary_case(name, op, torch_fn, shape, dtype=np.float32, scale=1.0, kinks=(0.0,), **kw):
    x = away_from(f.randn(*shape, dtype=dtype) * scale, kinks).astype(dtype)
    tx = t64(x)
    y = torch_fn(tx)
    finish(name, op, [(tx, x)], [], y, [f.randn(*y.shape, dtype=dtype)], dtype, **kw)


unary_case("elu_default", "elu", lambda z: F.elu(z), (3, 4), alpha=1.0)
unary_case("elu_alpha_half", "elu", lambda z: F.elu(z, alpha=0.5), (2, 3, 4), alpha=0.5)
unary_case("elu_float64", "elu", lambda z: F.elu(z, alpha=1.7), (4, 3), np.float64, alpha=1.7)
unary_case("leaky_relu_default", "leaky_relu", lambda z: F.leaky_relu(z, 0.3), (3, 4),
           negative_slope=0.3)
unary_case("leaky_relu_slope", "leaky_relu", lambda z: F.leaky_relu(z, 0.05), (2, 3, 4),
           negative_slope=0.05)


def relu_ref(max_value, slope, threshold):
    """keras.layers.ReLU, piecewise: min(x, max_value) above the threshold,
    negative_slope * (x - threshold) at or below it."""
    def fn(z):
        top = z if max_value is None else torch.clamp(z, max=max_value)
        return torch.where(z > threshold, top, slope * (z - threshold))
    return fn


for name, mv, ns, th in (("relu_default", None, 0.0, 0.0), ("relu_max6", 6.0, 0.0, 0.0),
                         ("relu_max2_5", 2.5, 0.0, 0.0), ("relu_slope", None, 0.1, 0.0),
                         ("relu_threshold", None, 0.0, 0.5), ("relu_all", 3.0, 0.2, 0.7),
                         ("relu_max6_slope", 6.0, 0.1, 0.0)):
    kinks = [0.0, th] + ([mv] if mv is not None else [])
    unary_case(name, "relu", relu_ref(mv, ns, th), (4, 6), scale=3.0, kinks=kinks, max_value=mv,
               negative_slope=ns, threshold=th)


def prelu_case(name, x_shape, shared_axes, dtype=np.float32):
    x = away_from(f.randn(*x_shape, dtype=dtype), [0.0]).astype(dtype)
    alpha_shape = [1 if (i + 1) in (shared_axes or []) else d for i, d in enumerate(x_shape[1:])]
    alpha = (f.uniform(0.05, 0.5, *alpha_shape, dtype=dtype))
    tx, ta = t64(x), t64(alpha)
    kept = [d for d in alpha_shape if d != 1]
    if len(kept) <= 1:
        # One alpha per channel: F.prelu with the channel axis moved to position 1.
        channel = next((i + 1 for i, d in enumerate(alpha_shape) if d != 1), None)
        if channel is None:
            y = F.prelu(tx, ta.reshape(1))
        else:
            moved = tx.movedim(channel, 1)
            y = F.prelu(moved, ta.reshape(-1)).movedim(1, channel)
    else:
        y = torch.where(tx > 0, tx, ta * tx)  # alpha over several axes: the definition
    finish(name, "prelu", [(tx, x)], [(ta, alpha)], y, [f.randn(*x_shape, dtype=dtype)], dtype,
           shared_axes=shared_axes)


prelu_case("prelu_2d", (3, 4), None)
prelu_case("prelu_full_alpha", (2, 3, 4), None)
prelu_case("prelu_shared_nhwc", (2, 3, 4, 5), [1, 2])
prelu_case("prelu_shared_time", (2, 3, 4), [1])
prelu_case("prelu_shared_all", (2, 3, 4), [1, 2])
prelu_case("prelu_float64", (3, 5), None, np.float64)


def softmax_case(name, x_shape, axis, mask=None, dtype=np.float32):
    x = f.randn(*x_shape, dtype=dtype) * 2
    tx = t64(x)
    dims = axis if isinstance(axis, list) else [axis]
    z = tx
    if mask is not None:
        z = z + (1.0 - torch.tensor(mask.astype(np.float64))) * -1e9
    y = torch.exp(z - torch.logsumexp(z, dim=dims, keepdim=True))
    if len(dims) == 1:
        y = torch.softmax(z, dim=dims[0])
    if mask is not None:
        y = y * torch.tensor(mask.astype(np.float64))
    ups = [f.randn(*y.shape, dtype=dtype)]
    loss_inputs = [(tx, x)]
    kw = dict(axis=axis, masked=mask is not None)
    if mask is None:
        finish(name, "softmax", loss_inputs, [], y, ups, dtype, **kw)
        return
    # The mask travels as the second array: inputs x, mask, upstream.
    (y * torch.tensor(ups[0].astype(np.float64))).sum().backward()
    f.case(name, "softmax", [x, mask, ups[0]],
           [y.detach().numpy().astype(dtype), tx.grad.numpy().astype(dtype)], n_inputs=1,
           n_weights=0, dtype=np.dtype(dtype).name, rtol=1e-5, atol=1e-5, **kw)


softmax_case("softmax_last", (3, 5), -1)
softmax_case("softmax_axis1", (2, 3, 4), 1)
softmax_case("softmax_two_axes", (2, 3, 4), [1, 2])
softmax_case("softmax_float64", (4, 3), -1, dtype=np.float64)
m = np.ones((3, 5), bool)
m[0, 1] = m[0, 3] = False
m[2, :] = False  # a fully masked row gives zeros
softmax_case("softmax_mask", (3, 5), -1, m)
m = f.rng.random((2, 1, 4)) > 0.3
m[0, 0, 0] = False
softmax_case("softmax_mask_broadcast", (2, 3, 4), -1, m)

f.save()
