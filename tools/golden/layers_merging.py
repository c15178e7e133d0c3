"""The merging layers (Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot) and
the reshaping layers (Flatten, Reshape, Permute, RepeatVector, Cropping1D/2D/3D,
ZeroPadding1D/2D/3D, UpSampling1D/2D/3D) against PyTorch: outputs and the gradients of
sum(output * upstream) with respect to every floating input (tests/layers_merging).

Each case names the Keras class as its op and carries the layer's Keras config (as Keras 3
writes it, without the base keys) in kwargs["config"]; the C++ test builds the layer with
layers::from_config. Layout: tests/support/layer_harness.h. Everything is computed in float64
and stored in the inputs' dtype.

Mask cases (op "masked"): Keras's mask rules for the merge layers written out in NumPy
(base_merge.py's OR of the masks, Multiply's and Maximum/Minimum's masked merges,
Concatenate.compute_mask), with the output and the output mask as expectations.

Writes tests/golden/layers_merging.npz (merging) and tests/golden/layers_reshaping.npz.
"""

import string

import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

torch.set_default_dtype(torch.float64)


def t64(a, grad=True):
    return torch.tensor(np.asarray(a).astype(np.float64), requires_grad=grad)


def layer_case(f, name, cls, config, inputs, fn, dtype=np.float32, list_call=None, **extra):
    """inputs: NumPy arrays; fn: torch function of the float64 inputs returning one output."""
    force_list = extra.pop("force_list", False)
    if list_call is None:
        list_call = len(inputs) > 1 or force_list
    floating = [np.issubdtype(x.dtype, np.floating) for x in inputs]
    ts = [t64(x, grad=fl) if fl else torch.tensor(x) for x, fl in zip(inputs, floating)]
    y = fn(*ts)
    outs = [y.detach().numpy().astype(inputs[0].dtype if not floating[0] else dtype)]
    ins = list(inputs)
    if y.dtype.is_floating_point and any(floating):
        up = f.randn(*y.shape, dtype=dtype)
        (y * torch.tensor(up.astype(np.float64))).sum().backward()
        ins.append(up)
        for t, fl in zip(ts, floating):
            if fl:
                g = t.grad if t.grad is not None else torch.zeros_like(t)
                outs.append(g.numpy().astype(dtype))
    else:
        ins.append(np.zeros(y.shape, dtype=outs[0].dtype))
    kwargs = dict(config=config, n_inputs=len(inputs), n_weights=0, list_call=list_call)
    if dtype == np.float32:
        kwargs.update(rtol=1e-5, atol=1e-6)
    kwargs.update(extra)
    f.case(name, cls, ins, outs, **kwargs)


# ---- merging -----------------------------------------------------------------------------------
m = Fixture("layers_merging", seed=11)


def keras_expand(ts):
    """Merge's call: lower-rank inputs get axes of extent 1 after the batch axis."""
    r = max(t.dim() for t in ts)
    out = []
    for t in ts:
        while t.dim() < r:
            t = t.unsqueeze(1)
        out.append(t)
    return out


def fold(op):
    def fn(*ts):
        ts = keras_expand(ts)
        y = ts[0]
        for t in ts[1:]:
            y = op(y, t)
        return y
    return fn


def average(*ts):
    ts = keras_expand(ts)
    return sum(ts[1:], ts[0]) / len(ts)


ELEMENTWISE = {
    "Add": fold(torch.add),
    "Subtract": fold(torch.sub),
    "Multiply": fold(torch.mul),
    "Average": average,
    "Maximum": fold(torch.maximum),
    "Minimum": fold(torch.minimum),
}
SHAPES = {
    "pair_2d": [(3, 4), (3, 4)],
    "three_3d": [(2, 3, 4), (2, 3, 4), (2, 3, 4)],
    "broadcast_axis": [(2, 1, 4), (2, 3, 4)],
    "rank_expand": [(2, 4), (2, 3, 4)],
    "rank_expand_4d": [(2, 3, 1, 5), (2, 5)],
}
for cls, fn in ELEMENTWISE.items():
    for tag, shapes in SHAPES.items():
        if cls == "Subtract" and len(shapes) != 2:
            continue
        layer_case(m, f"{cls.lower()}_{tag}", cls, {}, [m.randn(*s) for s in shapes], fn)
    layer_case(m, f"{cls.lower()}_float64", cls, {}, [m.randn(2, 5, dtype=np.float64)] * 1
               + [m.randn(2, 5, dtype=np.float64)], fn, dtype=np.float64)
layer_case(m, "add_single_input", "Add", {}, [m.randn(3, 2)], ELEMENTWISE["Add"], force_list=True)
layer_case(m, "add_int32", "Add", {}, [m.randint(-5, 5, 2, 3), m.randint(-5, 5, 2, 3)],
           lambda a, b: a + b)
layer_case(m, "maximum_int32", "Maximum", {}, [m.randint(-5, 5, 2, 3), m.randint(-5, 5, 2, 3)],
           torch.maximum)

for tag, axis, shapes in [
    ("last_2d", -1, [(2, 3), (2, 4)]),
    ("axis1_3d", 1, [(2, 3, 4), (2, 1, 4), (2, 2, 4)]),
    ("minus2_3d", -2, [(2, 2, 3), (2, 4, 3)]),
    ("last_4d", -1, [(2, 3, 2, 1), (2, 3, 2, 4)]),
    ("batch_axis", 0, [(2, 3), (1, 3)]),
]:
    layer_case(m, f"concatenate_{tag}", "Concatenate", {"axis": axis},
               [m.randn(*s) for s in shapes], lambda *ts, axis=axis: torch.cat(ts, dim=axis))
layer_case(m, "concatenate_int32", "Concatenate", {"axis": -1},
           [m.randint(0, 9, 2, 3), m.randint(0, 9, 2, 2)], lambda a, b: torch.cat([a, b], -1))


def torch_dot(x, y, a0, a1, normalize):
    """Keras's batch_dot written with einsum: x's axis a0 against y's axis a1, batch by batch."""
    if normalize:
        x = F.normalize(x, p=2, dim=a0, eps=1e-7)
        y = F.normalize(y, p=2, dim=a1, eps=1e-7)
    letters = iter(string.ascii_lowercase[2:])
    xs = ["a"] + [next(letters) for _ in range(x.dim() - 1)]
    ys = ["a"] + [next(letters) for _ in range(y.dim() - 1)]
    xs[a0] = "z"
    ys[a1] = "z"
    out = [c for c in xs if c != "z"] + [c for c in ys[1:] if c != "z"]
    r = torch.einsum(f"{''.join(xs)},{''.join(ys)}->{''.join(out)}", x, y)
    return r.unsqueeze(-1) if r.dim() == 1 else r


for tag, axes, shapes, normalize in [
    ("last_2d", -1, [(3, 4), (3, 4)], False),
    ("axis1_2d", 1, [(3, 4), (3, 4)], False),
    ("axes_1_2", [1, 2], [(2, 3, 5), (2, 10, 3)], False),
    ("axis2_3d", 2, [(2, 4, 3), (2, 5, 3)], False),
    ("x2d_y3d", [1, 2], [(2, 3), (2, 4, 3)], False),
    ("x3d_y2d", [2, 1], [(2, 4, 3), (2, 3)], False),
    ("x4d_y3d", [3, 1], [(2, 3, 4, 5), (2, 5, 6)], False),
    ("negative_pair", [-1, -2], [(2, 4, 3), (2, 3, 5)], False),
    ("normalize_2d", -1, [(3, 4), (3, 4)], True),
    ("normalize_3d", [1, 2], [(2, 3, 5), (2, 10, 3)], True),
]:
    xs = [m.randn(*s) for s in shapes]

    def fn(x, y, axes=axes, normalize=normalize):
        a = [axes, axes] if isinstance(axes, int) else list(axes)
        a0 = a[0] % x.dim()
        a1 = a[1] % y.dim()
        return torch_dot(x, y, a0, a1, normalize)

    layer_case(m, f"dot_{tag}", "Dot", {"axes": axes, "normalize": normalize}, xs, fn)


# Masks: (batch, steps, features) inputs with (batch, steps) masks.
def expand_mask(mask, x):
    return np.broadcast_to(mask[..., None], x.shape)


def np_masked(cls, xs, masks, axis=-1):
    """The output and output mask of a merge layer under Keras's mask rules."""
    if cls in ("Maximum", "Minimum"):
        op = np.maximum if cls == "Maximum" else np.minimum
        out = out_mask = None
        for x, mk in zip(xs, masks):
            mk = None if mk is None else expand_mask(mk, x)
            if out is None:
                out, out_mask = x, mk
                continue
            if mk is not None:
                x = np.where(mk, x, out)
            if out_mask is not None:
                out = np.where(out_mask, out, x)
            out_mask = out_mask | mk if (mk is not None and out_mask is not None) else None
            out = op(out, x)
    elif cls == "Multiply":
        has = all(mk is not None for mk in masks)
        out = out_mask = None
        for x, mk in zip(xs, masks):
            if mk is not None:
                mk = expand_mask(mk, x)
                x = np.where(mk, x, 1)
                if has:
                    out_mask = mk if out_mask is None else out_mask | mk
            out = x if out is None else out * x
        if has:
            out = np.where(out_mask, out, 0)
    elif cls == "Concatenate":
        out = np.concatenate(xs, axis=axis)
    else:
        out = {"Add": lambda: sum(xs[1:], xs[0]), "Subtract": lambda: xs[0] - xs[1],
               "Average": lambda: sum(xs[1:], xs[0]) / len(xs)}[cls]()
    # The output mask (compute_mask; Maximum/Minimum/Multiply set the same OR themselves).
    if cls == "Concatenate":
        if all(mk is None for mk in masks):
            return out, None
        full = [np.ones(x.shape, bool) if mk is None else expand_mask(mk, x) for x, mk in
                zip(xs, masks)]
        return out, np.concatenate(full, axis=axis).any(-1)
    if any(mk is None for mk in masks):
        return out, None
    r = masks[0]
    for mk in masks[1:]:
        r = r | mk
    return out, r


for tag, cls, config, n, present in [
    ("add_both", "Add", {}, 2, [True, True]),
    ("add_one", "Add", {}, 2, [True, False]),
    ("subtract_both", "Subtract", {}, 2, [True, True]),
    ("average_three", "Average", {}, 3, [True, True, True]),
    ("multiply_both", "Multiply", {}, 2, [True, True]),
    ("multiply_one", "Multiply", {}, 2, [False, True]),
    ("maximum_both", "Maximum", {}, 2, [True, True]),
    ("maximum_three", "Maximum", {}, 3, [True, True, True]),
    ("maximum_first_only", "Maximum", {}, 2, [True, False]),
    ("minimum_second_only", "Minimum", {}, 2, [False, True]),
    ("minimum_both", "Minimum", {}, 2, [True, True]),
    ("concatenate_steps", "Concatenate", {"axis": 1}, 2, [True, False]),
    ("concatenate_features", "Concatenate", {"axis": -1}, 2, [True, True]),
    ("concatenate_none", "Concatenate", {"axis": -1}, 2, [False, False]),
]:
    xs = [m.randn(2, 4, 3) for _ in range(n)]
    masks = [(m.uniform(0, 1, 2, 4) > 0.4) if p else None for p in present]
    out, out_mask = np_masked(cls, xs, masks, config.get("axis", -1))
    ins = xs + [mk if mk is not None else np.zeros((2, 4), bool) for mk in masks]
    outs = [out.astype(np.float32)] + ([out_mask] if out_mask is not None else [])
    m.case(f"masked_{tag}", "masked", ins, outs, cls=cls, config=config, n_inputs=n,
           has_mask=present, rtol=1e-6, atol=1e-6)
m.save()

# ---- reshaping ---------------------------------------------------------------------------------
r = Fixture("layers_reshaping", seed=12)


def cf_to_cl(t):
    return t.permute(0, *range(2, t.dim()), 1)


def flatten(data_format):
    def fn(x):
        if data_format == "channels_first" and x.dim() > 2:
            x = cf_to_cl(x)
        return x.reshape(x.shape[0], -1)
    return fn


for tag, shape, df in [("cl_4d", (2, 3, 4, 5), "channels_last"), ("cf_4d", (2, 3, 4, 5), "channels_first"),
                       ("cf_3d", (2, 3, 4), "channels_first"), ("2d", (3, 5), "channels_last"),
                       ("1d", (4,), "channels_last")]:
    layer_case(r, f"flatten_{tag}", "Flatten", {"data_format": df}, [r.randn(*shape)], flatten(df))

for tag, shape, target in [("3x4", (2, 12), [3, 4]), ("infer_first", (2, 3, 4), [-1, 2, 2]),
                           ("infer_last", (2, 3, 4), [6, -1]), ("to_flat", (2, 3, 4), [12])]:
    layer_case(r, f"reshape_{tag}", "Reshape", {"target_shape": target}, [r.randn(*shape)],
               lambda x, target=target: x.reshape(x.shape[0], *target))

for tag, shape, dims in [("swap", (2, 3, 4), [2, 1]), ("rotate", (2, 3, 4, 5), [3, 1, 2]),
                         ("identity", (2, 3, 4), [1, 2])]:
    layer_case(r, f"permute_{tag}", "Permute", {"dims": dims}, [r.randn(*shape)],
               lambda x, dims=dims: x.permute(0, *dims))

layer_case(r, "repeat_vector_3", "RepeatVector", {"n": 3}, [r.randn(2, 4)],
           lambda x: x.unsqueeze(1).expand(-1, 3, -1))
layer_case(r, "repeat_vector_1", "RepeatVector", {"n": 1}, [r.randn(3, 2)],
           lambda x: x.unsqueeze(1))


def crop(x, pairs, first):
    idx = [slice(None)] * x.dim()
    for i, (a, b) in enumerate(pairs):
        idx[first + i] = slice(a, x.shape[first + i] - b)
    return x[tuple(idx)]


def zero_pad(x, pairs, first):
    # F.pad takes (last axis before, after, second-to-last before, after, ...).
    widths = [(0, 0)] * x.dim()
    for i, p in enumerate(pairs):
        widths[first + i] = p
    flat = []
    for a, b in reversed(widths):
        flat += [a, b]
    return F.pad(x, flat)


def first_axis(df):
    return 2 if df == "channels_first" else 1


for n, base_shape in [(1, (2, 7, 3)), (2, (2, 6, 7, 3)), (3, (2, 5, 6, 4, 2))]:
    crop_cls, pad_cls = f"Cropping{n}D", f"ZeroPadding{n}D"
    if n == 1:
        crop_forms = [("default", [1, 1], [(1, 1)]), ("pair", [2, 0], [(2, 0)]),
                      ("asym", [0, 3], [(0, 3)])]
        pad_forms = [("default", [1, 1], [(1, 1)]), ("pair", [2, 0], [(2, 0)])]
    elif n == 2:
        crop_forms = [("pairs", [[1, 2], [0, 1]], [(1, 2), (0, 1)]),
                      ("symmetric", [[1, 1], [2, 2]], [(1, 1), (2, 2)]),
                      ("zero", [[0, 0], [0, 0]], [(0, 0), (0, 0)])]
        pad_forms = [("default", [[1, 1], [1, 1]], [(1, 1), (1, 1)]),
                     ("pairs", [[1, 2], [0, 1]], [(1, 2), (0, 1)])]
    else:
        crop_forms = [("default", [[1, 1], [1, 1], [1, 1]], [(1, 1)] * 3),
                      ("pairs", [[1, 0], [0, 2], [1, 1]], [(1, 0), (0, 2), (1, 1)])]
        pad_forms = [("default", [[1, 1], [1, 1], [1, 1]], [(1, 1)] * 3),
                     ("pairs", [[0, 1], [2, 0], [1, 1]], [(0, 1), (2, 0), (1, 1)])]
    formats = ["channels_last", "channels_first"]
    for df in formats:
        # channels_first: the same spatial sizes with the channels moved to axis 1.
        shape = base_shape if df == "channels_last" else (base_shape[0], base_shape[-1], *base_shape[1:-1])
        short = "cl" if df == "channels_last" else "cf"
        for tag, cfg, pairs in crop_forms:
            if n == 1 and df == "channels_first":
                continue  # Cropping1D has no data_format
            config = {"cropping": cfg} if n == 1 else {"cropping": cfg, "data_format": df}
            layer_case(r, f"cropping{n}d_{tag}_{short}", crop_cls, config, [r.randn(*shape)],
                       lambda x, pairs=pairs, df=df: crop(x, pairs, first_axis(df)))
        for tag, cfg, pairs in pad_forms:
            layer_case(r, f"zero_padding{n}d_{tag}_{short}", pad_cls,
                       {"padding": cfg, "data_format": df}, [r.randn(*shape)],
                       lambda x, pairs=pairs, df=df: zero_pad(x, pairs, first_axis(df)))


def nearest(x, sizes, first):
    for i, s in enumerate(sizes):
        x = torch.repeat_interleave(x, s, dim=first + i)
    return x


for tag, size in [("2", 2), ("3", 3)]:
    layer_case(r, f"up_sampling1d_{tag}", "UpSampling1D", {"size": size}, [r.randn(2, 4, 3)],
               lambda x, size=size: nearest(x, [size], 1))


def bilinear(x, sizes, df):
    """torch's half-pixel bilinear resize (align_corners=False, no antialias) on NCHW."""
    if df == "channels_last":
        x = x.permute(0, 3, 1, 2)
    h, w = x.shape[2], x.shape[3]
    y = F.interpolate(x, size=(h * sizes[0], w * sizes[1]), mode="bilinear", align_corners=False)
    if df == "channels_last":
        y = y.permute(0, 2, 3, 1)
    return y


for tag, size, df, interp, shape in [
    ("nearest_cl", [2, 2], "channels_last", "nearest", (2, 3, 4, 2)),
    ("nearest_cf_2x3", [2, 3], "channels_first", "nearest", (2, 2, 3, 4)),
    ("nearest_cl_3x1", [3, 1], "channels_last", "nearest", (1, 2, 3, 2)),
    ("bilinear_cl", [2, 2], "channels_last", "bilinear", (2, 3, 4, 2)),
    ("bilinear_cf_3x2", [3, 2], "channels_first", "bilinear", (2, 2, 3, 4)),
    ("bilinear_cl_2x3", [2, 3], "channels_last", "bilinear", (1, 4, 3, 3)),
    ("bilinear_cl_4x4", [4, 4], "channels_last", "bilinear", (1, 3, 2, 1)),
    ("bilinear_cf_1x5", [1, 5], "channels_first", "bilinear", (1, 2, 3, 2)),
    ("bilinear_cl_1px", [2, 3], "channels_last", "bilinear", (2, 1, 1, 2)),
]:
    if interp == "nearest":
        fn = lambda x, size=size, df=df: nearest(x, size, first_axis(df))
    else:
        fn = lambda x, size=size, df=df: bilinear(x, size, df)
    layer_case(r, f"up_sampling2d_{tag}", "UpSampling2D",
               {"size": size, "data_format": df, "interpolation": interp}, [r.randn(*shape)], fn)
layer_case(r, "up_sampling2d_bilinear_float64", "UpSampling2D",
           {"size": [2, 2], "data_format": "channels_last", "interpolation": "bilinear"},
           [r.randn(1, 3, 3, 2, dtype=np.float64)], lambda x: bilinear(x, [2, 2], "channels_last"),
           dtype=np.float64)

for tag, size, df, shape in [("cl", [2, 2, 2], "channels_last", (1, 2, 3, 2, 2)),
                             ("cf_1x2x3", [1, 2, 3], "channels_first", (2, 2, 2, 3, 2))]:
    layer_case(r, f"up_sampling3d_{tag}", "UpSampling3D", {"size": size, "data_format": df},
               [r.randn(*shape)], lambda x, size=size, df=df: nearest(x, size, first_axis(df)))
r.save()
