"""Fixtures for keras.ops.nn convolutions and pooling: conv, conv_transpose, depthwise_conv,
separable_conv, max_pool, average_pool, adaptive_average_pool, adaptive_max_pool,
depth_to_space, space_to_depth, unfold, fold, and the gradients (vector-Jacobian products) of
conv, conv_transpose, depthwise_conv and the pools. Writes tests/golden/nn_conv.npz.

PyTorch is the reference (torch.nn.functional), fed Keras's layouts converted: inputs
channels_last (N, *spatial, C) are moved to (N, C, *spatial); conv kernels (*k, C_in/groups,
C_out) become (C_out, C_in/groups, *k); conv_transpose kernels (*k, C_out, C_in) become
(C_in, C_out, *k); depthwise kernels (*k, C, multiplier) become (C * multiplier, 1, *k).
Keras's padding rules (TF/JAX "same": out = ceil(in / stride), the odd pixel of padding after)
are applied here as explicit padding, since torch's own "same" is symmetric and stride-1 only.
References are computed in float64 and cast to the case's dtype.

Tolerances: float32 sums of many products are not correctly rounded in any implementation;
cases whose outputs are such sums carry rtol/atol 1e-5 (the largest error of keras-cpp against
the float64 reference is 4.8e-6 absolute on outputs of magnitude 18; tests/ops_conv/README.md).
"""

import math

import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

f = Fixture("nn_conv", seed=7)
r = f.randn
LOOSE = dict(rtol=1e-5, atol=1e-5)  # float32 sums of products (see the docstring)


def t64(a):
    return torch.from_numpy(np.asarray(a, dtype=np.float64))


def tup(v, n):
    return tuple(v) if isinstance(v, (list, tuple)) else (v,) * n


def to_cf(x):  # channels_last -> channels_first
    return np.moveaxis(x, -1, 1)


def to_cl(x):  # channels_first -> channels_last
    return np.moveaxis(x, 1, -1)


def same_pads(size, window, stride, dilation=1):
    """TF/JAX "SAME" padding (before, after) for one spatial dimension."""
    eff = (window - 1) * dilation + 1
    out = -(-size // stride)
    total = max((out - 1) * stride + eff - size, 0)
    return total // 2, total - total // 2


def pad_spatial(x, pads, value=0.0):
    """Pads a channels_first torch tensor; pads is [(before, after)] per spatial dim."""
    flat = []
    for b, a in reversed(pads):
        flat += [b, a]
    return F.pad(x, flat, value=value)


def conv_ref(x, k, strides=1, padding="valid", data_format="channels_last", dilation_rate=1):
    if x.shape[0] == 0:  # torch rejects an empty batch: run one zero image, keep none
        one = np.zeros((1,) + x.shape[1:], x.dtype)
        return conv_ref(one, k, strides, padding, data_format, dilation_rate)[:0]
    nd = x.ndim - 2
    s, d = tup(strides, nd), tup(dilation_rate, nd)
    xt = t64(x if data_format == "channels_first" else to_cf(x))
    wt = t64(np.moveaxis(np.moveaxis(k, -1, 0), -1, 1))  # (O, Cg, *k)
    groups = xt.shape[1] // k.shape[-2]
    if padding == "same":
        xt = pad_spatial(xt, [same_pads(xt.shape[2 + i], k.shape[i], s[i], d[i]) for i in range(nd)])
    conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[nd]
    y = conv(xt, wt, stride=s, dilation=d, groups=groups).numpy()
    return y if data_format == "channels_first" else to_cl(y)


def conv_transpose_pads(size_k, stride, dilation, padding, output_padding):
    """Keras's (JAX) padding of the stride-dilated input: (left, right)."""
    keff = (size_k - 1) * dilation + 1
    if padding == "valid":
        op = max(keff, stride) - keff if output_padding is None else output_padding
        return keff - 1, keff - 1 + op
    pad_len = stride + keff - 2 if output_padding is None else keff + keff % 2 - 2 + output_padding
    left = min(pad_len // 2 + pad_len % 2, keff - 1)
    return left, pad_len - left


def conv_transpose_ref(x, k, strides=1, padding="valid", output_padding=None,
                       data_format="channels_last", dilation_rate=1):
    nd = x.ndim - 2
    s, d = tup(strides, nd), tup(dilation_rate, nd)
    ops_ = [None] * nd if output_padding is None else tup(output_padding, nd)
    xt = t64(x if data_format == "channels_first" else to_cf(x))
    wt = t64(np.moveaxis(np.moveaxis(k, -1, 0), -1, 1))  # (C_in, C_out, *k)
    convt = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[nd]
    full = convt(xt, wt, stride=s, dilation=d)  # length (in - 1) * s + keff
    # Keras's output is the window [keff - 1 - left, full + right - (keff - 1)) of it.
    for i in range(nd):
        keff = (k.shape[i] - 1) * d[i] + 1
        left, right = conv_transpose_pads(k.shape[i], s[i], d[i], padding, ops_[i])
        crop_l, crop_r = keff - 1 - left, keff - 1 - right
        axis = 2 + i
        if crop_r < 0:
            pads = [(0, 0)] * nd
            pads[i] = (0, -crop_r)
            full = pad_spatial(full, pads)
            crop_r = 0
        full = full.narrow(axis, crop_l, full.shape[axis] - crop_l - crop_r)
    y = full.numpy()
    return y if data_format == "channels_first" else to_cl(y)


def depthwise_ref(x, k, **kw):
    kk = k.reshape(k.shape[:-2] + (1, k.shape[-2] * k.shape[-1]))
    return conv_ref(x, kk, **kw)


def pool_ref(x, pool_size, strides=None, padding="valid", data_format="channels_last", kind="max"):
    if x.shape[0] == 0:
        one = np.zeros((1,) + x.shape[1:], x.dtype)
        return pool_ref(one, pool_size, strides, padding, data_format, kind)[:0]
    nd = x.ndim - 2
    p = tup(pool_size, nd)
    s = p if strides is None else tup(strides, nd)
    xt = t64(x if data_format == "channels_first" else to_cf(x))
    pads = [same_pads(xt.shape[2 + i], p[i], s[i]) if padding == "same" else (0, 0) for i in range(nd)]
    if kind == "max":
        y = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[nd](
            pad_spatial(xt, pads, -math.inf), p, s)
    else:
        avg = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[nd]
        total = avg(pad_spatial(xt, pads), p, s) * math.prod(p)
        count = avg(pad_spatial(torch.ones_like(xt), pads), p, s) * math.prod(p)
        y = total / count  # padding excluded from the average, as Keras on TF/JAX
    y = y.numpy()
    return y if data_format == "channels_first" else to_cl(y)


def adaptive_ref(x, output_size, data_format="channels_last", kind="avg"):
    nd = x.ndim - 2
    xt = t64(x if data_format == "channels_first" else to_cf(x))
    fn = {
        ("avg", 1): F.adaptive_avg_pool1d, ("avg", 2): F.adaptive_avg_pool2d,
        ("avg", 3): F.adaptive_avg_pool3d, ("max", 1): F.adaptive_max_pool1d,
        ("max", 2): F.adaptive_max_pool2d, ("max", 3): F.adaptive_max_pool3d,
    }[(kind, nd)]
    y = fn(xt, tup(output_size, nd)).numpy()
    return y if data_format == "channels_first" else to_cl(y)


def vjp(fn, inputs, g):
    """Gradients of <g, fn(*inputs)> with respect to every input, in float64."""
    ts = [t64(a).requires_grad_(True) for a in inputs]
    y = fn(*ts)
    y.backward(t64(g))
    return [t.grad.numpy() for t in ts]


def dt(a, dtype):
    return np.asarray(a).astype(dtype)


# ---- conv ----------------------------------------------------------------------------------
def conv_case(name, x, k, dtype=np.float32, **kw):
    x, k = dt(x, dtype), dt(k, dtype)
    tol = LOOSE if dtype == np.float32 else {}
    f.case(name, "conv", [x, k], dt(conv_ref(x, k, **kw), dtype), **kw, **tol)


conv_case("conv1d_valid", r(2, 7, 3), r(3, 3, 4))
conv_case("conv1d_same_stride2", r(2, 8, 3), r(3, 3, 2), strides=2, padding="same")
conv_case("conv2d_valid", r(2, 6, 5, 3), r(3, 3, 3, 4))
conv_case("conv2d_same_stride2", r(2, 7, 6, 3), r(3, 3, 3, 4), strides=2, padding="same")
conv_case("conv2d_same_even_kernel", r(1, 5, 6, 2), r(2, 4, 2, 3), padding="same")
conv_case("conv2d_strides_tuple", r(1, 9, 8, 2), r(3, 2, 2, 3), strides=[3, 2])
conv_case("conv2d_stride_gt_kernel", r(2, 7, 7, 2), r(2, 2, 2, 3), strides=3)
conv_case("conv2d_dilation", r(1, 9, 8, 2), r(3, 2, 2, 3), dilation_rate=2)
conv_case("conv2d_dilation_same", r(1, 7, 8, 2), r(3, 3, 2, 2), dilation_rate=[2, 3],
          padding="same")
conv_case("conv2d_stride_and_dilation", r(1, 11, 10, 2), r(3, 3, 2, 2), strides=2,
          dilation_rate=2, padding="same")
conv_case("conv2d_channels_first", r(2, 3, 6, 5), r(3, 3, 3, 4), padding="same",
          data_format="channels_first")
conv_case("conv2d_groups", r(2, 5, 5, 4), r(3, 3, 2, 6), padding="same")
conv_case("conv2d_groups_channels_first", r(1, 6, 5, 5), r(3, 3, 2, 6), strides=2,
          data_format="channels_first")
conv_case("conv2d_1x1", r(2, 4, 4, 5), r(1, 1, 5, 3))
conv_case("conv2d_float64", r(2, 6, 5, 3), r(3, 3, 3, 4), np.float64, strides=2, padding="same")
conv_case("conv2d_float16", r(1, 5, 5, 2), r(3, 3, 2, 3), np.float16, padding="same")
conv_case("conv3d_same", r(1, 4, 5, 4, 2), r(2, 3, 2, 2, 3), strides=[1, 2, 1], padding="same")
conv_case("conv3d_channels_first", r(2, 2, 4, 4, 3), r(2, 2, 2, 2, 2), data_format="channels_first")
conv_case("conv2d_empty_batch", r(0, 5, 5, 2), r(3, 3, 2, 3), padding="same")
# Errors: channel mismatch, ranks, kernel larger than the input, zero stride, bad padding,
# output channels not divisible by the groups.
x = r(1, 5, 5, 3)
f.case("conv_channels_mismatch_raises", "conv", [x, r(3, 3, 2, 4)], x, raises="ValueError")
f.case("conv_rank_mismatch_raises", "conv", [x, r(3, 3, 4)], x, raises="ValueError")
f.case("conv_rank2_raises", "conv", [r(5, 3), r(3, 3, 4)], x, raises="ValueError")
f.case("conv_kernel_too_big_raises", "conv", [x, r(6, 3, 3, 4)], x, raises="ValueError")
f.case("conv_zero_stride_raises", "conv", [x, r(3, 3, 3, 4)], x, strides=0, raises="ValueError")
f.case("conv_bad_padding_raises", "conv", [x, r(3, 3, 3, 4)], x, padding="full",
       raises="ValueError")
f.case("conv_groups_out_raises", "conv", [r(1, 5, 5, 4), r(3, 3, 2, 3)], x, raises="ValueError")
f.case("conv_strides_length_raises", "conv", [x, r(3, 3, 3, 4)], x, strides=[1, 1, 1],
       raises="ValueError")

# ---- conv_transpose -------------------------------------------------------------------------
def convt_case(name, x, k, dtype=np.float32, **kw):
    x, k = dt(x, dtype), dt(k, dtype)
    tol = LOOSE if dtype == np.float32 else {}
    f.case(name, "conv_transpose", [x, k], dt(conv_transpose_ref(x, k, **kw), dtype), **kw, **tol)


convt_case("convt1d_valid_stride2", r(2, 5, 3), r(3, 4, 3), strides=2)
convt_case("convt1d_same_stride2", r(2, 5, 3), r(3, 4, 3), strides=2, padding="same")
convt_case("convt2d_valid", r(2, 4, 3, 3), r(3, 3, 2, 3))
convt_case("convt2d_same_stride2", r(2, 4, 3, 3), r(3, 3, 2, 3), strides=2, padding="same")
convt_case("convt2d_same_even_kernel", r(1, 4, 4, 2), r(4, 2, 3, 2), strides=2, padding="same")
convt_case("convt2d_valid_output_padding", r(1, 4, 3, 2), r(3, 3, 2, 2), strides=2,
           output_padding=1)
convt_case("convt2d_same_output_padding", r(1, 4, 3, 2), r(3, 3, 2, 2), strides=[2, 3],
           padding="same", output_padding=[1, 2])
convt_case("convt2d_stride_gt_kernel", r(1, 3, 3, 2), r(2, 2, 2, 2), strides=3)
convt_case("convt2d_stride_gt_kernel_same", r(1, 3, 3, 2), r(2, 2, 2, 2), strides=3,
           padding="same")
convt_case("convt2d_dilation", r(1, 4, 4, 2), r(3, 2, 3, 2), dilation_rate=2, padding="same")
convt_case("convt2d_channels_first", r(2, 3, 4, 3), r(3, 3, 2, 3), strides=2, padding="same",
           data_format="channels_first")
convt_case("convt2d_float64", r(2, 4, 3, 3), r(3, 3, 2, 3), np.float64, strides=2,
           padding="same")
convt_case("convt3d_same", r(1, 3, 2, 3, 2), r(2, 3, 2, 3, 2), strides=2, padding="same")
x = r(1, 4, 4, 3)
f.case("convt_channels_mismatch_raises", "conv_transpose", [x, r(3, 3, 3, 2)], x,
       raises="ValueError")
f.case("convt_negative_output_padding_raises", "conv_transpose", [x, r(3, 3, 2, 3)], x,
       output_padding=-1, raises="ValueError")

# ---- depthwise_conv and separable_conv ----------------------------------------------------------
def dw_case(name, x, k, dtype=np.float32, **kw):
    x, k = dt(x, dtype), dt(k, dtype)
    tol = LOOSE if dtype == np.float32 else {}
    f.case(name, "depthwise_conv", [x, k], dt(depthwise_ref(x, k, **kw), dtype), **kw, **tol)


dw_case("depthwise2d_same", r(2, 5, 6, 3), r(3, 3, 3, 2), padding="same")
dw_case("depthwise2d_stride2", r(1, 7, 7, 4), r(3, 3, 4, 1), strides=2)
dw_case("depthwise2d_dilation", r(1, 7, 7, 2), r(2, 2, 2, 3), dilation_rate=2, padding="same")
dw_case("depthwise2d_channels_first", r(2, 3, 5, 5), r(3, 3, 3, 2),
        data_format="channels_first")
dw_case("depthwise1d", r(2, 9, 3), r(4, 3, 2), strides=2, padding="same")
dw_case("depthwise2d_float64", r(1, 5, 5, 3), r(3, 3, 3, 2), np.float64, padding="same")
x = r(1, 5, 5, 3)
f.case("depthwise_channels_mismatch_raises", "depthwise_conv", [x, r(3, 3, 2, 2)], x,
       raises="ValueError")

def sep_case(name, x, dk, pk, dtype=np.float32, **kw):
    x, dk, pk = dt(x, dtype), dt(dk, dtype), dt(pk, dtype)
    tol = LOOSE if dtype == np.float32 else {}
    y = conv_ref(dt(depthwise_ref(x, dk, **kw), np.float64), pk,
                 data_format=kw.get("data_format", "channels_last"))
    f.case(name, "separable_conv", [x, dk, pk], dt(y, dtype), **kw, **tol)


sep_case("separable2d_same", r(2, 5, 6, 3), r(3, 3, 3, 2), r(1, 1, 6, 4), padding="same")
sep_case("separable2d_stride2_cf", r(1, 3, 7, 7), r(3, 3, 3, 1), r(1, 1, 3, 2), strides=2,
         data_format="channels_first")
sep_case("separable1d", r(2, 8, 2), r(3, 2, 2), r(1, 4, 3), padding="same")
sep_case("separable2d_float64", r(1, 5, 5, 2), r(3, 3, 2, 2), r(1, 1, 4, 3), np.float64)
x = r(1, 5, 5, 3)
f.case("separable_pointwise_mismatch_raises", "separable_conv",
       [x, r(3, 3, 3, 2), r(1, 1, 5, 4)], x, raises="ValueError")

# ---- gradients: <g, op(x, k)> differentiated in float64 by torch ---------------------------------
def conv_vjp_case(name, x, k, tol=LOOSE, **kw):
    y = conv_ref(x, k, **kw)
    g = r(*y.shape)
    nd = x.ndim - 2
    s, d = tup(kw.get("strides", 1), nd), tup(kw.get("dilation_rate", 1), nd)
    cf = kw.get("data_format") == "channels_first"

    def fn(xt, kt):
        xx = xt if cf else xt.movedim(-1, 1)
        if kw.get("padding") == "same":
            xx = pad_spatial(xx, [same_pads(xx.shape[2 + i], k.shape[i], s[i], d[i]) for i in range(nd)])
        w = kt.movedim(-1, 0).movedim(-1, 1)
        conv = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}[nd]
        out = conv(xx, w, stride=s, dilation=d, groups=xx.shape[1] // k.shape[-2])
        return out if cf else out.movedim(1, -1)

    dx, dk = vjp(fn, [x, k], g)
    f.case(name, "conv_vjp", [x, k, g], [dt(dx, np.float32), dt(dk, np.float32)], **kw, **tol)


conv_vjp_case("conv1d_vjp", r(2, 7, 3), r(3, 3, 4), strides=2, padding="same")
conv_vjp_case("conv2d_vjp_same_stride2", r(2, 7, 6, 3), r(3, 3, 3, 4), strides=2, padding="same")
conv_vjp_case("conv2d_vjp_dilation", r(1, 9, 8, 2), r(3, 2, 2, 3), dilation_rate=2)
conv_vjp_case("conv2d_vjp_groups", r(2, 5, 5, 4), r(3, 3, 2, 6), padding="same")
conv_vjp_case("conv2d_vjp_channels_first", r(2, 3, 6, 5), r(3, 3, 3, 4), strides=2,
              data_format="channels_first")
conv_vjp_case("conv3d_vjp", r(1, 4, 5, 4, 2), r(2, 3, 2, 2, 3), strides=[1, 2, 1],
              padding="same")


def convt_vjp_case(name, x, k, **kw):
    y = conv_transpose_ref(x, k, **kw)
    g = r(*y.shape)
    # conv_transpose is linear in each argument: its vjp is the reference's own, via autograd
    # through the same torch construction.
    def fn(xt, kt):
        nd = x.ndim - 2
        s, d = tup(kw.get("strides", 1), nd), tup(kw.get("dilation_rate", 1), nd)
        opad = kw.get("output_padding")
        opad = [None] * nd if opad is None else tup(opad, nd)
        cf = kw.get("data_format") == "channels_first"
        xx = xt if cf else xt.movedim(-1, 1)
        w = kt.movedim(-1, 0).movedim(-1, 1)
        full = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}[nd](
            xx, w, stride=s, dilation=d)
        for i in range(nd):
            keff = (k.shape[i] - 1) * d[i] + 1
            left, right = conv_transpose_pads(k.shape[i], s[i], d[i], kw.get("padding", "valid"),
                                              opad[i])
            cl, cr = keff - 1 - left, keff - 1 - right
            if cr < 0:
                pads = [(0, 0)] * nd
                pads[i] = (0, -cr)
                full = pad_spatial(full, pads)
                cr = 0
            full = full.narrow(2 + i, cl, full.shape[2 + i] - cl - cr)
        return full if cf else full.movedim(1, -1)

    dx, dk = vjp(fn, [x, k], g)
    f.case(name, "conv_transpose_vjp", [x, k, g], [dt(dx, np.float32), dt(dk, np.float32)],
           **kw, **LOOSE)


convt_vjp_case("convt2d_vjp_same_stride2", r(2, 4, 3, 3), r(3, 3, 2, 3), strides=2,
               padding="same")
convt_vjp_case("convt2d_vjp_valid_output_padding", r(1, 4, 3, 2), r(3, 3, 2, 2), strides=2,
               output_padding=1)
convt_vjp_case("convt1d_vjp_stride_gt_kernel", r(2, 4, 2), r(2, 3, 2), strides=3,
               padding="same")

# ---- max_pool and average_pool ------------------------------------------------------------
def pool_case(name, op, x, dtype=np.float32, **kw):
    x = dt(x, dtype)
    kind = "max" if op == "max_pool" else "avg"
    y = pool_ref(x, kw["pool_size"], kw.get("strides"), kw.get("padding", "valid"),
                 kw.get("data_format", "channels_last"), kind)
    f.case(name, op, [x], dt(y, dtype), **kw)


for op in ["max_pool", "average_pool"]:
    pool_case(f"{op}1d_valid", op, r(2, 7, 3), pool_size=2)
    pool_case(f"{op}1d_same_strides", op, r(2, 7, 3), pool_size=3, strides=2, padding="same")
    pool_case(f"{op}2d_valid", op, r(2, 6, 6, 3), pool_size=2)
    pool_case(f"{op}2d_valid_overlap", op, r(2, 7, 6, 2), pool_size=3, strides=1)
    pool_case(f"{op}2d_same", op, r(2, 7, 5, 2), pool_size=[3, 2], strides=2, padding="same")
    pool_case(f"{op}2d_same_stride1", op, r(1, 5, 5, 2), pool_size=3, strides=1, padding="same")
    pool_case(f"{op}2d_channels_first", op, r(2, 3, 7, 6), pool_size=3, strides=2,
              padding="same", data_format="channels_first")
    pool_case(f"{op}2d_float64", op, r(2, 5, 6, 2), np.float64, pool_size=2, padding="same")
    pool_case(f"{op}2d_float16", op, r(1, 4, 6, 2), np.float16, pool_size=2)
    pool_case(f"{op}3d_same", op, r(1, 5, 4, 5, 2), pool_size=[2, 3, 2], strides=[2, 1, 2],
              padding="same")
    pool_case(f"{op}3d_channels_first", op, r(1, 2, 4, 4, 4), pool_size=2,
              data_format="channels_first")
    pool_case(f"{op}2d_empty_batch", op, r(0, 4, 4, 2), pool_size=2)
    x = r(1, 3, 3, 1)
    f.case(f"{op}_too_big_raises", op, [x], x, pool_size=4, raises="ValueError")
    f.case(f"{op}_rank_raises", op, [r(3, 3)], x, pool_size=2, raises="ValueError")
    f.case(f"{op}_zero_stride_raises", op, [x], x, pool_size=2, strides=0, raises="ValueError")
    f.case(f"{op}_bad_padding_raises", op, [x], x, pool_size=2, padding="causal",
           raises="ValueError")
# NaN and inf: max propagates NaN, -inf loses, inf wins; the average propagates both.
x = np.array([[1, np.nan, 3, -np.inf, np.inf, 2, -np.inf, -np.inf]], np.float32)[..., None]
pool_case("max_pool_nan_inf", "max_pool", x, pool_size=2)
pool_case("average_pool_nan_inf", "average_pool", x, pool_size=2)
# Integers: max pooling keeps the dtype (exact).
x = f.randint(-100, 100, 2, 5, 5, 2)
f.case("max_pool_int32", "max_pool", [x], pool_ref(x, 2, None, "same", "channels_last").astype(np.int32),
       pool_size=2, padding="same")


def pool_vjp_case(name, op, x, **kw):
    kind = "max" if op == "max_pool" else "avg"
    nd = x.ndim - 2
    p = tup(kw["pool_size"], nd)
    s = p if kw.get("strides") is None else tup(kw["strides"], nd)
    cf = kw.get("data_format") == "channels_first"
    y = pool_ref(x, kw["pool_size"], kw.get("strides"), kw.get("padding", "valid"),
                 kw.get("data_format", "channels_last"), kind)
    g = r(*y.shape)

    def fn(xt):
        xx = xt if cf else xt.movedim(-1, 1)
        pads = [same_pads(xx.shape[2 + i], p[i], s[i]) if kw.get("padding") == "same" else (0, 0)
                for i in range(nd)]
        if kind == "max":
            out = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}[nd](
                pad_spatial(xx, pads, -math.inf), p, s)
        else:
            avg = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}[nd]
            cnt = avg(pad_spatial(torch.ones_like(xx), pads), p, s)
            out = avg(pad_spatial(xx, pads), p, s) / cnt
        return out if cf else out.movedim(1, -1)

    (dx,) = vjp(fn, [x], g)
    f.case(name, op + "_vjp", [x, g], [dt(dx, np.float32)], **kw)


for op in ["max_pool", "average_pool"]:
    pool_vjp_case(f"{op}2d_vjp_same", op, r(2, 7, 5, 2), pool_size=3, strides=2, padding="same")
    pool_vjp_case(f"{op}2d_vjp_overlap", op, r(1, 6, 6, 2), pool_size=3, strides=1)
    pool_vjp_case(f"{op}1d_vjp_cf", op, r(2, 2, 9), pool_size=2, strides=2, padding="same",
                  data_format="channels_first")
    pool_vjp_case(f"{op}3d_vjp", op, r(1, 4, 4, 4, 2), pool_size=2, padding="same")

# ---- adaptive pools -------------------------------------------------------------------------
for kind, op in [("avg", "adaptive_average_pool"), ("max", "adaptive_max_pool")]:
    for name, x, size, fmt in [
        ("1d", r(2, 10, 3), 4, "channels_last"),
        ("1d_upsample", r(1, 3, 2), 5, "channels_last"),
        ("2d_divisible", r(2, 8, 6, 3), [4, 3], "channels_last"),
        ("2d_uneven", r(2, 7, 5, 2), [3, 4], "channels_last"),
        ("2d_global", r(2, 5, 5, 3), 1, "channels_last"),
        ("2d_channels_first", r(2, 3, 7, 9), [4, 5], "channels_first"),
        ("3d", r(1, 5, 6, 4, 2), [2, 3, 3], "channels_last"),
    ]:
        y = adaptive_ref(x, size, fmt, kind)
        f.case(f"{op}_{name}", op, [x], y.astype(np.float32), output_size=size, data_format=fmt)
    x = r(1, 6, 6, 2)
    y64 = adaptive_ref(x.astype(np.float64), [4, 4], "channels_last", kind)
    f.case(f"{op}_2d_float64", op, [x.astype(np.float64)], y64, output_size=[4, 4],
           data_format="channels_last")
    f.case(f"{op}_rank_raises", op, [r(4, 4)], r(1), output_size=2, raises="ValueError")
    f.case(f"{op}_size_raises", op, [x], r(1), output_size=[2, 2, 2], raises="ValueError")

# ---- depth_to_space and space_to_depth ---------------------------------------------------------
# torch's pixel (un)shuffle is channels_first with channel index c * b * b + i * b + j; Keras's
# channels_last follows TensorFlow (channel (i * b + j) * C + c), so the channels are permuted
# around the torch call there.
def d2s_cl(x, b):
    n, h, w, c = x.shape
    crd = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 2, 5, 3, 4).reshape(x.shape)
    return to_cl(F.pixel_shuffle(torch.from_numpy(to_cf(crd).copy()), b).numpy())


def s2d_cl(x, b):
    y = to_cl(F.pixel_unshuffle(torch.from_numpy(to_cf(x).copy()), b).numpy())
    n, h, w, c = y.shape
    return y.reshape(n, h, w, c // (b * b), b, b).transpose(0, 1, 2, 4, 5, 3).reshape(y.shape)


x = r(2, 3, 4, 12)
f.case("depth_to_space_cl", "depth_to_space", [x], d2s_cl(x, 2), block_size=2)
x = r(1, 18, 2, 3)
f.case("depth_to_space_cf", "depth_to_space", [x],
       F.pixel_shuffle(t64(x), 3).numpy().astype(np.float32), block_size=3,
       data_format="channels_first")
x = f.randint(0, 100, 1, 2, 2, 8)
f.case("depth_to_space_int32", "depth_to_space", [x], d2s_cl(x, 2), block_size=2)
x = r(2, 4, 6, 3)
f.case("space_to_depth_cl", "space_to_depth", [x], s2d_cl(x, 2), block_size=2)
x = r(1, 2, 6, 3)
f.case("space_to_depth_cf", "space_to_depth", [x],
       F.pixel_unshuffle(t64(x), 3).numpy().astype(np.float32), block_size=3,
       data_format="channels_first")
x = r(1, 2, 2, 8)
f.case("depth_to_space_block1_raises", "depth_to_space", [x], x, block_size=1,
       raises="ValueError")
f.case("depth_to_space_channels_raises", "depth_to_space", [r(1, 2, 2, 6)], x, block_size=2,
       raises="ValueError")
f.case("depth_to_space_rank_raises", "depth_to_space", [r(2, 2, 8)], x, block_size=2,
       raises="ValueError")
f.case("space_to_depth_height_raises", "space_to_depth", [r(1, 3, 4, 2)], x, block_size=2,
       raises="ValueError")

# ---- unfold and fold (channels_first only, as Keras) ------------------------------------------
for name, x, kw in [
    ("k2s2", r(2, 3, 4, 4), dict(kernel_size=2, stride=2)),
    ("k3p1", r(1, 2, 5, 4), dict(kernel_size=3, padding=1)),
    ("dilation", r(1, 2, 7, 6), dict(kernel_size=[2, 3], dilation=[2, 1], stride=[1, 2])),
]:
    ref_kw = {k: tuple(v) if isinstance(v, list) else v for k, v in kw.items()}
    y = F.unfold(t64(x), **ref_kw).numpy().astype(np.float32)
    f.case(f"unfold_{name}", "unfold", [x], y, **kw)
    cols = r(*y.shape)
    out_size = list(x.shape[2:])
    z = F.fold(t64(cols), tuple(out_size), **ref_kw).numpy().astype(np.float32)
    f.case(f"fold_{name}", "fold", [cols], z, output_size=out_size, **kw)
f.case("unfold_rank_raises", "unfold", [r(2, 4, 4)], r(1), kernel_size=2, raises="ValueError")
f.case("fold_rank_raises", "fold", [r(2, 4, 4, 1)], r(1), output_size=4, kernel_size=2,
       raises="ValueError")
f.case("fold_blocks_raises", "fold", [r(1, 8, 5)], r(1), output_size=4, kernel_size=2, stride=2,
       raises="ValueError")
f.case("fold_channels_raises", "fold", [r(1, 7, 4)], r(1), output_size=4, kernel_size=2,
       stride=2, raises="ValueError")

# ---- the cpu backend's two conv schedules -------------------------------------------------
# Patches of at most 32 values (taps * channels) run as direct loops, longer ones as im2col and
# GEMM; output widths that are not a multiple of 16 exercise the direct loops' tails, and more
# than 4096 output positions the partial sums of their kernel gradient.
conv_case("conv2d_short_patch_tail", r(2, 7, 6, 1), r(3, 3, 1, 20), strides=2, padding="same")
conv_case("conv2d_long_patch", r(2, 7, 6, 5), r(3, 3, 5, 20), padding="same")
conv_vjp_case("conv2d_vjp_short_patch_tail", r(2, 8, 7, 1), r(3, 3, 1, 18), padding="same")
# (kernel gradients here are float32 sums of 4332 products: 1e-4)
conv_vjp_case("conv2d_vjp_short_patch_slices", r(3, 40, 40, 1), r(3, 3, 1, 16),
              tol=dict(rtol=1e-4, atol=1e-4))
conv_vjp_case("conv2d_vjp_long_patch", r(2, 7, 6, 5), r(3, 3, 5, 6), strides=2, padding="same")

f.save()
