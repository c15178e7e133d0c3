"""Fixtures for the products of keras.ops.numpy (dot, tensordot, einsum, outer, inner, kron,
vdot, cross, correlate), keras.ops.linalg, slogdet and math extract_sequences/cdist/logdet.
Writes tests/golden/numpy_linalg_products.npz (the products) and tests/golden/numpy_linalg.npz
(the rest): two files keep each under the size limit.

Float32 results are checked against NumPy in float64 rounded to float32 (the exact answer)
with rtol = atol = 2e-6, twice the default: the largest error measured over these
well-conditioned cases is 1.5e-6 absolute (eigh's reconstruction V diag(w) V^T; every other case
is within 1e-6). Float64 cases use rtol = atol = 1e-12 (all measured within 1e-13). Sign-ambiguous
factorizations (qr, svd, eigh) are compared through invariants that the C++ side computes
("*_invariants" ops): reconstruction, orthogonality, triangularity and the values NumPy gives.
lu_factor comes from PyTorch (NumPy has none), with pivots made 0-based as JAX returns them.

Keras's dtypes follow JAX: int8 . int8 stays int8 except in matmul and einsum (int32),
correlate computes integers in float32 (int64 in float64), linalg computes integers in
float32. Where NumPy's dtype differs, the expected output is cast and the comment says why.
"""

import numpy as np
import torch

from fixture import Fixture

f = Fixture("numpy_linalg_products", seed=7)
r = f.randn
TOL = dict(rtol=2e-6, atol=2e-6)
TOL64 = dict(rtol=1e-12, atol=1e-12)


def num(x):
    """A number for the JSON kwargs: JSON has no infinity, so it travels as "inf"/"-inf"."""
    return ("inf" if x > 0 else "-inf") if np.isinf(x) else x


def ord_kw(ord_):
    """norm's ord as kwargs: absent for None, strings as they are."""
    if ord_ is None:
        return {}
    return {"ord": ord_ if isinstance(ord_, str) else num(ord_)}


def f32(x):
    return np.asarray(x).astype(np.float32)


def spd(n, *batch, dtype=np.float32):
    """Well-conditioned symmetric positive-definite matrices."""
    a = f.rng.standard_normal(batch + (n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(dtype)


def well(n, *batch, dtype=np.float32):
    """Well-conditioned general square matrices."""
    a = f.rng.standard_normal(batch + (n, n))
    return (a + 2 * np.sqrt(n) * np.eye(n)).astype(dtype)


# ---- dot -----------------------------------------------------------------------------------
for name, (sa, sb) in {
    "dot_1d_1d": ((5,), (5,)),
    "dot_2d_2d": ((3, 4), (4, 2)),
    "dot_3d_2d": ((2, 3, 4), (4, 5)),
    "dot_3d_1d": ((2, 3, 4), (4,)),
    "dot_1d_2d": ((4,), (4, 3)),
    "dot_1d_3d": ((4,), (2, 4, 3)),
    "dot_3d_3d": ((2, 3, 4), (5, 4, 2)),
    "dot_empty_k": ((3, 0), (0, 2)),
}.items():
    a, b = r(*sa), r(*sb)
    f.case(name, "dot", [a, b], f32(np.dot(a.astype(np.float64), b.astype(np.float64))), **TOL)
a, b = np.float32(2.5), r(2, 3)
f.case("dot_0d", "dot", [a, b], np.dot(a, b))
a, b = f.randint(-100, 100, 3, 4).astype(np.int8), f.randint(-100, 100, 4, 2).astype(np.int8)
# int8 . int8 wraps in int8 (jnp.dot keeps the dtype), as NumPy does.
f.case("dot_int8_wraps", "dot", [a, b], np.dot(a, b))
a, b = f.randint(-9, 9, 2, 3), f.randint(-9, 9, 3)
f.case("dot_int32", "dot", [a, b], np.dot(a, b))
a, b = r(3, 4).astype(np.float16), r(4).astype(np.float16)
# float16 products accumulate in float32 and round once (as JAX on CPU).
f.case("dot_float16", "dot", [a, b], np.dot(a.astype(np.float32), b.astype(np.float32)).astype(np.float16))
a, b = r(3).astype(np.float64), r(3, 2)
f.case("dot_promote_f64", "dot", [a, b], np.dot(a, b.astype(np.float64)), **TOL64)
a, b = np.array([1.0, np.nan, 2.0], np.float32), np.array([[1.0], [0.0], [np.inf]], np.float32)
f.case("dot_nan_inf", "dot", [a, b], np.dot(a, b))
f.case("dot_mismatch_raises", "dot", [r(3, 4), r(3, 2)], r(1), raises="ValueError")
f.case("dot_vec_mismatch_raises", "dot", [r(3, 4), r(3)], r(1), raises="ValueError")

# ---- tensordot -----------------------------------------------------------------------------
a, b = r(2, 3, 4), r(3, 4, 5)
f.case("tensordot_default", "tensordot", [a, b], np.tensordot(a, b), **TOL)
b1 = r(4, 2)
f.case("tensordot_int1", "tensordot", [a, b1], np.tensordot(a, b1, 1), axes=1, **TOL)
b0 = r(2)
f.case("tensordot_int0_outer", "tensordot", [a, b0], np.tensordot(a, b0, 0), axes=0, **TOL)
b2 = r(4, 2, 3)
f.case("tensordot_lists", "tensordot", [a, b2], np.tensordot(a, b2, ([1, 2], [2, 0])), axes=[[1, 2], [2, 0]], **TOL)
f.case("tensordot_negative_axes", "tensordot", [a, b2], np.tensordot(a, b2, ([-1, 1], [0, -1])), axes=[[-1, 1], [0, -1]], **TOL)
a_i, b_i = f.randint(-5, 5, 3, 4), f.randint(-5, 5, 4, 3)
f.case("tensordot_int32", "tensordot", [a_i, b_i], np.tensordot(a_i, b_i, ([0, 1], [1, 0])).astype(np.int32), axes=[[0, 1], [1, 0]])
f.case("tensordot_mismatch_raises", "tensordot", [a, r(3, 5)], r(1), axes=[[1], [1]], raises="ValueError")
f.case("tensordot_too_many_raises", "tensordot", [r(2), r(2)], r(1), axes=2, raises="ValueError")

# ---- einsum --------------------------------------------------------------------------------
def ein(name, subscripts, *arrays, exact=False, **kw):
    expected = np.einsum(subscripts, *[x.astype(np.float64) if x.dtype.kind == "f" else x for x in arrays])
    dtype = np.result_type(*arrays)
    tol = {} if exact else TOL
    f.case(name, "einsum", list(arrays), np.asarray(expected).astype(dtype), subscripts=subscripts, **tol, **kw)


ein("einsum_matmul", "ij,jk->ik", r(3, 4), r(4, 5))
ein("einsum_batched", "bij,bjk->bik", r(2, 3, 4), r(2, 4, 5))
ein("einsum_transposed", "ij,kj->ik", r(3, 4), r(5, 4))
ein("einsum_trace", "ii", r(4, 4))
ein("einsum_diag", "ii->i", r(4, 4))
ein("einsum_sum_axis", "ij->i", r(3, 5))
ein("einsum_sum_all", "ij->", r(3, 5))
ein("einsum_implicit", "ij,jk", r(3, 4), r(4, 2))
ein("einsum_implicit_order", "ba,ca", r(3, 4), r(2, 4))
ein("einsum_implicit_upper", "Ab,bC", r(3, 4), r(4, 2))
ein("einsum_transpose", "ij->ji", r(3, 4))
ein("einsum_transpose_implicit", "ji", r(3, 4))
ein("einsum_ellipsis_broadcast", "...ij,...jk->...ik", r(2, 1, 3, 4), r(5, 4, 2))
ein("einsum_ellipsis_implicit", "...j,j", r(2, 3, 4), r(4))
ein("einsum_ellipsis_middle", "i...j,j->i...", r(2, 3, 4), r(4))
ein("einsum_ellipsis_sum", "...j->...", r(2, 3, 4))
ein("einsum_outer", "i,j->ij", r(3), r(4))
ein("einsum_elementwise", "ij,ij->ij", r(3, 4), r(3, 4))
ein("einsum_batch_dot", "bi,bi->b", r(5, 4), r(5, 4))
ein("einsum_dot", "i,i->", r(6), r(6))
ein("einsum_three", "ij,jk,kl->il", r(2, 3), r(3, 4), r(4, 5))
ein("einsum_three_shared", "ij,ij,ij->i", r(2, 3), r(2, 3), r(2, 3))
ein("einsum_repeated_and_contract", "iij,jk->ik", r(3, 3, 4), r(4, 2))
ein("einsum_attention", "bhqd,bhkd->bhqk", r(2, 3, 4, 5), r(2, 3, 6, 5))
ein("einsum_bilinear", "bn,anm,bm->ba", r(2, 3), r(4, 3, 5), r(2, 5))
ein("einsum_broadcast_one", "ij,ij->i", r(3, 4), r(1, 4))
ein("einsum_spaces", "ij , jk -> ik", r(2, 3), r(3, 2))
a, b = r(3, 4).astype(np.float16), r(4, 2).astype(np.float16)
# float16 contractions accumulate in float32 and round once (as JAX on CPU).
f.case("einsum_float16", "einsum", [a, b], np.einsum("ij,jk->ik", a.astype(np.float32), b.astype(np.float32)).astype(np.float16), subscripts="ij,jk->ik")
ein("einsum_empty", "ij,jk->ik", r(0, 3), r(3, 2))
ein("einsum_float64", "ij,jk->ik", r(3, 4).astype(np.float64), r(4, 2).astype(np.float64), exact=True, **TOL64)
ein("einsum_int32", "ij,jk->ik", f.randint(-5, 5, 3, 4), f.randint(-5, 5, 4, 2), exact=True)
a8, b8 = f.randint(-100, 100, 3, 4).astype(np.int8), f.randint(-100, 100, 4, 2).astype(np.int8)
# All-int8 operands accumulate in int32 (Keras passes preferred_element_type=int32 to JAX).
f.case("einsum_int8_to_int32", "einsum", [a8, b8], np.einsum("ij,jk->ik", a8.astype(np.int32), b8.astype(np.int32)), subscripts="ij,jk->ik")
f.case("einsum_rank_mismatch_raises", "einsum", [r(3, 4)], r(1), subscripts="ijk->i", raises="ValueError")
f.case("einsum_bad_char_raises", "einsum", [r(3, 4)], r(1), subscripts="i1->i", raises="ValueError")
f.case("einsum_unknown_output_raises", "einsum", [r(3, 4)], r(1), subscripts="ij->k", raises="ValueError")
f.case("einsum_operand_count_raises", "einsum", [r(3, 4)], r(1), subscripts="ij,jk->ik", raises="ValueError")
f.case("einsum_extent_mismatch_raises", "einsum", [r(3, 4), r(5, 2)], r(1), subscripts="ij,jk->ik", raises="ValueError")
f.case("einsum_repeated_output_raises", "einsum", [r(3, 4)], r(1), subscripts="ij->ii", raises="ValueError")

# ---- outer, inner, kron, vdot --------------------------------------------------------------
a, b = r(3), r(4)
f.case("outer", "outer", [a, b], np.outer(a, b))
a, b = r(2, 2), r(3)
f.case("outer_flattens", "outer", [a, b], np.outer(a, b))
a, b = f.randint(-9, 9, 3), np.array([True, False])
f.case("outer_int_bool", "outer", [a, b], np.outer(a, b).astype(np.int32))
a, b = r(4), r(4)
f.case("inner_1d", "inner", [a, b], f32(np.inner(a.astype(np.float64), b)), **TOL)
a, b = r(2, 3, 4), r(5, 4)
f.case("inner_nd", "inner", [a, b], f32(np.inner(a.astype(np.float64), b)), **TOL)
a, b = np.float32(3.0), r(2, 3)
f.case("inner_0d", "inner", [a, b], np.inner(a, b))
f.case("inner_mismatch_raises", "inner", [r(3), r(4)], r(1), raises="ValueError")
a, b = r(2, 3), r(3, 2)
f.case("kron_2d", "kron", [a, b], np.kron(a, b))
a, b = r(3), r(2, 2)
f.case("kron_rank_mismatch", "kron", [a, b], np.kron(a, b))
a, b = r(2, 1, 3), r(2, 2)
f.case("kron_3d_2d", "kron", [a, b], np.kron(a, b))
a, b = f.randint(-5, 5, 2, 2), f.randint(-5, 5, 2, 3)
f.case("kron_int", "kron", [a, b], np.kron(a, b).astype(np.int32))
a, b = r(2, 3), r(3, 2)
f.case("vdot_flattens", "vdot", [a, b], f32(np.vdot(a.astype(np.float64), b)), **TOL)
a, b = f.randint(-5, 5, 4), f.randint(-5, 5, 4)
f.case("vdot_int", "vdot", [a, b], np.int32(np.vdot(a, b)))
f.case("vdot_size_raises", "vdot", [r(3), r(4)], r(1), raises="ValueError")

# ---- cross ---------------------------------------------------------------------------------
a, b = r(4, 3), r(4, 3)
f.case("cross_3", "cross", [a, b], np.cross(a, b), **TOL)
a, b = r(4, 2), r(4, 3)
f.case("cross_2_3", "cross", [a, b], np.cross(a, b), **TOL)
a, b = r(4, 3), r(4, 2)
f.case("cross_3_2", "cross", [a, b], np.cross(a, b), **TOL)
a, b = r(4, 2), r(4, 2)
f.case("cross_2_2", "cross", [a, b], np.cross(a, b), **TOL)
a, b = r(2, 1, 3), r(5, 3)
f.case("cross_broadcast", "cross", [a, b], np.cross(a, b), **TOL)
a, b = r(3, 4), r(4, 3)
f.case("cross_axisa_axisb", "cross", [a, b], np.cross(a, b, axisa=0, axisb=1), axisa=0, axisb=1, **TOL)
a, b = r(3, 4, 2), r(3, 4, 2)
f.case("cross_axisc", "cross", [a, b], np.cross(a, b, axisa=0, axisb=0, axisc=1), axisa=0, axisb=0, axisc=1, **TOL)
a, b = r(2, 3, 5), r(2, 3, 5)
f.case("cross_axis", "cross", [a, b], np.cross(a, b, axis=1), axis=1, **TOL)
a, b = f.randint(-5, 5, 3), f.randint(-5, 5, 3)
f.case("cross_int", "cross", [a, b], np.cross(a, b).astype(np.int32))
f.case("cross_bad_dim_raises", "cross", [r(4), r(4)], r(1), raises="ValueError")
f.case("cross_bad_axis_raises", "cross", [r(3), r(3)], r(1), axisa=2, raises="ValueError")

# ---- correlate -----------------------------------------------------------------------------
for mode in ["valid", "same", "full"]:
    for na, nv in [(7, 3), (6, 4), (3, 7), (4, 6), (5, 5), (1, 1)]:
        a, v = r(na), r(nv)
        f.case(f"correlate_{mode}_{na}_{nv}", "correlate", [a, v],
               f32(np.correlate(a.astype(np.float64), v.astype(np.float64), mode)), mode=mode, **TOL)
a, v = f.randint(-5, 5, 6), f.randint(-5, 5, 3)
# Keras computes integer correlations in float32 (int64 in float64).
f.case("correlate_int32", "correlate", [a, v], np.correlate(a, v, "full").astype(np.float32), mode="full")
a, v = a.astype(np.int64), v.astype(np.int64)
f.case("correlate_int64", "correlate", [a, v], np.correlate(a, v).astype(np.float64))
a, v = r(6).astype(np.float16), r(3).astype(np.float16)
f.case("correlate_float16", "correlate", [a, v], np.correlate(a.astype(np.float32), v.astype(np.float32)).astype(np.float16))
a, v = r(6).astype(np.float64), r(3).astype(np.float64)
f.case("correlate_float64", "correlate", [a, v], np.correlate(a, v, "same"), mode="same", **TOL64)
f.case("correlate_2d_raises", "correlate", [r(2, 3), r(3)], r(1), raises="ValueError")
f.case("correlate_mode_raises", "correlate", [r(5), r(3)], r(1), mode="middle", raises="ValueError")

f.save()
f = Fixture("numpy_linalg", seed=8)
r = f.randn

# ---- slogdet, det, logdet ------------------------------------------------------------------
x = well(4)
s, l = np.linalg.slogdet(x.astype(np.float64))
f.case("slogdet", "slogdet", [x], [f32(s), f32(l)], **TOL)
x = well(3, 2, 2)
x[0, 1] = x[0, 1][::-1]  # a row swap flips the sign
s, l = np.linalg.slogdet(x.astype(np.float64))
f.case("slogdet_batched", "slogdet", [x], [f32(s), f32(l)], **TOL)
x = np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)
with np.errstate(divide="ignore"):
    s, l = np.linalg.slogdet(x)
f.case("slogdet_singular", "slogdet", [x], [f32(s), f32(l)])
x = well(5, dtype=np.float64)
s, l = np.linalg.slogdet(x)
f.case("slogdet_float64", "slogdet", [x], [s, l], **TOL64)
f.case("slogdet_nonsquare_raises", "slogdet", [r(3, 4)], r(1), raises="ValueError")
x = well(4, 3)
f.case("det_batched", "det", [x], f32(np.linalg.det(x.astype(np.float64))), **TOL)
x = well(5, dtype=np.float64)
f.case("det_float64", "det", [x], np.linalg.det(x), **TOL64)
x = f.randint(-5, 5, 3, 3)
# Integers compute in floatx (JAX's inexact promotion).
f.case("det_int", "det", [x], f32(np.linalg.det(x)), **TOL)
f.case("det_empty_matrix", "det", [np.zeros((0, 0), np.float32)], np.float32(1.0))
f.case("det_rank1_raises", "det", [r(3)], r(1), raises="ValueError")
x = spd(4, 2)
f.case("logdet", "logdet", [x], f32(np.linalg.slogdet(x.astype(np.float64))[1]), **TOL)

# ---- cholesky, cholesky_inverse ------------------------------------------------------------
x = spd(4)
low = np.linalg.cholesky(x.astype(np.float64))
f.case("cholesky", "cholesky", [x], f32(low), **TOL)
f.case("cholesky_upper", "cholesky", [x], f32(low.T), upper=True, **TOL)
x = spd(3, 2, 2)
f.case("cholesky_batched", "cholesky", [x], f32(np.linalg.cholesky(x.astype(np.float64))), **TOL)
x = spd(5, dtype=np.float64)
f.case("cholesky_float64", "cholesky", [x], np.linalg.cholesky(x), **TOL64)
x = spd(4)
noisy = np.tril(x) + np.triu(r(4, 4), 1)  # only the lower triangle is read
f.case("cholesky_reads_lower", "cholesky", [noisy], f32(np.linalg.cholesky(x.astype(np.float64))), **TOL)
f.case("cholesky_not_pd_raises", "cholesky", [np.array([[1.0, 2.0], [2.0, 1.0]], np.float32)], r(1), raises="ValueError")
f.case("cholesky_nonsquare_raises", "cholesky", [r(2, 3)], r(1), raises="ValueError")
x = spd(4, 2)
low = np.linalg.cholesky(x.astype(np.float64))
f.case("cholesky_inverse", "cholesky_inverse", [f32(low)], f32(np.linalg.inv(x.astype(np.float64))), **TOL)
f.case("cholesky_inverse_upper", "cholesky_inverse", [f32(np.swapaxes(low, -1, -2))], f32(np.linalg.inv(x.astype(np.float64))), upper=True, **TOL)

# ---- inv, solve, solve_triangular -----------------------------------------------------------
x = well(4, 3)
f.case("inv", "inv", [x], f32(np.linalg.inv(x.astype(np.float64))), **TOL)
x = well(5, dtype=np.float64)
f.case("inv_float64", "inv", [x], np.linalg.inv(x), **TOL64)
x = np.array([[2, 1], [1, 3]], np.int32)
f.case("inv_int", "inv", [x], f32(np.linalg.inv(x)), **TOL)
a, b = well(4), r(4, 3)
f.case("solve_matrix", "solve", [a, b], f32(np.linalg.solve(a.astype(np.float64), b)), **TOL)
a, b = well(4), r(4)
f.case("solve_vector", "solve", [a, b], f32(np.linalg.solve(a.astype(np.float64), b)), **TOL)
a, b = well(3, 2), r(2, 3)
f.case("solve_batched_vectors", "solve", [a, b], f32(np.linalg.solve(a.astype(np.float64), b)), **TOL)
a, b = well(3, 2, 1), r(1, 4, 3, 2)
f.case("solve_broadcast", "solve", [a, b], f32(np.linalg.solve(a.astype(np.float64), b)), **TOL)
a, b = well(4, dtype=np.float64), r(4, 2).astype(np.float64)
f.case("solve_float64", "solve", [a, b], np.linalg.solve(a, b), **TOL64)
f.case("solve_mismatch_raises", "solve", [well(4), r(3, 2)], r(1), raises="ValueError")
f.case("solve_nonsquare_raises", "solve", [r(3, 4), r(3, 2)], r(1), raises="ValueError")
a, b = well(4), r(4, 2)
f.case("solve_triangular_lower", "solve_triangular", [a, b], f32(np.linalg.solve(np.tril(a).astype(np.float64), b)), lower=True, **TOL)
f.case("solve_triangular_upper", "solve_triangular", [a, b], f32(np.linalg.solve(np.triu(a).astype(np.float64), b)), **TOL)
a, b = well(3, 2), r(2, 3)
f.case("solve_triangular_vectors", "solve_triangular", [a, b], f32(np.linalg.solve(np.tril(a).astype(np.float64), b)), lower=True, **TOL)
a, b = well(4).astype(np.float16), r(4, 2).astype(np.float16)
# float16 solves in float32 and rounds once.
f.case("solve_triangular_float16", "solve_triangular", [a, b], np.linalg.solve(np.triu(a).astype(np.float64), b.astype(np.float64)).astype(np.float16), rtol=2e-3, atol=2e-3)
f.case("solve_triangular_mismatch_raises", "solve_triangular", [well(4), r(5)], r(1), raises="ValueError")

# ---- lstsq, pinv, matrix_rank --------------------------------------------------------------
a, b = r(6, 3), r(6)
f.case("lstsq_tall_vector", "lstsq", [a, b], f32(np.linalg.lstsq(a.astype(np.float64), b, rcond=None)[0]), **TOL)
a, b = r(6, 3), r(6, 2)
f.case("lstsq_tall_matrix", "lstsq", [a, b], f32(np.linalg.lstsq(a.astype(np.float64), b, rcond=None)[0]), **TOL)
a, b = r(3, 5), r(3, 2)
f.case("lstsq_wide_min_norm", "lstsq", [a, b], f32(np.linalg.lstsq(a.astype(np.float64), b, rcond=None)[0]), **TOL)
a = np.concatenate([r(5, 2), np.zeros((5, 1), np.float32)], axis=1)
b = r(5)
f.case("lstsq_rank_deficient", "lstsq", [a, b], f32(np.linalg.lstsq(a.astype(np.float64), b, rcond=1e-4)[0]), rcond=1e-4, **TOL)
f.case("lstsq_batched_raises", "lstsq", [r(2, 3, 3), r(2, 3)], r(1), raises="ValueError")
f.case("lstsq_rows_raises", "lstsq", [r(4, 3), r(3)], r(1), raises="ValueError")
a = r(5, 3)
f.case("pinv_tall", "pinv", [a], f32(np.linalg.pinv(a.astype(np.float64))), **TOL)
a = r(2, 3, 4)
f.case("pinv_wide_batched", "pinv", [a], f32(np.linalg.pinv(a.astype(np.float64))), **TOL)
a = r(4, 2) @ r(2, 4)
f.case("pinv_rank_deficient", "pinv", [a], f32(np.linalg.pinv(a.astype(np.float64), rcond=1e-4)), rcond=1e-4, **TOL)
a = r(4, 3).astype(np.float64)
f.case("pinv_float64", "pinv", [a], np.linalg.pinv(a), **TOL64)
f.case("pinv_empty", "pinv", [np.zeros((0, 3), np.float32)], np.zeros((3, 0), np.float32))
a = np.stack([r(4, 4), r(4, 2) @ r(2, 4), np.zeros((4, 4), np.float32)])
f.case("matrix_rank", "matrix_rank", [a], np.linalg.matrix_rank(a).astype(np.int32))
a = np.diag(np.array([1.0, 0.5, 1e-3], np.float32))
f.case("matrix_rank_tol", "matrix_rank", [a], np.int32(2), tol=0.01)
f.case("matrix_rank_wide", "matrix_rank", [r(2, 5)], np.int32(2))
f.case("matrix_rank_1d_raises", "matrix_rank", [r(3)], r(1), raises="ValueError")

# ---- matrix_power --------------------------------------------------------------------------
x = r(3, 3) * 0.5
x64 = x.astype(np.float64)
for n in [0, 1, 2, 3, 5]:
    f.case(f"matrix_power_{n}", "matrix_power", [x], f32(np.linalg.matrix_power(x64, n)), n=n, **TOL)
x = well(3, 2)
for n in [-1, -3]:
    f.case(f"matrix_power_neg{-n}", "matrix_power", [x], f32(np.linalg.matrix_power(x.astype(np.float64), n)), n=n, **TOL)
x = f.randint(-3, 3, 3, 3)
f.case("matrix_power_int", "matrix_power", [x], np.linalg.matrix_power(x, 4).astype(np.int32), n=4)
f.case("matrix_power_nonsquare_raises", "matrix_power", [r(2, 3)], r(1), n=2, raises="ValueError")

# ---- norm ----------------------------------------------------------------------------------
v = r(6)
v64 = v.astype(np.float64)
inf = float("inf")
for name, ord_ in [("none", None), ("2", 2), ("1", 1), ("inf", inf), ("neginf", -inf), ("0", 0),
                   ("3", 3), ("half", 0.5), ("neg1", -1)]:
    f.case(f"norm_vector_{name}", "norm", [v], f32(np.linalg.norm(v64, ord_)), **ord_kw(ord_), **TOL)
m = r(3, 4)
m64 = m.astype(np.float64)
for name, ord_ in [("none", None), ("fro", "fro"), ("nuc", "nuc"), ("1", 1), ("neg1", -1),
                   ("inf", inf), ("neginf", -inf), ("2", 2), ("neg2", -2)]:
    f.case(f"norm_matrix_{name}", "norm", [m], f32(np.linalg.norm(m64, ord_)), **ord_kw(ord_), **TOL)
t = r(2, 3, 4)
t64 = t.astype(np.float64)
f.case("norm_all_3d", "norm", [t], f32(np.linalg.norm(t64)), **TOL)
f.case("norm_all_keepdims", "norm", [t], f32(np.linalg.norm(t64, keepdims=True)), keepdims=True, **TOL)
f.case("norm_axis", "norm", [t], f32(np.linalg.norm(t64, axis=1)), axis=1, **TOL)
f.case("norm_axis_neg_ord1_keepdims", "norm", [t], f32(np.linalg.norm(t64, 1, axis=-1, keepdims=True)), ord=1, axis=-1, keepdims=True, **TOL)
for name, ord_ in [("fro", "fro"), ("1", 1), ("inf", inf), ("2", 2), ("nuc", "nuc")]:
    f.case(f"norm_matrix_axes_{name}", "norm", [t], f32(np.linalg.norm(t64, ord_, axis=(2, 0))), axis=[2, 0], **ord_kw(ord_), **TOL)
    f.case(f"norm_matrix_axes_keepdims_{name}", "norm", [t], f32(np.linalg.norm(t64, ord_, axis=(0, 2), keepdims=True)), axis=[0, 2], keepdims=True, **ord_kw(ord_), **TOL)
x = np.array([1.0, -np.inf, 2.0], np.float32)
f.case("norm_inf_value", "norm", [x], np.float32(np.inf))
f.case("norm_inf_value_min", "norm", [x], np.float32(1.0), ord="-inf")
x = np.array([[1.0, np.nan], [0.0, 1.0]], np.float32)
f.case("norm_nan_fro", "norm", [x], np.float32(np.nan))
x = f.randint(-5, 5, 4)
# Integers compute in floatx.
f.case("norm_int", "norm", [x], f32(np.linalg.norm(x)), **TOL)
x = r(5).astype(np.float64)
f.case("norm_float64", "norm", [x], np.linalg.norm(x, 3), ord=3, **TOL64)
f.case("norm_empty", "norm", [np.zeros((0,), np.float32)], np.float32(0.0))
f.case("norm_fro_vector_raises", "norm", [v], r(1), ord="fro", raises="ValueError")
f.case("norm_bad_matrix_ord_raises", "norm", [m], r(1), ord=3, raises="ValueError")
f.case("norm_3d_with_ord_raises", "norm", [t], r(1), ord=2, raises="ValueError")
f.case("norm_three_axes_raises", "norm", [t], r(1), axis=[0, 1, 2], raises="ValueError")
f.case("norm_bad_string_raises", "norm", [m], r(1), ord="max", raises="ValueError")

# ---- decompositions through invariants -----------------------------------------------------
# qr_invariants returns (q @ r, q^T q, tril(r, -1), |r|); expected (x, I, 0, |r_numpy|).
for name, shape, mode in [("qr_square", (4, 4), "reduced"), ("qr_tall", (5, 3), "reduced"),
                          ("qr_wide", (3, 5), "reduced"), ("qr_tall_complete", (5, 3), "complete"),
                          ("qr_wide_complete", (3, 5), "complete"), ("qr_batched", (2, 4, 3), "reduced")]:
    x = r(*shape)
    q, rr = np.linalg.qr(x.astype(np.float64), mode=mode)
    k = q.shape[-1]
    f.case(name, "qr_invariants", [x],
           [x, np.broadcast_to(np.eye(k, dtype=np.float32), q.shape[:-2] + (k, k)),
            np.zeros(rr.shape, np.float32), f32(np.abs(rr))], mode=mode, **TOL)
x = r(4, 3).astype(np.float64)
q, rr = np.linalg.qr(x)
f.case("qr_float64", "qr_invariants", [x], [x, np.eye(3), np.zeros((3, 3)), np.abs(rr)], mode="reduced", **TOL64)
f.case("qr_mode_raises", "qr_invariants", [r(3, 3)], r(1), mode="r", raises="ValueError")
# svd_invariants returns (s, u diag(s) vh, u^T u, vh vh^T); expected (s_numpy, x, I, I).
for name, shape, full in [("svd_tall", (5, 3), False), ("svd_wide", (3, 5), False),
                          ("svd_tall_full", (5, 3), True), ("svd_wide_full", (3, 5), True),
                          ("svd_batched", (2, 4, 4), True)]:
    x = r(*shape)
    s = np.linalg.svd(x.astype(np.float64), compute_uv=False)
    m_, n_ = shape[-2:]
    ku, kv = (m_, n_) if full else (min(m_, n_),) * 2
    f.case(name, "svd_invariants", [x],
           [f32(s), x, np.broadcast_to(np.eye(ku, dtype=np.float32), shape[:-2] + (ku, ku)),
            np.broadcast_to(np.eye(kv, dtype=np.float32), shape[:-2] + (kv, kv))],
           full_matrices=full, **TOL)
x = r(4, 3)
f.case("svd_values_only", "svd_values", [x], f32(np.linalg.svd(x.astype(np.float64), compute_uv=False)), **TOL)
x = r(3, 6).astype(np.float64)
f.case("svd_values_float64", "svd_values", [x], np.linalg.svd(x, compute_uv=False), **TOL64)
f.case("svd_1d_raises", "svd_values", [r(4)], r(1), raises="ValueError")
# eigh_invariants returns (w, v diag(w) v^T, v^T v); expected (w_numpy, x, I). The input's
# upper triangle is noise: only the lower one is read.
for name, shape in [("eigh", (4, 4)), ("eigh_batched", (2, 3, 3))]:
    x = spd(shape[-1], *shape[:-2]) - 2 * np.eye(shape[-1], dtype=np.float32)
    w = np.linalg.eigvalsh(x.astype(np.float64))
    noisy = np.tril(x) + np.triu(r(*shape), 1)
    f.case(name, "eigh_invariants", [noisy],
           [f32(w), x, np.broadcast_to(np.eye(shape[-1], dtype=np.float32), shape)], **TOL)
x = spd(5, dtype=np.float64)
f.case("eigh_float64", "eigh_invariants", [x], [np.linalg.eigvalsh(x), x, np.eye(5)], **TOL64)
f.case("eigh_nonsquare_raises", "eigh_invariants", [r(3, 4)], r(1), raises="ValueError")

# ---- lu_factor (from PyTorch) --------------------------------------------------------------
for name, shape in [("lu_factor_square", (4, 4)), ("lu_factor_batched", (2, 3, 3)),
                    ("lu_factor_tall", (5, 3)), ("lu_factor_wide", (3, 5))]:
    x = r(*shape)
    lu, piv = torch.linalg.lu_factor(torch.from_numpy(x.astype(np.float64)))
    f.case(name, "lu_factor", [x], [f32(lu.numpy()), (piv.numpy() - 1).astype(np.int32)], **TOL)
x = r(4, 4).astype(np.float64)
lu, piv = torch.linalg.lu_factor(torch.from_numpy(x))
f.case("lu_factor_float64", "lu_factor", [x], [lu.numpy(), (piv.numpy() - 1).astype(np.int32)], **TOL64)

# ---- jvp -----------------------------------------------------------------------------------
# jvp_tanh_matvec: fun(x) = tanh(a @ x) at x along t, so J t = (1 - tanh(a x)^2) * (a t).
a, x, t = r(3, 4).astype(np.float64), r(4).astype(np.float64), r(4).astype(np.float64)
y = np.tanh(a @ x)
f.case("jvp_tanh_matvec", "jvp_tanh_matvec", [a, x, t], [y, (1 - y ** 2) * (a @ t)], **TOL64)

# ---- extract_sequences, cdist --------------------------------------------------------------
def sequences(x, length, stride):
    n = x.shape[-1]
    count = 1 + (n - length) // stride if n >= length else 0
    idx = np.arange(count)[:, None] * stride + np.arange(length)[None, :]
    return x[..., idx]


for name, shape, length, stride in [("extract_sequences", (10,), 3, 2),
                                    ("extract_sequences_batched", (2, 3, 8), 4, 1),
                                    ("extract_sequences_stride_gt_length", (2, 9), 2, 3),
                                    ("extract_sequences_exact", (5,), 5, 1),
                                    ("extract_sequences_too_short", (2, 2), 3, 1)]:
    x = r(*shape)
    f.case(name, "extract_sequences", [x], sequences(x, length, stride),
           sequence_length=length, sequence_stride=stride)
x = f.randint(0, 9, 6)
f.case("extract_sequences_int", "extract_sequences", [x], sequences(x, 3, 2), sequence_length=3, sequence_stride=2)
f.case("extract_sequences_0d_raises", "extract_sequences", [np.float32(1)], r(1), sequence_length=1, sequence_stride=1, raises="ValueError")
f.case("extract_sequences_zero_stride_raises", "extract_sequences", [r(5)], r(1), sequence_length=2, sequence_stride=0, raises="ValueError")


def cdist(x, y, p=2.0):
    d = np.abs(x[..., :, None, :].astype(np.float64) - y[..., None, :, :])
    if p == 0:
        return (d != 0).sum(-1).astype(np.float64)
    if np.isinf(p):
        return d.max(-1)
    return (d ** p).sum(-1) ** (1.0 / p)


x, y = r(4, 3), r(5, 3)
for name, p in [("2", 2.0), ("1", 1.0), ("3", 3.0), ("inf", inf), ("0", 0.0)]:
    kw = {} if p == 2.0 else {"p": num(p)}
    f.case(f"cdist_p{name}", "cdist", [x, y], f32(cdist(x, y, p)), **kw, **TOL)
x, y = r(2, 1, 4, 3), r(3, 5, 3)
f.case("cdist_batched", "cdist", [x, y], f32(cdist(x, y)), **TOL)
x, y = f.randint(-5, 5, 3, 2), f.randint(-5, 5, 2, 2)
# Integers compute in floatx (result_type(x, y, float)).
f.case("cdist_int", "cdist", [x, y], f32(cdist(x, y)), **TOL)
x, y = r(3, 4).astype(np.float64), r(2, 4).astype(np.float64)
f.case("cdist_float64", "cdist", [x, y], cdist(x, y), **TOL64)
f.case("cdist_dim_raises", "cdist", [r(3, 4), r(3, 5)], r(1), raises="ValueError")
f.case("cdist_rank_raises", "cdist", [r(4), r(3, 4)], r(1), raises="ValueError")

f.save()
