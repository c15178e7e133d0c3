"""NumPy references of keras.ops.image as Keras's JAX backend computes it, shared by
ops_image.py and layers_preprocessing.py.

- resize: jax.image.resize (scale_and_translate with half-pixel centres, kernel weights normalized
  per output pixel and zeroed where the sample lies outside the input; "nearest" takes
  floor((i + 0.5) * in / out) in float32), with the weight matrices in float64 as Keras's NumPy
  backend builds them, and Keras's crop_to_aspect_ratio / pad_to_aspect_ratio arithmetic.
- affine_transform / map_coordinates: jax.scipy.ndimage.map_coordinates (order 0: round half away
  from zero; order 1: floor and floor + 1; the fill modes' index mappings; in "constant" mode a
  neighbour outside the input reads cval), evaluated in float32 in JAX's order, plus the adjoint
  (the gradient of sum(output * upstream) with respect to the input).
"""

import numpy as np

F32 = np.float32


# ---- resize --------------------------------------------------------------------------------

def _triangle(x):
    return np.maximum(0, 1 - np.abs(x))


def _keys_cubic(x):
    out = ((1.5 * x - 2.5) * x) * x + 1.0
    out = np.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out)
    return np.where(x >= 2.0, 0.0, out)


def _lanczos(radius, x):
    y = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius)
    out = np.where(x > 1e-3, np.divide(y, np.where(x != 0, np.pi**2 * x**2, 1)), 1)
    return np.where(x > radius, 0.0, out)


KERNELS = {
    "bilinear": _triangle,
    "bicubic": _keys_cubic,
    "lanczos3": lambda x: _lanczos(3.0, x),
    "lanczos5": lambda x: _lanczos(5.0, x),
}


def resize_weights(in_size, out_size, method, antialias=False):
    """The (in, out) float64 weight matrix of one axis."""
    kernel = KERNELS[method]
    scale = out_size / in_size
    inv_scale = 1.0 / scale
    kernel_scale = max(inv_scale, 1.0) if antialias else 1.0
    sample_f = (np.arange(out_size, dtype=np.float64) + 0.5) * inv_scale - 0.5
    x = np.abs(sample_f[None, :] - np.arange(in_size, dtype=np.float64)[:, None]) / kernel_scale
    w = kernel(x)
    total = np.sum(w, axis=0, keepdims=True)
    w = np.where(np.abs(total) > 1000.0 * np.finfo(np.float32).eps,
                 np.divide(w, np.where(total != 0, total, 1)), 0)
    inside = (sample_f >= -0.5) & (sample_f <= in_size - 0.5)
    return np.where(inside[None, :], w, 0)


def nearest_indices(in_size, out_size):
    offsets = (np.arange(out_size, dtype=np.float32) + 0.5) * in_size / out_size
    return np.minimum(np.floor(offsets).astype(np.int64), in_size - 1)


def spatial_axes(rank, data_format):
    return (rank - 3, rank - 2) if data_format == "channels_last" else (rank - 2, rank - 1)


def crop_to_aspect(x, h_axis, w_axis, target_h, target_w):
    height, width = x.shape[h_axis], x.shape[w_axis]
    crop_h = max(min(height, int(float(width * target_h) / target_w)), 1)
    crop_w = max(min(width, int(float(height * target_w) / target_h)), 1)
    hs = int(float(height - crop_h) / 2)
    ws = int(float(width - crop_w) / 2)
    index = [slice(None)] * x.ndim
    index[h_axis] = slice(hs, hs + crop_h)
    index[w_axis] = slice(ws, ws + crop_w)
    return x[tuple(index)]


def pad_to_aspect(x, h_axis, w_axis, target_h, target_w, fill_value):
    height, width = x.shape[h_axis], x.shape[w_axis]
    pad_h = max(height, int(float(width * target_h) / target_w))
    pad_w = max(width, int(float(height * target_w) / target_h))
    hs = int(float(pad_h - height) / 2)
    ws = int(float(pad_w - width) / 2)
    widths = [(0, 0)] * x.ndim
    if hs > 0:
        widths[h_axis] = (hs, hs)
    elif ws > 0:
        widths[w_axis] = (ws, ws)
    else:
        return x
    return np.pad(x, widths, constant_values=fill_value)


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_value=0.0, data_format="channels_last"):
    """Returns (output, linear_map) where linear_map(x) applies the same resampling to a
    float64 array of the (cropped or padded) input's shape, for the gradient."""
    dtype = images.dtype
    h_axis, w_axis = spatial_axes(images.ndim, data_format)
    x = images
    if crop_to_aspect_ratio:
        x = crop_to_aspect(x, h_axis, w_axis, *size)
    elif pad_to_aspect_ratio:
        x = pad_to_aspect(x, h_axis, w_axis, *size, fill_value)
    in_h, in_w = x.shape[h_axis], x.shape[w_axis]
    if interpolation == "nearest":
        out = x
        if in_h != size[0]:
            out = np.take(out, nearest_indices(in_h, size[0]), axis=h_axis)
        if in_w != size[1]:
            out = np.take(out, nearest_indices(in_w, size[1]), axis=w_axis)
        return out
    wh = resize_weights(in_h, size[0], interpolation, antialias) if in_h != size[0] else None
    ww = resize_weights(in_w, size[1], interpolation, antialias) if in_w != size[1] else None
    out = x.astype(np.float64)
    if wh is not None:
        out = np.moveaxis(np.tensordot(out, wh, axes=(h_axis, 0)), -1, h_axis)
    if ww is not None:
        out = np.moveaxis(np.tensordot(out, ww, axes=(w_axis, 0)), -1, w_axis)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return np.clip(np.round(out), info.min, info.max).astype(dtype)
    return out.astype(dtype)


def resize_grad(images_shape, up, size, interpolation, antialias, data_format,
                crop_to_aspect_ratio=False, pad_to_aspect_ratio=False):
    """The gradient of sum(resize(x) * up) with respect to x (float64)."""
    import torch
    x = torch.zeros(images_shape, dtype=torch.float64, requires_grad=True)
    h_axis, w_axis = spatial_axes(len(images_shape), data_format)
    y = x
    if crop_to_aspect_ratio:
        height, width = images_shape[h_axis], images_shape[w_axis]
        crop_h = max(min(height, int(float(width * size[0]) / size[1])), 1)
        crop_w = max(min(width, int(float(height * size[1]) / size[0])), 1)
        hs, ws = int(float(height - crop_h) / 2), int(float(width - crop_w) / 2)
        y = y.narrow(h_axis, hs, crop_h).narrow(w_axis, ws, crop_w)
    elif pad_to_aspect_ratio:
        height, width = images_shape[h_axis], images_shape[w_axis]
        pad_h = max(height, int(float(width * size[0]) / size[1]))
        pad_w = max(width, int(float(height * size[1]) / size[0]))
        hs, ws = int(float(pad_h - height) / 2), int(float(pad_w - width) / 2)
        if hs > 0:
            z = torch.zeros(*[hs if d == h_axis else s for d, s in enumerate(y.shape)],
                            dtype=torch.float64)
            y = torch.cat([z, y, z], dim=h_axis)
        elif ws > 0:
            z = torch.zeros(*[ws if d == w_axis else s for d, s in enumerate(y.shape)],
                            dtype=torch.float64)
            y = torch.cat([z, y, z], dim=w_axis)
    in_h, in_w = y.shape[h_axis], y.shape[w_axis]
    if interpolation == "nearest":
        if in_h != size[0]:
            y = torch.index_select(y, h_axis, torch.tensor(nearest_indices(in_h, size[0])))
        if in_w != size[1]:
            y = torch.index_select(y, w_axis, torch.tensor(nearest_indices(in_w, size[1])))
    else:
        if in_h != size[0]:
            wh = torch.tensor(resize_weights(in_h, size[0], interpolation, antialias))
            y = torch.movedim(torch.tensordot(y, wh, dims=([h_axis], [0])), -1, h_axis)
        if in_w != size[1]:
            ww = torch.tensor(resize_weights(in_w, size[1], interpolation, antialias))
            y = torch.movedim(torch.tensordot(y, ww, dims=([w_axis], [0])), -1, w_axis)
    (y * torch.tensor(up, dtype=torch.float64)).sum().backward()
    return x.grad.numpy()


# ---- map_coordinates -----------------------------------------------------------------------

def _mirror(index, size):
    if size <= 1:
        return np.zeros_like(index)
    s = size - 1
    return np.abs((index + s) % (2 * s) - s)


def fix_index(index, size, mode):
    if mode in ("constant", "nearest"):
        return np.clip(index, 0, size - 1)
    if mode == "wrap":
        return index % size
    if mode == "mirror":
        return _mirror(index, size)
    if mode == "reflect":
        return (_mirror(2 * index + 1, 2 * size + 1) - 1) // 2
    raise ValueError(mode)


def neighbours(coord, size, order, mode):
    """[(fixed index, valid or None, weight or None)] of float32 coordinates."""
    coord = coord.astype(F32)
    if order == 0:
        rounded = np.where(coord >= 0, np.floor(coord + F32(0.5)), np.ceil(coord - F32(0.5)))
        raw = [(rounded.astype(np.int64), None)]
    else:
        lower = np.floor(coord)
        upper_w = (coord - lower).astype(F32)
        lower_w = (F32(1) - upper_w).astype(F32)
        idx = lower.astype(np.int64)
        raw = [(idx, lower_w), (idx + 1, upper_w)]
    out = []
    for idx, w in raw:
        valid = ((idx >= 0) & (idx < size)) if mode == "constant" else None
        out.append((fix_index(idx, size, mode), valid, w))
    return out


def _and(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _mul(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return (a * b).astype(F32)


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0.0, data_format="channels_last"):
    """Returns (output, grad_fn) with grad_fn(up) the gradient with respect to images."""
    dtype = images.dtype
    batched = images.ndim == 4
    x = images if batched else images[None]
    t = transform if transform.ndim == 2 else transform[None]
    x = x.astype(F32)
    t = t.astype(F32)
    last = data_format == "channels_last"
    if not last:
        x = np.transpose(x, (0, 2, 3, 1))
    B, H, W, C = x.shape
    t = np.broadcast_to(t, (B, 8))
    xs = np.arange(W, dtype=F32)[None, None, :]
    ys = np.arange(H, dtype=F32)[None, :, None]
    col = lambda i: t[:, i][:, None, None]
    x_in = (col(0) * xs + col(1) * ys) + col(2)
    y_in = (col(3) * xs + col(4) * ys) + col(5)
    k = (col(6) * xs + col(7) * ys) + F32(1)
    x_in = (x_in / k).astype(F32).reshape(B, H * W)
    y_in = (y_in / k).astype(F32).reshape(B, H * W)
    order = 0 if interpolation == "nearest" else 1
    ny = neighbours(y_in, H, order, fill_mode)
    nx = neighbours(x_in, W, order, fill_mode)
    flat = x.reshape(B, H * W, C)
    b_idx = np.arange(B)[:, None]
    total = None
    terms = []
    for iy, vy, wy in ny:
        for ix, vx, wx in nx:
            idx = iy * W + ix
            value = flat[b_idx, idx]  # (B, N, C)
            valid = _and(vy, vx)
            if valid is not None:
                value = np.where(valid[..., None], value, F32(fill_value))
            weight = _mul(wy, wx)
            contrib = value if weight is None else (weight[..., None] * value).astype(F32)
            total = contrib if total is None else (total + contrib).astype(F32)
            terms.append((idx, valid, weight))
    out = total.reshape(B, H, W, C)
    if not last:
        out = np.transpose(out, (0, 3, 1, 2))
    if not batched:
        out = out[0]
    if np.issubdtype(dtype, np.integer):
        out = np.where(out >= 0, np.floor(out + 0.5), np.ceil(out - 0.5)).astype(dtype)
    else:
        out = out.astype(dtype)

    def grad(up):
        g_up = up.astype(np.float64)
        if not batched:
            g_up = g_up[None]
        if not last:
            g_up = np.transpose(g_up, (0, 2, 3, 1))
        g_up = g_up.reshape(B, H * W, C)
        g = np.zeros((B, H * W, C))
        for idx, valid, weight in terms:
            w = np.ones(idx.shape) if weight is None else weight.astype(np.float64)
            if valid is not None:
                w = w * valid
            for b in range(B):
                np.add.at(g[b], idx[b], w[b][:, None] * g_up[b])
        g = g.reshape(B, H, W, C)
        if not last:
            g = np.transpose(g, (0, 3, 1, 2))
        return g if batched else g[0]

    return out, grad


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0.0):
    """Returns (output, grad_fn) for jax.scipy.ndimage.map_coordinates."""
    x = inputs.astype(F32).ravel()
    coords = coordinates.astype(F32)
    out_shape = coords.shape[1:]
    per_axis = [neighbours(coords[d].ravel(), inputs.shape[d], order, fill_mode)
                for d in range(inputs.ndim)]
    strides = [int(np.prod(inputs.shape[d + 1:])) for d in range(inputs.ndim)]
    import itertools
    total = None
    terms = []
    for combo in itertools.product(*per_axis):
        idx = sum(n[0] * s for n, s in zip(combo, strides))
        valid = None
        weight = None
        for n in combo:
            valid = _and(valid, n[1])
            weight = _mul(weight, n[2])
        value = x[idx]
        if valid is not None:
            value = np.where(valid, value, F32(fill_value))
        contrib = value if weight is None else (weight * value).astype(F32)
        total = contrib if total is None else (total + contrib).astype(F32)
        terms.append((idx, valid, weight))
    out = total.reshape(out_shape).astype(inputs.dtype)

    def grad(up):
        g = np.zeros(x.shape)
        u = up.astype(np.float64).ravel()
        for idx, valid, weight in terms:
            w = np.ones(idx.shape) if weight is None else weight.astype(np.float64)
            if valid is not None:
                w = w * valid
            np.add.at(g, idx, w * u)
        return g.reshape(inputs.shape)

    return out, grad


# ---- Keras's layer matrices ----------------------------------------------------------------

def affine_matrix(center_x, center_y, angle, translate_x, translate_y, scale, shear_x, shear_y,
                  height, width):
    """Keras's BaseImagePreprocessingLayer._compute_affine_matrix in float32."""
    rad = F32(np.pi / 180.0)
    angle = (angle.astype(F32) * rad).astype(F32)
    shear_x = np.tan((shear_x.astype(F32) * rad).astype(F32))
    shear_y = np.tan((shear_y.astype(F32) * rad).astype(F32))
    cx = F32(center_x) * (F32(width) - F32(1))
    cy = F32(center_y) * (F32(height) - F32(1))
    cos, sin = np.cos(angle), np.sin(angle)
    a0 = scale * (cos + shear_x * sin)
    a1 = scale * (-sin + shear_x * cos)
    a2 = translate_x + cx - cx * a0 - cy * a1
    b0 = scale * (shear_y * cos + sin)
    b1 = scale * (shear_y * -sin + cos)
    b2 = translate_y + cy - cx * b0 - cy * b1
    zeros = np.zeros_like(a0)
    return np.stack([a0, a1, a2, b0, b1, b2, zeros, zeros], axis=1).astype(F32)
