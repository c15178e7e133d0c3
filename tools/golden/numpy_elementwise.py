"""Fixtures for the elementwise functions of keras.ops.numpy and keras.ops.math, and the
Tensor operators % & | ^ ~. Writes tests/golden/numpy_elementwise.npz.

Keras's dtype rules differ from NumPy's in places; where they do, the expected output is cast
to the dtype Keras gives and the comment says why. The recurring ones:
  - float-valued functions of integers and bool compute in floatx() (float32), where NumPy
    gives float64 (Keras's `result_type(x, float)`); cbrt, deg2rad, rad2deg, i0, hypot,
    heaviside and reciprocal follow JAX's `to_inexact`, so int64 gives float64 there;
  - floor and ceil of integers give floatx();
  - trunc and round of integers keep the integer dtype (NumPy 1.x gives float64 for trunc);
  - square, power, floor_divide, mod, fmod, clip and the shifts treat bool as int32 (JAX's
    promote_dtypes_numeric), where NumPy gives int8 or bool.
erf, erfc and erfinv, which NumPy lacks, come from mpmath at 40 digits, rounded to float64.
i0 of +-inf is +inf (the limit); NumPy's Chebyshev formula gives NaN there.

Most ops are checked in "battery" cases: op "battery" with kwargs ops=[...] and arity=k runs
every listed op on the same k inputs (or, with k inputs per op, op i on inputs k*i...), one
output per op. One npz entry costs about 300 bytes, so this keeps the file small.
"""

import math

import mpmath
import numpy as np

from fixture import Fixture

f = Fixture("numpy_elementwise", seed=7)
r = f.randn
F32, F64, F16 = np.float32, np.float64, np.float16
I8, I16, I32, I64, U8 = np.int8, np.int16, np.int32, np.int64, np.uint8
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0], F32)

np.seterr(all="ignore")


def battery(name, ops, inputs, outputs, arity=1, **kwargs):
    f.case(name, "battery", inputs, outputs, ops=list(ops), arity=arity, **kwargs)


def shared(name, fns, inputs, cast=None, promoted=None):
    """Every op of `fns` (name -> numpy function) on the same inputs; NumPy sees `promoted`
    (the inputs cast to Keras's common dtype) when given."""
    outs = [fn(*(promoted or inputs)) for fn in fns.values()]
    if cast is not None:
        outs = [cast(y) for y in outs]
    battery(name, fns.keys(), inputs, outs, arity=len(inputs))


# ---- unary float functions -----------------------------------------------------------------
mpmath.mp.dps = 40


def mp_unary(fn):
    """A float64 NumPy function from an mpmath one."""
    def scalar(v):
        if math.isnan(v):
            return math.nan
        try:
            return float(fn(mpmath.mpf(v)))
        except (ValueError, ZeroDivisionError):
            return math.nan
    return lambda x: np.vectorize(scalar, otypes=[F64])(np.asarray(x, F64))


erf_np = mp_unary(mpmath.erf)
erfc_np = mp_unary(mpmath.erfc)
_erfinv = mp_unary(mpmath.erfinv)


def erfinv_np(x):
    x = np.asarray(x, F64)
    return np.where(np.abs(x) == 1, np.sign(x) * np.inf, _erfinv(np.where(np.abs(x) == 1, 0, x)))


def i0_np(x):
    return np.where(np.isinf(x), np.inf, np.i0(x))


# name -> (numpy function, input range, JAX's to_inexact rule for int64)
UNARY = {
    "sin": (np.sin, (-6, 6), False),
    "cos": (np.cos, (-6, 6), False),
    "tan": (np.tan, (-1.4, 1.4), False),
    "arcsin": (np.arcsin, (-0.99, 0.99), False),
    "arccos": (np.arccos, (-0.99, 0.99), False),
    "arctan": (np.arctan, (-5, 5), False),
    "sinh": (np.sinh, (-4, 4), False),
    "cosh": (np.cosh, (-4, 4), False),
    "tanh": (np.tanh, (-4, 4), False),
    "arcsinh": (np.arcsinh, (-5, 5), False),
    "arccosh": (np.arccosh, (1.01, 6), False),
    "arctanh": (np.arctanh, (-0.99, 0.99), False),
    "exp": (np.exp, (-5, 5), False),
    "exp2": (np.exp2, (-10, 10), False),
    "expm1": (np.expm1, (-3, 3), False),
    "log": (np.log, (0.01, 50), False),
    "log1p": (np.log1p, (-0.9, 5), False),
    "log2": (np.log2, (0.01, 50), False),
    "log10": (np.log10, (0.01, 50), False),
    "sqrt": (np.sqrt, (0.0, 50), False),
    "cbrt": (np.cbrt, (-30, 30), True),
    "deg2rad": (np.deg2rad, (-400, 400), True),
    "rad2deg": (np.rad2deg, (-7, 7), True),
    "sinc": (np.sinc, (-4, 4), False),
    "fabs": (np.fabs, (-5, 5), False),
    "floor": (np.floor, (-5, 5), False),
    "ceil": (np.ceil, (-5, 5), False),
    "erf": (erf_np, (-3, 3), False),
    "erfc": (erfc_np, (-3, 5), False),
    "erfinv": (erfinv_np, (-0.999, 0.999), False),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.01, 20), False),
    "reciprocal": (np.reciprocal, (0.1, 5), True),
    "i0": (i0_np, (-10, 10), True),
}
INT_INPUTS = {  # integer inputs inside each function's domain
    "arcsin": [-1, 0, 1], "arccos": [-1, 0, 1], "arctanh": [0, 0, 0], "arccosh": [1, 2, 7],
    "log": [1, 4, 9], "log1p": [0, 3, 9], "log2": [1, 4, 9], "log10": [1, 10, 7],
    "rsqrt": [1, 4, 9], "sqrt": [1, 4, 9], "erfinv": [0, 0, 0], "reciprocal": [1, 4, -8],
}
kinds = {k: ([], [], []) for k in ["f32", "f64", "f16", "i32", "i64", "u8"]}


def add(kind, name, x, y):
    for lst, v in zip(kinds[kind], (name, x, y)):
        lst.append(v)


for name, (fn, (lo, hi), wide) in UNARY.items():
    # Random values, then NaN, +-inf and +-0 (NumPy's answers for the specials included).
    x = np.concatenate([f.uniform(lo, hi, 7), SPECIAL])
    if name in ("floor", "ceil"):
        x[:3] = [-1.5, 0.5, 2.0]
    add("f32", name, x, fn(x).astype(F32))
    x = f.uniform(lo, hi, 6).astype(F64)
    add("f64", name, x, fn(x).astype(F64))
    x = f.uniform(lo, hi, 5).astype(F16)
    # NumPy's float16 loops compute in float32 and round once, as keras-cpp does.
    add("f16", name, x, fn(x.astype(F32)).astype(F16))
    # Integers compute in float32 (Keras), where NumPy gives float64.
    x = np.array(INT_INPUTS.get(name, [-2, 0, 3]), I32)
    add("i32", name, x, fn(x.astype(F64)).astype(F32))
    # int64: JAX's to_inexact gives float64 for some functions, floatx for the others.
    x = np.array([1, 2, 9], I64)
    add("i64", name, x, fn(x.astype(F64)).astype(F64 if wide else F32))
    if name in ("sin", "cbrt", "floor", "reciprocal", "i0", "log2"):
        x = np.array([1, 3], U8)
        add("u8", name, x, fn(x.astype(F64)).astype(F32))
for kind, (ops, xs, ys) in kinds.items():
    battery(f"unary_{kind}", ops, xs, ys)
# Layouts: 0-d, empty, a transposed view (non-contiguous), a broadcast view.
ops = ["sin", "log1p", "erfinv", "i0", "tanh"]
x = np.array(0.3, F32)
shared("unary_0d", {n: UNARY[n][0] for n in ops}, [x], cast=F32)
x = np.zeros((2, 0), F32)
shared("unary_empty", {n: UNARY[n][0] for n in ops}, [x], cast=lambda y: y.astype(F32))
x = f.uniform(-0.9, 0.9, 4, 3)
battery("unary_transposed", [n + "_transposed" for n in ops], [x],
        [UNARY[n][0](x.T).astype(F32) for n in ops])
battery("bool_inputs", ["cbrt", "floor", "sqrt", "cos", "fabs", "exp2"],
        [np.array([True, False])], [np.array(v, F32) for v in
                                    [[1, 0], [1, 0], [1, 0], np.cos([1.0, 0.0]), [1, 0], [2, 1]]])

# Ranges where an implementation switches method, and domain edges.
x = np.array([-30.0, -16.0, -14.9, 0.0, 0.5, 14.9, 15.1, 20.0, 25.0, 40.0, 700.0], F64)
f.case("i0_wide_f64", "i0", [x], np.i0(x))
x = np.array([1e-8, -1e-8, 1e-3, 0.1, 0.999999, -0.999999, 1.0, -1.0], F64)
f.case("erfinv_tails", "erfinv", [x], erfinv_np(x))
x = np.array([-1.0, 1.0, 1.5, -2.0, 0.0], F32)
f.case("erfinv_bounds", "erfinv", [x], np.array([-np.inf, np.inf, np.nan, np.nan, 0.0], F32))
x = np.array([-1e-4, 1e-7, 0.0, 3.0, -2.0, 0.5, 1e-30], F32)
f.case("sinc_near_zero", "sinc", [x], np.sinc(x.astype(F64)).astype(F32))
x = np.array([1e-10, -1e-7, 30.0, 128.0, -150.0, 127.5, -1.0, 0.0], F32)
shared("exp_log_edges", {"expm1": np.expm1, "log1p": np.log1p, "exp2": np.exp2, "log2": np.log2,
                         "rsqrt": lambda v: 1 / np.sqrt(v), "sqrt": np.sqrt}, [x])
# NumPy's integer reciprocal truncates; Keras (JAX) promotes to float first.
f.case("reciprocal_int", "reciprocal", [np.array([2, 4, 0], I32)], 1 / np.array([2, 4, 0], F32))
f.case("fabs_int8_min", "fabs", [np.array([-128, 5], I8)], np.array([128, 5], F32))

# ---- arithmetic: dtype corners that numpy_core leaves out ----------------------------------
t, u = np.array([True, False, True]), np.array([True, True, False])
f.case("square_bool", "square", [t], t.astype(I32))  # Keras: bool -> int32
battery("int8_wraps", ["square", "negative", "abs", "sign"], [np.array([12, -100, -128, 0], I8)],
        [np.square(np.array([12, -100, -128, 0], I8)), -np.array([12, -100, -128, 0], I8),
         np.abs(np.array([12, -100, -128, 0], I8)), np.array([1, -1, -1, 0], I8)])
battery("bool_arith", ["add", "multiply", "maximum", "minimum", "power", "divide"], [t, u],
        [t | u, t & u, t | u, t & u, np.array([1, 0, 1], I32), np.array([1, 0, np.inf], F32)],
        arity=2)
f.case("abs_uint8", "absolute", [np.array([0, 255], U8)], np.array([0, 255], U8))
f.case("negative_bool_raises", "negative", [t], t, raises="TypeError")
f.case("subtract_bool_raises", "subtract", [t, t], t, raises="TypeError")
f.case("sign_bool_raises", "sign", [t], t, raises="TypeError")
f.case("sign_f64", "sign", [SPECIAL.astype(F64)], np.sign(SPECIAL.astype(F64)))
a, b = np.array([[2], [3]], I64), np.array([0, 1, 5], I64)
f.case("power_int64_broadcast", "power", [a, b], np.power(a, b))
a, b = np.array([100, -5], I8), np.array([-300, 7], I16)
shared("int8_int16", {"minimum": np.minimum, "maximum": np.maximum, "add": np.add,
                      "subtract": np.subtract, "multiply": np.multiply}, [a, b],
       promoted=[a.astype(I16), b])
f.case("add_shape_mismatch_raises", "add", [r(3), r(4)], r(3), raises="ValueError")

# ---- true_divide, divide_no_nan ------------------------------------------------------------
a, b = r(3, 4), r(4)
f.case("true_divide", "true_divide", [a, b], a / b)
a, b = np.array([7, -7, 0, 3], I32), np.array([2, 0, 0, -4], I32)
f.case("true_divide_int", "true_divide", [a, b], (a / b).astype(F32))
a, b = r(2, 3), r(3)
b[1] = 0.0
f.case("divide_no_nan", "divide_no_nan", [a, b], np.where(b == 0, 0, a / np.where(b == 0, 1, b)))
a = np.array([0.0, np.inf, np.nan, 1.0, -2.0], F32)
b = np.array([0.0, 0.0, 0.0, np.inf, -0.0], F32)
f.case("divide_no_nan_special", "divide_no_nan", [a, b], np.zeros(5, F32))
a, b = np.array([7, 1, 9], I32), np.array([2, 0, 3], I32)
f.case("divide_no_nan_int", "divide_no_nan", [a, b], np.array([3.5, 0, 3], F32))
a, b = r(4).astype(F64), np.array([1.0, 0.0, -3.0, 0.0])
f.case("divide_no_nan_f64", "divide_no_nan", [a, b], np.where(b == 0, 0, a / np.where(b == 0, 1, b)))
f.case("divide_no_nan_empty", "divide_no_nan", [np.zeros((0, 2), F32), r(2)], np.zeros((0, 2), F32))

# ---- floor_divide, mod, fmod ---------------------------------------------------------------
DIVMOD = {"floor_divide": np.floor_divide, "mod": np.mod, "fmod": np.fmod}
a = np.concatenate([r(6) * 5, [1.0, -1.0, 0.0, np.inf, 5.0, np.nan, -0.0, 3.0]]).astype(F32)
b = np.concatenate([f.uniform(0.5, 3, 6) * np.array([1, -1] * 3),
                    [0.0, 0.0, 0.0, 2.0, np.inf, 1.0, 2.0, -np.inf]]).astype(F32)
shared("divmod_f32", DIVMOD, [a, b])
shared("divmod_f64_broadcast", DIVMOD, [r(2, 3, 4).astype(F64) * 5, np.array([1.5, -2.0, 0.7, -0.3])])
a, b = np.array([7, -7, 7, -7, 5, 0, -2**31], I32), np.array([2, 2, -2, -2, 0, 0, -1], I32)
shared("divmod_i32", DIVMOD, [a, b])
shared("divmod_i8", DIVMOD, [np.array([-128, 100, -7], I8), np.array([-1, 7, 3], I8)])
shared("divmod_u8", DIVMOD, [np.array([200, 7, 9], U8), np.array([7, 200, 0], U8)])
shared("divmod_bool", DIVMOD, [t, np.array([True, True, True])], cast=lambda y: y.astype(I32))
shared("divmod_f16", DIVMOD, [r(5).astype(F16) * 4, np.array([1.5, -2.0, 0.7, -0.3, 3.0], F16)])
shared("divmod_0d", DIVMOD, [F32(7.5), F32(-2.0)], cast=F32)
shared("divmod_empty", DIVMOD, [np.zeros((0,), F32), F32(2)])
a = np.array([7, -8, 9], I16)
battery("divmod_weak", ["floor_divide_scalar", "mod_scalar", "fmod_scalar"], [a],
        [fn(a, I16(3)) for fn in DIVMOD.values()], scalar=3)
a, b = np.array([5, -5], I32), np.array([0.5, 0.75], F16)
shared("divmod_i32_f16", DIVMOD, [a, b], promoted=[a.astype(F16), b])

# ---- gcd, lcm, fmax, fmin ------------------------------------------------------------------
GCD = {"gcd": np.gcd, "lcm": np.lcm}
a = np.array([[12, -18, 0, 7], [100, 0, -6, 35]], I32)
shared("gcd_lcm_i32", GCD, [a, np.array([18, 12, 0, -21], I32)])
shared("gcd_lcm_i8", GCD, [np.array([-128, 96, 6], I8), np.array([4, -64, 4], I8)])
shared("gcd_lcm_i64", GCD, [np.array([12, 8], I64), np.array([8, 100000000000], I64)])
a, b = np.array([6, 9], U8), np.array([4, 6], I16)
shared("gcd_lcm_u8_i16", GCD, [a, b], promoted=[a.astype(I16), b])
battery("gcd_lcm_weak", ["gcd_scalar", "lcm_scalar"], [np.array([12, 18], I8)],
        [np.array([6, 6], I8), np.array([12, 18], I8)], scalar=6)
f.case("gcd_float_raises", "gcd", [r(3), r(3)], r(3), raises="TypeError")
f.case("lcm_bool_raises", "lcm", [np.array([True]), np.array([True])], r(1), raises="TypeError")
FMAX = {"fmax": np.fmax, "fmin": np.fmin}
a = np.array([1.0, np.nan, np.nan, 3.0, -np.inf], F32)
shared("fmax_fmin_nan", FMAX, [a, np.array([np.nan, 2.0, np.nan, 3.0, 0.0], F32)])
shared("fmax_fmin_broadcast", FMAX, [r(2, 3), r(3)])
shared("fmax_fmin_i32", FMAX, [np.array([3, -4], I32), np.array([-1, 9], I32)])

# ---- logaddexp, logaddexp2, ldexp ----------------------------------------------------------
LAE = {"logaddexp": np.logaddexp, "logaddexp2": np.logaddexp2}
shared("logaddexp_broadcast", LAE, [r(3, 4) * 5, r(4) * 5])
shared("logaddexp_f64", LAE, [r(6).astype(F64) * 30, r(6).astype(F64) * 30])
a = np.array([np.inf, -np.inf, -np.inf, np.nan, 1000.0, 5.0, np.inf], F32)
shared("logaddexp_special", LAE, [a, np.array([np.inf, -np.inf, 3.0, 1.0, 1000.0, 5.0, -np.inf], F32)])
shared("logaddexp_int", LAE, [np.array([1, 2], I32), np.array([3, -4], I32)], cast=lambda y: y.astype(F32))
a, b = r(4).astype(F16), r(4).astype(F16)
battery("logaddexp_f16", LAE.keys(), [a, b],
        [fn(a.astype(F32), b.astype(F32)).astype(F16) for fn in LAE.values()], arity=2)

a, e = r(3, 4), f.randint(-20, 20, 4)
f.case("ldexp", "ldexp", [a, e], np.ldexp(a, e))
a = np.array([1.5, 1e-45, 3e38, -2.0, 0.0, np.inf, np.nan, 1.0, 1.0], F32)
e = np.array([200, 276, -276, 1, 1000, -5, 3, -149, 127], I32)
f.case("ldexp_extremes_f32", "ldexp", [a, e], np.ldexp(a, e))
a = np.array([1.0, 4.9e-324, 1.7e308, 0.75, -3.0], F64)
e = np.array([1023, 2000, -2000, -1074, 5], I64)
f.case("ldexp_extremes_f64", "ldexp", [a, e], np.ldexp(a, e))
a, e = np.array([3, -1], I32), np.array([2, -3], I32)
f.case("ldexp_int", "ldexp", [a, e], np.ldexp(a, e).astype(F32))
a, e = np.array([0.5, 3.0, 1000.0], F16), np.array([-20, 2, 7], I8)
f.case("ldexp_f16", "ldexp", [a, e], np.ldexp(a, e))
f.case("ldexp_float_exponent_raises", "ldexp", [r(2), r(2)], r(2), raises="TypeError")
f.case("ldexp_bool_exponent_raises", "ldexp", [r(2), np.array([True, False])], r(2), raises="TypeError")

# ---- arctan2, hypot, heaviside, nextafter --------------------------------------------------
A2 = {"arctan2": np.arctan2, "hypot": np.hypot}
shared("atan2_hypot_broadcast", A2, [r(3, 4), r(4)])
shared("atan2_hypot_outer_large", A2, [r(3, 1) * 1e20, r(1, 4) * 1e20])
shared("atan2_hypot_f64", A2, [r(5).astype(F64), r(5).astype(F64)])
a = np.array([0.0, -0.0, 0.0, -0.0, 1.0, -1.0, np.inf, np.inf, np.nan, np.inf], F32)
b = np.array([0.0, 0.0, -0.0, -0.0, 0.0, 0.0, np.inf, -np.inf, 1.0, np.nan], F32)
shared("atan2_hypot_special", A2, [a, b])
shared("atan2_hypot_int", A2, [np.array([3, -1, 0], I32), np.array([4, -1, 2], I32)],
       cast=lambda y: y.astype(F32))
a, b = r(4).astype(F16), r(4).astype(F16)
battery("atan2_hypot_f16", A2.keys(), [a, b],
        [fn(a.astype(F32), b.astype(F32)).astype(F16) for fn in A2.values()], arity=2)
# JAX's to_inexact: int64 hypot (and heaviside) compute in float64, arctan2 in floatx.
a, b = np.array([3, 5], I64), np.array([4, -12], I64)
battery("int64_inexact", ["hypot", "heaviside", "arctan2"], [a, b],
        [np.hypot(a, b), np.heaviside(a, b).astype(F64), np.arctan2(a, b).astype(F32)], arity=2)

a = np.array([-1.5, 0.0, -0.0, 2.0, np.nan, np.inf, -np.inf], F32)
f.case("heaviside", "heaviside", [a, np.array([0.5], F32)], np.heaviside(a, F32(0.5)))
a, b = np.array([[-2], [0], [3]], I32), np.array([7, 1], I32)
f.case("heaviside_int", "heaviside", [a, b], np.heaviside(a, b).astype(F32))
a = np.array([-1.0, 0.0, 2.5], F64)
f.case("heaviside_f64_0d", "heaviside", [a, F64(0.25)], np.heaviside(a, 0.25))
a = np.array([1.0, 1.0, 0.0, 0.0, -1.0, np.nan, 2.0, np.inf, 3.4028235e38], F32)
b = np.array([2.0, 0.0, 1.0, -1.0, -np.inf, 1.0, 2.0, 0.0, np.inf], F32)
f.case("nextafter_f32", "nextafter", [a, b], np.nextafter(a, b))
f.case("nextafter_f64", "nextafter", [a.astype(F64), b.astype(F64)],
       np.nextafter(a.astype(F64), b.astype(F64)))
a, b = np.array([1.0, 0.0, -2.0, 65504.0, 6e-8], F16), np.array([2.0, -1.0, 0.0, np.inf, 0.0], F16)
f.case("nextafter_f16", "nextafter", [a, b], np.nextafter(a, b))
a, b = np.array([1, 0], I32), np.array([2, -1], I32)
f.case("nextafter_int", "nextafter", [a, b], np.nextafter(a.astype(F32), b.astype(F32)))

# ---- rounding and clipping -----------------------------------------------------------------
x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, 2.4999, -2.6, np.nan, np.inf], F32)
shared("round_trunc", {"round": np.round, "trunc": np.trunc}, [x])
x = r(3, 4) * 100
f.case("round_decimals_2", "round", [x], np.round(x, 2), decimals=2)
f.case("round_decimals_neg1", "round", [x], np.round(x, -1), decimals=-1)
f.case("round_decimals_beyond_precision", "round", [x], x, decimals=40)
x64 = r(6).astype(F64) * 1000
f.case("round_f64_decimals_3", "round", [x64], np.round(x64, 3), decimals=3)
f.case("round_f64_decimals_neg2", "round", [x64], np.round(x64, -2), decimals=-2)
xi = np.array([15, 25, -15, 1234, -1250, 7], I32)
f.case("round_int_neg1", "round", [xi], np.round(xi, -1), decimals=-1)
f.case("round_int_neg2", "round", [xi], np.round(xi, -2), decimals=-2)
f.case("round_int_pos", "round", [xi], xi, decimals=2)
x16 = np.array([1.234, -5.678, 100.5, 3000.0], F16)
# JAX scales float16 in float32 (NumPy scales in float16 and can overflow): round in float32.
f.case("round_f16_decimals_1", "round", [x16], np.round(x16.astype(F32), 1).astype(F16), decimals=1)
# Keras keeps integers for trunc and round (NumPy 1.x gives float64 for trunc); floor and ceil
# of integers give floatx.
battery("rounding_int", ["round", "trunc", "floor", "ceil"], [np.array([3, -4], I64)],
        [np.array([3, -4], I64), np.array([3, -4], I64), np.array([3, -4], F32), np.array([3, -4], F32)])
battery("rounding_bool", ["round", "trunc"], [t], [t, t])
shared("rounding_f64_0d", {"round": np.round, "trunc": np.trunc, "floor": np.floor, "ceil": np.ceil},
       [F64(-2.5)], cast=F64)

x = r(3, 4) * 3
f.case("clip", "clip", [x], np.clip(x, -1.0, 2.0), x_min=-1.0, x_max=2.0)
f.case("clip_min_above_max", "clip", [x], np.clip(x, 1.0, -1.0), x_min=1.0, x_max=-1.0)
x = np.array([np.nan, np.inf, -np.inf, 0.5], F32)
f.case("clip_special", "clip", [x], np.clip(x, -1, 1), x_min=-1, x_max=1)
xi = np.array([-5, 0, 1, 2, 3, 9], I32)
# Keras keeps the integer dtype; bounds 0.5 and 2.5 admit the integers 1..2.
f.case("clip_int_float_bounds", "clip", [xi], np.clip(xi, 1, 2), x_min=0.5, x_max=2.5)
f.case("clip_int", "clip", [xi], np.clip(xi, -1, 3), x_min=-1, x_max=3)
xu = np.array([0, 7, 255], U8)
f.case("clip_uint8_wide_bounds", "clip", [xu], xu, x_min=-5, x_max=300)  # Keras keeps uint8
f.case("clip_bool", "clip", [t], t.astype(I32), x_min=0, x_max=1)  # Keras: bool -> int32
x16 = r(5).astype(F16)
f.case("clip_f16", "clip", [x16], np.clip(x16, F16(-0.5), F16(0.5)), x_min=-0.5, x_max=0.5)
f.case("clip_0d", "clip", [F32(5.0)], F32(2.0), x_min=0, x_max=2)
x = np.array([-(2**62), 2**62], I64)
f.case("clip_int64_huge_bounds", "clip", [x], x, x_min=-1e300, x_max=1e300)

x = np.array([np.nan, np.inf, -np.inf, 1.5, -0.0], F32)
f.case("nan_to_num", "nan_to_num", [x], np.nan_to_num(x))
f.case("nan_to_num_values", "nan_to_num", [x], np.nan_to_num(x, nan=-1.0, posinf=9.0, neginf=-9.0),
       nan=-1.0, posinf=9.0, neginf=-9.0)
f.case("nan_to_num_posinf", "nan_to_num", [x], np.nan_to_num(x, nan=2.0, posinf=7.0), nan=2.0, posinf=7.0)
f.case("nan_to_num_neginf", "nan_to_num", [x], np.nan_to_num(x, neginf=-7.0), neginf=-7.0)
f.case("nan_to_num_f16", "nan_to_num", [x.astype(F16)], np.nan_to_num(x.astype(F16)))
f.case("nan_to_num_f64", "nan_to_num", [x.astype(F64)], np.nan_to_num(x.astype(F64)))
f.case("nan_to_num_int", "nan_to_num", [xi], xi)
f.case("nan_to_num_f16_big", "nan_to_num", [x.astype(F16)], np.nan_to_num(x.astype(F16), posinf=1e6),
       posinf=1e6)

# ---- complex parts -------------------------------------------------------------------------
CPLX = {"angle": np.angle, "real": np.real, "imag": np.imag, "conj": np.conj,
        "conjugate": np.conjugate}
x = np.array([2.0, -3.0, 0.0, -0.0, np.nan, -np.inf], F32)
shared("complex_f32", CPLX, [x], cast=lambda y: np.asarray(y, F32))
shared("complex_f64", CPLX, [x.astype(F64)])
# angle of integers gives floatx; the other parts keep the dtype.
battery("complex_int", CPLX.keys(), [xi],
        [np.angle(xi).astype(F32), xi, np.zeros_like(xi), xi, xi])
shared("complex_0d", CPLX, [F32(-1.5)], cast=F32)

# ---- bitwise -------------------------------------------------------------------------------
BIT = {"bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor}
a = np.array([[12, -7, 0, 255], [1, 2, 3, -1]], I32)
b = np.array([10, 3, -1, 15], I32)
shared("bitwise_i32", BIT, [a, b])
shared("bitwise_u8", BIT, [np.array([0xF0, 0x0F, 0xAA], U8), np.array([0x3C, 0xFF, 0x55], U8)])
ta, tb = np.array([True, True, False, False]), np.array([True, False, True, False])
shared("bitwise_bool", BIT, [ta, tb])
a, b = np.array([-100, 100], I8), np.array([1000, -1000], I16)
shared("bitwise_i8_i16", BIT, [a, b], promoted=[a.astype(I16), b])
a = np.array([5, 6], I8)
battery("bitwise_weak", [n + "_scalar" for n in BIT], [a], [fn(a, I8(3)) for fn in BIT.values()],
        scalar=3)
INV = {"bitwise_invert": np.invert, "bitwise_not": np.invert}
shared("invert_i32", INV, [b])
shared("invert_u8", INV, [np.array([0, 0xF0], U8)])
shared("invert_bool", INV, [t])
for name in list(BIT) + list(INV):
    ins = [r(2)] if name in INV else [r(2), np.array([1, 2], I32)]
    f.case(f"{name}_float_raises", name, ins, r(2), raises="TypeError")
SHIFT = {"left_shift": np.left_shift, "bitwise_left_shift": np.left_shift,
         "right_shift": np.right_shift, "bitwise_right_shift": np.right_shift}
x = np.array([1, -1, 5, -128, 3, 7, 1, -9], I32)
s = np.array([0, 1, 31, 2, 32, 40, -1, -1], I32)
shared("shift_i32", SHIFT, [x, s])
xb, sb = np.array([[1, 100, -100]], I8), np.array([[1], [7], [9]], I8)
shared("shift_i8_broadcast", SHIFT, [xb, sb])
shared("shift_u8", SHIFT, [np.array([255, 128, 1], U8), np.array([1, 7, 8], U8)])
a = np.array([1, 64], I16)
battery("shift_weak", [n + "_scalar" for n in SHIFT], [a], [fn(a, I16(2)) for fn in SHIFT.values()],
        scalar=2)
# JAX's promote_dtypes_numeric: bool shifts compute in int32.
battery("shift_bool", SHIFT.keys(), [np.array([True, True]), np.array([True, False])],
        [fn(np.array([1, 1], I32), np.array([1, 0], I32)) for fn in SHIFT.values()], arity=2)
for name in SHIFT:
    f.case(f"{name}_float_raises", name, [r(2), np.array([1, 2], I32)], r(2), raises="TypeError")

# ---- predicates ----------------------------------------------------------------------------
PRED = {"isfinite": np.isfinite, "isinf": np.isinf, "isnan": np.isnan, "isposinf": np.isposinf,
        "isneginf": np.isneginf, "signbit": np.signbit, "isreal": np.isreal}
x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, -2.5, 3.0], F32)
for kind, xk in [("f32", x), ("f16", x.astype(F16)), ("f64", x.astype(F64).reshape(1, 7)),
                 ("i32", np.array([-3, 0, 4], I32)), ("u8", np.array([0, 255], U8)),
                 ("bool", t), ("empty", np.zeros((0, 3), F32)), ("0d", F32(-np.inf))]:
    shared(f"predicates_{kind}", PRED, [xk], cast=lambda y: np.asarray(y, bool))

a = np.array([1.0, 1.0, np.inf, np.inf, np.nan, 1e-9, 100.0, 0.0], F32)
b = np.array([1.0 + 1e-6, 1.1, np.inf, -np.inf, np.nan, 0.0, 100.001, 1e-8], F32)
f.case("isclose", "isclose", [a, b], np.isclose(a, b))
f.case("isclose_equal_nan", "isclose", [a, b], np.isclose(a, b, equal_nan=True), equal_nan=True)
f.case("isclose_tolerances", "isclose", [a, b], np.isclose(a, b, rtol=0.2, atol=1e-3), rtol=0.2, atol=1e-3)
a, b = r(3, 4), r(4)
b[0] = a[0, 0] * (1 + 1e-6)
f.case("isclose_broadcast", "isclose", [a, b], np.isclose(a, b))
a, b = np.array([1, 5, 10], I32), np.array([1, 6, 10], I32)
f.case("isclose_int", "isclose", [a, b], np.isclose(a, b))
a64, b64 = np.array([1.0, 1.0 + 1e-9, 2.0]), np.array([1.0 + 2e-5, 1.0, 2.0 + 3e-8])
f.case("isclose_f64", "isclose", [a64, b64], np.isclose(a64, b64))
f.case("allclose_true", "allclose", [a64, a64 + 1e-9], np.array(np.allclose(a64, a64 + 1e-9)))
f.case("allclose_false", "allclose", [a64, b64], np.array(np.allclose(a64, b64)))
x = np.array([1.0, np.nan], F32)
f.case("allclose_nan", "allclose", [x, x], np.array(np.allclose(x, x)))
f.case("allclose_equal_nan", "allclose", [x, x], np.array(np.allclose(x, x, equal_nan=True)), equal_nan=True)
f.case("allclose_empty", "allclose", [np.zeros((0,), F32), np.zeros((0,), F32)], np.array(True))
f.case("isclose_shape_mismatch_raises", "isclose", [r(3), r(2)], r(3), raises="ValueError")

# ---- logic and comparisons -----------------------------------------------------------------
LOGIC = {"logical_and": np.logical_and, "logical_or": np.logical_or,
         "logical_xor": np.logical_xor}
shared("logic_float", LOGIC, [np.array([[0.0, 1.0, np.nan, -2.0]], F32), np.array([[0.0], [3.0]], F32)])
shared("logic_bool", LOGIC, [ta, tb])
shared("logic_int", LOGIC, [np.array([0, 3, -1], I32), np.array([5, 0, 2], I32)])
shared("logic_empty", LOGIC, [np.zeros((0,), bool), np.array([True])])
battery("logical_not_int", ["logical_not"], [np.array([0, 3, -1], I16)], [np.array([True, False, False])])
CMP = {"less": np.less, "equal": np.equal, "greater_equal": np.greater_equal,
       "not_equal": np.not_equal, "less_equal": np.less_equal, "greater": np.greater}
# int32 with float16 promotes to float16 (JAX's lattice).
a, b = np.array([1, 2, 3], I32), np.array([1.5, 2.0, 2.5], F16)
shared("compare_i32_f16", CMP, [a, b], promoted=[a.astype(F16), b])
shared("compare_special", CMP, [np.array([np.nan, np.inf, -0.0, 1.0], F32),
                                np.array([np.nan, np.inf, 0.0, np.nan], F32)])
a = np.array([1, 2, 3], U8)
battery("compare_weak", [n + "_scalar" for n in CMP], [a], [fn(a, 2) for fn in CMP.values()],
        scalar=2)
f.case("where_0d_scalars", "where", [t, F32(1.0), np.array([5, 6, 7], I32)],
       np.where(t, F32(1.0), np.array([5, 6, 7], I32)).astype(F32))
f.case("where_empty", "where", [np.zeros((0, 2), bool), r(2), r(1)], np.zeros((0, 2), F32))

# ---- Tensor operators ----------------------------------------------------------------------
OPS = {"operator%": np.mod, "operator&": np.bitwise_and, "operator|": np.bitwise_or,
       "operator^": np.bitwise_xor}
shared("operators_i32", OPS, [np.array([7, -7, 9, 0], I32), np.array([3, 3, -4, 5], I32)])
shared("operators_bool", {k: v for k, v in OPS.items() if k != "operator%"}, [ta, tb])
battery("operator_invert", ["operator~", "operator~"], [np.array([7, -7], I32), ta],
        [np.invert(np.array([7, -7], I32)), ~ta])
a, b = r(2, 3) * 4, np.array([1.5, -2.0, 0.5], F32)
f.case("operator_mod_float", "operator%", [a, b], np.mod(a, b))
f.case("operator_and_float_raises", "operator&", [a, a], a, raises="TypeError")

f.save()
