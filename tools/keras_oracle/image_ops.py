"""keras.ops.image functions against real Keras 3.15 (JAX backend, x64): values and vector-Jacobian
products of rgb_to_grayscale, rgb_to_hsv, hsv_to_rgb, extract_patches, extract_patches_3d,
gaussian_blur, sobel_edges, ssim, perspective_transform, scale_and_translate and
elastic_transform, for tests/layers_preprocessing/image_ops_keras_test.cpp.

Writes tests/oracle/fixtures/image_ops.npz, one case per (op, shape, data_format, options):
  inputs   the float inputs of the op (images first; then start/end points, scale/translation,
           image2 or the noise), then `up`, an upstream cotangent of the output's shape;
  outputs  the op's output, then d sum(output * up) / d input for each float input before
           `up` (jax.vjp through Keras's own function), unless kwargs "grad" is false;
  kwargs   the op's keyword arguments (data_format always explicit), rtol/atol 1e-5 (1e-4 for
           the point and noise gradients of perspective_transform and elastic_transform, sums
           over every pixel of float32 products).
Sample points avoid the kinks of the interpolation kernels (whole-pixel distances), where the
derivative is undefined and JAX and keras-cpp pick different one-sided values.
Several shapes, both data formats, batched and unbatched. elastic_transform draws its noise with
jax.random.normal, which keras-cpp's random stream does not reproduce: its cases replace that
draw by the `noise` input (jax.random.normal patched for the call), which keras-cpp's
detail::elastic_transform_with_noise takes in its place.
Run: ./scripts/oracle.sh image_ops
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (sets up Keras on JAX with x64 first)

import jax  # noqa: E402
import numpy as np  # noqa: E402
from keras import ops  # noqa: E402

F = oracle.Fixture("image_ops", seed=21)
image = ops.image


def add(name, op, fn, inputs, grad=True, **kwargs):
    """One case: fn(*inputs) -> output; the vjp with respect to every input when grad."""
    inputs = [np.asarray(x) for x in inputs]
    y, vjp = jax.vjp(fn, *inputs)
    y = np.asarray(y)
    up = F.randn(*y.shape).astype(y.dtype) if y.dtype.kind == "f" else np.zeros(y.shape, y.dtype)
    outputs = [y]
    if grad:
        outputs += [np.asarray(g) for g in vjp(up)]
    kwargs.setdefault("rtol", 1e-5)  # float32 sums of products: a few ulps of the largest term
    kwargs.setdefault("atol", 1e-5)
    F.case(name, op, inputs + [up], outputs, grad=grad, **kwargs)


def layout(x_last, data_format, spatial=2):
    """A channels_last array in `data_format` (batched or not; `spatial` spatial axes)."""
    if data_format == "channels_last":
        return x_last
    return np.moveaxis(x_last, -1, -1 - spatial)


FORMATS = ("channels_last", "channels_first")


def colour():
    for df in FORMATS:
        for shape in [(2, 5, 4, 3), (6, 3, 3)]:
            rgb = layout(F.uniform(0, 1, *shape), df)
            add(f"rgb_to_grayscale_{df}_{len(shape)}d", "rgb_to_grayscale",
                lambda x, df=df: image.rgb_to_grayscale(x, data_format=df), [rgb], data_format=df)
            add(f"rgb_to_hsv_{df}_{len(shape)}d", "rgb_to_hsv",
                lambda x, df=df: image.rgb_to_hsv(x, data_format=df), [rgb], data_format=df)
            hsv = F.uniform(0, 1, *shape)
            hsv[..., 0] = F.uniform(-0.5, 1.5, *shape[:-1])  # hues wrap modulo 1
            hsv = layout(hsv, df)
            add(f"hsv_to_rgb_{df}_{len(shape)}d", "hsv_to_rgb",
                lambda x, df=df: image.hsv_to_rgb(x, data_format=df), [hsv], data_format=df)
    # Greys, black and a pure red, green, blue and a red with more blue than green (negative hue).
    special = np.array([[[0.5, 0.5, 0.5], [0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1],
                         [0.9, 0.2, 0.5]]], np.float32)
    add("rgb_to_hsv_special", "rgb_to_hsv",
        lambda x: image.rgb_to_hsv(x, data_format="channels_last"), [special], grad=False,
        data_format="channels_last")
    gray1 = F.uniform(0, 1, 2, 3, 3, 1)
    add("rgb_to_grayscale_one_channel", "rgb_to_grayscale",
        lambda x: image.rgb_to_grayscale(x, data_format="channels_last"), [gray1],
        data_format="channels_last")
    u8 = F.randint(0, 256, 4, 4, 3, dtype=np.uint8)
    add("rgb_to_grayscale_uint8", "rgb_to_grayscale",
        lambda x: image.rgb_to_grayscale(x, data_format="channels_last"), [u8], grad=False,
        data_format="channels_last")
    f64 = F.uniform(0, 1, 3, 4, 3).astype(np.float64)
    add("rgb_to_hsv_float64", "rgb_to_hsv",
        lambda x: image.rgb_to_hsv(x, data_format="channels_last"), [f64],
        data_format="channels_last")


def patches():
    cases = [  # (name, channels_last shape, size, strides, dilation, padding)
        ("2d_default", (2, 8, 6, 3), (2, 3), None, 1, "valid"),
        ("2d_int_size_same", (7, 5, 2), 3, (2, 2), 1, "same"),
        ("2d_overlap", (1, 6, 6, 1), (3, 3), (1, 2), 1, "valid"),
        ("2d_dilated", (2, 7, 7, 2), (2, 2), (1, 1), 2, "valid"),
        ("3d_batched", (2, 4, 6, 4, 2), (2, 3, 2), None, 1, "valid"),
        ("3d_unbatched_same", (5, 4, 4, 1), (2, 2, 2), (2, 1, 2), 1, "same"),
    ]
    for name, shape, size, strides, dilation, padding in cases:
        for df in FORMATS:
            x = layout(F.randn(*shape), df, 3 if name.startswith("3d") else 2)
            kw = dict(size=size if isinstance(size, int) else list(size), strides=None if strides is None else list(strides),
                      dilation_rate=dilation, padding=padding, data_format=df)

            def fn(x, kw=kw):
                s = kw["size"] if isinstance(kw["size"], int) else tuple(kw["size"])
                st = None if kw["strides"] is None else tuple(kw["strides"])
                return image.extract_patches(x, s, st, kw["dilation_rate"], kw["padding"],
                                             data_format=kw["data_format"])
            add(f"extract_patches_{name}_{df}", "extract_patches", fn, [x], **kw)
    v = F.randn(6, 6, 6, 2)
    add("extract_patches_3d_int_size", "extract_patches_3d",
        lambda x: image.extract_patches_3d(x, 3, data_format="channels_last"), [v], size=3,
        strides=None, dilation_rate=1, padding="valid", data_format="channels_last")


def filters():
    for df in FORMATS:
        for shape, ks, sigma in [((2, 9, 7, 3), (3, 3), (1.0, 1.0)), ((8, 8, 2), (5, 3), (2.0, 0.7)),
                                 ((1, 6, 10, 1), (1, 7), (0.5, 3.0))]:
            x = layout(F.uniform(0, 1, *shape), df)
            add(f"gaussian_blur_{df}_{len(shape)}d_{ks[0]}x{ks[1]}", "gaussian_blur",
                lambda x, df=df, ks=ks, sigma=sigma: image.gaussian_blur(x, ks, sigma, df), [x],
                kernel_size=list(ks), sigma=list(sigma), data_format=df)
        for shape in [(2, 5, 6, 3), (1, 4, 4, 1)]:
            x = layout(F.randn(*shape), df)
            add(f"sobel_edges_{df}_{shape[-1]}", "sobel_edges",
                lambda x, df=df: image.sobel_edges(x, data_format=df), [x], data_format=df)
        for shape, kw in [((2, 16, 14, 3), {}), ((12, 12, 1), dict(filter_size=5, filter_sigma=1.0)),
                          ((1, 11, 11, 2), dict(max_val=255.0, k1=0.02, k2=0.05))]:
            a = F.uniform(0, kw.get("max_val", 1.0), *shape)
            b = np.clip(a + F.randn(*shape) * 0.1 * kw.get("max_val", 1.0), 0, None).astype(np.float32)
            a, b = layout(a, df), layout(b, df)
            full = dict(max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03)
            full.update(kw)
            add(f"ssim_{df}_{len(shape)}d_{full['filter_size']}_{int(full['max_val'])}", "ssim",
                lambda p, q, df=df, full=full: image.ssim(p, q, data_format=df, **full), [a, b],
                data_format=df, **full)
    same = F.uniform(0, 1, 2, 11, 11, 3)
    add("ssim_identical", "ssim", lambda p, q: image.ssim(p, q, data_format="channels_last"),
        [same, same], grad=False, data_format="channels_last", max_val=1.0, filter_size=11,
        filter_sigma=1.5, k1=0.01, k2=0.03)


def warps():
    square = np.array([[0, 0], [0, 7], [9, 0], [9, 7]], np.float32)
    moved = np.array([[1, 0.5], [0.3, 6], [8.2, -1], [9.5, 7.4]], np.float32)
    moved2 = np.array([[0.5, 1.2], [1.3, 6.6], [8.1, 0.2], [9.7, 6.3]], np.float32)
    for df in FORMATS:
        for interp in ("bilinear", "nearest"):
            x = layout(F.randn(2, 8, 10, 3), df)
            add(f"perspective_transform_{df}_{interp}", "perspective_transform",
                lambda x, s, e, df=df, interp=interp: image.perspective_transform(
                    x, s, e, interpolation=interp, fill_value=0.5, data_format=df),
                [x, np.stack([square, square]), np.stack([moved, moved2])],
                grad=interp == "bilinear", rtol=1e-4, atol=1e-4, interpolation=interp, fill_value=0.5, data_format=df)
        x = layout(F.randn(8, 10, 2), df)
        add(f"perspective_transform_{df}_unbatched", "perspective_transform",
            lambda x, s, e, df=df: image.perspective_transform(x, s, e, data_format=df),
            [x, square, moved], rtol=1e-4, atol=1e-4, interpolation="bilinear", fill_value=0.0, data_format=df)

    for method, shape, out, scale, trans, dims, aa in [
            ("linear", (2, 6, 5, 3), (2, 9, 4, 3), [1.5, 0.8], [0.3, -0.45], [1, 2], True),
            ("bilinear", (7, 6), (3, 8), [0.5, 1.3], [0.0, 1.0], [0, 1], False),
            ("cubic", (2, 3, 6, 6), (2, 3, 4, 10), [0.7, 1.7], [-0.3, 0.2], [2, 3], True),
            ("lanczos3", (8, 5, 2), (5, 7, 2), [0.6, 1.4], [0.5, 0.0], [0, 1], True),
            ("lanczos5", (9, 4), (6, 4), [0.66], [0.1], [0], False),
            ("tricubic", (4, 5, 6), (6, 3, 6), [1.5, 0.6], [0.0, 0.0], [0, 1], False)]:
        x = F.randn(*shape)
        s, t = np.array(scale, np.float32), np.array(trans, np.float32)
        add(f"scale_and_translate_{method}", "scale_and_translate",
            lambda x, s, t, out=out, dims=dims, method=method, aa=aa: image.scale_and_translate(
                x, out, s, t, dims, method, aa),
            [x, s, t], output_shape=list(out), spatial_dims=dims, method=method, antialias=aa)

    # elastic_transform with jax.random.normal replaced by a given noise (see the docstring).
    real_normal = jax.random.normal
    for df in FORMATS:
        for shape, kw in [((2, 12, 10, 3), dict(alpha=20.0, sigma=1.0)),
                          ((9, 11, 1), dict(alpha=5.0, sigma=0.7, fill_mode="constant",
                                            fill_value=0.25, interpolation="nearest")),
                          ((1, 10, 10, 2), dict(alpha=40.0, sigma=1.3, fill_mode="wrap"))]:
            x = layout(F.uniform(0, 1, *shape), df)
            batch = shape[0] if len(shape) == 4 else 1
            noise = F.randn(batch, shape[-3], shape[-2])
            full = dict(alpha=20.0, sigma=5.0, interpolation="bilinear", fill_mode="reflect",
                        fill_value=0.0)
            full.update(kw)

            def fn(x, noise, df=df, full=full):
                jax.random.normal = lambda key, shape, dtype: noise.astype(dtype)
                try:
                    return image.elastic_transform(x, seed=1, data_format=df, **full)
                finally:
                    jax.random.normal = real_normal
            add(f"elastic_transform_{df}_{len(shape)}d_{full['fill_mode']}", "elastic_transform",
                fn, [x, noise], rtol=1e-4, atol=1e-4, data_format=df, **full)


if __name__ == "__main__":
    colour()
    patches()
    filters()
    warps()
    F.save()
