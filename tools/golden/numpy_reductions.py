"""Fixtures for reductions, statistics, cumulative ops, sorting/searching, set operations and
keras.ops.math logsumexp/top_k/in_top_k/segment_*. Writes tests/golden/numpy_reductions.npz.

Keras's dtypes follow JAX, not NumPy: where they differ, the expected output is cast to the
dtype Keras gives and the comment says why. Two rules recur:
- NumPy accumulates sums, products and counts of small integers in int64 (the platform int);
  Keras gives int32 (JAX's int), and keeps the input dtype for cumsum/cumprod.
- NumPy's quantiles, averages and statistics of integers come out in float64; Keras gives
  floatx (float32). NumPy's quantile of float32 also computes in float64; Keras stays float32.
keras-cpp has no uint32: where Keras gives uint32 (sums of uint8) it gives int32, as Keras's
torch backend does.
"""

import numpy as np

from fixture import Fixture

# Two files, each under the size budget: reductions and statistics here, then sorting,
# searching, sets, counting and the keras.ops.math reductions in numpy_reductions_sorting.
f = Fixture("numpy_reductions", seed=7)
r = f.randn


def case(name, op, inputs, outputs, **kwargs):
    """A case of the current fixture; error cases store no outputs."""
    f.case(name, op, inputs, [] if kwargs.get("raises") else outputs, **kwargs)


NAN = np.nan
INF = np.inf


def f32(a):
    return np.asarray(a, dtype=np.float32)


def i32(a):
    return np.asarray(a).astype(np.int32)


def ax(axis):
    return tuple(axis) if isinstance(axis, list) else axis


# ---- basic reductions ----------------------------------------------------------------------
x3 = r(3, 4, 5)
x64 = r(4, 6).astype(np.float64)
axis_cases = {"all": None, "axis0": 0, "axis_neg": -1, "axes": [0, 2]}
keep_of = {"axes": True}
# Every op: all axes, and an axis list with keepdims; the first ops of the list also single
# axes (positive and negative), a strided (transposed) input, float64 and a 0-d input.
for i, (name, fn) in enumerate([
        ("sum", np.sum), ("max", np.max), ("var", np.var), ("median", np.median),
        ("prod", np.prod), ("mean", np.mean), ("min", np.min), ("std", np.std),
        ("nanmedian", np.nanmedian), ("amax", np.amax), ("amin", np.amin), ("ptp", np.ptp),
        ("nansum", np.nansum), ("nanprod", np.nanprod), ("nanmean", np.nanmean),
        ("nanmax", np.nanmax), ("nanmin", np.nanmin), ("nanvar", np.nanvar),
        ("nanstd", np.nanstd)]):
    for cname, axis in axis_cases.items():
        if i >= 4 and cname in ("axis0", "axis_neg"):
            continue
        kd = keep_of.get(cname, False)
        kw = {"axis": axis, "keepdims": kd}
        case(f"{name}_{cname}", name, [x3], f32(fn(x3, axis=ax(axis), keepdims=kd)),
               **kw)
    if i < 4:
        case(f"{name}_transposed_view", name + "_of_transpose", [x3],
               f32(fn(x3.transpose(2, 0, 1), axis=1)), axis=1, axes=[2, 0, 1])
    if i < 8:
        case(f"{name}_float64", name, [x64], fn(x64, axis=1), axis=1)
        case(f"{name}_0d", name, [np.float32(1.75)], f32(fn(np.float32(1.75))))

# Empty reductions: sums give the identity, max/min/ptp have none and raise.
e = np.zeros((0, 3), np.float32)
case("sum_empty_axis0", "sum", [e], np.zeros(3, np.float32), axis=0)
case("prod_empty_axis0", "prod", [e], np.ones(3, np.float32), axis=0)
case("sum_empty_axis1", "sum", [e], np.zeros(0, np.float32), axis=1)
case("max_empty_axis1_ok", "max", [e], np.zeros(0, np.float32), axis=1)
case("amax_empty_raises", "amax", [e], e, axis=0, raises="ValueError")
case("amin_empty_raises", "amin", [e], e, axis=None, raises="ValueError")
case("ptp_empty_raises", "ptp", [e], e, axis=0, raises="ValueError")
case("max_initial_empty", "max_initial", [e], np.full(3, -2.5, np.float32), axis=0, initial=-2.5)
xm = r(3, 4)
case("max_initial", "max_initial", [xm], np.max(xm, axis=1, initial=0.5), axis=1, initial=0.5)
case("min_initial", "min_initial", [xm], np.min(xm, axis=0, initial=-0.25), axis=0, initial=-0.25)
case("mean_empty_nan", "mean", [e], np.full(3, NAN, np.float32), axis=0)
case("sum_axis_out_of_range_raises", "sum", [x3], x3, axis=3, raises="ValueError")
case("sum_axis_repeated_raises", "sum", [x3], x3, axis=[1, -2], raises="ValueError")

# Integer and bool dtypes.
xi = f.randint(-9, 9, 4, 5)
case("sum_int32", "sum", [xi], np.sum(xi, axis=0).astype(np.int32), axis=0)
case("prod_int32", "prod", [xi], np.prod(xi, axis=1).astype(np.int32), axis=1)
big = np.array([1 << 20, 1 << 15, 3], np.int32)
# NumPy multiplies in int64; Keras in int32, which wraps (the int64 product taken mod 2^32).
case("prod_int32_wraps", "prod", [big], np.int32(np.prod(big.astype(np.int64)).astype(np.int32)))
x8 = np.array([[100, 100, 100], [-128, -1, 7]], np.int8)
case("sum_int8_to_int32", "sum", [x8], np.sum(x8, axis=1).astype(np.int32), axis=1)
case("prod_int8_to_int32", "prod", [x8], np.prod(x8.astype(np.int64), axis=1).astype(np.int32), axis=1)
xu8 = np.array([200, 100, 7], np.uint8)
case("sum_uint8_to_int32", "sum", [xu8], np.int32(307))
xb = np.array([[True, False, True], [False, False, True]])
case("sum_bool", "sum", [xb], np.sum(xb, axis=0).astype(np.int32), axis=0)
case("prod_bool", "prod", [xb], np.prod(xb, axis=1).astype(np.int32), axis=1)
case("prod_dtype_arg", "prod", [xi], np.prod(xi.astype(np.float32), axis=0), axis=0, dtype="float32")
case("mean_int", "mean", [xi], np.mean(xi, axis=1).astype(np.float32), axis=1)
case("max_int", "max", [xi], np.max(xi, axis=1), axis=1)
case("amin_int8", "amin", [x8], np.amin(x8, axis=1), axis=1)
case("ptp_int", "ptp", [xi], np.ptp(xi, axis=0), axis=0)
case("max_bool", "max", [xb], np.max(xb, axis=1), axis=1)
case("var_int", "var", [xi], np.var(xi, axis=0).astype(np.float32), axis=0)
case("std_int64", "std", [xi.astype(np.int64)], np.std(xi).astype(np.float32))
case("median_int", "median", [xi], np.median(xi, axis=1).astype(np.float32), axis=1)
xh = r(3, 8).astype(np.float16)
# float16: Keras (JAX) computes sum/mean in float32 and var in float32 before casting back.
case("sum_float16", "sum", [xh], np.sum(xh.astype(np.float32), axis=1).astype(np.float16), axis=1)
case("mean_float16", "mean", [xh], np.mean(xh.astype(np.float32), axis=1).astype(np.float16), axis=1)
case("var_float16", "var", [xh], np.var(xh.astype(np.float32), axis=1).astype(np.float16), axis=1)
case("std_float16", "std", [xh], np.std(xh.astype(np.float32), axis=1).astype(np.float16), axis=1)
case("max_float16", "max", [xh], np.max(xh, axis=0), axis=0)
case("median_float16", "median", [xh], np.median(xh.astype(np.float32), axis=1).astype(np.float16), axis=1)
case("var_float64_all", "var", [x64], np.var(x64))

# NaN and inf: plain reductions propagate NaN, the nan* forms skip it.
xn = f32([[1.0, NAN, 3.0, -2.0], [NAN, NAN, NAN, NAN], [INF, 2.0, -INF, 0.5]])
with np.errstate(all="ignore"):
    import warnings
    warnings.simplefilter("ignore")
    for name, fn in [("sum", np.sum), ("max", np.max), ("min", np.min), ("mean", np.mean),
                     ("var", np.var), ("median", np.median),
                     ("nansum", np.nansum), ("nanprod", np.nanprod), ("nanmean", np.nanmean),
                     ("nanmax", np.nanmax), ("nanmin", np.nanmin), ("nanvar", np.nanvar),
                     ("nanstd", np.nanstd), ("nanmedian", np.nanmedian)]:
        case(f"{name}_nan_rows", name, [xn[:2]], f32(fn(xn[:2], axis=1)), axis=1)
    case("max_inf", "max", [xn[2]], np.max(xn[2]))
    case("sum_inf_cancel", "sum", [xn[2]], np.sum(xn[2]))
# Long contiguous runs take the vectorized lanes of the cpu kernel; NaN must still win.
xln = r(3, 40)
xln[0, 17] = NAN
xln[2, 39] = NAN
case("max_nan_long", "max", [xln], np.max(xln, axis=1), axis=1)
case("min_nan_long", "min", [xln], np.min(xln, axis=1), axis=1)
case("amin_long_no_nan", "amin", [xln[1]], np.amin(xln[1]))
case("nanmax_long", "nanmax", [xln], np.nanmax(xln, axis=1), axis=1)
case("max_float64_long_nan", "max", [xln.astype(np.float64)], np.max(xln.astype(np.float64)))
case("nansum_int", "nansum", [xi], np.sum(xi, axis=1).astype(np.int32), axis=1)
case("nanmean_int", "nanmean", [xi], np.mean(xi, axis=1).astype(np.float32), axis=1)
case("nanmax_int", "nanmax", [xi], np.max(xi, axis=1), axis=1)

# all / any / count_nonzero.
xl = np.array([[0.0, 1.0, 2.0], [0.0, 0.0, 0.0], [NAN, 0.0, -1.0]], np.float32)
for name, fn in [("all", np.all), ("any", np.any)]:
    case(f"{name}_float", name, [xl], fn(xl, axis=1), axis=1)
    case(f"{name}_all", name, [xl], fn(xl))
    case(f"{name}_keepdims", name, [xb], fn(xb, axis=0, keepdims=True), axis=0, keepdims=True)
    case(f"{name}_int", name, [xi], fn(xi, axis=0), axis=0)
    case(f"{name}_empty", name, [e], fn(e, axis=0), axis=0)
    case(f"{name}_0d", name, [np.float32(0)], fn(np.float32(0)))
case("count_nonzero_all", "count_nonzero", [xl], np.int32(np.count_nonzero(xl)))
case("count_nonzero_axis", "count_nonzero", [xl], np.count_nonzero(xl, axis=0).astype(np.int32), axis=0)
case("count_nonzero_axes", "count_nonzero", [x3 > 0], np.count_nonzero(x3 > 0, axis=(0, 2)).astype(np.int32), axis=[0, 2])
case("count_nonzero_int", "count_nonzero", [xi], np.count_nonzero(xi, axis=1).astype(np.int32), axis=1)

# logsumexp (NumPy, stably in float64).
def logsumexp(x, axis=None, keepdims=False):
    x = np.asarray(x, np.float64)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


for cname, axis in axis_cases.items():
    kd = keep_of.get(cname, False)
    case(f"logsumexp_{cname}", "logsumexp", [x3], f32(logsumexp(x3, ax(axis), kd)),
           axis=axis, keepdims=kd)
xls = f32([[1000.0, 1000.0, -5.0], [-INF, -INF, -INF], [-1000.0, -1001.0, -INF]])
case("logsumexp_large", "logsumexp", [xls], f32(logsumexp(xls, 1)), axis=1)
case("logsumexp_int", "logsumexp", [xi], f32(logsumexp(xi, 1)), axis=1)
case("logsumexp_float64", "logsumexp", [x64], logsumexp(x64, 0), axis=0)
case("logsumexp_empty", "logsumexp", [e], np.full(3, -INF, np.float32), axis=0)

# ---- arg-reductions (Keras: int32) ---------------------------------------------------------
xa = f32([[3.0, 7.0, 7.0, -1.0], [2.0, 2.0, 0.5, 9.0], [-4.0, -4.0, -4.0, -4.0]])
for name, fn in [("argmax", np.argmax), ("argmin", np.argmin)]:
    case(f"{name}_flat", name, [xa], np.int32(fn(xa)))
    case(f"{name}_axis0", name, [xa], i32(fn(xa, axis=0)), axis=0)
    case(f"{name}_axis_neg_keepdims", name, [xa], i32(fn(xa, axis=-1, keepdims=True)), axis=-1, keepdims=True)
    case(f"{name}_flat_keepdims", name, [xa], i32(fn(xa, keepdims=True)), keepdims=True)
    case(f"{name}_int", name, [xi], i32(fn(xi, axis=1)), axis=1)
    case(f"{name}_bool", name, [xb], i32(fn(xb, axis=1)), axis=1)
    case(f"{name}_nan", name, [xn[:1]], i32(fn(xn[:1], axis=1)), axis=1)
    case(f"{name}_float16", name, [xh], i32(fn(xh, axis=1)), axis=1)
    case(f"{name}_0d", name, [np.float32(3)], np.int32(0))
    case(f"{name}_empty_raises", name, [e], e, axis=0, raises="ValueError")
    case(f"{name}_empty_other_axis", name, [e], np.zeros(0, np.int32), axis=1)
xnn = f32([[1.0, NAN, 3.0, -2.0], [NAN, NAN, NAN, NAN], [NAN, 5.0, 5.0, NAN]])
# JAX gives -1 for an all-NaN slice where NumPy raises.
case("nanargmax", "nanargmax", [xnn], i32([2, -1, 1]), axis=1)
case("nanargmin", "nanargmin", [xnn], i32([3, -1, 1]), axis=1)
case("nanargmax_flat", "nanargmax", [xnn], np.int32(np.nanargmax(xnn)))
case("nanargmin_axis0", "nanargmin", [xnn[[0, 2]]], i32(np.nanargmin(xnn[[0, 2]], axis=0)), axis=0)
case("nanargmax_int", "nanargmax", [xi], i32(np.argmax(xi, axis=0)), axis=0)

# ---- cumulative ----------------------------------------------------------------------------
xc = r(3, 4)
for i, (name, fn) in enumerate([("cumsum", np.cumsum), ("cumprod", np.cumprod),
                                ("nancumsum", np.nancumsum), ("nancumprod", np.nancumprod)]):
    case(f"{name}_flat", name, [xc], f32(fn(xc)))
    case(f"{name}_axis_neg", name, [xc], f32(fn(xc, axis=-1)), axis=-1)
    case(f"{name}_nan", name, [xn[:1]], f32(fn(xn[:1], axis=1)), axis=1)
    # NumPy accumulates int8 in int64; Keras keeps int8 (wrapping) and counts bool in int32.
    case(f"{name}_int8_wraps", name, [x8], fn(x8, axis=1, dtype=np.int8), axis=1)
    case(f"{name}_bool", name, [xb], fn(xb, axis=1, dtype=np.int32), axis=1)
    if i >= 2:
        continue
    case(f"{name}_axis0", name, [xc], f32(fn(xc, axis=0)), axis=0)
    case(f"{name}_transposed", name + "_of_transpose", [x3], f32(fn(x3.transpose(2, 0, 1), axis=2)),
           axis=2, axes=[2, 0, 1])
    case(f"{name}_float64", name, [x64], fn(x64, axis=1), axis=1)
    case(f"{name}_empty", name, [e], fn(e, axis=0), axis=0)
    case(f"{name}_0d", name, [np.float32(2.5)], f32([2.5]))
    case(f"{name}_dtype_arg", name, [xi], fn(xi, axis=0, dtype=np.float32), axis=0, dtype="float32")
    case(f"{name}_float16", name, [xh[:, :4]], fn(xh[:, :4].astype(np.float64), axis=1).astype(np.float16), axis=1)
    case(f"{name}_bad_axis_raises", name, [xc], xc, axis=2, raises="ValueError")
# Scans down a non-innermost axis run a row at a time in the cpu kernel.
xr = r(6, 20)
case("cumsum_rows_axis0", "cumsum", [xr], np.cumsum(xr, axis=0, dtype=np.float64).astype(np.float32), axis=0)
xr3 = f.uniform(0.8, 1.25, 3, 5, 12)
case("cumprod_rows_axis1", "cumprod", [xr3], np.cumprod(xr3, axis=1, dtype=np.float64).astype(np.float32), axis=1)
xr8 = f.randint(-128, 128, 4, 16).astype(np.int8)
case("cumsum_rows_int8_wraps", "cumsum", [xr8], np.cumsum(xr8, axis=0, dtype=np.int8), axis=0)
xrn = xr.copy()
xrn[1, ::3] = NAN
case("nancumsum_rows", "nancumsum", [xrn], np.nancumsum(xrn, axis=0, dtype=np.float64).astype(np.float32), axis=0)
xr16 = xr.astype(np.float16)
case("cumsum_rows_float16", "cumsum", [xr16], np.cumsum(xr16.astype(np.float64), axis=0).astype(np.float16), axis=0)
xz = f32([[2.0, 0.0, 3.0, 0.0, 5.0], [1.5, -2.0, 0.5, 4.0, 1.0]])
case("cumprod_zeros", "cumprod", [xz], np.cumprod(xz, axis=1), axis=1)

# ---- trapezoid ---------------------------------------------------------------------------
yt = r(3, 6)
case("trapezoid_default", "trapezoid", [yt], f32(np.trapz(yt)))
case("trapezoid_dx", "trapezoid", [yt], f32(np.trapz(yt, dx=0.5, axis=0)), dx=0.5, axis=0)
xs1 = np.sort(f.uniform(0, 5, 6))
case("trapezoid_x1d", "trapezoid_x", [yt, xs1], f32(np.trapz(yt, x=xs1)))
xs2 = np.sort(f.uniform(0, 5, 3, 6), axis=1)
case("trapezoid_x2d", "trapezoid_x", [yt, xs2], f32(np.trapz(yt, x=xs2, axis=1)), axis=1)
case("trapezoid_int", "trapezoid", [xi], f32(np.trapz(xi.astype(np.float64))))
case("trapezoid_float64", "trapezoid", [x64], np.trapz(x64, axis=0), axis=0)
case("trapezoid_single", "trapezoid", [r(4, 1)], np.zeros(4, np.float32))
case("trapezoid_empty", "trapezoid", [np.zeros((2, 0), np.float32)], np.zeros(2, np.float32))
case("trapezoid_x_mismatch_raises", "trapezoid_x", [yt, r(5)], yt, raises="ValueError")

# ---- average -----------------------------------------------------------------------------
xw = r(3, 4)
w2 = f.uniform(0.1, 2, 3, 4)
w1 = f.uniform(0.1, 2, 4)
case("average_plain", "average", [xw], f32(np.average(xw)))
case("average_axis", "average", [xw], f32(np.average(xw, axis=0)), axis=0)
case("average_weights_same_shape", "average_w", [xw, w2], f32(np.average(xw, axis=1, weights=w2)), axis=1)
case("average_weights_all", "average_w", [xw, w2], f32(np.average(xw, weights=w2)))
case("average_weights_1d", "average_w", [xw, w1], f32(np.average(xw, axis=1, weights=w1)), axis=1)
case("average_weights_1d_list_axis", "average_w", [xw, w1], f32(np.average(xw, axis=1, weights=w1)), axis=[-1])
case("average_int", "average", [xi], f32(np.average(xi, axis=1)), axis=1)
wi = f.uniform(0.1, 2, 5)
case("average_int_float_weights", "average_w", [xi, wi], f32(np.average(xi, axis=1, weights=wi)), axis=1)
case("average_weights_no_axis_raises", "average_w", [xw, w1], xw, raises="ValueError")
case("average_weights_bad_length_raises", "average_w", [xw, r(3)], xw, axis=1, raises="ValueError")

# ---- corrcoef ----------------------------------------------------------------------------
xcc = r(3, 7)
case("corrcoef_2d", "corrcoef", [xcc], f32(np.corrcoef(xcc)))
case("corrcoef_1d", "corrcoef", [xcc[0]], f32(np.corrcoef(xcc[0])))
case("corrcoef_int", "corrcoef", [xi], f32(np.corrcoef(xi)))
case("corrcoef_float64", "corrcoef", [x64], np.corrcoef(x64))
case("corrcoef_3d_raises", "corrcoef", [x3], x3, raises="ValueError")

# ---- quantiles ---------------------------------------------------------------------------
xq = r(4, 7)
qs = np.array([0.0, 0.1, 0.5, 0.77, 1.0])
for method in ["linear", "lower", "higher", "midpoint", "nearest"]:
    case(f"quantile_{method}", "quantile", [xq, qs], f32(np.quantile(xq, qs, axis=1, method=method)),
           axis=1, method=method)
case("quantile_scalar_q", "quantile", [xq, np.float64(0.3)], f32(np.quantile(xq, 0.3)))
case("quantile_keepdims", "quantile", [x3, qs[:3]], f32(np.quantile(x3, qs[:3], axis=(0, 2), keepdims=True)),
       axis=[0, 2], keepdims=True)
case("quantile_all_keepdims", "quantile", [xq, np.float64(0.9)], f32(np.quantile(xq, 0.9, keepdims=True)),
       keepdims=True)
case("quantile_float32_q", "quantile", [xq, f32([0.25, 0.5])], f32(np.quantile(xq, np.array([0.25, 0.5]), axis=0)), axis=0)
case("quantile_int", "quantile", [xi, qs], f32(np.quantile(xi, qs, axis=0)), axis=0)
case("quantile_float64", "quantile", [x64, qs], np.quantile(x64, qs, axis=1), axis=1)
case("quantile_nan", "quantile", [xn[:2], np.float64(0.5)], f32([NAN, NAN]), axis=1)
case("quantile_q_out_of_range_raises", "quantile", [xq, np.float64(1.5)], xq, raises="ValueError")
case("quantile_bad_method_raises", "quantile", [xq, np.float64(0.5)], xq, method="closest", raises="ValueError")
case("percentile", "percentile", [xq, qs * 100], f32(np.percentile(xq, qs * 100, axis=1)), axis=1)
case("percentile_nearest", "percentile", [xq, np.float64(33.0)], f32(np.percentile(xq, 33.0, method="nearest")),
       method="nearest")
case("percentile_q_out_of_range_raises", "percentile", [xq, np.float64(101.0)], xq, raises="ValueError")
xqn = f32([[1.0, NAN, 3.0, -2.0, 8.0], [NAN, NAN, NAN, NAN, NAN], [4.0, 2.0, NAN, 0.5, NAN]])
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    case("nanquantile", "nanquantile", [xqn, qs], f32(np.nanquantile(xqn, qs, axis=1)), axis=1)
    case("nanquantile_higher", "nanquantile", [xqn, np.float64(0.4)],
           f32(np.nanquantile(xqn, 0.4, axis=1, method="higher")), axis=1, method="higher")
    case("nanpercentile", "nanpercentile", [xqn, qs * 100], f32(np.nanpercentile(xqn, qs * 100, axis=1)), axis=1)
    case("nanpercentile_all", "nanpercentile", [xqn, np.float64(50.0)], f32(np.nanpercentile(xqn, 50.0)))
    case("nanmedian_keepdims", "nanmedian", [xqn], f32(np.nanmedian(xqn, axis=0, keepdims=True)),
           axis=0, keepdims=True)

f.save()
f = Fixture("numpy_reductions_sorting", seed=8)

# ---- histogram and bincount --------------------------------------------------------------
xhist = f.uniform(-1, 3, 40)
c, ed = np.histogram(xhist)
case("histogram_default", "histogram", [xhist], [f32(c), ed])
c, ed = np.histogram(xhist, bins=7, range=(0.0, 2.0))
case("histogram_range", "histogram", [xhist], [f32(c), ed], bins=7, range=[0.0, 2.0])
edges_in = np.array([0.0, 2.0, 4.0, 8.0, 10.0], np.float32)
c, ed = np.histogram(edges_in, bins=5)
case("histogram_values_on_edges", "histogram", [edges_in], [f32(c), f32(ed)], bins=5)
x_int = np.array([1, 5, 5, 2, 9, 3, 3, 3], np.int32)
c, ed = np.histogram(x_int, bins=4)
# Keras counts integers in int32 and puts the edges in floatx.
case("histogram_int", "histogram", [x_int], [i32(c), f32(ed)], bins=4)
const = np.full(5, 2.0, np.float32)
c, ed = np.histogram(const, bins=3)
case("histogram_constant", "histogram", [const], [f32(c), f32(ed)], bins=3)
x64h = f.uniform(0, 1, 12).astype(np.float64)
c, ed = np.histogram(x64h, bins=6)
case("histogram_float64", "histogram", [x64h], [c.astype(np.float64), ed], bins=6)
case("histogram_2d_raises", "histogram", [r(2, 3)], r(1), raises="ValueError")
case("histogram_bad_range_raises", "histogram", [xhist], r(1), range=[3.0, 1.0], raises="ValueError")
case("histogram_negative_bins_raises", "histogram", [xhist], r(1), bins=-2, raises="ValueError")

xbc = np.array([1, 1, 2, 3, 2, 4, 4, 5], np.int32)
wbc = np.array([0.5, 0.25, 3, 2, 1, 1, 4, 2], np.float32)
case("bincount", "bincount", [xbc], i32(np.bincount(xbc)))
case("bincount_minlength", "bincount", [xbc], i32(np.bincount(xbc, minlength=9)), minlength=9)
case("bincount_weights", "bincount_w", [xbc, wbc], f32(np.bincount(xbc, weights=wbc)))
case("bincount_int_weights", "bincount_w", [xbc, xbc * 2],
       np.bincount(xbc, weights=xbc * 2).astype(np.int32))
case("bincount_uint8", "bincount", [xbc.astype(np.uint8)], i32(np.bincount(xbc)))
xbc2 = np.array([[0, 1, 1], [3, 3, 0]], np.int32)
case("bincount_2d", "bincount", [xbc2], i32(np.stack([np.bincount(x, minlength=4) for x in xbc2])))
case("bincount_empty", "bincount", [np.zeros(0, np.int32)], np.zeros(3, np.int32), minlength=3)
case("bincount_negative_raises", "bincount", [np.array([1, -1], np.int32)], r(1), raises="ValueError")
case("bincount_float_raises", "bincount", [r(3)], r(1), raises="TypeError")
case("bincount_3d_raises", "bincount", [np.zeros((1, 1, 1), np.int32)], r(1), raises="ValueError")

# ---- sorting -------------------------------------------------------------------------------
xso = f32([[3.0, 1.0, NAN, 1.0, -INF], [0.5, 0.5, 0.5, -1.0, 2.0], [INF, -0.0, 0.0, 7.0, NAN]])
for name, fn in [("sort", np.sort), ("argsort", lambda a, axis=-1: np.argsort(a, axis=axis, kind="stable"))]:
    cast = (lambda a: a) if name == "sort" else i32
    case(f"{name}_last", name, [xso], cast(fn(xso)))
    case(f"{name}_axis0", name, [xso], cast(fn(xso, axis=0)), axis=0)
    case(f"{name}_flat", name, [xso], cast(fn(xso, axis=None)), axis=None)
    case(f"{name}_3d_axis1", name, [x3], cast(fn(x3, axis=1)), axis=1)
    case(f"{name}_int", name, [xi], cast(fn(xi, axis=0)), axis=0)
    case(f"{name}_bool", name, [xb], cast(fn(xb, axis=1)), axis=1)
    case(f"{name}_float16", name, [xh], cast(fn(xh, axis=1)), axis=1)
    case(f"{name}_empty", name, [e], cast(fn(e, axis=0)), axis=0)
    case(f"{name}_bad_axis_raises", name, [xso], xso, axis=2, raises="ValueError")
# Long lines (>= 128) take the radix path of the cpu kernel: ties, NaN, +-0 and inf included.
xlong = np.round(r(2, 300) * 4) / 4
xlong[0, ::37] = NAN
xlong[1, ::41] = -0.0
xlong[1, 5::53] = 0.0
xlong[0, 7] = INF
xlong[1, 9] = -INF
case("sort_long", "sort", [xlong], np.sort(xlong, axis=-1))
case("argsort_long", "argsort", [xlong], i32(np.argsort(xlong, axis=-1, kind="stable")))
case("argsort_long_axis0", "argsort", [xlong.T.copy()], i32(np.argsort(xlong.T, axis=0, kind="stable")), axis=0)
for dt in [np.float64, np.float16]:
    xl = xlong.astype(dt)
    case(f"argsort_long_{np.dtype(dt).name}", "argsort", [xl], i32(np.argsort(xl, axis=-1, kind="stable")))
for dt, lo, hi in [(np.int8, -128, 128), (np.int64, -(1 << 40), 1 << 40), (np.uint8, 0, 256)]:
    xl = f.rng.integers(lo, hi, (2, 200)).astype(dt)
    case(f"argsort_long_{np.dtype(dt).name}", "argsort", [xl], i32(np.argsort(xl, axis=-1, kind="stable")))
    case(f"sort_long_{np.dtype(dt).name}", "sort", [xl], np.sort(xl, axis=-1))
xlb = f.rng.integers(0, 2, 150).astype(bool)
case("argsort_long_bool", "argsort", [xlb], i32(np.argsort(xlb, kind="stable")))
case("argsort_0d", "argsort", [np.float32(4)], np.zeros(1, np.int32))
case("sort_0d_raises", "sort", [np.float32(4)], r(1), raises="ValueError")
# argpartition: any valid partition is right; the test canonicalizes (see the C++ side) and
# compares with a full sort.
xp = r(3, 8)
for kth in [0, 3, -1]:
    case(f"argpartition_k{kth}".replace("-", "m"), "argpartition", [xp], np.sort(xp, axis=-1), kth=kth)
case("argpartition_axis0", "argpartition", [xp], np.sort(xp, axis=0), kth=1, axis=0)
case("argpartition_flat", "argpartition", [xp], np.sort(xp, axis=None), kth=5, axis=None)
case("argpartition_kth_raises", "argpartition", [xp], xp, kth=8, raises="ValueError")

# ---- searching -----------------------------------------------------------------------------
seq = f32([-3.0, -1.0, -1.0, 0.0, 2.5, 2.5, 2.5, 7.0, NAN])
vals = f32([[-5.0, -1.0, 2.5], [7.0, 8.0, NAN], [0.0, 1.0, -3.0]])
for side in ["left", "right"]:
    case(f"searchsorted_{side}", "searchsorted", [seq, vals], i32(np.searchsorted(seq, vals, side=side)), side=side)
seqi = np.array([1, 3, 3, 5, 9], np.int32)
case("searchsorted_int_float_values", "searchsorted", [seqi, f32([3.0, 3.5, 0.0, 10.0])],
       i32(np.searchsorted(seqi, f32([3.0, 3.5, 0.0, 10.0]))))
case("searchsorted_scalar", "searchsorted", [seqi, np.int32(4)], np.int32(np.searchsorted(seqi, 4)))
case("searchsorted_empty_seq", "searchsorted", [np.zeros(0, np.float32), f32([1.0, 2.0])], i32([0, 0]))
bigseq = np.sort(r(300))
bigv = r(200)
case("searchsorted_large", "searchsorted", [bigseq, bigv], i32(np.searchsorted(bigseq, bigv, side="right")), side="right")
case("searchsorted_2d_raises", "searchsorted", [r(2, 3), r(2)], r(1), raises="ValueError")
case("searchsorted_bad_side_raises", "searchsorted", [seqi, seqi], r(1), side="middle", raises="ValueError")
bins_inc = f32([-1.0, 0.0, 0.0, 2.0, 5.0])
bins_dec = bins_inc[::-1].copy()
xd = f32([[-2.0, -1.0, 0.0, 1.0], [2.0, 4.9, 5.0, 9.0]])
case("digitize_increasing", "digitize", [xd, bins_inc], i32(np.digitize(xd, bins_inc)))
case("digitize_decreasing", "digitize", [xd, bins_dec], i32(np.digitize(xd, bins_dec)))
case("digitize_int", "digitize", [xi, np.array([-5, 0, 5], np.int32)], i32(np.digitize(xi, [-5, 0, 5])))
case("digitize_single_bin", "digitize", [xd, f32([1.0])], i32(np.digitize(xd, [1.0])))
case("digitize_empty_bins", "digitize", [xd, np.zeros(0, np.float32)], np.zeros(xd.shape, np.int32))
case("digitize_2d_bins_raises", "digitize", [xd, r(2, 2)], r(1), raises="ValueError")
case("digitize_unordered_raises", "digitize", [xd, f32([0.0, 2.0, 1.0])], r(1), raises="ValueError")
xin = np.array([[1, 4, 7], [2, 9, 4]], np.int32)
tin = np.array([4, 2, 11, 2], np.int32)
case("isin", "isin", [xin, tin], np.isin(xin, tin))
case("isin_invert", "isin", [xin, tin], np.isin(xin, tin, invert=True), invert=True)
case("isin_float_nan", "isin", [f32([1.0, NAN, 2.5, -0.0]), f32([NAN, 0.0, 1.0])],
       np.isin(f32([1.0, NAN, 2.5, -0.0]), f32([NAN, 0.0, 1.0])))
case("isin_mixed_dtypes", "isin", [xin, f32([4.0, 9.5])], np.isin(xin, f32([4.0, 9.5])))
case("isin_empty_table", "isin", [xin, np.zeros(0, np.int32)], np.zeros(xin.shape, bool))
case("isin_scalar", "isin", [np.int32(7), tin], np.isin(np.int32(7), tin))
xnz = np.array([[0.0, 1.5, 0.0], [NAN, 0.0, -2.0]], np.float32)
case("nonzero_2d", "nonzero", [xnz], [i32(a) for a in np.nonzero(xnz)])
case("nonzero_bool_1d", "nonzero", [np.array([True, False, True, True])],
       [i32(np.nonzero(np.array([True, False, True, True]))[0])])
case("nonzero_none", "nonzero", [np.zeros((2, 2), np.int32)], [np.zeros(0, np.int32)] * 2)
case("nonzero_3d", "nonzero", [xi.reshape(2, 2, 5) > 3], [i32(a) for a in np.nonzero(xi.reshape(2, 2, 5) > 3)])
case("nonzero_0d_raises", "nonzero", [np.float32(1)], r(1), raises="ValueError")

# ---- unique (Keras: NaNs are all distinct, inverse has x's shape, index/counts int32) -------
xu = np.array([[3, 1, 2], [1, 3, 7]], np.int32)
vals_u, idx_u, inv_u, cnt_u = np.unique(xu, return_index=True, return_inverse=True, return_counts=True)
case("unique", "unique", [xu], [vals_u])
case("unique_all", "unique", [xu], [vals_u, i32(idx_u), i32(inv_u.reshape(xu.shape)), i32(cnt_u)],
       return_index=True, return_inverse=True, return_counts=True)
case("unique_size_pad", "unique", [xu], [np.concatenate([vals_u, i32([-1, -1])]), np.concatenate([i32(cnt_u), i32([0, 0])])],
       size=6, fill_value=-1, return_counts=True)
case("unique_size_truncate", "unique", [xu], [vals_u[:2], i32(cnt_u[:2])], size=2, return_counts=True)
xuf = f32([2.0, NAN, -1.0, 2.0, NAN, 0.0, -0.0])
vf, invf, cf = np.unique(xuf, return_inverse=True, return_counts=True, equal_nan=False)
case("unique_float_nan", "unique", [xuf], [vf, i32(invf), i32(cf)], return_inverse=True, return_counts=True)
xur = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 1, 0], [5, 5, 5]], np.int32)
vr, ir, invr, cr = np.unique(xur, axis=0, return_index=True, return_inverse=True, return_counts=True)
case("unique_axis0", "unique", [xur], [vr, i32(ir), i32(invr), i32(cr)], axis=0,
       return_index=True, return_inverse=True, return_counts=True)
vc, invc = np.unique(xur.T.copy(), axis=1, return_inverse=True)
case("unique_axis1", "unique", [xur.T.copy()], [vc, i32(invc)], axis=1, return_inverse=True)
case("unique_axis1_size", "unique", [xur.T.copy()],
       [np.concatenate([vc, np.full((3, 1), 9, np.int32)], axis=1)], axis=1, size=4, fill_value=9)
case("unique_bool", "unique", [xb], [np.unique(xb)])
case("unique_empty", "unique", [np.zeros(0, np.float32)], [np.zeros(0, np.float32)])
case("unique_float16", "unique", [xh[0]], [np.unique(xh[0])])

# ---- math: top_k, in_top_k, segments -------------------------------------------------------
xk = f32([[1.0, 5.0, 3.0, 5.0, -2.0, 0.0], [7.0, 7.0, 7.0, 1.0, 8.0, NAN]])


def top_k(x, k):
    # Largest first; ties keep the lower index (JAX's stable top_k); NaN counts as largest.
    order = np.zeros(x.shape[:-1] + (k,), np.int32)
    for pos in np.ndindex(*x.shape[:-1]):
        row = x[pos]
        key = lambda i: (0, 0.0, i) if np.isnan(row[i]) else (1, -float(row[i]), i)
        order[pos] = sorted(range(len(row)), key=key)[:k]
    return [np.take_along_axis(x, order.astype(np.int64), -1), order]


for k in [1, 3, 6, 0]:
    case(f"top_k_{k}", "top_k", [xk], top_k(xk, k), k=k)
case("top_k_long", "top_k", [xlong], top_k(xlong, 20), k=20)
case("top_k_long_int", "top_k", [xlong.astype(np.int32)], top_k(xlong.astype(np.int32), 150), k=150)
x3k = r(2, 3, 9)
case("top_k_3d", "top_k", [x3k], top_k(x3k, 4), k=4)
case("top_k_int", "top_k", [xi], top_k(xi, 2), k=2)
case("top_k_too_large_raises", "top_k", [xk], xk, k=7, raises="ValueError")
case("top_k_0d_raises", "top_k", [np.float32(1)], r(1), k=1, raises="ValueError")
pred = f32([[0.1, 0.5, 0.5, 0.2], [0.9, NAN, 0.3, 0.3], [0.2, 0.2, 0.2, 0.2], [1.0, 2.0, 3.0, 4.0]])
tg = np.array([2, 1, 3, 7], np.int32)


def in_top_k(t, p, k):
    out = []
    for ti, pi in zip(t, p):
        if ti < 0 or ti >= len(pi):
            out.append(False)
            continue
        v = pi[ti]
        v = -INF if np.isnan(v) else v
        out.append(1 + np.sum(pi > v) <= k)
    return np.array(out)


for k in [1, 2, 3]:
    case(f"in_top_k_{k}", "in_top_k", [tg, pred], in_top_k(tg, pred, k), k=k)
case("in_top_k_int64_targets", "in_top_k", [tg.astype(np.int64), pred], in_top_k(tg, pred, 2), k=2)
case("in_top_k_shape_raises", "in_top_k", [tg[:2], pred], r(1), k=1, raises="ValueError")

data = r(7, 3)
ids = np.array([0, 0, 2, 2, 2, 4, 1], np.int32)


def segment(fn, ident, data, ids, n):
    out = np.full((n,) + data.shape[1:], ident, dtype=data.dtype)
    for i, s in enumerate(ids):
        if 0 <= s < n:
            out[s] = fn(out[s], data[i])
    return out


seg_ops = {"segment_sum": (np.add, 0), "segment_prod": (np.multiply, 1),
           "segment_max": (np.maximum, -INF), "segment_min": (np.minimum, INF)}
for name, (fn, ident) in seg_ops.items():
    case(f"{name}", name, [data, ids], segment(fn, ident, data, ids, 6), num_segments=6)
    case(f"{name}_inferred", name, [data, ids], segment(fn, ident, data, ids, 5))
    # JAX drops ids out of [0, num_segments).
    bad = np.array([0, -1, 2, 5, 2, 3, 1], np.int32)
    case(f"{name}_dropped", name, [data, bad], segment(fn, ident, data, bad, 4), num_segments=4)
    d1 = r(7)
    case(f"{name}_1d_sorted", name, [d1, np.sort(ids)], segment(fn, ident, d1, np.sort(ids), 5),
           num_segments=5, sorted=True)
    di = f.randint(-4, 5, 7, 2)
    lo = np.iinfo(np.int32)
    iident = {0: 0, 1: 1, -INF: lo.min, INF: lo.max}[ident]
    case(f"{name}_int", name, [di, ids], segment(fn, iident, di, ids, 5), num_segments=5)
case("segment_sum_2d_ids_raises", "segment_sum", [data, ids.reshape(7, 1)], r(1), num_segments=3,
       raises="ValueError")
case("segment_max_length_raises", "segment_max", [data, ids[:5]], r(1), num_segments=3,
       raises="ValueError")
case("segment_prod_float_ids_raises", "segment_prod", [data, f32(ids)], r(1), num_segments=3,
       raises="TypeError")

f.save()
