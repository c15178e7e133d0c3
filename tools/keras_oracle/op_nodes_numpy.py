"""The op_nodes.py cases of keras.src.ops.numpy: one or more per op class keras-cpp implements
(src/ops/operations/numpy_operations.cpp), covering each argument form Keras records
differently: axis None / int / list, keyword defaults vs values, constant operands (the 0 of
not_equal(x, 0)), list operands (concatenate), and the KerasTensor operators (x + 1.0, 2 * x,
-x, x[1:, None]), which Keras records as the same classes.

Not covered, and why:
  arange          its start/stop are call arguments; a symbolic one cannot give a static
                  shape, so Keras raises when building the graph
  linspace(retstep=True)  Keras 3.15 on JAX fails in Linspace.call
  histogram       Keras 3.15.1's JAX backend has no math.histogram (Histogram.call fails)
  bincount(weights=...)   the weights are a constructor argument: a tensor makes the node
                  unserializable and a list fails in JAX
  trapezoid(x=...)  the same: x is a constructor argument (only dx forms are covered)
  where(condition)  one-argument where: Keras's symbolic output is one tensor while the op
                  returns one per axis
  get_item with a tensor key: Keras rejects KerasTensor keys
  repeat with a list of counts: JAX rejects the list Keras passes it
  quantile with a tensor q and an integer axis: Keras 3.15 on JAX passes axis as a list,
                  which jnp.quantile cannot hash (a tensor q is covered with axis None)
  zeros, ones, empty, eye, identity, tri, bartlett, blackman, hamming, hanning, kaiser,
  vectorize: no op class (they take no tensor, or refuse symbolic ones), so Keras records no
  node
"""

import keras
import numpy as np
from keras import ops
from keras.src.ops import numpy as knp

nan, inf = float("nan"), float("inf")


def f32(v):
    return np.array(v, "float32")


def i32(v):
    return np.array(v, "int32")


# Small inputs, chosen inside each op's domain.
A = f32([[0.5, -1.25, 2.0], [3.0, -0.0, 0.75]])
B = f32([[1.5, 0.25, -2.0], [-1.0, 4.0, 0.75]])
P = f32([[0.5, 1.25, 2.0], [3.0, 0.125, 0.75]])        # positive
U = f32([[0.5, -0.25, 0.875], [-0.75, 0.0, 0.375]])     # inside (-1, 1)
G = f32([[1.0, 1.5, 2.0], [3.0, 10.0, 1.25]])           # >= 1
N = f32([[nan, 1.0, -inf], [inf, -2.0, 0.5]])           # NaN and infinities
M = f32([[nan, 1.0, 2.5], [3.0, nan, -1.0]])            # NaN only
Z = f32([[0.0, 2.0, 0.0], [-4.0, 0.5, 1.0]])            # zeros (divisors)
I = i32([[3, -2, 0], [7, 5, -4]])
J = i32([[2, 3, -3], [4, -2, 1]])
S = i32([[0, 1, 2], [3, 1, 0]])                          # small shifts / exponents
T = np.array([[True, False, True], [False, False, True]])
F = np.array([[True, True, False], [False, True, False]])
V3 = f32([1.0, -2.0, 0.5])
W3 = f32([0.25, 3.0, -1.5])
V2 = f32([2.0, -0.5])
SQ = f32([[2.0, 1.0], [1.0, 3.0]])
SQ2 = f32([[0.5, -1.0], [1.5, 2.0]])
T3 = f32(np.arange(12).reshape(2, 2, 3) * 0.5 - 2.0)
T4 = f32(np.arange(16).reshape(2, 2, 4) * 0.25)
E = f32([[[1.5], [-2.0], [0.5]]])                        # (1, 3, 1)
D = np.array([[0.1, -2.5], [3.25, 1e-3]], "float64")
S0 = f32(2.0)                                            # 0-d
S1 = f32(5.0)
IDX = i32([2, 0, 1, 2])
FLAT = i32([0, 4, 5, 3])
SORTED = f32([-1.0, 0.5, 2.0, 3.0])
Q2 = f32([0.25, 0.75])

# Float32 transcendental functions: XLA's and keras-cpp's kernels may differ by a few ulps.
LOOSE = {"rtol": 1e-5, "atol": 1e-6}

# keras-cpp infers each node's output by running the op on the symbolic backend, whose tensors
# hold zeros; ops that check their argument values reject them there, so the graph cannot be
# rebuilt (eagerly the same op gives Keras's values: tests/ops_*).
CASES = []


def case(name, build, *inputs, **extra):
    CASES.append(dict({"name": name, "build": build, "inputs": list(inputs)}, **extra))


# ---- elementwise, unary ---------------------------------------------------------------------
UNARY = [
    ("absolute", A), ("fabs", A), ("negative", A), ("square", A), ("sqrt", P), ("cbrt", A),
    ("reciprocal", B), ("sign", A), ("exp", A), ("exp2", A), ("expm1", U), ("log", P),
    ("log1p", P), ("log2", P), ("log10", P), ("sin", A), ("cos", A), ("tan", U),
    ("arcsin", U), ("arccos", U), ("arctan", A), ("sinh", U), ("cosh", U), ("tanh", A),
    ("arcsinh", A), ("arccosh", G), ("arctanh", U), ("deg2rad", A), ("rad2deg", A),
    ("sinc", A), ("floor", A), ("ceil", A), ("trunc", A), ("i0", A), ("angle", A),
    ("real", A), ("imag", A), ("conjugate", A), ("isfinite", N), ("isinf", N), ("isnan", N),
    ("isposinf", N), ("isneginf", N), ("isreal", A), ("signbit", A), ("logical_not", T),
    ("bitwise_invert", I), ("bitwise_not", I), ("copy", A), ("ravel", A), ("fliplr", A),
    ("flipud", A), ("corrcoef", A),
]
TRANSCENDENTAL = {"cbrt", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sin", "cos",
                  "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
                  "arccosh", "arctanh", "sinc", "i0", "corrcoef"}
for op, x in UNARY:
    case(op, getattr(ops, op), x, **(LOOSE if op in TRANSCENDENTAL else {}))
# Integer inputs: the result dtype follows the op (int32 kept, or floatx).
case("absolute_int", ops.absolute, I)
case("square_int", ops.square, I)
case("sqrt_int", ops.sqrt, S)
case("floor_int", ops.floor, I)
case("negative_operator", lambda x: -x, A)
case("absolute_operator", lambda x: abs(x), A)
case("logical_not_operator", lambda x: ~x, T)
# ops.abs and ops.conj call absolute/conjugate; their own classes are still exported.
case("abs_class", lambda x: knp.Abs()(x), A)
case("conj_class", lambda x: knp.Conj()(x), A)

# ---- elementwise, binary --------------------------------------------------------------------
BINARY = [
    ("add", A, B), ("subtract", A, B), ("multiply", A, B), ("divide", A, B),
    ("true_divide", A, B), ("divide_no_nan", A, Z), ("floor_divide", A, B), ("mod", A, B),
    ("fmod", A, B), ("power", P, B), ("maximum", A, B), ("minimum", A, B), ("fmax", M, A),
    ("fmin", M, A), ("gcd", I, J), ("lcm", I, J), ("logaddexp", A, B), ("logaddexp2", A, B),
    ("ldexp", A, S), ("arctan2", A, B), ("hypot", A, B), ("heaviside", Z, B),
    ("nextafter", A, B), ("bitwise_and", I, J), ("bitwise_or", I, J), ("bitwise_xor", I, J),
    ("bitwise_left_shift", I, S), ("left_shift", I, S), ("bitwise_right_shift", I, S),
    ("right_shift", I, S), ("equal", A, B), ("not_equal", A, B), ("less", A, B),
    ("less_equal", A, B), ("greater", A, B), ("greater_equal", A, B), ("logical_and", T, F),
    ("logical_or", T, F), ("logical_xor", T, F), ("matmul", A, B.T.copy()), ("dot", A, V3),
    ("outer", V3, V2), ("inner", A, B), ("kron", SQ, SQ2), ("vdot", A, B),
]
for op, x, y in BINARY:
    loose = op in ("power", "logaddexp", "logaddexp2", "arctan2", "hypot")
    case(op, getattr(ops, op), x, y, **(LOOSE if loose else {}))
case("digitize", ops.digitize, A, SORTED)
case("add_float64", ops.add, D, D)
case("divide_int", ops.divide, I, J)
case("floor_divide_int", ops.floor_divide, I, J)
case("mod_int", ops.mod, I, J)
case("add_broadcast", ops.add, A, V3)
# A constant operand is stored in the call's arguments, on either side.
case("add_constant", lambda x: ops.add(x, 1.0), A)
case("add_int_constant", lambda x: ops.add(x, 2), I)
case("not_equal_zero", lambda x: ops.not_equal(x, 0), A)
case("equal_int_constant", lambda x: ops.equal(x, 3), I)
case("maximum_constant", lambda x: ops.maximum(x, 0.0), A)
case("power_constant_base", lambda x: ops.power(2.0, x), A)
# The KerasTensor operators.
case("add_operator", lambda x, y: x + y, A, B)
case("radd_operator", lambda x: 1.5 + x, A)
case("sub_operator", lambda x: x - 0.5, A)
case("rsub_operator", lambda x: 1 - x, I)
case("mul_operator", lambda x: x * 2, A)
case("rmul_operator", lambda x: 2 * x, A)
case("truediv_operator", lambda x, y: x / y, A, B)
case("floordiv_operator", lambda x: x // 2, I)
case("mod_operator", lambda x: x % 3, I)
case("pow_operator", lambda x: x ** 2, A)
case("matmul_operator", lambda x, y: x @ y, A, B.T.copy())
case("comparison_operators", lambda x, y: [x < y, x <= y, x > 0, x >= y, x != y], A, B)
case("logical_operators", lambda x, y: [x & y, x | y, x ^ y], T, F)
case("round_operator", lambda x: round(x, 1), A)

# ---- elementwise with parameters ------------------------------------------------------------
case("round", ops.round, A)
case("round_decimals", lambda x: ops.round(x, 1), A)
case("round_int_negative_decimals", lambda x: ops.round(x, -1), i32([[14, 15, -26], [35, 1, 99]]))
case("clip", lambda x: ops.clip(x, -1.0, 1.0), A)
case("clip_int", lambda x: ops.clip(x, 0, 4), I)
case("nan_to_num", ops.nan_to_num, N)
case("nan_to_num_values", lambda x: ops.nan_to_num(x, nan=1.0, posinf=9.0, neginf=-9.0), N)
case("isclose", ops.isclose, A, B)
case("isclose_tolerances", lambda x, y: ops.isclose(x, y, 0.5, 1.0), A, B)
case("isclose_equal_nan", lambda x: ops.isclose(x, x, equal_nan=True), N)
case("allclose", ops.allclose, A, B)
case("allclose_tolerances", lambda x, y: ops.allclose(x, y, rtol=0.1, atol=5.0), A, B)
case("where", lambda c, x, y: ops.where(c, x, y), T, A, B)
case("where_constant", lambda x: ops.where(x > 0, x, 0.0), A)

# ---- reductions -----------------------------------------------------------------------------
case("sum", ops.sum, A)
case("sum_axis", lambda x: ops.sum(x, axis=1), A)
case("sum_axes_keepdims", lambda x: ops.sum(x, axis=[0, 1], keepdims=True), A)
case("sum_bool", ops.sum, T)
case("prod_axis", lambda x: ops.prod(x, axis=0), A)
case("prod_dtype", lambda x: ops.prod(x, axis=1, dtype="float32"), I)
case("mean", ops.mean, A)
case("mean_axis_keepdims", lambda x: ops.mean(x, axis=1, keepdims=True), A)
case("mean_int", lambda x: ops.mean(x, axis=0), I)
case("count_nonzero", ops.count_nonzero, Z)
case("count_nonzero_axis", lambda x: ops.count_nonzero(x, axis=1), Z)
case("max", ops.max, A)
case("max_axis_keepdims", lambda x: ops.max(x, axis=0, keepdims=True), A)
case("max_initial", lambda x: ops.max(x, axis=1, initial=2.5), A)
case("min", ops.min, A)
case("min_axis_initial", lambda x: ops.min(x, axis=1, initial=0.0), A)
case("amax", lambda x: ops.amax(x, axis=1), A)
case("amin", lambda x: ops.amin(x, axis=0, keepdims=True), A)
case("ptp", lambda x: ops.ptp(x, axis=1), A)
case("ptp_all", ops.ptp, A)
case("all", ops.all, T)
case("all_axis", lambda x: ops.all(x, axis=1), T)
case("any_axis_keepdims", lambda x: ops.any(x, axis=0, keepdims=True), T)
case("any_float", ops.any, Z)
case("argmax", ops.argmax, A)
case("argmax_axis", lambda x: ops.argmax(x, axis=1), A)
case("argmax_keepdims", lambda x: ops.argmax(x, axis=0, keepdims=True), A)
case("argmin", ops.argmin, A)
case("argmin_axis", lambda x: ops.argmin(x, axis=1), A)
case("nanargmax", lambda x: ops.nanargmax(x, axis=1), M)
case("nanargmin", ops.nanargmin, M)
case("nansum", lambda x: ops.nansum(x, axis=1), M)
case("nansum_all", ops.nansum, M)
case("nanprod", lambda x: ops.nanprod(x, axis=0, keepdims=True), M)
case("nanmean", lambda x: ops.nanmean(x, axis=1), M)
case("nanmax", ops.nanmax, M)
case("nanmin", lambda x: ops.nanmin(x, axis=0), M)
case("cumsum", ops.cumsum, A)
case("cumsum_axis", lambda x: ops.cumsum(x, axis=1), A)
case("cumsum_bool_dtype", lambda x: ops.cumsum(x, axis=0, dtype="float32"), T)
case("cumprod", lambda x: ops.cumprod(x, axis=0), A)
case("nancumsum", lambda x: ops.nancumsum(x, axis=1), M)
case("nancumprod", ops.nancumprod, M)
case("trapezoid", ops.trapezoid, A)
case("trapezoid_dx_axis", lambda x: ops.trapezoid(x, dx=0.5, axis=0), A)

# ---- statistics -----------------------------------------------------------------------------
case("average", ops.average, A)
case("average_weights", lambda x, w: ops.average(x, axis=1, weights=w), A, f32([1.0, 2.0, 0.5]))
case("var", ops.var, A, **LOOSE)
case("var_axis_keepdims", lambda x: ops.var(x, axis=1, keepdims=True), A, **LOOSE)
case("std", lambda x: ops.std(x, axis=0), A, **LOOSE)
case("nanvar", lambda x: ops.nanvar(x, axis=1), M, **LOOSE)
case("nanstd", ops.nanstd, M, **LOOSE)
case("median", ops.median, A)
case("median_axis_keepdims", lambda x: ops.median(x, axis=1, keepdims=True), A)
case("nanmedian", lambda x: ops.nanmedian(x, axis=1), M)
case("quantile", lambda x: ops.quantile(x, 0.3), A, **LOOSE)
case("quantile_tensor_q", ops.quantile, A, Q2, **LOOSE)
# Keras 3.15's Quantile.call drops `method` (its graph always interpolates linearly, unlike
# ops.quantile called eagerly); keras-cpp applies the method the config records.
case("quantile_method", lambda x: ops.quantile(x, 0.25, method="lower"), A,
     keras_cpp_differs="Keras 3.15's Quantile.call ignores `method` (the graph interpolates "
     "linearly); keras-cpp applies the recorded method, as eager ops.quantile does")
case("nanquantile", lambda x: ops.nanquantile(x, 0.5, axis=1, keepdims=True), M, **LOOSE)
case("percentile", lambda x: ops.percentile(x, 40.0, axis=0, method="midpoint"), A)
case("nanpercentile", lambda x: ops.nanpercentile(x, 75.0), M, **LOOSE)
case("bincount", ops.bincount, IDX)
case("bincount_minlength", lambda x: ops.bincount(x, minlength=5), IDX)

# ---- tensors shaped like the input ----------------------------------------------------------
case("zeros_like", ops.zeros_like, A)
case("ones_like_dtype", lambda x: ops.ones_like(x, dtype="int32"), A)
case("full_like", lambda x: ops.full_like(x, 2.5), A)
case("full_like_dtype", lambda x: ops.full_like(x, 7, dtype="float32"), I)
case("full_like_tensor", lambda x, v: ops.full_like(x, v), A, S0)
case("empty_like", ops.empty_like, A, check_values=False)
case("full", lambda v: ops.full((2, 3), v), S0)
case("full_dtype", lambda v: ops.full((3,), v, dtype="int32"), S0)
case("array", ops.array, A)
case("array_dtype", lambda x: ops.array(x, dtype="float32"), I)
case("linspace", lambda a, b: ops.linspace(a, b, num=5), S0, S1)
case("linspace_no_endpoint", lambda a, b: ops.linspace(a, b, 4, endpoint=False), S0, S1)
case("linspace_vectors", lambda a, b: ops.linspace(a, b, num=3, axis=1), V2, f32([4.0, 0.5]))
case("logspace", lambda a, b: ops.logspace(a, b, num=4, base=2.0), S0, S1, **LOOSE)
case("geomspace", lambda a, b: ops.geomspace(a, b, num=4), S0, S1, **LOOSE)

# ---- matrices -------------------------------------------------------------------------------
case("tril", ops.tril, A)
case("triu_k", lambda x: ops.triu(x, k=1), A)
case("tril_negative_k", lambda x: ops.tril(x, -1), T3)
case("diag", ops.diag, V3)
case("diag_matrix_k", lambda x: ops.diag(x, k=1), A)
case("diagflat", lambda x: ops.diagflat(x, k=-1), V2)
case("vander", ops.vander, V3)
case("vander_n_increasing", lambda x: ops.vander(x, N=2, increasing=True), V3)
case("meshgrid", ops.meshgrid, V3, V2)
case("meshgrid_ij", lambda x, y: ops.meshgrid(x, y, indexing="ij"), V3, V2)

# ---- indexing -------------------------------------------------------------------------------
case("get_item_int", lambda x: x[0], A)
case("get_item_negative", lambda x: x[-1], A)
case("get_item_slices", lambda x: x[:, 1:], A)
case("get_item_steps", lambda x: x[::-1, 0:3:2], A)
case("get_item_ellipsis_newaxis", lambda x: x[..., None], A)
case("get_item_mixed", lambda x: x[1, None, :2], A)
case("get_item_function", lambda x: ops.get_item(x, 1), T3)
case("take", ops.take, A, IDX)
case("take_axis", lambda x, i: ops.take(x, i, axis=1), A, IDX)
case("take_constant_index", lambda x: ops.take(x, 1, axis=0), A)
case("take_along_axis", lambda x, i: ops.take_along_axis(x, i, axis=1), A, i32([[2, 0], [1, 1]]))
case("take_along_axis_flat", ops.take_along_axis, A, i32([5, 0, 3]))
case("diagonal", ops.diagonal, A)
case("diagonal_offset_axes", lambda x: ops.diagonal(x, offset=1, axis1=1, axis2=2), T3)
case("trace", ops.trace, A)
case("trace_offset_axes", lambda x: ops.trace(x, 1, 1, 2), T3)
case("select", lambda x, y: ops.select([x > 0, y > 0], [x, y], 7.0), A, B)
case("select_default", lambda x: ops.select([x > 1.0], [x]), A)
case("unravel_index", lambda i: ops.unravel_index(i, (2, 3)), FLAT)

# ---- products -------------------------------------------------------------------------------
case("matmul_vector", ops.matmul, A, V3)
case("tensordot", ops.tensordot, A, B)
case("tensordot_int_axes", lambda x, y: ops.tensordot(x, y, axes=1), A, B.T.copy())
case("tensordot_list_axes", lambda x, y: ops.tensordot(x, y, axes=([1], [1])), A, B)
case("einsum", lambda x, y: ops.einsum("ij,kj->ik", x, y), A, B)
case("einsum_trace", lambda x: ops.einsum("ii", x), SQ)
case("einsum_three", lambda x, y, z: ops.einsum("i,ij,j->", x, y, z), V2, A, V3)
case("cross", ops.cross, V3, W3)
case("cross_axis", lambda x, y: ops.cross(x, y, axis=0), f32(np.stack([V3, W3], 1)),
     f32(np.stack([W3, V3], 1)))
case("cross_axes", lambda x, y: ops.cross(x, y, axisa=0, axisb=-1, axisc=0),
     f32(np.stack([V3, W3], 1)), f32(np.stack([W3, V3], 0)))
case("correlate", ops.correlate, V3, V2)
case("correlate_full", lambda x, y: ops.correlate(x, y, mode="full"), V3, V2)
case("slogdet", ops.slogdet, SQ, **LOOSE)

# ---- shapes ---------------------------------------------------------------------------------
case("reshape", lambda x: ops.reshape(x, (3, 2)), A)
case("reshape_inferred", lambda x: ops.reshape(x, (-1,)), A)
case("transpose", ops.transpose, A)
case("transpose_axes", lambda x: ops.transpose(x, axes=(2, 0, 1)), T3)
case("expand_dims", lambda x: ops.expand_dims(x, 1), A)
case("expand_dims_axes", lambda x: ops.expand_dims(x, (0, 3)), A)
case("squeeze", ops.squeeze, E)
case("squeeze_axis", lambda x: ops.squeeze(x, axis=0), E)
case("broadcast_to", lambda x: ops.broadcast_to(x, (2, 3)), V3)
case("flip", ops.flip, A)
case("flip_axis", lambda x: ops.flip(x, axis=1), A)
case("moveaxis", lambda x: ops.moveaxis(x, 0, -1), T3)
case("moveaxis_lists", lambda x: ops.moveaxis(x, [0, 1], [2, 0]), T3)
case("swapaxes", lambda x: ops.swapaxes(x, 0, 2), T3)
case("rot90", ops.rot90, A)
case("rot90_k_axes", lambda x: ops.rot90(x, k=3, axes=(1, 2)), T3)
case("view", lambda x: ops.view(x, "int32"), A)
case("ndim", ops.ndim, T3)
case("size", ops.size, T3)
case("concatenate", lambda x, y: ops.concatenate([x, y]), A, B)
case("concatenate_list", lambda x, y: ops.concatenate([x, y], axis=1), A, B)
case("concatenate_same_tensor", lambda x: ops.concatenate([x, x, x]), A)
case("stack", lambda x, y: ops.stack([x, y]), A, B)
case("stack_axis", lambda x, y: ops.stack([x, y], axis=-1), A, B)
case("append", ops.append, A, B)
case("append_axis", lambda x, y: ops.append(x, y, axis=0), A, B)
case("hstack", lambda x, y: ops.hstack([x, y]), A, B)
case("vstack", lambda x, y: ops.vstack([x, y]), V3, W3)
case("dstack", lambda x, y: ops.dstack([x, y]), A, B)
case("split", lambda x: ops.split(x, 3, axis=1), A)
case("split_indices", lambda x: ops.split(x, [1, 2], axis=1), A)
case("split_default_axis", lambda x: ops.split(x, 2), A)
case("array_split", lambda x: ops.array_split(x, 2, axis=1), A)
case("hsplit", lambda x: ops.hsplit(x, 3), A)
case("hsplit_indices", lambda x: ops.hsplit(x, [2]), A)
case("vsplit", lambda x: ops.vsplit(x, 2), A)
case("dsplit", lambda x: ops.dsplit(x, 2), T4)
case("tile", lambda x: ops.tile(x, 2), A)
case("tile_list", lambda x: ops.tile(x, (2, 1)), A)
case("repeat", lambda x: ops.repeat(x, 2), A)
case("repeat_axis", lambda x: ops.repeat(x, 3, axis=1), A)
case("roll", lambda x: ops.roll(x, 1), A)
case("roll_axis", lambda x: ops.roll(x, -1, axis=1), A)
case("roll_lists", lambda x: ops.roll(x, (1, 2), axis=(0, 1)), A)
case("diff", ops.diff, A)
case("diff_n_axis", lambda x: ops.diff(x, n=2, axis=1), A)
case("pad", lambda x: ops.pad(x, ((0, 0), (1, 2))), A)
case("pad_int_reflect", lambda x: ops.pad(x, 1, mode="reflect"), A)
case("pad_constant_values", lambda x: ops.pad(x, ((1, 0), (0, 1)), constant_values=5.0), A)
case("pad_symmetric", lambda x: ops.pad(x, ((1, 1), (2, 0)), mode="symmetric"), A)
case("pad_edge", lambda x: ops.pad(x, ((1, 1), (1, 1)), mode="edge"), A)
case("pad_wrap", lambda x: ops.pad(x, ((0, 1), (2, 2)), mode="wrap"), A)

# ---- sorting and searching ------------------------------------------------------------------
case("sort", ops.sort, A)
case("sort_axis", lambda x: ops.sort(x, axis=0), A)
case("sort_flat", lambda x: ops.sort(x, axis=None), A)
case("argsort", ops.argsort, A)
case("argsort_axis", lambda x: ops.argsort(x, axis=0), A)
# Rows of 3 with kth=1: one element on each side, so the result is unique.
case("argpartition", lambda x: ops.argpartition(x, 1), A)
case("argpartition_axis", lambda x: ops.argpartition(x, -2, axis=1), A)
case("searchsorted", ops.searchsorted, SORTED, V3)
case("searchsorted_right", lambda s, v: ops.searchsorted(s, v, side="right"), SORTED,
     f32([0.5, 3.0, -4.0]))
case("isin", ops.isin, A, V3)
case("isin_invert", lambda x, y: ops.isin(x, y, invert=True), A, f32([2.0, -0.0]))
case("nonzero", ops.nonzero, Z)
case("unique", ops.unique, f32([3.0, -1.0, 3.0, 0.5, -1.0]))
