"""keras.ops.image against NumPy references of Keras's JAX backend (image_reference.py):
resize, affine_transform, map_coordinates, crop_images, pad_images. Each case stores the
inputs and an upstream gradient, and expects the output and the gradient of
sum(output * upstream) with respect to the images (tests/layers_preprocessing/image_ops_test.cpp).

The references are themselves checked against PyTorch where PyTorch computes the same thing:
bilinear resizing equals F.interpolate(align_corners=False, antialias=False), "nearest" equals
mode="nearest-exact", and bilinear affine warps with fill modes "constant" (fill 0), "nearest"
and "mirror" equal F.grid_sample(align_corners=True) with padding "zeros", "border" and
"reflection".
"""

import numpy as np
import torch
import torch.nn.functional as F

import image_reference as ref
from fixture import Fixture

f = Fixture("ops_image", seed=11)
F32 = np.float32


def to_nchw(x, data_format):
    return x if data_format == "channels_first" else np.transpose(x, (0, 3, 1, 2))


# ---- resize --------------------------------------------------------------------------------

def check_against_torch_resize(x, size, interpolation, data_format):
    mode = {"bilinear": "bilinear", "nearest": "nearest-exact"}.get(interpolation)
    if mode is None or x.ndim != 4 or not np.issubdtype(x.dtype, np.floating):
        return
    t = torch.tensor(to_nchw(x, data_format).astype(np.float64))
    kw = {"align_corners": False} if mode == "bilinear" else {}
    y = F.interpolate(t, size=size, mode=mode, **kw).numpy()
    r = to_nchw(ref.resize(x.astype(np.float64), size, interpolation,
                           data_format=data_format), data_format)
    assert np.allclose(y, r, atol=1e-10), (interpolation, np.abs(y - r).max())


def resize_case(name, shape, size, interpolation="bilinear", antialias=False, crop=False,
                pad=False, fill_value=0.0, data_format="channels_last", dtype=np.float32):
    if np.issubdtype(dtype, np.integer):
        x = f.randint(0, 256, *shape, dtype=dtype)
    else:
        x = f.randn(*shape, dtype=dtype)
    y = ref.resize(x, size, interpolation, antialias, crop, pad, fill_value, data_format)
    if not (crop or pad or antialias):
        check_against_torch_resize(x, size, interpolation, data_format)
    inputs = [x]
    outputs = [y]
    if np.issubdtype(dtype, np.floating):
        up = f.randn(*y.shape, dtype=dtype)
        inputs.append(up)
        outputs.append(ref.resize_grad(x.shape, up, size, interpolation, antialias, data_format,
                                       crop, pad).astype(dtype))
    f.case(name, "resize", inputs, outputs, size=list(size), interpolation=interpolation,
           antialias=antialias, crop_to_aspect_ratio=crop, pad_to_aspect_ratio=pad,
           fill_value=fill_value, data_format=data_format, rtol=2e-5, atol=2e-5)


for method in ("bilinear", "bicubic", "lanczos3", "lanczos5", "nearest"):
    resize_case(f"resize_{method}_up", (2, 4, 5, 3), (7, 9), method)
    resize_case(f"resize_{method}_down", (2, 9, 11, 2), (4, 3), method)
    resize_case(f"resize_{method}_mixed_cf", (2, 3, 6, 4), (4, 7), method,
                data_format="channels_first")
resize_case("resize_bilinear_antialias", (1, 12, 10, 2), (5, 4), "bilinear", antialias=True)
resize_case("resize_bicubic_antialias_cf", (1, 2, 12, 10), (5, 3), "bicubic", antialias=True,
            data_format="channels_first")
resize_case("resize_lanczos3_antialias", (1, 11, 9, 1), (4, 6), "lanczos3", antialias=True)
resize_case("resize_unbatched", (5, 6, 3), (8, 4), "bilinear")
resize_case("resize_unbatched_cf", (3, 5, 6), (8, 4), "bicubic", data_format="channels_first")
resize_case("resize_same_height", (2, 5, 6, 2), (5, 9), "bilinear")
resize_case("resize_identity", (1, 5, 6, 2), (5, 6), "bicubic")
resize_case("resize_crop_wide", (2, 6, 12, 2), (4, 4), "bilinear", crop=True)
resize_case("resize_crop_tall_cf", (2, 2, 12, 5), (3, 6), "bicubic", crop=True,
            data_format="channels_first")
resize_case("resize_pad_wide", (2, 4, 9, 2), (6, 6), "bilinear", pad=True, fill_value=0.5)
resize_case("resize_pad_tall", (1, 9, 4, 3), (5, 5), "nearest", pad=True)
resize_case("resize_pad_cf", (1, 3, 4, 9), (6, 6), "bilinear", pad=True,
            data_format="channels_first")
resize_case("resize_uint8_bilinear", (2, 5, 7, 3), (8, 5), "bilinear", dtype=np.uint8)
resize_case("resize_uint8_bicubic", (1, 6, 6, 1), (9, 4), "bicubic", dtype=np.uint8)
resize_case("resize_uint8_nearest", (1, 6, 6, 1), (4, 9), "nearest", dtype=np.uint8)
resize_case("resize_float64", (2, 4, 5, 1), (6, 3), "bicubic", dtype=np.float64)


# ---- affine_transform ----------------------------------------------------------------------

def check_against_grid_sample(x, transform, fill_mode, data_format):
    padding = {"constant": "zeros", "nearest": "border", "mirror": "reflection"}.get(fill_mode)
    if padding is None:
        return
    r, _ = ref.affine_transform(x.astype(np.float64), transform.astype(np.float64), "bilinear",
                                fill_mode, 0.0, data_format)
    xb = x if x.ndim == 4 else x[None]
    tb = transform if transform.ndim == 2 else transform[None]
    B = xb.shape[0]
    tb = np.broadcast_to(tb, (B, 8)).astype(np.float64)
    nchw = to_nchw(xb, data_format).astype(np.float64)
    H, W = nchw.shape[2], nchw.shape[3]
    xs, ys = np.meshgrid(np.arange(W), np.arange(H), indexing="xy")
    gx = tb[:, 0, None, None] * xs + tb[:, 1, None, None] * ys + tb[:, 2, None, None]
    gy = tb[:, 3, None, None] * xs + tb[:, 4, None, None] * ys + tb[:, 5, None, None]
    grid = np.stack([2 * gx / (W - 1) - 1, 2 * gy / (H - 1) - 1], axis=-1)
    y = F.grid_sample(torch.tensor(nchw), torch.tensor(grid), mode="bilinear",
                      padding_mode=padding, align_corners=True).numpy()
    r = to_nchw(r if r.ndim == 4 else r[None], data_format)
    assert np.allclose(y, r, atol=1e-5), (fill_mode, np.abs(y - r).max())


def rotation(angle_deg, h, w):
    a = np.array([angle_deg], F32)
    z, o = np.zeros(1, F32), np.ones(1, F32)
    return ref.affine_matrix(0.5, 0.5, a, z, z, o, z, z, h, w)[0]


def affine_case(name, shape, transforms, interpolation="bilinear", fill_mode="constant",
                fill_value=0.0, data_format="channels_last", dtype=np.float32):
    if np.issubdtype(dtype, np.integer):
        x = f.randint(0, 200, *shape, dtype=dtype)
    else:
        x = f.randn(*shape, dtype=dtype)
    t = np.asarray(transforms, F32)
    y, grad = ref.affine_transform(x, t, interpolation, fill_mode, fill_value, data_format)
    projective = np.any(t.reshape(-1, 8)[:, 6:] != 0)
    if (interpolation == "bilinear" and fill_value == 0.0 and not projective
            and np.issubdtype(dtype, np.floating)):
        check_against_grid_sample(x, t, fill_mode, data_format)
    inputs, outputs = [x, t], [y]
    if np.issubdtype(dtype, np.floating):
        up = f.randn(*y.shape, dtype=dtype)
        inputs.append(up)
        outputs.append(grad(up).astype(dtype))
    f.case(name, "affine_transform", inputs, outputs, interpolation=interpolation,
           fill_mode=fill_mode, fill_value=fill_value, data_format=data_format, rtol=2e-5,
           atol=2e-5)


H, W = 6, 7
rot = rotation(33.0, H, W)
rot2 = rotation(-71.0, H, W)
zoom = [1.3, 0.0, -0.9, 0.0, 0.7, 0.75, 0.0, 0.0]
shift = [1.0, 0.0, -2.3, 0.0, 1.0, 1.6, 0.0, 0.0]
shear = [1.0, 0.4, -1.2, 0.3, 1.0, -0.8, 0.0, 0.0]
for mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
    affine_case(f"affine_rotate_{mode}", (2, H, W, 2), [rot, rot2], fill_mode=mode)
    affine_case(f"affine_zoom_{mode}_cf", (2, 3, H, W), [zoom, shift], fill_mode=mode,
                data_format="channels_first")
    affine_case(f"affine_shear_{mode}_nearest", (2, H, W, 1), [shear, rot], "nearest", mode)
affine_case("affine_constant_fill", (2, H, W, 3), [rot, zoom], fill_value=0.75)
affine_case("affine_constant_fill_nearest_cf", (1, 2, H, W), [shift], "nearest", "constant",
            fill_value=-1.5, data_format="channels_first")
affine_case("affine_unbatched", (H, W, 2), rot, fill_mode="reflect")
affine_case("affine_unbatched_cf", (3, H, W), zoom, fill_mode="wrap",
            data_format="channels_first")
affine_case("affine_one_transform_for_batch", (3, H, W, 1), [shear], fill_mode="nearest")
affine_case("affine_far_outside", (1, 4, 5, 1), [[1, 0, 40.5, 0, 1, -33.25, 0, 0]],
            fill_mode="reflect")
affine_case("affine_projective", (1, 5, 5, 2), [[1.0, 0.1, 0.2, 0.05, 0.9, 0.3, 0.02, 0.03]])
affine_case("affine_uint8", (2, H, W, 3), [rot, zoom], fill_mode="reflect", dtype=np.uint8)
affine_case("affine_uint8_nearest", (1, H, W, 1), [rot2], "nearest", "constant",
            dtype=np.uint8)
affine_case("affine_float64", (1, H, W, 2), [shear], fill_mode="mirror", dtype=np.float64)


# ---- map_coordinates -----------------------------------------------------------------------

def map_case(name, shape, coord_shape, order, fill_mode="constant", fill_value=0.0):
    x = f.randn(*shape)
    lo = [-2.5] * len(shape)
    hi = [s + 1.5 for s in shape]
    coords = np.stack([f.uniform(l, h, *coord_shape) for l, h in zip(lo, hi)])
    y, grad = ref.map_coordinates(x, coords, order, fill_mode, fill_value)
    up = f.randn(*y.shape)
    f.case(name, "map_coordinates", [x, coords, up], [y, grad(up).astype(F32)], order=order,
           fill_mode=fill_mode, fill_value=fill_value, rtol=2e-5, atol=2e-5)


for mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
    map_case(f"map_2d_order1_{mode}", (5, 6), (4, 3), 1, mode)
    map_case(f"map_2d_order0_{mode}", (5, 6), (7,), 0, mode)
map_case("map_3d_order1_fill", (3, 4, 5), (2, 5), 1, "constant", 0.5)
map_case("map_1d_order1_reflect", (6,), (9,), 1, "reflect")


# ---- crop_images / pad_images --------------------------------------------------------------

def crop_case(name, shape, data_format="channels_last", **kw):
    x = f.randn(*shape)
    h_axis, w_axis = ref.spatial_axes(len(shape), data_format)
    H_, W_ = shape[h_axis], shape[w_axis]
    top = kw.get("top_cropping")
    if top is None:
        top = H_ - kw["target_height"] - kw["bottom_cropping"]
    th = kw.get("target_height")
    if th is None:
        th = H_ - top - kw["bottom_cropping"]
    left = kw.get("left_cropping")
    if left is None:
        left = W_ - kw["target_width"] - kw["right_cropping"]
    tw = kw.get("target_width")
    if tw is None:
        tw = W_ - left - kw["right_cropping"]
    index = [slice(None)] * len(shape)
    index[h_axis] = slice(top, top + th)
    index[w_axis] = slice(left, left + tw)
    y = x[tuple(index)]
    up = f.randn(*y.shape)
    g = np.zeros_like(x)
    g[tuple(index)] = up
    f.case(name, "crop_images", [x, up], [y, g], data_format=data_format, **kw)


def pad_case(name, shape, data_format="channels_last", **kw):
    x = f.randn(*shape)
    h_axis, w_axis = ref.spatial_axes(len(shape), data_format)
    H_, W_ = shape[h_axis], shape[w_axis]
    top = kw.get("top_padding")
    bottom = kw.get("bottom_padding")
    if top is None:
        top = kw["target_height"] - bottom - H_
    if bottom is None:
        bottom = kw["target_height"] - top - H_
    left = kw.get("left_padding")
    right = kw.get("right_padding")
    if left is None:
        left = kw["target_width"] - right - W_
    if right is None:
        right = kw["target_width"] - left - W_
    widths = [(0, 0)] * len(shape)
    widths[h_axis] = (top, bottom)
    widths[w_axis] = (left, right)
    y = np.pad(x, widths)
    up = f.randn(*y.shape)
    index = [slice(None)] * len(shape)
    index[h_axis] = slice(top, top + H_)
    index[w_axis] = slice(left, left + W_)
    f.case(name, "pad_images", [x, up], [y, up[tuple(index)]], data_format=data_format, **kw)


crop_case("crop_top_left_target", (2, 6, 7, 2), top_cropping=1, left_cropping=2,
          target_height=3, target_width=4)
crop_case("crop_bottom_right", (6, 7, 2), top_cropping=2, bottom_cropping=1, left_cropping=0,
          right_cropping=3)
crop_case("crop_target_bottom_cf", (2, 3, 6, 7), "channels_first", bottom_cropping=2,
          target_height=3, right_cropping=1, target_width=5)
pad_case("pad_top_left_target", (2, 4, 5, 2), top_padding=1, left_padding=2, target_height=7,
         target_width=8)
pad_case("pad_all_sides_cf", (3, 4, 5), "channels_first", top_padding=2, bottom_padding=0,
         left_padding=1, right_padding=3)
pad_case("pad_bottom_target", (1, 4, 5, 1), bottom_padding=2, target_height=7, right_padding=1,
         target_width=6)

f.save()
