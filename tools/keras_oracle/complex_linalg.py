"""keras.ops.linalg on complex matrices against real Keras 3.15 (JAX backend, x64), for
tests/ops_complex/complex_linalg_oracle_test.cpp: det, slogdet, cholesky, cholesky_inverse, qr,
svd, eigh, eig, lu_factor, solve_triangular, lstsq, pinv, matrix_rank and the singular-value
norms, values and jax.grad gradients.

Writes tests/oracle/fixtures/complex_linalg.npz in the layout of complex.py (its `case`: the
inputs, random real weights, the output and jax.grad of
L = sum(real(y) * w_re + imag(y) * w_im) with respect to each input: dL/dx - i dL/dy).

The factorizations' vectors have free phases (a singular or eigen vector times e^{i t} is one
too), which LAPACK builds may fix differently, so those cases compare functions that do not
depend on them: U diag(d) Vh and |U| for svd, V diag(d) V^H and |V| for eigh. Q and R of qr,
the Cholesky factor and LU are unique (LAPACK's conventions: R's and L's diagonals real).
Inputs of cholesky and eigh are Hermitian (JAX symmetrizes; keras-cpp reads one triangle).
Run: ./scripts/oracle.sh complex_linalg
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import Fixture  # noqa: E402  (sets up Keras on JAX with x64 first)
from complex import case, crandn  # noqa: E402

import jax.numpy as jnp  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402

ops = keras.ops
linalg = keras.ops.linalg


def hermitian_pd(f, n, dtype, batch=()):
    b = crandn(f, *batch, n, n, dtype=dtype)
    return (b @ np.conj(np.swapaxes(b, -1, -2)) + n * np.eye(n)).astype(dtype)


def main():
    f = Fixture("complex_linalg", seed=11)
    for dtype, tag in ((np.complex64, "c64"), (np.complex128, "c128")):
        # complex64 factorizations amplify float32 rounding through their inverses.
        loose = dict(rtol=5e-4, atol=5e-4) if dtype == np.complex64 else {}
        sq = crandn(f, 2, 3, 3, dtype=dtype) + 2 * np.eye(3, dtype=dtype)
        case(f, f"det_{tag}", "det", linalg.det, [sq], **loose)
        case(f, f"slogdet_sign_{tag}", "slogdet_sign", lambda x: ops.slogdet(x)[0], [sq], **loose)
        case(f, f"slogdet_log_{tag}", "slogdet_log", lambda x: ops.slogdet(x)[1], [sq], **loose)

        pd = hermitian_pd(f, 4, dtype, batch=(2,))
        case(f, f"cholesky_{tag}", "cholesky", linalg.cholesky, [pd], **loose)
        case(f, f"cholesky_upper_{tag}", "cholesky_upper",
             lambda x: linalg.cholesky(x, upper=True), [pd], **loose)

        # Keras's cholesky_inverse transposes without conjugating, which is the inverse of
        # L L^H only for real factors: the oracle is jnp.linalg.inv(L L^H) (the same function
        # as Keras's for real input), as keras-cpp computes it. Only the factor's triangle is
        # read (Keras's solve_triangular), so the other one gets no gradient.
        def hermitian_transpose(x):
            return jnp.conj(jnp.swapaxes(x, -1, -2))

        lower = np.tril(crandn(f, 2, 3, 3, dtype=dtype)) + 3 * np.eye(3, dtype=dtype)
        case(f, f"cholesky_inverse_{tag}", "cholesky_inverse",
             lambda l: jnp.linalg.inv(jnp.tril(l) @ hermitian_transpose(jnp.tril(l))), [lower],
             **loose)
        upper = np.conj(np.swapaxes(lower, -1, -2))
        case(f, f"cholesky_inverse_upper_{tag}", "cholesky_inverse_upper",
             lambda u: jnp.linalg.inv(hermitian_transpose(jnp.triu(u)) @ jnp.triu(u)), [upper],
             **loose)
        case(f, f"pinv_{tag}", "pinv", linalg.pinv, [crandn(f, 4, 3, dtype=dtype)], **loose)
        low_rank = crandn(f, 4, 2, dtype=dtype) @ crandn(f, 2, 5, dtype=dtype)
        case(f, f"matrix_rank_{tag}", "matrix_rank", linalg.matrix_rank,
             [np.stack([low_rank, crandn(f, 4, 5, dtype=dtype)])], grad=False)

        for shape, name in (((4, 3), "tall"), ((3, 3), "square")):
            x = crandn(f, *shape, dtype=dtype)
            case(f, f"qr_q_{name}_{tag}", "qr_q", lambda a: linalg.qr(a)[0], [x], **loose)
            case(f, f"qr_r_{name}_{tag}", "qr_r", lambda a: linalg.qr(a)[1], [x], **loose)
        # JAX has no gradient for the QR of a wide matrix: values only.
        wide = crandn(f, 2, 4, dtype=dtype)
        case(f, f"qr_q_wide_{tag}", "qr_q", lambda a: linalg.qr(a)[0], [wide], grad=False)
        case(f, f"qr_r_wide_{tag}", "qr_r", lambda a: linalg.qr(a)[1], [wide], grad=False)

        for shape, name in (((4, 3), "tall"), ((3, 4), "wide"), ((2, 3, 3), "square")):
            x = crandn(f, *shape, dtype=dtype)
            k = min(shape[-2:])
            d = np.linspace(1.0, 2.0, k)

            def rebuilt(a, d=d):
                u, s, vh = linalg.svd(a, full_matrices=False)
                return ops.matmul(u * (s * d).astype(u.dtype)[..., None, :], vh)

            def u_moduli(a):
                return ops.absolute(linalg.svd(a, full_matrices=False)[0])

            def vh_moduli(a):
                return ops.absolute(linalg.svd(a, full_matrices=False)[2])

            case(f, f"svd_values_{name}_{tag}", "svd_values",
                 lambda a: linalg.svd(a, compute_uv=False), [x], **loose)
            case(f, f"svd_rebuilt_{name}_{tag}", "svd_rebuilt", rebuilt, [x], d=d.tolist(), **loose)
            case(f, f"svd_u_moduli_{name}_{tag}", "svd_u_moduli", u_moduli, [x], **loose)
            case(f, f"svd_vh_moduli_{name}_{tag}", "svd_vh_moduli", vh_moduli, [x], **loose)

        h = hermitian_pd(f, 4, dtype) - 4 * np.eye(4, dtype=dtype)
        d = np.linspace(1.0, 2.0, 4)

        def eigh_rebuilt(a):
            w, v = linalg.eigh(a)
            return ops.matmul(v * (w * d).astype(v.dtype)[..., None, :], jnp.conj(v.T))

        case(f, f"eigh_values_{tag}", "eigh_values", lambda a: linalg.eigh(a)[0], [h], **loose)
        case(f, f"eigh_rebuilt_{tag}", "eigh_rebuilt", eigh_rebuilt, [h], d=d.tolist(), **loose)
        case(f, f"eigh_moduli_{tag}", "eigh_moduli",
             lambda a: ops.absolute(linalg.eigh(a)[1]), [h], **loose)

        # LU with partial pivoting: LAPACK picks the pivot of largest |re| + |im| (both sides).
        g = crandn(f, 2, 4, 4, dtype=dtype)
        case(f, f"lu_{tag}", "lu", lambda a: linalg.lu_factor(a)[0], [g], **loose)
        case(f, f"lu_pivots_{tag}", "lu_pivots", lambda a: linalg.lu_factor(a)[1], [g], grad=False,
             check_dtype=False)
        case(f, f"lu_tall_{tag}", "lu", lambda a: linalg.lu_factor(a)[0],
             [crandn(f, 5, 3, dtype=dtype)], **loose)

        tri = crandn(f, 2, 3, 3, dtype=dtype) + 3 * np.eye(3, dtype=dtype)
        rhs = crandn(f, 2, 3, 2, dtype=dtype)
        case(f, f"solve_triangular_lower_{tag}", "solve_triangular_lower",
             lambda a, b: linalg.solve_triangular(a, b, lower=True), [tri, rhs], **loose)
        case(f, f"solve_triangular_upper_{tag}", "solve_triangular_upper",
             lambda a, b: linalg.solve_triangular(a, b, lower=False), [tri, rhs], **loose)

        case(f, f"lstsq_tall_{tag}", "lstsq", linalg.lstsq,
             [crandn(f, 5, 3, dtype=dtype), crandn(f, 5, 2, dtype=dtype)], **loose)
        case(f, f"lstsq_vector_{tag}", "lstsq", linalg.lstsq,
             [crandn(f, 5, 3, dtype=dtype), crandn(f, 5, dtype=dtype)], **loose)
        case(f, f"lstsq_wide_{tag}", "lstsq", linalg.lstsq,
             [crandn(f, 2, 4, dtype=dtype), crandn(f, 2, 3, dtype=dtype)], **loose)

        m = crandn(f, 3, 4, dtype=dtype)
        for ord_, name in ((2, "2"), (-2, "minus2"), ("nuc", "nuc")):
            case(f, f"norm_{name}_{tag}", f"norm_{name}", lambda a, o=ord_: linalg.norm(a, ord=o),
                 [m], **loose)

        # eig of complex matrices: values and vectors (Keras's eig has no gradient).
        e = crandn(f, 2, 4, 4, dtype=dtype)
        w, v = linalg.eig(e)
        tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.complex64 else dict(rtol=1e-8, atol=1e-8)
        f.case(f"eig_{tag}", "eig", [e], [np.asarray(w), np.asarray(v)], **tol)
    f.save()


if __name__ == "__main__":
    main()
