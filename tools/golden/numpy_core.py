"""Fixtures for the engine's first ops: arithmetic, exp/log/tanh, comparisons, where, the
basic reductions, views, joins, matmul, cast and creation. Writes tests/golden/numpy_core.npz.

Keras's dtype rules differ from NumPy's in places (JAX's lattice, weak scalars); where they do,
the expected output is cast to the dtype Keras gives and the comment says why.
"""

import numpy as np

from fixture import Fixture

f = Fixture("numpy_core", seed=1)
r = f.randn

# ---- binary arithmetic: broadcasting, rank mismatch, dtypes, empty and 0-d ------------------
binary = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
}
for name, fn in binary.items():
    a, b = r(3, 4), r(3, 4)
    f.case(f"{name}_same", name, [a, b], fn(a, b))
    a, b = r(2, 3, 4), r(4)
    f.case(f"{name}_rank_mismatch", name, [a, b], fn(a, b))
    a, b = r(3, 1), r(1, 5)
    f.case(f"{name}_outer_broadcast", name, [a, b], fn(a, b))
    a, b = r(0, 4), r(4)
    f.case(f"{name}_empty", name, [a, b], fn(a, b))
    a, b = np.float32(1.5), r(2, 2)
    f.case(f"{name}_scalar0d", name, [a, b], fn(a, b))
    a, b = r(3, 4).astype(np.float64), r(3, 4).astype(np.float64)
    f.case(f"{name}_float64", name, [a, b], fn(a, b))
    a, b = f.randint(-50, 50, 5), f.randint(-50, 50, 5)
    f.case(f"{name}_int32", name, [a, b], fn(a, b))
    a, b = r(6).astype(np.float16), r(6).astype(np.float16)
    f.case(f"{name}_float16", name, [a, b], fn(a, b))

# Integer overflow wraps as in NumPy (two's complement).
a = np.array([127, -128, 100], np.int8)
b = np.array([1, -1, 100], np.int8)
with np.errstate(over="ignore", invalid="ignore"):
    f.case("add_int8_wraps", "add", [a, b], a + b)
    f.case("multiply_int8_wraps", "multiply", [a, b], a * b)
# Mixed dtypes follow the JAX lattice: uint8 + int8 -> int16, int32 + float16 -> float16.
a, b = np.array([200, 3], np.uint8), np.array([-100, 4], np.int8)
f.case("add_uint8_int8", "add", [a, b], (a.astype(np.int16) + b.astype(np.int16)))
a, b = np.array([1, 2], np.int32), np.array([0.5, 0.25], np.float16)
f.case("add_int32_float16", "add", [a, b], (a + b).astype(np.float16))
# NaN and inf propagate.
a = np.array([np.nan, np.inf, -np.inf, 1.0], np.float32)
b = np.array([1.0, np.inf, np.inf, np.nan], np.float32)
f.case("add_nan_inf", "add", [a, b], a + b)
f.case("maximum_nan", "maximum", [a, b], np.maximum(a, b))
f.case("minimum_nan", "minimum", [a, b], np.minimum(a, b))

# Weak scalars: x + 2 keeps int8, x * 0.5 keeps float16, int32 * 0.5 becomes float32.
x = np.array([1, 2, 3], np.int8)
f.case("add_weak_int", "add_scalar", [x], (x + 2).astype(np.int8), scalar=2)
x = r(4).astype(np.float16)
f.case("multiply_weak_float_f16", "multiply_scalar", [x], (x * np.float16(0.5)), scalar=0.5)
x = np.array([1, 2, 3], np.int32)
f.case("multiply_weak_float_int", "multiply_scalar", [x], (x * 0.5).astype(np.float32), scalar=0.5)
x = r(3).astype(np.float64)
f.case("add_weak_float_f64_exact", "add_scalar", [x], x + 0.1, scalar=0.1)

# Division is true division; integers give floatx (float32).
a, b = r(3, 4), r(4)
f.case("divide", "divide", [a, b], a / b)
a, b = np.array([7, -7, 1], np.int32), np.array([2, 2, 0], np.int32)
with np.errstate(divide="ignore"):
    f.case("divide_int", "divide", [a, b], (a / b).astype(np.float32))
a = np.array([1.0, -1.0, 0.0], np.float32)
with np.errstate(divide="ignore", invalid="ignore"):
    f.case("divide_by_zero", "divide", [a, np.zeros(3, np.float32)], a / np.zeros(3, np.float32))

a, b = f.uniform(0.1, 3, 3, 4), r(3, 4)
f.case("power", "power", [a, b], np.power(a, b))
a, b = np.array([2, 3, -2, 0], np.int32), np.array([3, 0, 3, 5], np.int32)
f.case("power_int", "power", [a, b], np.power(a, b))

# ---- unary ---------------------------------------------------------------------------------
x = r(4, 5)
f.case("negative", "negative", [x], -x)
f.case("absolute", "absolute", [x], np.abs(x))
f.case("square", "square", [x], np.square(x))
f.case("sign", "sign", [np.array([-2.0, 0.0, 3.0, np.nan], np.float32)],
       np.sign(np.array([-2.0, 0.0, 3.0, np.nan], np.float32)))
f.case("abs_int8_min", "absolute", [np.array([-128, -1, 5], np.int8)],
       np.abs(np.array([-128, -1, 5], np.int8)))
pos = f.uniform(0.01, 10, 4, 5)
f.case("sqrt", "sqrt", [pos], np.sqrt(pos))
f.case("sqrt_int", "sqrt", [np.array([4, 9, 2], np.int32)], np.sqrt(np.array([4, 9, 2])).astype(np.float32))
f.case("exp", "exp", [x], np.exp(x))
f.case("exp_float64", "exp", [x.astype(np.float64)], np.exp(x.astype(np.float64)))
f.case("exp_overflow", "exp", [np.array([100.0, -200.0, np.inf, -np.inf], np.float32)],
       np.exp(np.array([100.0, -200.0, np.inf, -np.inf], np.float32)))
f.case("log", "log", [pos], np.log(pos))
with np.errstate(divide="ignore", invalid="ignore"):
    edge = np.array([0.0, -1.0, np.inf, np.nan], np.float32)
    f.case("log_edges", "log", [edge], np.log(edge))
f.case("tanh", "tanh", [x * 3], np.tanh(x * 3))
f.case("tanh_float16", "tanh", [x.astype(np.float16)], np.tanh(x.astype(np.float16)))
f.case("exp_empty", "exp", [np.zeros((0, 3), np.float32)], np.zeros((0, 3), np.float32))
f.case("exp_0d", "exp", [np.float32(0.5)], np.exp(np.float32(0.5)))

# ---- comparisons and where -----------------------------------------------------------------
a, b = r(3, 4), r(4)
b[0] = a[0, 0]
for name, fn in [("equal", np.equal), ("not_equal", np.not_equal), ("less", np.less),
                 ("less_equal", np.less_equal), ("greater", np.greater),
                 ("greater_equal", np.greater_equal)]:
    f.case(name, name, [a, b], fn(a, b))
a = np.array([np.nan, 1.0], np.float32)
f.case("equal_nan", "equal", [a, a], np.equal(a, a))
f.case("logical_not", "logical_not", [np.array([0.0, 2.0, -1.0], np.float32)],
       np.logical_not(np.array([0.0, 2.0, -1.0], np.float32)))
c = r(3, 4) > 0
a, b = r(3, 4), r(1, 4)
f.case("where", "where", [c, a, b], np.where(c, a, b))
f.case("where_int_cond", "where", [np.array([0, 1, 2], np.int32), np.ones(3, np.float32),
                                   np.zeros(3, np.float32)],
       np.where(np.array([0, 1, 2]), np.ones(3, np.float32), np.zeros(3, np.float32)))

# ---- reductions ----------------------------------------------------------------------------
x = r(3, 4, 5)
for name, fn in [("sum", np.sum), ("mean", np.mean), ("max", np.max), ("min", np.min)]:
    f.case(f"{name}_all", name, [x], fn(x))
    f.case(f"{name}_axis0", name, [x], fn(x, axis=0), axis=0)
    f.case(f"{name}_axis_neg", name, [x], fn(x, axis=-1), axis=-1)
    f.case(f"{name}_axes_keepdims", name, [x], fn(x, axis=(0, 2), keepdims=True), axis=[0, 2], keepdims=True)
    f.case(f"{name}_transposed", name, [x.transpose(2, 0, 1).copy()], fn(x.transpose(2, 0, 1), axis=1), axis=1)
big = r(120, 90)
f.case("sum_large", "sum", [big], big.astype(np.float64).sum(axis=0).astype(np.float32), axis=0)
f.case("sum_large_inner", "sum", [big], big.astype(np.float64).sum(axis=1).astype(np.float32), axis=1)
f.case("mean_large_all", "mean", [big], np.float32(big.astype(np.float64).mean()))
f.case("sum_empty", "sum", [np.zeros((0, 3), np.float32)], np.zeros(3, np.float32), axis=0)
f.case("sum_bool", "sum", [np.array([True, False, True])], np.int32(2))
f.case("sum_int8", "sum", [np.array([100, 100, 100], np.int8)], np.int32(300))
f.case("mean_int", "mean", [np.array([1, 2], np.int32)], np.float32(1.5))
f.case("max_nan", "max", [np.array([1.0, np.nan, 3.0], np.float32)], np.float32(np.nan))
f.case("max_int", "max", [np.array([[3, -7], [9, 2]], np.int64)], np.array([9, 2], np.int64), axis=0)
f.case("max_empty_raises", "max", [r(0, 3)], np.float32(0), axis=0, raises="ValueError")

# ---- views and joins -----------------------------------------------------------------------
x = r(2, 3, 4)
f.case("reshape", "reshape", [x], x.reshape(4, 6), shape=[4, 6])
f.case("reshape_infer", "reshape", [x], x.reshape(-1, 2), shape=[-1, 2])
f.case("reshape_transposed", "reshape_of_transpose", [x], x.transpose(2, 0, 1).reshape(4, 6), shape=[4, 6], axes=[2, 0, 1])
f.case("reshape_bad_raises", "reshape", [x], x, shape=[5, 5], raises="ValueError")
f.case("transpose_default", "transpose", [x], x.T)
f.case("transpose_axes", "transpose", [x], x.transpose(1, 2, 0), axes=[1, 2, 0])
f.case("expand_dims", "expand_dims", [x], np.expand_dims(x, -1), axis=-1)
f.case("expand_dims_multi", "expand_dims", [x], np.expand_dims(x, (0, 2)), axis=[0, 2])
y = r(1, 3, 1, 2)
f.case("squeeze_all", "squeeze", [y], np.squeeze(y))
f.case("squeeze_axis", "squeeze", [y], np.squeeze(y, 2), axis=2)
f.case("squeeze_bad_raises", "squeeze", [y], y, axis=1, raises="ValueError")
b31 = r(3, 1)
f.case("broadcast_to", "broadcast_to", [b31], np.broadcast_to(b31, (2, 3, 4)), shape=[2, 3, 4])
a, b = r(2, 3), r(2, 5)
f.case("concatenate_axis1", "concatenate", [a, b], np.concatenate([a, b], axis=1), axis=1)
a, b, c3 = r(1, 3), r(2, 3), f.randint(0, 5, 4, 3)
f.case("concatenate_promote", "concatenate", [a, b, c3], np.concatenate([a, b, c3.astype(np.float32)]), axis=0)
a, b = r(2, 3), r(2, 3)
f.case("stack_axis_neg", "stack", [a, b], np.stack([a, b], axis=-1), axis=-1)
x = r(4, 6)
f.case("slice_basic", "slice", [x], x[1:3, ::2], slices=[[1, 3, None], [None, None, 2]])
f.case("slice_negative_step", "slice", [x], x[::-1, 5:0:-2], slices=[[None, None, -1], [5, 0, -2]])
f.case("slice_out_of_range_clamps", "slice", [x], x[2:100], slices=[[2, 100, None]])
f.case("index_negative", "index", [x], x[-1], index=-1)

# ---- matmul --------------------------------------------------------------------------------
for name, (sa, sb) in {
    "matmul_2d": ((3, 4), (4, 5)),
    "matmul_batched": ((2, 3, 4), (2, 4, 5)),
    "matmul_broadcast": ((2, 1, 3, 4), (5, 4, 2)),
    "matmul_vec_mat": ((4,), (4, 5)),
    "matmul_mat_vec": ((3, 4), (4,)),
    "matmul_vec_vec": ((4,), (4,)),
    "matmul_k0": ((3, 0), (0, 2)),
}.items():
    a, b = r(*sa), r(*sb)
    f.case(name, "matmul", [a, b], np.matmul(a, b), rtol=1e-5, atol=1e-5)
a, b = r(3, 4).astype(np.float64), r(4, 2).astype(np.float64)
f.case("matmul_float64", "matmul", [a, b], a @ b)
a, b = r(4, 3), r(2, 4)
f.case("matmul_transposed_views", "matmul_tt", [a, b], a.T @ b.T, rtol=1e-5, atol=1e-5)
a, b = f.randint(-5, 5, 3, 4).astype(np.int8), f.randint(-5, 5, 4, 2).astype(np.int8)
f.case("matmul_int8_to_int32", "matmul", [a, b], a.astype(np.int32) @ b.astype(np.int32))
a, b = r(3, 4).astype(np.float16), r(4, 2).astype(np.float16)
f.case("matmul_float16", "matmul", [a, b], (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16))
f.case("matmul_mismatch_raises", "matmul", [r(3, 4), r(5, 2)], r(1), raises="ValueError")

# ---- cast and creation ---------------------------------------------------------------------
x = np.array([-1.7, -0.5, 0.5, 1.7, 300.0], np.float32)
f.case("cast_float_to_int", "cast", [x], x.astype(np.int32), dtype="int32")
f.case("cast_float_to_bool", "cast", [x], x.astype(bool), dtype="bool")
y = r(10)
f.case("cast_round_trip_f16", "cast", [y], y.astype(np.float16), dtype="float16")
f.case("cast_int_to_uint8_wraps", "cast", [np.array([-1, 256, 257], np.int32)],
       np.array([-1, 256, 257], np.int32).astype(np.uint8), dtype="uint8")
f.case("arange_int", "arange", [], np.arange(2, 11, 3, dtype=np.int32), start=2, stop=11, step=3)
f.case("arange_float", "arange", [], np.arange(0.0, 1.0, 0.25, dtype=np.float32), start=0.0, stop=1.0, step=0.25)
f.case("arange_negative_step", "arange", [], np.arange(5, 0, -2, dtype=np.int32), start=5, stop=0, step=-2)
f.case("arange_empty", "arange", [], np.arange(5, 0, 1, dtype=np.int32), start=5, stop=0, step=1)
f.case("zeros", "zeros", [], np.zeros((2, 3), np.float32), shape=[2, 3])
f.case("ones_int", "ones", [], np.ones((4,), np.int32), shape=[4], dtype="int32")
# Keras: full defaults to floatx whatever the fill value.
f.case("full", "full", [], np.full((2, 2), 7, np.float32), shape=[2, 2], value=7)
f.case("full_int", "full", [], np.full((2,), 7, np.int32), shape=[2], value=7, dtype="int32")
f.case("full_float", "full", [], np.full((3,), 0.5, np.float32), shape=[3], value=0.5)

f.save()
