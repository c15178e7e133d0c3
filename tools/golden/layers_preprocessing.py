"""The numeric and image preprocessing layers against NumPy / PyTorch references
(tests/layers_preprocessing/layers_preprocessing_test.cpp), in the layout of
tests/support/layer_harness.h: inputs, weights in Keras layout, one upstream gradient per
output; expected: outputs, input gradients (for floating inputs). Cases with "no_grad" call the
layer directly (integer inputs).

Random layers are fixed by factor ranges of zero width (RandomRotation((f, f)) always turns by
f * 360 degrees, RandomContrast((-c, c)) always scales by 1 + c, ...), so their training-mode
outputs have exact references; their randomness is tested in C++ against closed forms.
"""

import numpy as np
import torch

import image_reference as ref
from fixture import Fixture

f = Fixture("layers_preprocessing", seed=23)
F32 = np.float32


def grad_of(fn, x, up):
    """d sum(fn(x) * up) / dx in float64 through PyTorch."""
    t = torch.tensor(x.astype(np.float64), requires_grad=True)
    (fn(t) * torch.tensor(up.astype(np.float64))).sum().backward()
    return t.grad.numpy()


def layer_case(name, op, x, y, grads=None, up=None, weights=(), **kw):
    """A harness case: x -> y, with the input gradient when x is floating."""
    floating = np.issubdtype(x.dtype, np.floating)
    if up is None:
        up = f.randn(*y.shape) if np.issubdtype(y.dtype, np.floating) else np.zeros(y.shape, F32)
    outputs = [y] + ([grads(up).astype(x.dtype)] if floating and grads is not None else [])
    if not floating:
        kw["no_grad"] = True
    f.case(name, op, [x, *weights, up], outputs, n_inputs=1, n_weights=len(weights), **kw)


# ---- Rescaling -----------------------------------------------------------------------------

def rescaling_case(name, shape, scale, offset, dtype=F32, data_format="channels_last"):
    x = f.randint(0, 256, *shape, dtype=dtype) if dtype == np.uint8 else f.randn(*shape)
    s = np.asarray(scale, np.float64)
    o = np.asarray(offset, np.float64)
    if data_format == "channels_first":
        s = s.reshape(s.shape + (1,) * (3 - s.ndim)) if s.ndim else s
        o = o.reshape(o.shape + (1,) * (3 - o.ndim)) if o.ndim else o
    y = (x.astype(F32) * s.astype(F32) + o.astype(F32)).astype(F32)
    layer_case(name, "rescaling", x, y, lambda up: up * s.astype(F32), scale=scale,
               offset=offset, data_format=data_format, rtol=1e-6, atol=1e-6)


rescaling_case("rescaling_uint8", (2, 4, 4, 3), 1.0 / 255, 0.0, dtype=np.uint8)
rescaling_case("rescaling_offset", (3, 5), 1.0 / 127.5, -1.0)
rescaling_case("rescaling_per_channel", (2, 3, 4, 3), [0.5, 2.0, -1.0], [0.1, 0.2, 0.3])
rescaling_case("rescaling_per_channel_cf", (2, 3, 4, 5), [0.5, 2.0, -1.0], 0.25,
               data_format="channels_first")


# ---- Normalization -------------------------------------------------------------------------

def normalization_case(name, shape, axis, mean=None, variance=None, weights=None, invert=False):
    x = f.randn(*shape) * 2 + 1
    ndim = len(shape)
    keep = sorted(a % ndim for a in axis)
    bshape = [shape[d] if d in keep else 1 for d in range(ndim)]
    if weights is not None:
        m = weights[0].reshape(bshape)
        v = weights[1].reshape(bshape)
    else:
        m = np.asarray(mean, np.float64)
        v = np.asarray(variance, np.float64)
        if m.ndim:
            expanded = [1] * ndim
            for i in range(1, m.ndim + 1):
                expanded[keep[-i]] = m.shape[-i]
            m, v = m.reshape(expanded), v.reshape(expanded)
        m, v = np.broadcast_to(m, bshape), np.broadcast_to(v, bshape)
    m, v = m.astype(F32), v.astype(F32)
    scale = np.maximum(np.sqrt(v), F32(1e-7))
    y = (m + x * scale) if invert else ((x - m) / scale)
    grads = lambda up: up * scale if invert else up / scale
    layer_case(name, "normalization", x, y.astype(F32), grads, weights=weights or (),
               axis=list(axis), invert=invert,
               mean=None if mean is None else np.asarray(mean).tolist(),
               variance=None if variance is None else np.asarray(variance).tolist(), rtol=1e-5,
               atol=1e-5)


def adapted(shape):
    return [f.randn(*shape), f.uniform(0.2, 3.0, *shape), np.array(0, np.int32)]


normalization_case("normalization_fixed_scalar", (4, 3), [-1], 3.0, 2.0)
normalization_case("normalization_fixed_per_feature", (4, 3), [-1], [1.0, -2.0, 0.5],
                   [4.0, 0.25, 1.0])
normalization_case("normalization_fixed_right_aligned", (2, 4, 3), [1, 2], [1.0, -2.0, 0.5],
                   [4.0, 0.25, 1.0])
normalization_case("normalization_fixed_two_axes", (2, 4, 3), [1, -1],
                   np.arange(12.0).reshape(4, 3), np.linspace(0.5, 3, 12).reshape(4, 3))
normalization_case("normalization_fixed_invert", (5, 2), [-1], [0.5, 1.5], [2.0, 9.0],
                   invert=True)
normalization_case("normalization_weights", (5, 4), [-1], weights=adapted((4,)))
normalization_case("normalization_weights_axis1", (3, 4, 2), [1], weights=adapted((4,)))
normalization_case("normalization_weights_none_axis", (3, 4), [], weights=adapted(()))
normalization_case("normalization_weights_invert", (2, 3, 2), [-1], weights=adapted((2,)),
                   invert=True)


def normalization_adapt_case(name, shape, axis, batches=0):
    data = f.randn(*shape) * 3 + 2
    ndim = len(shape)
    keep = sorted(a % ndim for a in axis)
    reduce = tuple(d for d in range(ndim) if d not in keep)
    mean = data.astype(np.float64).mean(axis=reduce)
    var = data.astype(np.float64).var(axis=reduce)
    f.case(name, "normalization_adapt", [data], [mean.astype(F32), var.astype(F32)],
           axis=list(axis), batches=batches, rtol=1e-5, atol=1e-5)


normalization_adapt_case("adapt_features", (40, 3), [-1])
normalization_adapt_case("adapt_scalar", (30, 2), [])
normalization_adapt_case("adapt_middle_axis", (10, 4, 3), [1])
normalization_adapt_case("adapt_batches", (48, 3), [-1], batches=4)
normalization_adapt_case("adapt_batches_two_axes", (24, 2, 3), [1, 2], batches=3)


# ---- CategoryEncoding ----------------------------------------------------------------------

def one_hot(ids, depth):
    return (ids[..., None] == np.arange(depth)).astype(F32)


def category_case(name, ids, num_tokens, mode, weights=None):
    ids = np.asarray(ids, np.int32)
    x = ids
    if mode == "one_hot":
        if x.ndim > 1 and x.shape[-1] == 1:
            x = x[..., 0]
        y = one_hot(x, num_tokens)
    elif mode == "multi_hot":
        y = one_hot(x, num_tokens).max(axis=1 if x.ndim > 1 else 0)
    else:
        hot = one_hot(x, num_tokens)
        if weights is not None:
            hot = hot * np.asarray(weights, F32)[..., None]
        y = hot.sum(axis=1 if x.ndim > 1 else 0).astype(F32)
    inputs = [ids] + ([np.asarray(weights, F32)] if weights is not None else [])
    f.case(name, "category_encoding", inputs, [y], num_tokens=num_tokens, output_mode=mode)


category_case("category_one_hot", [3, 2, 0, 1], 4, "one_hot")
category_case("category_one_hot_column", [[3], [2], [0], [1], [5]], 5, "one_hot")
category_case("category_one_hot_2d", [[3, 2], [0, 1], [1, 1]], 4, "one_hot")
category_case("category_one_hot_out_of_range", [0, 7, -1, 2], 4, "one_hot")
category_case("category_multi_hot", [[0, 1], [0, 0], [1, 2], [3, 1]], 4, "multi_hot")
category_case("category_multi_hot_1d", [0, 3, 3, 1], 6, "multi_hot")
category_case("category_count", [[0, 1, 1], [2, 2, 2], [3, 0, 1]], 4, "count")
category_case("category_count_1d", [1, 1, 4, 0, 4, 4], 5, "count")
category_case("category_count_weights", [[0, 1], [0, 0], [1, 2], [3, 1]], 4, "count",
              weights=[[.1, .2], [.1, .1], [.2, .3], [.4, .2]])


# ---- Discretization ------------------------------------------------------------------------

def discretization_case(name, x, bounds, mode):
    x = np.asarray(x, F32)
    idx = np.digitize(x, np.asarray(bounds, F32)).astype(np.int32)
    depth = len(bounds) + 1
    if mode == "int":
        y = idx
    elif mode == "one_hot":
        i = idx[..., 0] if idx.ndim > 1 and idx.shape[-1] == 1 else idx
        y = one_hot(i, depth)
    elif mode == "multi_hot":
        y = one_hot(idx, depth).max(axis=1 if idx.ndim > 1 else 0)
    else:
        y = one_hot(idx, depth).sum(axis=1 if idx.ndim > 1 else 0).astype(F32)
    f.case(name, "discretization", [x], [y], bin_boundaries=list(bounds), output_mode=mode)


BOUNDS = [-1.0, 0.0, 0.5, 2.0]
EDGE = [[-1.5, -1.0, 0.0, 0.2], [0.5, 0.7, 2.0, 9.0], [-0.2, 1.9, 2.1, -7.0]]
discretization_case("discretization_int", EDGE, BOUNDS, "int")
discretization_case("discretization_one_hot", [-1.5, 0.2, 0.5, 3.0, -1.0], BOUNDS, "one_hot")
discretization_case("discretization_one_hot_column", [[-1.5], [0.2], [3.0]], BOUNDS, "one_hot")
discretization_case("discretization_multi_hot", EDGE, BOUNDS, "multi_hot")
discretization_case("discretization_count", EDGE, BOUNDS, "count")
discretization_case("discretization_int_3d", f.randn(2, 3, 4), [-0.5, 0.1, 0.3], "int")


# Keras's adapt algorithm (keras/src/layers/preprocessing/discretization.py), in NumPy.
def summarize(values, epsilon):
    values = np.sort(np.reshape(values, [-1]))
    elements = np.size(values)
    increment = elements / (1.0 / epsilon)
    step = max(increment, 1)
    start = step - 1
    boundaries = values[int(start)::int(step)]
    weights = np.ones_like(boundaries) * step
    return np.stack([boundaries, weights])


def compress_summary(summary, epsilon):
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum_weights = summary[1].cumsum()
    cum_weight_percents = cum_weights / cum_weights[-1]
    new_bins = np.interp(percents, cum_weight_percents, summary[0])
    cum_weights = np.interp(percents, cum_weight_percents, cum_weights)
    new_weights = cum_weights - np.concatenate((np.array([0]), cum_weights[:-1]))
    return np.stack((new_bins, new_weights)).astype("float32")


def merge_summaries(prev_summary, next_summary, epsilon):
    merged = np.concatenate((prev_summary, next_summary), axis=1)
    merged = np.take(merged, np.argsort(merged[0], kind="stable"), axis=1)
    return compress_summary(merged, epsilon)


def adapt_reference(batches, num_bins, epsilon):
    summary = np.array([[], []], dtype="float32")
    for b in batches:
        summary = merge_summaries(summarize(np.asarray(b, F32), epsilon), summary, epsilon)
    return compress_summary(summary, 1.0 / num_bins)[0, :-1].astype(np.float64)


def discretization_adapt_case(name, batches, num_bins, epsilon=0.01):
    bounds = adapt_reference(batches, num_bins, epsilon)
    f.case(name, "discretization_adapt", [np.asarray(b, F32) for b in batches], [bounds],
           num_bins=num_bins, epsilon=epsilon, check_dtype=False, rtol=0, atol=0)


discretization_adapt_case("quantiles_docstring", [[[-1.5, 1.0, 3.4, .5], [0.0, 3.0, 1.3, 0.0]]], 4)
discretization_adapt_case("quantiles_small", [f.randn(100)], 4)
discretization_adapt_case("quantiles_large", [f.randn(2000) * 5], 5)
discretization_adapt_case("quantiles_batches", [f.randn(700, 2), f.uniform(-1, 3, 700, 2),
                                            f.randn(300, 2) + 1], 7)
discretization_adapt_case("quantiles_coarse_epsilon", [f.randn(500), f.randn(400) * 2], 3, 0.1)


# ---- Resizing and CenterCrop ---------------------------------------------------------------

def resizing_case(name, shape, height, width, interpolation="bilinear", crop=False, pad=False,
                  fill_value=0.0, antialias=False, data_format="channels_last", dtype=F32):
    x = f.randint(0, 256, *shape, dtype=dtype) if dtype == np.uint8 else f.randn(*shape)
    y = ref.resize(x, (height, width), interpolation, antialias, crop, pad, fill_value,
                   data_format)
    grads = lambda up: ref.resize_grad(x.shape, up, (height, width), interpolation, antialias,
                                       data_format, crop, pad)
    layer_case(name, "resizing", x, y, grads, height=height, width=width,
               interpolation=interpolation, crop_to_aspect_ratio=crop, pad_to_aspect_ratio=pad,
               fill_value=fill_value, antialias=antialias, data_format=data_format, rtol=2e-5,
               atol=2e-5)


resizing_case("resizing_bilinear", (2, 5, 6, 3), 8, 4)
resizing_case("resizing_nearest_cf", (2, 3, 5, 6), 3, 9, "nearest", data_format="channels_first")
resizing_case("resizing_bicubic_crop", (2, 6, 10, 1), 4, 4, "bicubic", crop=True)
resizing_case("resizing_lanczos3_pad", (1, 4, 8, 2), 6, 6, "lanczos3", pad=True, fill_value=1.0)
resizing_case("resizing_antialias", (1, 12, 9, 2), 4, 3, "bilinear", antialias=True)
resizing_case("resizing_unbatched", (5, 7, 2), 3, 3, "bicubic")
resizing_case("resizing_uint8", (2, 5, 5, 3), 7, 3, dtype=np.uint8)


def center_crop_case(name, shape, height, width, data_format="channels_last", dtype=F32):
    x = f.randint(0, 256, *shape, dtype=dtype) if dtype == np.uint8 else f.randn(*shape)
    h_axis, w_axis = ref.spatial_axes(len(shape), data_format)
    H_, W_ = shape[h_axis], shape[w_axis]
    if H_ >= height and W_ >= width:
        index = [slice(None)] * len(shape)
        hs, ws = (H_ - height) // 2, (W_ - width) // 2
        index[h_axis] = slice(hs, hs + height)
        index[w_axis] = slice(ws, ws + width)
        y = x[tuple(index)].astype(F32)

        def grads(up):
            g = np.zeros(x.shape)
            g[tuple(index)] = up
            return g
    else:
        y = ref.resize(x.astype(F32), (height, width), "bilinear", crop_to_aspect_ratio=True,
                       data_format=data_format)
        grads = lambda up: ref.resize_grad(x.shape, up, (height, width), "bilinear", False,
                                           data_format, crop_to_aspect_ratio=True)
    layer_case(name, "center_crop", x, y, grads, height=height, width=width,
               data_format=data_format, rtol=2e-5, atol=2e-5)


center_crop_case("center_crop_even", (2, 8, 9, 3), 4, 5)
center_crop_case("center_crop_odd_cf", (2, 3, 7, 6), 4, 3, data_format="channels_first")
center_crop_case("center_crop_unbatched", (6, 6, 1), 3, 6)
center_crop_case("center_crop_smaller", (2, 4, 5, 2), 6, 6)
center_crop_case("center_crop_mixed_cf", (1, 2, 8, 3), 5, 5, data_format="channels_first")
center_crop_case("center_crop_uint8", (2, 6, 6, 3), 4, 4, dtype=np.uint8)


# ---- Random layers with fixed draws --------------------------------------------------------

def images(shape, dtype=F32):
    return f.randint(0, 200, *shape, dtype=dtype) if dtype == np.uint8 else f.uniform(0, 1, *shape)


def dims(shape, data_format):
    h_axis, w_axis = ref.spatial_axes(len(shape), data_format)
    return (shape[0] if len(shape) == 4 else 1), shape[h_axis], shape[w_axis]


def warp_case(name, op, x, matrices, interpolation, fill_mode, fill_value, data_format, **kw):
    t = matrices if x.ndim == 4 else matrices[0]
    y, grad = ref.affine_transform(x.astype(F32), t, interpolation, fill_mode, fill_value,
                                   data_format)
    layer_case(name, op, x, y.astype(F32), grad, interpolation=interpolation,
               fill_mode=fill_mode, fill_value=fill_value, data_format=data_format,
               training=True, rtol=2e-5, atol=2e-5, **kw)


def rotation_case(name, shape, turn, fill_mode="reflect", interpolation="bilinear",
                  fill_value=0.0, data_format="channels_last"):
    x = images(shape)
    B, Hh, Ww = dims(shape, data_format)
    angle = np.full(B, F32(turn * 360.0), F32)
    z, o = np.zeros(B, F32), np.ones(B, F32)
    m = ref.affine_matrix(0.5, 0.5, angle, z, z, o, z, z, Hh, Ww)
    warp_case(name, "random_rotation", x, m, interpolation, fill_mode, fill_value, data_format,
              factor=[turn, turn])


rotation_case("rotation_reflect", (2, 6, 7, 2), 0.1)
rotation_case("rotation_wrap_cf", (2, 2, 6, 7), -0.3, "wrap", data_format="channels_first")
rotation_case("rotation_constant", (1, 7, 5, 3), 0.27, "constant", fill_value=0.5)
rotation_case("rotation_nearest_fill", (2, 5, 5, 1), 0.62, "nearest")
rotation_case("rotation_nearest_interp", (2, 6, 6, 2), 0.13, "reflect", "nearest")
rotation_case("rotation_unbatched", (6, 7, 3), -0.05)


def zoom_case(name, shape, zh, zw=None, fill_mode="reflect", interpolation="bilinear",
              fill_value=0.0, data_format="channels_last"):
    x = images(shape)
    B, Hh, Ww = dims(shape, data_format)
    hz = F32(1.0 + zh)
    wz = F32(1.0 + zw) if zw is not None else hz
    x_off = ((F32(Ww) - F32(1)) / F32(2)) * (F32(1) - wz)
    y_off = ((F32(Hh) - F32(1)) / F32(2)) * (F32(1) - hz)
    m = np.tile(np.array([wz, 0, x_off, 0, hz, y_off, 0, 0], F32), (B, 1))
    warp_case(name, "random_zoom", x, m, interpolation, fill_mode, fill_value, data_format,
              height_factor=[zh, zh], width_factor=None if zw is None else [zw, zw])


zoom_case("zoom_out", (2, 6, 7, 2), 0.3)
zoom_case("zoom_in_cf", (2, 3, 6, 5), -0.4, 0.2, "constant", data_format="channels_first")
zoom_case("zoom_wrap_nearest", (1, 5, 6, 1), 0.5, -0.25, "wrap", "nearest")
zoom_case("zoom_unbatched", (6, 6, 2), -0.2, None, "nearest")


def translation_case(name, shape, th, tw, fill_mode="reflect", interpolation="bilinear",
                     fill_value=0.0, data_format="channels_last"):
    x = images(shape)
    B, Hh, Ww = dims(shape, data_format)
    dy = F32(th) * F32(Hh)
    dx = F32(tw) * F32(Ww)
    m = np.tile(np.array([1, 0, -dx, 0, 1, -dy, 0, 0], F32), (B, 1))
    warp_case(name, "random_translation", x, m, interpolation, fill_mode, fill_value,
              data_format, height_factor=[th, th], width_factor=[tw, tw])


translation_case("translation_reflect", (2, 6, 7, 2), 0.2, -0.3)
translation_case("translation_constant_cf", (1, 2, 5, 6), -0.45, 0.1, "constant", fill_value=-1.0,
                 data_format="channels_first")
translation_case("translation_nearest_interp", (2, 6, 6, 1), 0.33, 0.5, "wrap", "nearest")
translation_case("translation_unbatched", (5, 8, 3), 1.0, -0.15, "nearest")


def contrast_case(name, shape, c, value_range=(0.0, 255.0), data_format="channels_last",
                  scale=255.0):
    x = images(shape) * F32(scale)
    h_axis, w_axis = ref.spatial_axes(len(shape), data_format)

    def fn(t):
        m = t.mean(dim=h_axis, keepdim=True).mean(dim=w_axis, keepdim=True)
        factor = float(F32(1.0 + c))
        return torch.clamp((t - m) * factor + m, value_range[0], value_range[1])

    y = fn(torch.tensor(x.astype(np.float64))).numpy().astype(F32)
    layer_case(name, "random_contrast", x, y, lambda up: grad_of(fn, x, up), factor=[-c, c],
               value_range=list(value_range), data_format=data_format, training=True, rtol=2e-5,
               atol=2e-4)


contrast_case("contrast_up", (2, 5, 6, 3), 0.4)
contrast_case("contrast_cf", (2, 3, 4, 5), 0.15, data_format="channels_first")
contrast_case("contrast_clipped", (1, 6, 6, 1), 0.9, (0.0, 1.0), scale=1.0)
contrast_case("contrast_unbatched", (4, 5, 2), 0.25)


def brightness_case(name, shape, d, value_range=(0.0, 255.0), dtype=F32, scale=255.0):
    x = images(shape, dtype)
    if dtype == F32:
        x = x * F32(scale)
    delta = F32(d) * F32(value_range[1] - value_range[0])
    lo, hi = value_range
    if dtype == np.uint8:
        y = np.clip(x.astype(np.int64) + int(delta), lo, hi).astype(np.uint8)
        layer_case(name, "random_brightness", x, y, factor=[d, d], value_range=list(value_range),
                   training=True)
        return
    y = np.clip(x + delta, F32(lo), F32(hi)).astype(F32)
    inside = ((x + delta) >= lo) & ((x + delta) <= hi)
    layer_case(name, "random_brightness", x, y, lambda up: up * inside, factor=[d, d],
               value_range=list(value_range), training=True, rtol=1e-6, atol=1e-5)


brightness_case("brightness_up", (2, 4, 5, 3), 0.1)
brightness_case("brightness_down_unit_range", (2, 4, 4, 1), -0.3, (0.0, 1.0), scale=1.0)
brightness_case("brightness_uint8", (2, 3, 4, 3), 0.1, dtype=np.uint8)
brightness_case("brightness_unbatched", (4, 4, 3), 0.5)


# ---- Random layers at inference: the identity (after the cast to the layer's dtype) --------

for op, kw in [("random_flip", {}), ("random_rotation", {"factor": [0.2, 0.2]}),
               ("random_zoom", {"height_factor": [0.2, 0.2], "width_factor": None}),
               ("random_translation", {"height_factor": [0.2, 0.2], "width_factor": [0.1, 0.1]}),
               ("random_contrast", {"factor": [0.2, 0.2]}),
               ("random_brightness", {"factor": [0.2, 0.2]})]:
    x = images((2, 4, 5, 3))
    defaults = {"interpolation": "bilinear", "fill_mode": "reflect", "fill_value": 0.0,
                "data_format": "channels_last", "value_range": [0.0, 255.0]}
    layer_case(f"{op}_inference", op, x, x.copy(), lambda up: up, training=False,
               **{**defaults, **kw})
x = images((2, 4, 5, 3), np.uint8)
layer_case("random_flip_inference_uint8", "random_flip", x, x.astype(F32), training=False,
           data_format="channels_last")

f.save()
