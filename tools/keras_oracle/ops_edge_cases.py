"""Keras's own edge cases for the common elementwise ops and reductions (used by ops.py):
empty arrays, 0-d inputs, NaN/inf, negative axes, integer wrap-around and the result dtypes of
mixed and integer inputs. Op names are those of the C++ numpy_core map
(tests/ops_core/core_golden_test.cpp), whose meaning ops_adapters.py gives.
"""

import numpy as np

NAN, INF = np.nan, np.inf


def a(values, dtype):
    return np.asarray(values, dtype=dtype)


def edge_cases():
    """[(case, op, inputs, kwargs)]"""
    f32, f64, f16 = np.float32, np.float64, np.float16
    i8, u8, i16, i32, i64 = np.int8, np.uint8, np.int16, np.int32, np.int64
    special = a([NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 1e-30], f32)
    c = []
    # Integer arithmetic wraps around (two's complement), as in XLA.
    c.append(("add_int8_wraps", "add", [a([120, -128, 127, 5], i8), a([10, -1, 1, 5], i8)], {}))
    c.append(("add_uint8_wraps", "add", [a([250, 255, 0], u8), a([10, 1, 0], u8)], {}))
    c.append(("subtract_uint8_wraps", "subtract", [a([0, 1, 200], u8), a([1, 2, 100], u8)], {}))
    c.append(("multiply_int8_wraps", "multiply", [a([64, -128, 11], i8), a([2, -1, 12], i8)], {}))
    c.append(("multiply_int32_wraps", "multiply",
              [a([2**30, -(2**31), 65536], i32), a([4, -1, 65536], i32)], {}))
    c.append(("negative_int8_min", "negative", [a([-128, 127, 0], i8)], {}))
    c.append(("absolute_int32_min", "absolute", [a([-(2**31), -5, 7], i32)], {}))
    c.append(("add_scalar_int8_weak", "add_scalar", [a([1, 127], i8)], {"scalar": 1}))
    c.append(("add_scalar_uint8_weak_float", "add_scalar", [a([1, 255], u8)], {"scalar": 0.5}))
    c.append(("multiply_scalar_int16_weak_float", "multiply_scalar", [a([3, -4], i16)],
              {"scalar": 1.5}))
    c.append(("add_scalar_bool_weak_int", "add_scalar", [a([True, False], bool)], {"scalar": 2}))
    # Mixed dtypes: Keras's promotion decides the result type.
    c.append(("add_int8_uint8", "add", [a([-3, 100], i8), a([200, 3], u8)], {}))
    c.append(("add_int64_float16", "add", [a([3, -4], i64), a([0.5, 1.5], f16)], {}))
    c.append(("add_int32_float32", "add", [a([16777217, 3], i32), a([0.0, 0.5], f32)], {}))
    c.append(("add_bool_bool", "add",
              [a([True, True, False], bool), a([True, False, False], bool)], {}))
    c.append(("multiply_bool_int8", "multiply", [a([True, False], bool), a([-7, 7], i8)], {}))
    c.append(("divide_int32", "divide", [a([7, -7, 1], i32), a([2, 2, 3], i32)], {}))
    c.append(("divide_int64", "divide", [a([7, -7], i64), a([2, 3], i64)], {}))
    c.append(("divide_int8_uint8", "divide", [a([7, -7], i8), a([2, 3], u8)], {}))
    c.append(("divide_by_zero", "divide", [a([1.0, -1.0, 0.0], f32), a([0.0, 0.0, 0.0], f32)], {}))
    c.append(("power_int_int", "power", [a([2, -3, 5], i32), a([10, 3, 0], i32)], {}))
    c.append(("power_float_special", "power", [a([0.0, -8.0, INF, NAN, 1.0], f32),
                                               a([-1.0, 1.0 / 3, 0.0, 0.0, NAN], f32)], {}))
    # NaN and inf through the elementwise ops.
    for op in ("exp", "log", "sqrt", "tanh", "sign", "absolute", "negative", "square"):
        c.append((f"{op}_special", op, [special], {}))
    c.append(("exp_overflow_f32", "exp", [a([88.0, 89.0, -104.0, -110.0], f32)], {}))
    c.append(("maximum_nan", "maximum", [special, a([0.0] * 8, f32)], {}))
    c.append(("minimum_nan", "minimum", [special, a([0.0] * 8, f32)], {}))
    c.append(("equal_nan", "equal", [special, special], {}))
    c.append(("less_inf", "less", [special, a([0.0] * 8, f32)], {}))
    # 0-d and empty inputs.
    c.append(("add_0d_0d", "add", [a(1.5, f32), a(2.0, f32)], {}))
    c.append(("add_0d_broadcast", "add", [a(1.5, f32), a(np.arange(6).reshape(2, 3), f32)], {}))
    c.append(("add_empty_broadcast", "add",
              [a(np.zeros((0, 3)), f32), a([[1.0, 2.0, 3.0]], f32)], {}))
    c.append(("exp_0d", "exp", [a(0.5, f64)], {}))
    c.append(("exp_empty", "exp", [a(np.zeros((2, 0)), f32)], {}))
    # Reductions: result dtypes of integer and bool inputs, empty axes, NaN, negative axes.
    x = np.arange(24).reshape(2, 3, 4)
    for dt in (i8, u8, i16, i32, i64, bool):
        c.append((f"sum_{np.dtype(dt).name}", "sum", [a(x % 7, dt)], {"axis": 1}))
        c.append((f"mean_{np.dtype(dt).name}", "mean", [a(x % 7, dt)], {"axis": 1}))
        c.append((f"max_{np.dtype(dt).name}", "max", [a(x % 7, dt)], {"axis": 1}))
    c.append(("sum_int8_overflow", "sum", [a([100, 100, 100], i8)], {}))
    c.append(("sum_f16", "sum", [a(np.linspace(0, 100, 30), f16)], {}))
    c.append(("mean_f16", "mean", [a(np.linspace(0, 100, 30), f16)], {}))
    c.append(("sum_negative_axes", "sum", [a(x, f32)], {"axis": [-1, -3], "keepdims": True}))
    c.append(("mean_negative_axis", "mean", [a(x, f32)], {"axis": -2}))
    c.append(("max_negative_axis", "max", [a(x, i32)], {"axis": -1, "keepdims": True}))
    c.append(("min_negative_axis", "min", [a(x, f64)], {"axis": -3}))
    c.append(("sum_empty", "sum", [a(np.zeros((0, 3)), f32)], {}))
    c.append(("sum_empty_axis1", "sum", [a(np.zeros((0, 3)), f32)], {"axis": 1}))
    c.append(("sum_empty_int8", "sum", [a(np.zeros((0,)), i8)], {}))
    c.append(("mean_empty", "mean", [a(np.zeros((0,)), f32)], {}))
    c.append(("max_empty_axis1", "max", [a(np.zeros((0, 3)), f32)], {"axis": 1}))
    c.append(("min_empty", "min", [a(np.zeros((0,)), f32)], {}))
    c.append(("sum_nan", "sum", [special], {}))
    c.append(("max_nan", "max", [special], {}))
    c.append(("min_nan", "min", [a([1.0, NAN, -INF], f32)], {}))
    c.append(("mean_inf", "mean", [a([INF, 1.0, 2.0], f32)], {}))
    c.append(("sum_0d", "sum", [a(3.0, f32)], {}))
    c.append(("max_0d_axis0", "max", [a(3.0, f32)], {"axis": 0}))
    c.append(("sum_axis_out_of_range", "sum", [a(x, f32)], {"axis": -4}))
    # Casts between integer types wrap; float to int truncates toward zero.
    c.append(("cast_int32_int8", "cast", [a([300, -129, 127], i32)], {"dtype": "int8"}))
    c.append(("cast_f32_int32", "cast", [a([2.7, -2.7, 0.5, -0.0], f32)], {"dtype": "int32"}))
    c.append(("cast_nan_bool", "cast", [special], {"dtype": "bool"}))
    c.append(("cast_f64_f16_overflow", "cast", [a([70000.0, -1e-9, 65504.0], f64)],
              {"dtype": "float16"}))
    return c
