"""Fixtures for shape manipulation, array creation and indexing (keras.ops.numpy) and the
keras.ops core update ops. Writes tests/golden/numpy_shape.npz.

Keras's dtype results follow JAX (x64 off), which differs from NumPy in places; where it does,
the expected output is cast to the dtype Keras gives and the comment says why. The core ops
(scatter, scatter_update, slice, slice_update, unstack, saturate_cast) are computed with NumPy
following Keras's documented semantics (tf.scatter_nd, lax.dynamic_slice, Keras's
_saturate_cast limits).
"""

import numpy as np

from fixture import Fixture

f = Fixture("numpy_shape", seed=7)
r = f.randn
ri = f.randint

_case = f.case


def case(name, op, inputs, outputs, **kwargs):
    # Error cases store no expected output (the file stays small).
    _case(name, op, inputs, [] if "raises" in kwargs else outputs, **kwargs)


f.case = case


def key(*items):
    """A get_item key as JSON: ints, [start, stop, step] slices, "..." (Ellipsis),
    None (newaxis) and {"tensor": i} for the i-th index input (after x)."""
    out = []
    for it in items:
        if isinstance(it, slice):
            out.append({"slice": [it.start, it.stop, it.step]})
        elif it is Ellipsis:
            out.append("...")
        elif it is None:
            out.append(None)
        elif isinstance(it, int):
            out.append({"int": it})
        else:
            out.append(it)
    return out


def t(i):
    return {"tensor": i}


# ---- existing views and joins, more cases ---------------------------------------------------
x = r(2, 3, 4)
f.case("ravel_transposed", "ravel", [x.transpose(2, 0, 1).copy()], x.transpose(2, 0, 1).ravel())
f.case("expand_dims_multi_neg", "expand_dims", [x], np.expand_dims(x, (-1, 0)), axis=[-1, 0])
y = ri(-5, 5, 1, 4, 1).astype(np.int8)
f.case("squeeze_int8", "squeeze", [y], np.squeeze(y))
f.case("broadcast_to_0d", "broadcast_to", [np.float32(2.5)], np.broadcast_to(np.float32(2.5), (2, 3)), shape=[2, 3])
a, b = r(0, 3), r(2, 3)
f.case("concatenate_empty_part", "concatenate", [a, b], np.concatenate([a, b]))
f.case("stack_0d", "stack", [np.float32(1), np.float32(2)], np.array([1, 2], np.float32))

# ---- append and the stacks ------------------------------------------------------------------
a, b = ri(0, 9, 3), ri(0, 9, 2, 3)
f.case("append_flat", "append", [a, b], np.append(a, b))
a, b = r(2, 3), r(1, 3)
f.case("append_axis0", "append", [a, b], np.append(a, b, axis=0), axis=0)
a, b = ri(0, 9, 2, 2).astype(np.int8), r(2, 1).astype(np.float16)
f.case("append_promote", "append", [a, b], np.append(a, b, axis=1), axis=1)
# NumPy gives float64 for int32 with float32; Keras (JAX) gives float32.
a, b = ri(0, 9, 2), r(3)
f.case("append_int32_float32", "append", [a, b], np.append(a, b).astype(np.float32))
for name, fn in [("hstack", np.hstack), ("vstack", np.vstack), ("dstack", np.dstack),
                 ("column_stack", np.column_stack)]:
    a, b = r(3), r(3)
    f.case(f"{name}_1d", name, [a, b], fn([a, b]))
    a, b = r(2, 3), r(2, 3)
    f.case(f"{name}_2d", name, [a, b], fn([a, b]))
    a, b = ri(0, 5, 2, 3, 2), ri(0, 5, 2, 3, 2)
    f.case(f"{name}_3d", name, [a, b], fn([a, b]))
f.case("hstack_0d", "hstack", [np.float32(1), np.float32(2)], np.hstack([np.float32(1), np.float32(2)]))

# ---- flips, axis moves, rot90 ---------------------------------------------------------------
x = r(2, 3, 4)
f.case("flip_all", "flip", [x], np.flip(x))
f.case("flip_axis", "flip", [x], np.flip(x, 1), axis=1)
f.case("flip_axes_neg", "flip", [x], np.flip(x, (0, -1)), axis=[0, -1])
v = ri(-9, 9, 5).astype(np.int8)
f.case("flip_int8", "flip", [v], np.flip(v))
f.case("flip_0d", "flip", [np.float32(3)], np.flip(np.float32(3)))
f.case("flip_empty", "flip", [r(0, 3)], np.flip(r(0, 3)), axis=0)
f.case("fliplr", "fliplr", [x], np.fliplr(x))
f.case("flipud", "flipud", [x], np.flipud(x))
f.case("moveaxis", "moveaxis", [x], np.moveaxis(x, 0, -1), source=0, destination=-1)
f.case("moveaxis_multi", "moveaxis", [x], np.moveaxis(x, [0, 1], [-1, 0]), source=[0, 1], destination=[-1, 0])
f.case("swapaxes", "swapaxes", [x], np.swapaxes(x, 0, 2), axis1=0, axis2=2)
f.case("swapaxes_neg", "swapaxes", [x], np.swapaxes(x, -1, 1), axis1=-1, axis2=1)
m = ri(0, 20, 3, 4)
for k in [-1, 0, 1, 2, 5]:
    f.case(f"rot90_k{k}".replace("-", "m"), "rot90", [m], np.rot90(m, k), k=k)
f.case("rot90_axes", "rot90", [x], np.rot90(x, 1, (1, 2)), k=1, axes=[1, 2])
f.case("rot90_axes_neg", "rot90", [x], np.rot90(x, 3, (2, 0)), k=3, axes=[2, 0])
f.case("rot90_1d", "rot90", [r(3)], r(3), raises="ValueError")

# ---- view, ndim, size -----------------------------------------------------------------------
v = np.array([1.0, -2.5, np.inf, 0.0], np.float32)
f.case("view_f32_i32", "view", [v], v.view(np.int32), dtype="int32")
f.case("view_i32_f32", "view", [v.view(np.int32)], v, dtype="float32")
h = np.array([1.0, -2.0, 65504.0], np.float16)
f.case("view_f16_i16", "view", [h], h.view(np.int16), dtype="int16")
u = np.array([[0, 255, 1, 128], [7, 8, 9, 10]], np.uint8)
f.case("view_u8_i8", "view", [u], u.view(np.int8), dtype="int8")
f.case("view_u8_i32", "view", [u], u.view(np.int32), dtype="int32")
f.case("view_u8_i16_transposed", "view_of_transpose", [u.T.copy()], u.view(np.int16), dtype="int16")
w = np.array([[1, 2], [3, 4]], np.int32)
f.case("view_i32_u8", "view", [w], w.view(np.uint8), dtype="uint8")
f.case("view_bad_bytes", "view", [np.zeros(3, np.uint8)], r(1), dtype="int16", raises="ValueError")
f.case("ndim", "ndim", [x], np.int32(3))
f.case("size", "size", [x], np.int64(24))
f.case("size_empty", "size", [r(0, 5)], np.int64(0))

# ---- splitting ------------------------------------------------------------------------------
x = r(6, 4)
f.case("split_sections", "split", [x], np.split(x, 3), sections=3)
f.case("split_indices", "split", [x], np.split(x, [1, 4]), indices=[1, 4])
f.case("split_indices_axis1", "split", [x], np.split(x, [1, 3], axis=1), indices=[1, 3], axis=1)
f.case("split_indices_negative", "split", [x], np.split(x, [-2], axis=0), indices=[-2])
f.case("split_indices_beyond", "split", [x], np.split(x, [2, 10], axis=0), indices=[2, 10])
f.case("split_indices_decreasing", "split", [x], np.split(x, [4, 2]), indices=[4, 2])
f.case("split_unequal", "split", [x], r(1), sections=4, raises="ValueError")
f.case("array_split", "array_split", [np.arange(10, dtype=np.int32)], np.array_split(np.arange(10, dtype=np.int32), 3), sections=3)
f.case("array_split_more", "array_split", [x], np.array_split(x, 5, axis=1), sections=5, axis=1)
x3 = r(2, 4, 6)
f.case("hsplit", "hsplit", [x3], np.hsplit(x3, 2), sections=2)
f.case("hsplit_1d", "hsplit", [np.arange(6, dtype=np.int32)], np.hsplit(np.arange(6, dtype=np.int32), [2]), indices=[2])
f.case("vsplit", "vsplit", [x3], np.vsplit(x3, [1]), indices=[1])
f.case("dsplit", "dsplit", [x3], np.dsplit(x3, 3), sections=3)
f.case("unstack", "unstack", [x3], list(x3), axis=0)
f.case("unstack_axis_neg", "unstack", [x3], list(np.moveaxis(x3, -1, 0)), axis=-1)
f.case("unstack_num", "unstack", [x3], list(np.moveaxis(x3, 1, 0)), axis=1, num=4)

# ---- tile, repeat, roll, diff ---------------------------------------------------------------
x = r(2, 3)
f.case("tile_same_rank", "tile", [x], np.tile(x, (2, 3)), repeats=[2, 3])
f.case("tile_more_reps", "tile", [x], np.tile(x, (2, 1, 2)), repeats=[2, 1, 2])
f.case("tile_fewer_reps", "tile", [x], np.tile(x, 3), repeats=[3])
f.case("tile_zero", "tile", [x], np.tile(x, (0, 2)), repeats=[0, 2])
f.case("tile_0d", "tile", [np.int32(4)], np.tile(np.int32(4), 3), repeats=[3])
f.case("repeat_flat", "repeat", [x], np.repeat(x, 2), repeats=2)
f.case("repeat_axis", "repeat", [x], np.repeat(x, 3, axis=1), repeats=3, axis=1)
f.case("repeat_per_element", "repeat", [x], np.repeat(x, [1, 0, 2], axis=-1), repeats=[1, 0, 2], axis=-1)
v = ri(0, 9, 3)
f.case("repeat_per_element_flat", "repeat", [v], np.repeat(v, [2, 1, 3]), repeats=[2, 1, 3])
f.case("repeat_bool", "repeat", [np.array([True, False])], np.repeat(np.array([True, False]), 2), repeats=2)
f.case("repeat_bad_count", "repeat", [x], r(1), repeats=[1, 2], axis=1, raises="ValueError")
x = r(3, 4)
f.case("roll_flat", "roll", [x], np.roll(x, 5), shift=5)
f.case("roll_axis", "roll", [x], np.roll(x, -1, axis=1), shift=-1, axis=1)
f.case("roll_multi", "roll", [x], np.roll(x, (1, 7), axis=(0, 1)), shift=[1, 7], axis=[0, 1])
f.case("roll_same_axis_twice", "roll", [x], np.roll(x, (1, 2), axis=(1, 1)), shift=[1, 2], axis=[1, 1])
f.case("roll_broadcast_shift", "roll", [x], np.roll(x, 2, axis=(0, 1)), shift=[2], axis=[0, 1])
f.case("roll_zero", "roll", [x], np.roll(x, 4, axis=1), shift=4, axis=1)
f.case("roll_empty", "roll", [r(0, 3)], np.roll(r(0, 3), 2, axis=0), shift=2, axis=0)
v = ri(0, 9, 5).astype(np.int8)
f.case("roll_int8", "roll", [v], np.roll(v, -7), shift=-7)
x = np.array([[1, 3, 6, 10], [0, 5, 6, 8]], np.int32)
f.case("diff", "diff", [x], np.diff(x))
f.case("diff_n2_axis0", "diff", [x.astype(np.float32)], np.diff(x.astype(np.float32), n=2, axis=0), n=2, axis=0)
f.case("diff_n3", "diff", [x], np.diff(x, n=3), n=3)
f.case("diff_n_large", "diff", [x], np.diff(x, n=5), n=5)
f.case("diff_n0", "diff", [x], x, n=0)
f.case("diff_bool", "diff", [np.array([True, True, False, True])], np.diff(np.array([True, True, False, True])))
with np.errstate(over="ignore"):
    u = np.array([1, 0, 255], np.uint8)
    f.case("diff_uint8_wraps", "diff", [u], np.diff(u))

# ---- pad ------------------------------------------------------------------------------------
x = r(3, 4)
f.case("pad_constant", "pad", [x], np.pad(x, ((1, 2), (0, 3))), pad_width=[[1, 2], [0, 3]])
f.case("pad_constant_value", "pad", [x], np.pad(x, 2, constant_values=-1.5), pad_width=2, constant_values=-1.5)
f.case("pad_one_pair", "pad", [x], np.pad(x, ((1, 0),)), pad_width=[[1, 0]])
v = ri(0, 9, 2, 3).astype(np.int8)
f.case("pad_int8", "pad", [v], np.pad(v, 1, constant_values=7), pad_width=1, constant_values=7)
for mode in ["edge", "reflect", "symmetric", "wrap"]:
    f.case(f"pad_{mode}", "pad", [x], np.pad(x, ((2, 1), (3, 2)), mode=mode), pad_width=[[2, 1], [3, 2]], mode=mode)
    v = r(3)
    f.case(f"pad_{mode}_wide", "pad", [v], np.pad(v, (7, 5), mode=mode), pad_width=[[7, 5]], mode=mode)
v = r(1, 3)
f.case("pad_reflect_single", "pad", [v], np.pad(v, 2, mode="reflect"), pad_width=2, mode="reflect")
f.case("pad_circular", "pad", [x], np.pad(x, 1, mode="wrap"), pad_width=1, mode="circular")
f.case("pad_empty_constant", "pad", [r(0, 2)], np.pad(r(0, 2), 1), pad_width=1)
f.case("pad_0d", "pad", [np.float32(3)], np.pad(np.float32(3), 0), pad_width=0)
f.case("pad_bad_mode", "pad", [x], r(1), pad_width=1, mode="median", raises="ValueError")
f.case("pad_reflect_empty_axis", "pad", [r(0, 2)], r(1), pad_width=1, mode="reflect", raises="ValueError")

# ---- array, copy, *_like --------------------------------------------------------------------
x = r(2, 3)
f.case("zeros_like_int8", "zeros_like", [x.astype(np.int8)], np.zeros((2, 3), np.int8))
f.case("ones_like_dtype", "ones_like", [x], np.ones((2, 3), np.float16), dtype="float16")
f.case("full_like", "full_like", [x], np.full((2, 3), -2.5, np.float32), value=-2.5)
f.case("array", "array", [x], x)
f.case("array_dtype", "array", [x], x.astype(np.float16), dtype="float16")
f.case("copy", "copy", [x.T.copy()], x.T)

# ---- ranges ---------------------------------------------------------------------------------
# NumPy computes in float64; Keras returns floatx (float32) unless a dtype is given.
f.case("linspace", "linspace", [], np.linspace(0, 1, 5).astype(np.float32), start=0, stop=1, num=5)
f.case("linspace_no_endpoint", "linspace", [], np.linspace(-2, 3, 7, endpoint=False).astype(np.float32),
       start=-2.0, stop=3.0, num=7, endpoint=False)
f.case("linspace_float64", "linspace", [], np.linspace(0.1, 0.9, 9), start=0.1, stop=0.9, num=9, dtype="float64")
f.case("linspace_num1", "linspace", [], np.linspace(2, 5, 1).astype(np.float32), start=2, stop=5, num=1)
f.case("linspace_num0", "linspace", [], np.linspace(2, 5, 0).astype(np.float32), start=2, stop=5, num=0)
f.case("linspace_int", "linspace", [], np.linspace(0, 10, 4).astype(np.int32), start=0, stop=10, num=4, dtype="int32")
a, b = np.array([0.0, 1.0], np.float32), np.array([[1.0, 5.0], [2.0, 4.0], [3.0, 3.0]], np.float32)
f.case("linspace_tensors", "linspace", [a, b], np.linspace(a, b, 4).astype(np.float32), num=4)
f.case("linspace_tensors_axis", "linspace", [a, b], np.linspace(a, b, 4, axis=-1).astype(np.float32), num=4, axis=-1)
f.case("logspace", "logspace", [], np.logspace(0, 2, 5).astype(np.float32), start=0, stop=2, num=5)
f.case("logspace_base2", "logspace", [], np.logspace(1, 4, 4, base=2.0, endpoint=False).astype(np.float32),
       start=1, stop=4, num=4, base=2.0, endpoint=False)
f.case("geomspace", "geomspace", [], np.geomspace(1, 1000, 4).astype(np.float32), start=1, stop=1000, num=4)
f.case("geomspace_negative", "geomspace", [], np.geomspace(-1, -16, 5).astype(np.float32), start=-1, stop=-16, num=5)
f.case("geomspace_float64", "geomspace", [], np.geomspace(0.5, 32.0, 7, endpoint=False), start=0.5, stop=32.0,
       num=7, endpoint=False, dtype="float64", rtol=1e-12)
f.case("geomspace_zero", "geomspace", [], r(1), start=0, stop=10, num=3, raises="ValueError")

# ---- matrices -------------------------------------------------------------------------------
# NumPy's eye/tri/identity default to float64; Keras uses floatx (float32).
f.case("eye", "eye", [], np.eye(3, dtype=np.float32), N=3)
f.case("eye_rect_k", "eye", [], np.eye(3, 5, 2, dtype=np.float32), N=3, M=5, k=2)
f.case("eye_k_neg_int", "eye", [], np.eye(4, 3, -1, dtype=np.int32), N=4, M=3, k=-1, dtype="int32")
f.case("eye_k_outside", "eye", [], np.eye(2, 2, 5, dtype=np.float32), N=2, M=2, k=5)
f.case("eye_empty", "eye", [], np.eye(0, dtype=np.float32), N=0)
f.case("identity", "identity", [], np.identity(4, dtype=np.float32), n=4)
f.case("identity_bool", "identity", [], np.identity(2, dtype=bool), n=2, dtype="bool")
f.case("tri", "tri", [], np.tri(3, dtype=np.float32), N=3)
f.case("tri_rect_k", "tri", [], np.tri(3, 5, 1, dtype=np.int32), N=3, M=5, k=1, dtype="int32")
f.case("tri_k_neg", "tri", [], np.tri(4, 2, -2, dtype=np.float32), N=4, M=2, k=-2)
x = r(4, 5)
for k in [-2, 1, 7]:
    f.case(f"tril_k{k}".replace("-", "m"), "tril", [x], np.tril(x, k), k=k)
    f.case(f"triu_k{k}".replace("-", "m"), "triu", [x], np.triu(x, k), k=k)
xb = ri(0, 9, 2, 3, 3).astype(np.int8)
f.case("tril_batched_int8", "tril", [xb], np.tril(xb), k=0)
f.case("triu_bool", "triu", [np.ones((3, 3), bool)], np.triu(np.ones((3, 3), bool), 1), k=1)
v = r(3)
f.case("diag_1d", "diag", [v], np.diag(v))
f.case("diag_1d_k", "diag", [v], np.diag(v, 2), k=2)
vi = ri(0, 9, 2)
f.case("diag_1d_k_neg", "diag", [vi], np.diag(vi, -1), k=-1)
f.case("diag_2d", "diag", [x], np.diag(x))
f.case("diag_2d_k", "diag", [x], np.diag(x, 2), k=2)
f.case("diag_2d_k_neg", "diag", [x], np.diag(x, -3), k=-3)
f.case("diag_2d_k_outside", "diag", [x], np.diag(x, 9), k=9)
m2 = r(2, 2)
f.case("diagflat", "diagflat", [m2], np.diagflat(m2))
f.case("diagflat_k", "diagflat", [m2], np.diagflat(m2, -1), k=-1)
v = np.array([1, 2, 3, 5], np.int32)
# JAX keeps x's dtype (NumPy promotes with int: int32 -> int64, float32 -> float64).
f.case("vander", "vander", [v], np.vander(v).astype(np.int32))
f.case("vander_n_increasing", "vander", [v], np.vander(v, 3, increasing=True).astype(np.int32), N=3, increasing=True)
vf = np.array([0.5, -1.0, 2.0, 0.0], np.float32)
f.case("vander_float", "vander", [vf], np.vander(vf, 5).astype(np.float32), N=5)
a, b, c = r(3), ri(0, 9, 2), r(4).astype(np.float64)
f.case("meshgrid_xy", "meshgrid", [a, b, c], np.meshgrid(a, b, c))
f.case("meshgrid_ij", "meshgrid", [a, b], np.meshgrid(a, b, indexing="ij"), indexing="ij")
f.case("meshgrid_one", "meshgrid", [a], np.meshgrid(a))

# ---- window functions (NumPy float64; Keras casts to floatx) --------------------------------
for name, fn in [("bartlett", np.bartlett), ("blackman", np.blackman), ("hamming", np.hamming),
                 ("hanning", np.hanning)]:
    for M in [0, 1, 7, 12] if name == "hanning" else [2, 7, 12]:
        f.case(f"{name}_{M}", name, [], fn(M).astype(np.float32), M=M, atol=1e-7)
for M, beta in [(1, 3.0), (6, 0.0), (9, 14.0), (10, 5.5)]:
    f.case(f"kaiser_{M}_{int(beta)}", "kaiser", [], np.kaiser(M, beta).astype(np.float32), M=M, beta=beta,
           atol=1e-7)

# ---- take, take_along_axis ------------------------------------------------------------------
x = r(4, 5)
idx = np.array([[0, 3], [-1, 2]], np.int32)
f.case("take_flat", "take", [x, idx], np.take(x, idx))
f.case("take_axis0", "take", [x, idx], np.take(x, idx, axis=0), axis=0)
f.case("take_axis1_int64", "take", [x, idx.astype(np.int64)], np.take(x, idx, axis=1), axis=1)
f.case("take_axis_neg_scalar", "take", [x, np.int32(-2)], np.take(x, -2, axis=-1), axis=-1)
f.case("take_uint8_indices", "take", [x, np.array([3, 1], np.uint8)], np.take(x, [3, 1], axis=0), axis=0)
f.case("take_empty_indices", "take", [x, np.zeros((0,), np.int32)], np.take(x, np.zeros((0,), np.int32), axis=1), axis=1)
x3 = r(3, 4, 6)
f.case("take_middle_rows", "take", [x3, np.array([2, 2, 0], np.int32)], np.take(x3, [2, 2, 0], axis=1), axis=1)
e = ri(-9, 9, 10, 8).astype(np.float16)
tok = ri(0, 10, 2, 3)
f.case("take_embedding_f16", "take", [e, tok], np.take(e, tok, axis=0), axis=0)
f.case("take_bool", "take", [np.array([True, False, True]), np.array([2, 1], np.int32)], np.array([True, False]))
f.case("take_out_of_range", "take", [x, np.array([5], np.int32)], r(1), axis=0, raises="IndexError")
f.case("take_negative_out_of_range", "take", [x, np.array([-6], np.int32)], r(1), axis=1, raises="IndexError")
ti = ri(0, 5, 4, 5)
ti[0, 0] = -1
f.case("take_along_axis", "take_along_axis", [x, ti], np.take_along_axis(x, ti, axis=1), axis=1)
ti0 = ri(0, 4, 2, 5)
f.case("take_along_axis0", "take_along_axis", [x, ti0], np.take_along_axis(x, ti0, axis=0), axis=0)
ib = ri(0, 5, 1, 3)
f.case("take_along_axis_broadcast", "take_along_axis", [x, ib], np.take_along_axis(x, np.broadcast_to(ib, (4, 3)), axis=1), axis=1)
xb = r(1, 5)
ib2 = ri(0, 5, 3, 2)
f.case("take_along_axis_broadcast_x", "take_along_axis", [xb, ib2], np.take_along_axis(np.broadcast_to(xb, (3, 5)), ib2, axis=1), axis=1)
f.case("take_along_axis_none", "take_along_axis", [x, np.array([19, 0, -1], np.int32)], x.ravel()[[19, 0, -1]])
srt = np.argsort(x3, axis=-1).astype(np.int32)
f.case("take_along_axis_sort", "take_along_axis", [x3, srt], np.take_along_axis(x3, srt, axis=-1), axis=-1)
f.case("take_along_axis_oob", "take_along_axis", [x, np.full((4, 1), 5, np.int32)], r(1), axis=1, raises="IndexError")

# ---- get_item -------------------------------------------------------------------------------
x = r(3, 4, 5)
i2 = np.array([2, 0], np.int32)
j2 = np.array([[1], [3]], np.int64)
mask = x[:, :, 0] > 0
cases = [
    ("basic_int", key(1), [], x[1]),
    ("basic_slices", key(slice(None, None, -1), slice(1, 3), slice(None, None, 2)), [], x[::-1, 1:3, ::2]),
    ("ellipsis", key(Ellipsis, 2), [], x[..., 2]),
    ("ellipsis_mid", key(0, Ellipsis, slice(1, None)), [], x[0, ..., 1:]),
    ("newaxis", key(None, 1, None, slice(None), Ellipsis, None), [], x[None, 1, None, :, ..., None]),
    ("negative_int", key(-1, -2), [], x[-1, -2]),
    ("adv_first", key(t(0)), [i2], x[i2]),
    ("adv_middle", key(slice(None), t(0)), [i2], x[:, i2]),
    ("adv_pair_adjacent", key(slice(None), t(0), t(1)), [i2, j2], x[:, i2, j2]),
    ("adv_pair_separated", key(t(0), slice(None), t(1)), [i2, j2], x[i2, :, j2]),
    ("adv_int_separated", key(0, slice(None), t(0)), [i2], x[0, :, i2]),
    ("adv_int_adjacent", key(slice(None), 1, t(0)), [i2], x[:, 1, i2]),
    ("adv_newaxis_between", key(t(0), None, t(1)), [i2, j2], x[i2, None, j2]),
    ("adv_ellipsis_empty", key(slice(None), t(0), Ellipsis, t(1)), [i2, np.array([0, 4], np.int32)],
     x[:, i2, ..., np.array([0, 4])]),
    ("adv_negative", key(Ellipsis, t(0)), [np.array([-1, -5, 2], np.int32)], x[..., np.array([-1, -5, 2])]),
    ("adv_with_slice_step", key(t(0), slice(None, None, -2)), [i2], x[i2, ::-2]),
    ("adv_repeated", key(t(0)), [np.array([[1, 1], [1, 0]], np.int32)], x[np.array([[1, 1], [1, 0]])]),
    ("bool_mask_2d", key(t(0)), [mask], x[mask]),
    ("bool_mask_last", key(Ellipsis, t(0)), [x[0, 0] > 0], x[..., x[0, 0] > 0]),
    ("bool_mask_with_int", key(t(0), 2), [np.array([True, False, True])], x[np.array([True, False, True]), 2]),
    ("bool_mask_full", key(t(0)), [x > 0.5], x[x > 0.5]),
    ("bool_0d_true", key(t(0)), [np.array(True)], x[np.array(True)]),
    ("bool_0d_false", key(t(0)), [np.array(False)], x[np.array(False)]),
    ("int_0d_tensor", key(t(0), slice(1, 3)), [np.array(2, np.int32)], x[np.array(2), 1:3]),
    ("empty_key", key(), [], x),
]
for name, k, idxs, expected in cases:
    f.case(f"get_item_{name}", "get_item", [x] + idxs, expected, key=k)
xi = ri(0, 100, 6).astype(np.int16)
f.case("get_item_int16_adv", "get_item", [xi, np.array([5, 0, 5], np.int32)], xi[[5, 0, 5]], key=key(t(0)))
f.case("get_item_0d", "get_item", [np.float32(4)], np.float32(4)[None], key=key(None))
f.case("get_item_too_many", "get_item", [x], r(1), key=key(0, 0, 0, 0), raises="IndexError")
f.case("get_item_adv_out_of_range", "get_item", [x, np.array([0, 4], np.int32)], r(1), key=key(t(0)), raises="IndexError")
f.case("get_item_bad_mask_shape", "get_item", [x, np.array([True, False])], r(1), key=key(t(0)), raises="IndexError")
f.case("get_item_float_index", "get_item", [x, np.array([1.0], np.float32)], r(1), key=key(t(0)), raises="IndexError")

# ---- diagonal, trace ------------------------------------------------------------------------
x = r(3, 4, 5)
f.case("diagonal", "diagonal", [x], np.diagonal(x))
f.case("diagonal_offset_axes", "diagonal", [x], np.diagonal(x, 1, 1, 2), offset=1, axis1=1, axis2=2)
f.case("diagonal_neg_offset_swapped", "diagonal", [x], np.diagonal(x, -1, 2, 0), offset=-1, axis1=2, axis2=0)
f.case("diagonal_outside", "diagonal", [x], np.diagonal(x, 7), offset=7)
f.case("diagonal_same_axes", "diagonal", [x], r(1), axis1=1, axis2=-2, raises="ValueError")
f.case("trace", "trace", [x], np.trace(x))
f.case("trace_offset", "trace", [x], np.trace(x, -1, 1, 2), offset=-1, axis1=1, axis2=2)
f.case("trace_float64", "trace", [x.astype(np.float64)], np.trace(x.astype(np.float64), 2), offset=2)
# NumPy sums int8/bool in int64; Keras (JAX) sums them in int32.
xi8 = ri(-100, 100, 4, 4).astype(np.int8)
f.case("trace_int8", "trace", [xi8], np.trace(xi8).astype(np.int32))
f.case("trace_bool", "trace", [np.eye(3, dtype=bool)], np.int32(3))

# ---- select ---------------------------------------------------------------------------------
x = np.arange(6, dtype=np.int32)
f.case("select", "select", [x < 3, x > 3, x, x ** 2], np.select([x < 3, x > 3], [x, x ** 2], 42), ncond=2, default=42)
a = r(2, 3)
c1, c2 = a > 0.5, (a > -0.5)[0]
b = r(3)
f.case("select_broadcast", "select", [c1, c2, a, b], np.select([c1, c2], [a, b], -1.0).astype(np.float32), ncond=2, default=-1.0)
f.case("select_first_wins", "select", [a > -10, a > -10, a, b], a, ncond=2)
f.case("select_int8", "select", [np.array([True, False]), np.array([1, 2], np.int8)],
       np.array([1, 0], np.int8), ncond=1)
f.case("select_nonbool", "select", [np.array([1, 0], np.int32), np.array([1, 2], np.int8)], r(1), ncond=1,
       raises="TypeError")

# ---- unravel_index --------------------------------------------------------------------------
idx = np.array([[0, 5], [11, 7]], np.int32)
f.case("unravel_index", "unravel_index", [idx], [o.astype(np.int32) for o in np.unravel_index(idx, (3, 4))], shape=[3, 4])
idx = np.array([22, 41, 37], np.int64)
f.case("unravel_index_3d", "unravel_index", [idx], list(np.unravel_index(idx, (7, 6, 1))), shape=[7, 6, 1])
# Negative indices count from the end (JAX); NumPy rejects them.
f.case("unravel_index_negative", "unravel_index", [np.array([-1, -12], np.int32)],
       [o.astype(np.int32) for o in np.unravel_index(np.array([11, 0]), (3, 4))], shape=[3, 4])
f.case("unravel_index_oob", "unravel_index", [np.array([12], np.int32)], r(1), shape=[3, 4], raises="ValueError")

# ---- scatter, scatter_update ----------------------------------------------------------------
def scatter_ref(indices, values, shape, base=None, reduction=None):
    out = np.zeros(shape, values.dtype) if base is None else base.copy()
    k = indices.shape[-1]
    flat = indices.reshape(-1, k)
    vals = values.reshape((flat.shape[0],) + tuple(shape[k:]))
    for row, v in zip(flat, vals):
        pos = tuple(int(i) for i in row)
        if reduction is None and base is not None:
            out[pos] = v
        elif reduction == "mul":
            out[pos] = out[pos] * v
        elif reduction == "max":
            out[pos] = np.maximum(out[pos], v)
        elif reduction == "min":
            out[pos] = np.minimum(out[pos], v)
        else:
            out[pos] = out[pos] + v
    return out


ind = np.array([[0, 1], [2, 3], [0, 1]], np.int32)
vals = r(3)
f.case("scatter_points", "scatter", [ind, vals], scatter_ref(ind, vals, (3, 4)), shape=[3, 4])
ind = np.array([[1], [3], [1]], np.int64)
vals = r(3, 4)
f.case("scatter_rows_dupes", "scatter", [ind, vals], scatter_ref(ind, vals, (5, 4)), shape=[5, 4])
ind = np.array([[[0, 0]], [[1, -1]]], np.int32)
vals = ri(0, 9, 2, 1, 2)
f.case("scatter_nd_batch_negative", "scatter", [ind, vals],
       scatter_ref(np.array([[[0, 0]], [[1, 2]]]), vals, (2, 3, 2)), shape=[2, 3, 2])
f.case("scatter_oob", "scatter", [np.array([[3]], np.int32), r(1)], r(1), shape=[3], raises="IndexError")
base = r(4, 3)
ind = np.array([[1], [3]], np.int32)
upd = r(2, 3)
f.case("scatter_update_rows", "scatter_update", [base, ind, upd], scatter_ref(ind, upd, (4, 3), base))
ind = np.array([[0, 0], [2, 1], [0, 0]], np.int32)
upd = np.array([1.0, 2.0, 3.0], np.float32)
for red in [None, "add", "mul", "max", "min"]:
    kw = {} if red is None else {"reduction": red}
    f.case(f"scatter_update_{red or 'assign'}_dupes", "scatter_update", [base, ind, upd],
           scatter_ref(ind, upd, (4, 3), base, red), **kw)
bi = ri(0, 9, 3, 2)
f.case("scatter_update_int_cast", "scatter_update", [bi, np.array([[1, 0]], np.int32), np.array([2.7], np.float32)],
       scatter_ref(np.array([[1, 0]]), np.array([2], np.int32), (3, 2), bi))

# ---- slice, slice_update --------------------------------------------------------------------
x = r(4, 5, 3)
f.case("slice", "core_slice", [x], x[1:3, 2:5, 0:2], start=[1, 2, 0], shape=[2, 3, 2])
f.case("slice_to_end", "core_slice", [x], x[2:, :, 1:], start=[2, 0, 1], shape=[-1, 5, -1])
f.case("slice_empty", "core_slice", [x], x[4:4, :, :], start=[4, 0, 0], shape=[0, 5, 3])
f.case("slice_oob", "core_slice", [x], r(1), start=[3, 0, 0], shape=[2, 5, 3], raises="IndexError")
upd = r(2, 2, 3)
exp = x.copy()
exp[1:3, 3:5, :] = upd
f.case("slice_update", "slice_update", [x, upd], exp, start=[1, 3, 0])
xi = ri(0, 9, 3, 3)
exp = xi.copy()
exp[0:1, 1:3] = np.array([[7.9, -2.2]]).astype(np.int32)
f.case("slice_update_cast", "slice_update", [xi, np.array([[7.9, -2.2]], np.float32)], exp, start=[0, 1])
f.case("slice_update_oob", "slice_update", [x, upd], r(1), start=[3, 3, 0], raises="IndexError")

# ---- saturate_cast --------------------------------------------------------------------------
def saturate_ref(x, dtype):
    """Keras's _saturate_cast: clip to the target range rounded into x's dtype toward zero;
    from float to int, values past that bound saturate to the integer limit itself (Keras's
    conversion on JAX saturates: float32 1e10 -> int32 gives 2**31 - 1)."""
    def limits(dt):
        dt = np.dtype(dt)
        if dt == np.bool_:
            return 0, 1
        if dt.kind in "iu":
            return np.iinfo(dt).min, np.iinfo(dt).max
        return np.finfo(dt).min, np.finfo(dt).max

    in_min, in_max = limits(x.dtype)
    out_min, out_max = limits(dtype)
    # The comparisons are exact (through Python numbers): Keras compares in floating point and
    # so misses that float64(2**63 - 1) rounds up to 2**63, which no int64 holds.
    exact = int if x.dtype.kind == "f" and np.dtype(dtype).kind in "iub" else float
    lo = np.array(max(in_min, out_min)).astype(x.dtype)
    if exact(lo) < out_min:
        lo = np.nextafter(lo, np.array(0, x.dtype))
    hi = np.array(min(in_max, out_max)).astype(x.dtype)
    if exact(hi) > out_max:
        hi = np.nextafter(hi, np.array(0, x.dtype))
    clipped = np.clip(x, lo, hi)
    if x.dtype.kind == "f" and np.dtype(dtype).kind in "iu":
        # Element by element through Python ints: NumPy's vectorized float64 -> int64 cast
        # is wrong near 2**63.
        return np.array([out_max if v > hi else int(c) for v, c in zip(x, clipped)],
                        dtype).reshape(x.shape)
    return clipped.astype(dtype)


v = np.array([-1.0, 0.0, 255.5, 256.0, 1e10, -np.inf, np.inf, 77.7], np.float32)
f.case("saturate_cast_f32_u8", "saturate_cast", [v], saturate_ref(v, np.uint8), dtype="uint8")
f.case("saturate_cast_f32_i32", "saturate_cast", [v], saturate_ref(v, np.int32), dtype="int32")
f.case("saturate_cast_f32_i8", "saturate_cast", [v], saturate_ref(v, np.int8), dtype="int8")
f.case("saturate_cast_f32_f16", "saturate_cast", [v], saturate_ref(v, np.float16), dtype="float16")
vd = np.array([-3e300, 1e20, -1e20, 12.5, np.inf], np.float64)
f.case("saturate_cast_f64_f32", "saturate_cast", [vd], saturate_ref(vd, np.float32), dtype="float32")
f.case("saturate_cast_f64_i64", "saturate_cast", [vd], saturate_ref(vd, np.int64), dtype="int64")
vi = np.array([-70000, -300, 5, 300, 70000], np.int32)
f.case("saturate_cast_i32_u8", "saturate_cast", [vi], saturate_ref(vi, np.uint8), dtype="uint8")
f.case("saturate_cast_i32_i16", "saturate_cast", [vi], saturate_ref(vi, np.int16), dtype="int16")
f.case("saturate_cast_i32_f16", "saturate_cast", [vi], saturate_ref(vi, np.float16), dtype="float16")
f.case("saturate_cast_i32_bool", "saturate_cast", [vi], saturate_ref(vi, np.bool_), dtype="bool")
vu = np.array([0, 100, 200, 255], np.uint8)
f.case("saturate_cast_u8_i8", "saturate_cast", [vu], saturate_ref(vu, np.int8), dtype="int8")
vl = np.array([-(2 ** 62), 2 ** 40, 5], np.int64)
f.case("saturate_cast_i64_i32", "saturate_cast", [vl], saturate_ref(vl, np.int32), dtype="int32")
f.case("saturate_cast_i64_f32", "saturate_cast", [vl], saturate_ref(vl, np.float32), dtype="float32")

f.save()
