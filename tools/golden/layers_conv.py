"""The convolution and pooling layers against PyTorch: each layer's output and the gradients of
sum(output * upstream) with respect to the input and every trainable weight
(tests/layers_conv/). Inputs and weights are in Keras layout; the script moves them to
PyTorch's (channels_first data, (out, in, *k) kernels) and applies Keras's padding rules
explicitly (TF/JAX "same": ceil(n / s) outputs with the odd pixel of padding after; "causal":
dilation * (k - 1) zeros before; transposed convolutions: the JAX backend's left/right padding
of the stride-dilated input). Every layer runs in both data formats.

Writes tests/golden/layers_conv.npz (convolutions) and tests/golden/layers_conv_pooling.npz.
Run: /usr/bin/python3 tools/golden/layers_conv.py"""

import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

torch.set_default_dtype(torch.float64)

ACTIVATIONS = {
    "linear": lambda z: z,
    "relu": torch.relu,
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
}
TOL = dict(rtol=1e-5, atol=1e-5)


# ---- layout helpers ---------------------------------------------------------------------------

def to_cf(x, r):
    """(N, *s, C) -> (N, C, *s)."""
    return x.permute(0, r + 1, *range(1, r + 1))


def to_cl(x, r):
    """(N, C, *s) -> (N, *s, C)."""
    return x.permute(0, *range(2, r + 2), 1)


def spatial_of(shape, r, data_format):
    return list(shape[1:1 + r]) if data_format == "channels_last" else list(shape[2:2 + r])


def tup(v, r):
    return [v] * r if isinstance(v, int) else list(v)


def same_pads(sizes, windows, strides):
    """TF/JAX SAME: ceil(n / s) outputs; total padding split with the odd pixel after."""
    pads = []
    for n, w, s in zip(sizes, windows, strides):
        out = -(-n // s)
        total = max((out - 1) * s + w - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def pad_cf(x, pads, value=0.0):
    """Pads the spatial dims of a channels_first tensor; negative amounts crop."""
    flat = []
    for before, after in reversed(pads):
        flat += [before, after]
    return F.pad(x, flat, value=value)


CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d, 3: F.conv_transpose3d}
MAXP = {1: F.max_pool1d, 2: F.max_pool2d, 3: F.max_pool3d}
AVGP = {1: F.avg_pool1d, 2: F.avg_pool2d, 3: F.avg_pool3d}
AD_AVG = {1: F.adaptive_avg_pool1d, 2: F.adaptive_avg_pool2d, 3: F.adaptive_avg_pool3d}
AD_MAX = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}


def leaf(a):
    return torch.tensor(a.astype(np.float64), requires_grad=True)


def finish(f, name, op, x, weights, y, leaves, dtype, **kwargs):
    """Records a case: inputs x and weights, an upstream gradient, the output and gradients."""
    up = f.randn(*y.shape, dtype=dtype)
    (y * torch.tensor(up.astype(np.float64))).sum().backward()
    outs = [y.detach().numpy().astype(dtype)] + [t.grad.numpy().astype(dtype) for t in leaves]
    f.case(name, op, [x] + weights + [up], outs, n_inputs=1, n_weights=len(weights), **kwargs)


def bias_act(y_cf, tb, activation):
    if tb is not None:
        y_cf = y_cf + tb.reshape(1, -1, *([1] * (y_cf.dim() - 2)))
    return ACTIVATIONS[activation](y_cf)


# ---- convolutions -----------------------------------------------------------------------------

def conv_case(f, name, r, in_shape, filters, kernel_size, strides=1, padding="valid",
              data_format="channels_last", dilation_rate=1, groups=1, activation="linear",
              use_bias=True, dtype=np.float32):
    k, s, d = tup(kernel_size, r), tup(strides, r), tup(dilation_rate, r)
    x = f.randn(*in_shape, dtype=dtype)
    cin = in_shape[-1] if data_format == "channels_last" else in_shape[1]
    kernel = f.randn(*k, cin // groups, filters, dtype=dtype) * 0.4
    bias = f.randn(filters, dtype=dtype) * 0.5
    tx, tk, tb = leaf(x), leaf(kernel), leaf(bias)
    xc = to_cf(tx, r) if data_format == "channels_last" else tx
    windows = [(kk - 1) * dd + 1 for kk, dd in zip(k, d)]
    if padding == "same":
        xc = pad_cf(xc, same_pads(spatial_of(in_shape, r, data_format), windows, s))
    elif padding == "causal":
        xc = pad_cf(xc, [(windows[0] - 1, 0)])
    w = tk.permute(r + 1, r, *range(r))  # (*k, in/g, out) -> (out, in/g, *k)
    y = CONV[r](xc, w, stride=s, dilation=d, groups=groups)
    # Keras's compute_conv_output_shape
    for i, n in enumerate(spatial_of(in_shape, r, data_format)):
        expected = (n - windows[i]) // s[i] + 1 if padding == "valid" else -(-n // s[i])
        assert y.shape[2 + i] == expected, (name, y.shape, expected)
    y = bias_act(y, tb if use_bias else None, activation)
    if data_format == "channels_last":
        y = to_cl(y, r)
    weights = [kernel, bias] if use_bias else [kernel]
    leaves = [tx, tk] + ([tb] if use_bias else [])
    finish(f, name, "conv", x, weights, y, leaves, dtype, rank=r, filters=filters,
           kernel_size=kernel_size, strides=strides, padding=padding, data_format=data_format,
           dilation_rate=dilation_rate, groups=groups, activation=activation, use_bias=use_bias,
           **TOL)


def conv_max_pool_case(f, name, in_shape, filters, kernel_size, strides=1, padding="valid",
                       groups=1, activation="linear", use_bias=True, dtype=np.float32):
    """Sequential([Conv2D(...), MaxPooling2D()]) on channels_last data: the conv's output
    pooled over 2x2 windows with stride 2 (floor)."""
    k, s = tup(kernel_size, 2), tup(strides, 2)
    x = f.randn(*in_shape, dtype=dtype)
    kernel = f.randn(*k, in_shape[-1] // groups, filters, dtype=dtype) * 0.4
    bias = f.randn(filters, dtype=dtype) * 0.5
    tx, tk, tb = leaf(x), leaf(kernel), leaf(bias)
    xc = to_cf(tx, 2)
    if padding == "same":
        xc = pad_cf(xc, same_pads(in_shape[1:3], k, s))
    y = F.conv2d(xc, tk.permute(3, 2, 0, 1), stride=s, groups=groups)
    y = bias_act(y, tb if use_bias else None, activation)
    y = to_cl(F.max_pool2d(y, 2), 2)
    weights = [kernel, bias] if use_bias else [kernel]
    leaves = [tx, tk] + ([tb] if use_bias else [])
    finish(f, name, "conv_max_pool", x, weights, y, leaves, dtype, filters=filters,
           kernel_size=kernel_size, strides=strides, padding=padding, groups=groups,
           activation=activation, use_bias=use_bias, **TOL)


def transpose_pads(window, stride, padding, output_padding):
    """The JAX backend's (left, right) padding of the stride-dilated input."""
    if padding == "valid":
        extra = max(window, stride) - window if output_padding is None else output_padding
        return window - 1, window - 1 + extra
    total = stride + window - 2 if output_padding is None else window + window % 2 - 2 + output_padding
    left = min(total // 2 + total % 2, window - 1)
    return left, total - left


def conv_transpose_case(f, name, r, in_shape, filters, kernel_size, strides=1, padding="valid",
                        output_padding=None, data_format="channels_last", dilation_rate=1,
                        activation="linear", use_bias=True, dtype=np.float32):
    k, s, d = tup(kernel_size, r), tup(strides, r), tup(dilation_rate, r)
    op = None if output_padding is None else tup(output_padding, r)
    x = f.randn(*in_shape, dtype=dtype)
    cin = in_shape[-1] if data_format == "channels_last" else in_shape[1]
    kernel = f.randn(*k, filters, cin, dtype=dtype) * 0.4
    bias = f.randn(filters, dtype=dtype) * 0.5
    tx, tk, tb = leaf(x), leaf(kernel), leaf(bias)
    xc = to_cf(tx, r) if data_format == "channels_last" else tx
    w = tk.permute(r + 1, r, *range(r))  # (*k, out, in) -> (in, out, *k)
    # The full transposed convolution ((n - 1) * s + window outputs) equals padding the dilated
    # input by window - 1 on both sides; Keras pads by (left, right) instead.
    y = CONV_T[r](xc, w, stride=s, dilation=d)
    pads = []
    for i in range(r):
        window = (k[i] - 1) * d[i] + 1
        left, right = transpose_pads(window, s[i], padding, None if op is None else op[i])
        pads.append((left - (window - 1), right - (window - 1)))
    y = pad_cf(y, pads)
    # Keras's compute_conv_transpose_output_shape (_get_output_shape_given_tf_padding)
    for i, n in enumerate(spatial_of(in_shape, r, data_format)):
        window = (k[i] - 1) * d[i] + 1
        if padding == "valid":
            extra = max(window, s[i]) - window if op is None else op[i]
            expected = (n - 1) * s[i] + window + extra
        else:
            expected = n * s[i] if op is None else (n - 1) * s[i] + window % 2 + op[i]
        assert y.shape[2 + i] == expected, (name, y.shape, expected)
    y = bias_act(y, tb if use_bias else None, activation)
    if data_format == "channels_last":
        y = to_cl(y, r)
    weights = [kernel, bias] if use_bias else [kernel]
    leaves = [tx, tk] + ([tb] if use_bias else [])
    finish(f, name, "conv_transpose", x, weights, y, leaves, dtype, rank=r, filters=filters,
           kernel_size=kernel_size, strides=strides, padding=padding,
           output_padding=output_padding, data_format=data_format, dilation_rate=dilation_rate,
           activation=activation, use_bias=use_bias, **TOL)


def depthwise(tx_cf, tk, r, k, s, d, padding, sizes):
    """Keras's depthwise_conv on a channels_first tensor; kernel (*k, C, M)."""
    c, m = tk.shape[r], tk.shape[r + 1]
    windows = [(kk - 1) * dd + 1 for kk, dd in zip(k, d)]
    if padding == "same":
        tx_cf = pad_cf(tx_cf, same_pads(sizes, windows, s))
    # output channel c * M + m reads input channel c with filter m
    w = tk.reshape(*k, c * m).permute(r, *range(r)).unsqueeze(1)
    return CONV[r](tx_cf, w, stride=s, dilation=d, groups=c)


def depthwise_case(f, name, r, in_shape, kernel_size, strides=1, padding="valid",
                   depth_multiplier=1, data_format="channels_last", dilation_rate=1,
                   activation="linear", use_bias=True, dtype=np.float32):
    k, s, d = tup(kernel_size, r), tup(strides, r), tup(dilation_rate, r)
    x = f.randn(*in_shape, dtype=dtype)
    cin = in_shape[-1] if data_format == "channels_last" else in_shape[1]
    kernel = f.randn(*k, cin, depth_multiplier, dtype=dtype) * 0.5
    bias = f.randn(cin * depth_multiplier, dtype=dtype) * 0.5
    tx, tk, tb = leaf(x), leaf(kernel), leaf(bias)
    xc = to_cf(tx, r) if data_format == "channels_last" else tx
    y = depthwise(xc, tk, r, k, s, d, padding, spatial_of(in_shape, r, data_format))
    y = bias_act(y, tb if use_bias else None, activation)
    if data_format == "channels_last":
        y = to_cl(y, r)
    weights = [kernel, bias] if use_bias else [kernel]
    leaves = [tx, tk] + ([tb] if use_bias else [])
    finish(f, name, "depthwise_conv", x, weights, y, leaves, dtype, rank=r,
           kernel_size=kernel_size, strides=strides, padding=padding,
           depth_multiplier=depth_multiplier, data_format=data_format,
           dilation_rate=dilation_rate, activation=activation, use_bias=use_bias, **TOL)


def separable_case(f, name, r, in_shape, filters, kernel_size, strides=1, padding="valid",
                   data_format="channels_last", dilation_rate=1, depth_multiplier=1,
                   activation="linear", use_bias=True, dtype=np.float32):
    k, s, d = tup(kernel_size, r), tup(strides, r), tup(dilation_rate, r)
    x = f.randn(*in_shape, dtype=dtype)
    cin = in_shape[-1] if data_format == "channels_last" else in_shape[1]
    dk = f.randn(*k, cin, depth_multiplier, dtype=dtype) * 0.5
    pk = f.randn(*([1] * r), cin * depth_multiplier, filters, dtype=dtype) * 0.5
    bias = f.randn(filters, dtype=dtype) * 0.5
    tx, tdk, tpk, tb = leaf(x), leaf(dk), leaf(pk), leaf(bias)
    xc = to_cf(tx, r) if data_format == "channels_last" else tx
    y = depthwise(xc, tdk, r, k, s, d, padding, spatial_of(in_shape, r, data_format))
    pw = tpk.reshape(cin * depth_multiplier, filters).t().reshape(filters, cin * depth_multiplier,
                                                                    *([1] * r))
    y = CONV[r](y, pw)
    y = bias_act(y, tb if use_bias else None, activation)
    if data_format == "channels_last":
        y = to_cl(y, r)
    weights = [dk, pk, bias] if use_bias else [dk, pk]
    leaves = [tx, tdk, tpk] + ([tb] if use_bias else [])
    finish(f, name, "separable_conv", x, weights, y, leaves, dtype, rank=r, filters=filters,
           kernel_size=kernel_size, strides=strides, padding=padding, data_format=data_format,
           dilation_rate=dilation_rate, depth_multiplier=depth_multiplier,
           activation=activation, use_bias=use_bias, **TOL)


def shape_in(data_format, n, spatial, c):
    return (n, *spatial, c) if data_format == "channels_last" else (n, c, *spatial)


def conv_fixtures():
    f = Fixture("layers_conv", seed=11)
    for df in ("channels_last", "channels_first"):
        t = "cl" if df == "channels_last" else "cf"
        # Conv1D: valid, same (odd padding split), causal (with dilation), strides, groups.
        conv_case(f, f"conv1d_valid_{t}", 1, shape_in(df, 2, [9], 3), 4, 3, data_format=df)
        conv_case(f, f"conv1d_same_stride_{t}", 1, shape_in(df, 2, [10], 3), 4, 4, strides=3,
                  padding="same", data_format=df, activation="relu")
        conv_case(f, f"conv1d_causal_dilated_{t}", 1, shape_in(df, 2, [9], 2), 3, 3,
                  padding="causal", dilation_rate=2, data_format=df, activation="tanh")
        conv_case(f, f"conv1d_causal_strided_{t}", 1, shape_in(df, 1, [8], 2), 3, 2, strides=2,
                  padding="causal", data_format=df)
        conv_case(f, f"conv1d_groups_{t}", 1, shape_in(df, 2, [7], 4), 6, 2, groups=2,
                  data_format=df, use_bias=False)
        # Conv2D
        conv_case(f, f"conv2d_valid_{t}", 2, shape_in(df, 2, [6, 5], 3), 4, (3, 2), data_format=df)
        conv_case(f, f"conv2d_same_stride_{t}", 2, shape_in(df, 2, [7, 6], 2), 3, 3, strides=(2, 3),
                  padding="same", data_format=df, activation="relu")
        conv_case(f, f"conv2d_same_dilated_{t}", 2, shape_in(df, 1, [7, 7], 2), 3, (2, 3),
                  padding="same", dilation_rate=(2, 1), data_format=df, activation="sigmoid")
        conv_case(f, f"conv2d_groups_{t}", 2, shape_in(df, 1, [5, 5], 6), 6, 2, groups=3,
                  data_format=df)
        # Conv3D
        conv_case(f, f"conv3d_valid_{t}", 3, shape_in(df, 1, [4, 5, 4], 2), 3, (2, 3, 2),
                  data_format=df)
        conv_case(f, f"conv3d_same_stride_{t}", 3, shape_in(df, 2, [5, 4, 3], 2), 2, 3,
                  strides=2, padding="same", data_format=df, activation="tanh")
        # Transposed convolutions: valid and same, inferred and explicit output_padding,
        # strides larger than the kernel, dilation.
        conv_transpose_case(f, f"conv1d_transpose_valid_{t}", 1, shape_in(df, 2, [5], 3), 2, 3,
                            data_format=df)
        conv_transpose_case(f, f"conv1d_transpose_same_stride_{t}", 1, shape_in(df, 2, [4], 2),
                            3, 3, strides=2, padding="same", data_format=df, activation="relu")
        conv_transpose_case(f, f"conv1d_transpose_stride_gt_kernel_{t}", 1,
                            shape_in(df, 1, [4], 2), 2, 2, strides=3, data_format=df)
        conv_transpose_case(f, f"conv1d_transpose_dilated_{t}", 1, shape_in(df, 1, [5], 2), 2, 3,
                            dilation_rate=2, padding="same", data_format=df)
        conv_transpose_case(f, f"conv2d_transpose_valid_{t}", 2, shape_in(df, 2, [3, 4], 3), 2,
                            (3, 2), data_format=df)
        conv_transpose_case(f, f"conv2d_transpose_same_stride_{t}", 2, shape_in(df, 1, [3, 4], 2),
                            3, 3, strides=2, padding="same", data_format=df, activation="tanh")
        conv_transpose_case(f, f"conv2d_transpose_output_padding_{t}", 2,
                            shape_in(df, 1, [3, 3], 2), 2, 3, strides=(2, 3), padding="valid",
                            output_padding=(1, 2), data_format=df)
        conv_transpose_case(f, f"conv2d_transpose_same_output_padding_{t}", 2,
                            shape_in(df, 1, [3, 4], 2), 2, (4, 3), strides=2, padding="same",
                            output_padding=(1, 0), data_format=df, use_bias=False)
        conv_transpose_case(f, f"conv3d_transpose_valid_{t}", 3, shape_in(df, 1, [2, 3, 2], 2), 2,
                            2, strides=2, data_format=df)
        conv_transpose_case(f, f"conv3d_transpose_same_{t}", 3, shape_in(df, 1, [2, 3, 3], 2), 2,
                            (3, 2, 3), strides=(1, 2, 2), padding="same", data_format=df,
                            activation="relu")
        # Depthwise
        depthwise_case(f, f"depthwise_conv1d_valid_{t}", 1, shape_in(df, 2, [8], 3), 3,
                       data_format=df)
        depthwise_case(f, f"depthwise_conv1d_same_mult_{t}", 1, shape_in(df, 2, [7], 2), 4,
                       strides=2, padding="same", depth_multiplier=3, data_format=df,
                       activation="relu")
        depthwise_case(f, f"depthwise_conv2d_valid_{t}", 2, shape_in(df, 2, [5, 6], 3), (3, 2),
                       data_format=df)
        depthwise_case(f, f"depthwise_conv2d_same_mult_{t}", 2, shape_in(df, 1, [6, 5], 2), 3,
                       strides=2, padding="same", depth_multiplier=2, data_format=df,
                       activation="tanh")
        depthwise_case(f, f"depthwise_conv2d_dilated_strided_{t}", 2, shape_in(df, 1, [8, 7], 2),
                       2, strides=2, dilation_rate=2, padding="valid", data_format=df,
                       use_bias=False)
        # Separable
        separable_case(f, f"separable_conv1d_valid_{t}", 1, shape_in(df, 2, [8], 3), 4, 3,
                       data_format=df)
        separable_case(f, f"separable_conv1d_same_mult_{t}", 1, shape_in(df, 2, [7], 2), 3, 3,
                       strides=2, padding="same", depth_multiplier=2, data_format=df,
                       activation="relu")
        separable_case(f, f"separable_conv2d_valid_{t}", 2, shape_in(df, 2, [5, 5], 2), 3, 2,
                       data_format=df)
        separable_case(f, f"separable_conv2d_same_dilated_{t}", 2, shape_in(df, 1, [6, 6], 3), 2,
                       3, padding="same", dilation_rate=2, depth_multiplier=2, data_format=df,
                       activation="sigmoid", use_bias=False)
    # float64 layers (dtype="float64")
    conv_case(f, "conv2d_float64", 2, (2, 5, 5, 2), 3, 3, padding="same", dtype=np.float64)
    conv_transpose_case(f, "conv2d_transpose_float64", 2, (1, 3, 3, 2), 2, 3, strides=2,
                        dtype=np.float64)
    depthwise_case(f, "depthwise_conv2d_float64", 2, (1, 5, 5, 2), 3, depth_multiplier=2,
                   dtype=np.float64)
    separable_case(f, "separable_conv1d_float64", 1, (2, 6, 2), 3, 2, dtype=np.float64)
    # The cpu backend's fused conv + bias + activation on each of its schedules: direct loops
    # for short patches (with an output width that is not a multiple of 16), im2col + GEMM for
    # long ones, float64 tiles.
    conv_case(f, "conv2d_long_patch_relu", 2, (2, 8, 7, 5), 20, 3, padding="same",
              activation="relu")
    conv_case(f, "conv2d_short_patch_sigmoid_no_bias", 2, (3, 9, 8, 1), 18, 3, strides=2,
              activation="sigmoid", use_bias=False)
    conv_case(f, "conv2d_float64_relu", 2, (2, 6, 6, 3), 5, 3, activation="relu",
              dtype=np.float64)
    # Conv2D -> MaxPooling2D() as a Sequential model, which the cpu backend runs as one fused op
    # (direct loops or GEMM, odd conv outputs, channel counts off the 16-lane blocks, groups).
    conv_max_pool_case(f, "conv_max_pool_short_patch_relu", (2, 13, 11, 1), 32, 3,
                       activation="relu")
    conv_max_pool_case(f, "conv_max_pool_long_patch_tanh_same", (2, 9, 10, 6), 20, 3,
                       padding="same", activation="tanh")
    conv_max_pool_case(f, "conv_max_pool_strided_sigmoid_no_bias", (2, 12, 12, 3), 16, 3,
                       strides=2, activation="sigmoid", use_bias=False)
    conv_max_pool_case(f, "conv_max_pool_groups_linear_float64", (2, 8, 8, 4), 6, 3, groups=2,
                       dtype=np.float64)
    conv_max_pool_case(f, "conv_max_pool_bench_shape_relu", (3, 13, 13, 32), 64, 3,
                       activation="relu")
    f.save()


# ---- pooling ----------------------------------------------------------------------------------

def pool_case(f, name, r, mode, in_shape, pool_size, strides=None, padding="valid",
              data_format="channels_last", dtype=np.float32):
    k = tup(pool_size, r)
    s = k if strides is None else tup(strides, r)
    x = f.randn(*in_shape, dtype=dtype)
    tx = leaf(x)
    xc = to_cf(tx, r) if data_format == "channels_last" else tx
    sizes = spatial_of(in_shape, r, data_format)
    if mode == "max":
        if padding == "same":
            xc = pad_cf(xc, same_pads(sizes, k, s), value=-np.inf)
        y = MAXP[r](xc, k, s)
    else:
        if padding == "same":
            # the mean over the window's positions inside the input
            pads = same_pads(sizes, k, s)
            ones = torch.ones_like(xc)
            y = AVGP[r](pad_cf(xc, pads), k, s) / AVGP[r](pad_cf(ones, pads), k, s)
        else:
            y = AVGP[r](xc, k, s)
    if data_format == "channels_last":
        y = to_cl(y, r)
    finish(f, name, "pool", x, [], y, [tx], dtype, rank=r, mode=mode, pool_size=pool_size,
           strides=strides, padding=padding, data_format=data_format, **TOL)


def global_case(f, name, r, mode, in_shape, data_format="channels_last", keepdims=False,
                dtype=np.float32):
    x = f.randn(*in_shape, dtype=dtype)
    tx = leaf(x)
    dims = list(range(1, r + 1)) if data_format == "channels_last" else list(range(2, r + 2))
    y = tx.amax(dim=dims, keepdim=keepdims) if mode == "max" else tx.mean(dim=dims, keepdim=keepdims)
    finish(f, name, "global_pool", x, [], y, [tx], dtype, rank=r, mode=mode,
           data_format=data_format, keepdims=keepdims, **TOL)


def masked_gap1d_case(f, name, in_shape, mask, data_format="channels_last", keepdims=False):
    x = f.randn(*in_shape)
    if data_format == "channels_last":
        x[~mask] = np.nan  # masked steps never reach the result (Keras uses where)
    else:
        x.transpose(0, 2, 1)[~mask] = np.nan
    tx = leaf(x)
    axis = 1 if data_format == "channels_last" else 2
    m = torch.tensor(mask).unsqueeze(2 if data_format == "channels_last" else 1)
    xz = torch.where(m, tx, torch.zeros(()))
    y = xz.sum(dim=axis, keepdim=keepdims) / m.double().sum(dim=axis, keepdim=keepdims)
    up = f.randn(*y.shape)
    (y * torch.tensor(up.astype(np.float64))).sum().backward()
    outs = [y.detach().numpy().astype(np.float32), tx.grad.numpy().astype(np.float32)]
    f.case(name, "gap1d_masked", [x, mask, up], outs, data_format=data_format,
           keepdims=keepdims, **TOL)


def adaptive_case(f, name, r, mode, in_shape, output_size, data_format="channels_last",
                  dtype=np.float32):
    x = f.randn(*in_shape, dtype=dtype)
    tx = leaf(x)
    xc = to_cf(tx, r) if data_format == "channels_last" else tx
    size = tup(output_size, r)
    y = AD_AVG[r](xc, size) if mode == "average" else AD_MAX[r](xc, size)
    if data_format == "channels_last":
        y = to_cl(y, r)
    finish(f, name, "adaptive_pool", x, [], y, [tx], dtype, rank=r, mode=mode,
           output_size=output_size, data_format=data_format, **TOL)


def pooling_fixtures():
    f = Fixture("layers_conv_pooling", seed=12)
    for df in ("channels_last", "channels_first"):
        t = "cl" if df == "channels_last" else "cf"
        for mode in ("max", "average"):
            p = "max" if mode == "max" else "avg"
            pool_case(f, f"{p}_pool1d_default_{t}", 1, mode, shape_in(df, 2, [9], 3), 2,
                      data_format=df)
            pool_case(f, f"{p}_pool1d_same_{t}", 1, mode, shape_in(df, 2, [7], 2), 3, strides=2,
                      padding="same", data_format=df)
            pool_case(f, f"{p}_pool2d_default_{t}", 2, mode, shape_in(df, 2, [5, 6], 2), 2,
                      data_format=df)
            pool_case(f, f"{p}_pool2d_overlap_{t}", 2, mode, shape_in(df, 1, [6, 7], 2), (3, 2),
                      strides=(2, 1), data_format=df)
            pool_case(f, f"{p}_pool2d_same_{t}", 2, mode, shape_in(df, 2, [5, 7], 2), 3,
                      strides=(2, 3), padding="same", data_format=df)
            pool_case(f, f"{p}_pool3d_default_{t}", 3, mode, shape_in(df, 1, [4, 5, 4], 2), 2,
                      data_format=df)
            pool_case(f, f"{p}_pool3d_same_{t}", 3, mode, shape_in(df, 1, [3, 4, 5], 2),
                      (2, 3, 2), strides=(1, 2, 2), padding="same", data_format=df)
            for r, spatial in ((1, [6]), (2, [4, 5]), (3, [3, 4, 2])):
                global_case(f, f"global_{p}_pool{r}d_{t}", r, mode, shape_in(df, 2, spatial, 3),
                            data_format=df)
                global_case(f, f"global_{p}_pool{r}d_keepdims_{t}", r, mode,
                            shape_in(df, 2, spatial, 2), data_format=df, keepdims=True)
            # adaptive: divisible and non-divisible sizes (overlapping windows)
            adaptive_case(f, f"adaptive_{p}_pool1d_{t}", 1, mode, shape_in(df, 2, [10], 3), 4,
                          data_format=df)
            adaptive_case(f, f"adaptive_{p}_pool1d_even_{t}", 1, mode, shape_in(df, 1, [8], 2), 4,
                          data_format=df)
            adaptive_case(f, f"adaptive_{p}_pool2d_{t}", 2, mode, shape_in(df, 2, [7, 5], 2),
                          (3, 2), data_format=df)
            adaptive_case(f, f"adaptive_{p}_pool2d_up_{t}", 2, mode, shape_in(df, 1, [3, 4], 2),
                          5, data_format=df)
            adaptive_case(f, f"adaptive_{p}_pool3d_{t}", 3, mode, shape_in(df, 1, [5, 4, 6], 2),
                          (2, 3, 4), data_format=df)
        mask = np.array([[True, True, False, True, False, False],
                         [False, True, True, True, True, True]])
        masked_gap1d_case(f, f"gap1d_masked_{t}", shape_in(df, 2, [6], 3), mask, data_format=df)
        masked_gap1d_case(f, f"gap1d_masked_keepdims_{t}", shape_in(df, 2, [6], 2), mask,
                          data_format=df, keepdims=True)
    pool_case(f, "max_pool2d_float64", 2, "max", (1, 4, 4, 2), 2, dtype=np.float64)
    pool_case(f, "avg_pool2d_same_float64", 2, "average", (1, 5, 4, 2), 2, padding="same",
              dtype=np.float64)
    global_case(f, "global_avg_pool2d_float64", 2, "average", (2, 3, 3, 2), dtype=np.float64)
    adaptive_case(f, "adaptive_max_pool2d_float64", 2, "max", (1, 5, 5, 2), 3, dtype=np.float64)
    f.save()


conv_fixtures()
pooling_fixtures()
