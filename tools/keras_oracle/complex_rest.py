"""The rest of the keras.ops functions that take complex tensors in Keras 3.15 (JAX backend,
x64), for tests/ops_complex/complex_rest_oracle_test.cpp: the ordering comparisons and
maximum/minimum/fmax/fmin (NumPy's and JAX's lexicographic order), the logical ops and
reductions (a complex number is true when it is not 0), nonzero, isin, isclose, the NaN-skipping
reductions, divide_no_nan, rsqrt, sinc, deg2rad/rad2deg, logaddexp/logaddexp2 and logsumexp
(JAX's formulas: imaginary parts wrapped into one period), softmax, log_softmax, sigmoid, silu,
softplus, log_sigmoid, softsign, squareplus, tanh_shrink, gelu (its tanh approximation),
and the shape and difference ops (append, stacks, rot90, tril/triu, diff, cross, average,
trapezoid, linspace, diagflat), unique (lexicographic), corrcoef and cdist.

Writes tests/oracle/fixtures/complex_rest.npz in the layout of complex.py (its `case`: values
and jax.grad gradients of L = sum(real(y) * w_re + imag(y) * w_im)).
Run: ./scripts/oracle.sh complex_rest
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import Fixture  # noqa: E402  (sets up Keras on JAX with x64 first)
from complex import case, crandn  # noqa: E402

import keras  # noqa: E402
import numpy as np  # noqa: E402

ops = keras.ops


def main():
    f = Fixture("complex_rest", seed=13)
    for dtype, tag in ((np.complex64, "c64"), (np.complex128, "c128")):
        part = np.float32 if dtype == np.complex64 else np.float64
        z = crandn(f, 3, 4, dtype=dtype)
        # Ties: column 1 repeats column 0's real parts, row 2 of w equals row 2 of z, zeros.
        w = crandn(f, 3, 4, dtype=dtype)
        w[:, 1] = z[:, 1].real + 1j * (z[:, 1].imag + 0.5)
        w[2] = z[2]
        w[0, 3] = 0
        z[1, 2] = 0
        for op in ("greater", "greater_equal", "less", "less_equal", "logical_and", "logical_or",
                   "logical_xor", "isclose"):
            case(f, f"{op}_{tag}", op, getattr(ops, op), [z, w], grad=False)
        for op in ("maximum", "minimum", "fmax", "fmin"):
            case(f, f"{op}_{tag}", op, getattr(ops, op), [z, w])
        holes = w.copy()
        holes[0, 0] = np.nan
        holes[1, 1] = complex(1.0, np.nan)
        for op in ("fmax", "fmin"):
            case(f, f"{op}_nan_{tag}", op, getattr(ops, op), [z, holes], grad=False)
        case(f, f"logical_not_{tag}", "logical_not", ops.logical_not, [z], grad=False)
        case(f, f"all_axis1_{tag}", "all_axis1", lambda x: ops.all(x, axis=1), [z], grad=False)
        case(f, f"any_axis0_{tag}", "any_axis0", lambda x: ops.any(x, axis=0),
             [z * (np.arange(4) > 1)], grad=False)
        case(f, f"count_nonzero_{tag}", "count_nonzero_axis1",
             lambda x: ops.count_nonzero(x, axis=1), [z], grad=False, check_dtype=False)
        case(f, f"nonzero_{tag}", "nonzero_rows", lambda x: ops.nonzero(x)[0], [z], grad=False,
             check_dtype=False)
        case(f, f"isin_{tag}", "isin", ops.isin, [z, w[2]], grad=False)
        case(f, f"divide_no_nan_{tag}", "divide_no_nan", ops.divide_no_nan, [z, w])
        for op in ("deg2rad", "rad2deg", "sigmoid", "silu", "softplus", "log_sigmoid",
                   "softsign", "squareplus", "tanh_shrink", "gelu"):
            case(f, f"{op}_{tag}", op, getattr(ops, op), [z])
        # At 0 (z[1, 2]) rsqrt is inf + nan j; jax.grad gives NaN there, keras-cpp 0 (below the
        # division by 0 has no gradient): the gradient away from 0.
        case(f, f"rsqrt_zero_{tag}", "rsqrt", ops.rsqrt, [z], grad=False)
        case(f, f"rsqrt_grad_{tag}", "rsqrt", ops.rsqrt, [w + 3])
        case(f, f"sinc_{tag}", "sinc", ops.sinc, [0.5 * z])
        for op in ("logaddexp", "logaddexp2"):
            case(f, f"{op}_{tag}", op, getattr(ops, op), [z, 2 * w])
        case(f, f"logsumexp_axis1_{tag}", "logsumexp_axis1",
             lambda x: ops.logsumexp(x, axis=1), [2 * z])
        case(f, f"logsumexp_all_{tag}", "logsumexp_all", ops.logsumexp, [z])
        case(f, f"softmax_{tag}", "softmax", ops.softmax, [z])
        case(f, f"log_softmax_{tag}", "log_softmax", ops.log_softmax, [2 * z])
        nan = z.copy()
        nan[0, 1] = np.nan
        nan[2, 3] = complex(np.nan, 1.0)
        for op in ("nancumsum", "nancumprod"):
            case(f, f"{op}_{tag}", f"{op}_axis1", lambda x, o=op: getattr(ops, o)(x, axis=1),
                 [nan], grad=False)
        for op in ("nanprod", "nanmax", "nanmin"):
            case(f, f"{op}_{tag}", f"{op}_axis1", lambda x, o=op: getattr(ops, o)(x, axis=1),
                 [nan], grad=False)
        case(f, f"append_{tag}", "append", ops.append, [z, w])
        case(f, f"hstack_{tag}", "hstack", lambda x, y: ops.hstack([x, y]), [z, w])
        case(f, f"vstack_{tag}", "vstack", lambda x, y: ops.vstack([x, y]), [z, w])
        case(f, f"dstack_{tag}", "dstack", lambda x, y: ops.dstack([x, y]), [z, w])
        case(f, f"rot90_{tag}", "rot90", ops.rot90, [z])
        case(f, f"tril_{tag}", "tril", ops.tril, [z])
        case(f, f"triu_{tag}", "triu", ops.triu, [z])
        case(f, f"diff_{tag}", "diff", ops.diff, [z])
        v3, u3 = crandn(f, 2, 3, dtype=dtype), crandn(f, 2, 3, dtype=dtype)
        case(f, f"cross_{tag}", "cross", ops.cross, [v3, u3])
        case(f, f"average_{tag}", "average_axis1", lambda x: ops.average(x, axis=1), [z])
        case(f, f"average_weights_{tag}", "average_weights",
             lambda x, y: ops.average(x, axis=1, weights=y), [z, f.uniform(0.5, 1.5, 4).astype(part)])
        case(f, f"trapezoid_{tag}", "trapezoid", ops.trapezoid, [z])
        case(f, f"linspace_{tag}", "linspace_5", lambda a, b: ops.linspace(a, b, 5),
             [z[0], w[0]])
        case(f, f"diagflat_{tag}", "diagflat", ops.diagflat, [z[:2, :2]])
        # unique in the lexicographic order (the repeated row of w and z, ties in real parts).
        both = np.concatenate([z, w])
        case(f, f"unique_{tag}", "unique", ops.unique, [both], grad=False)
        case(f, f"unique_inverse_{tag}", "unique_inverse",
             lambda x: ops.unique(x, return_inverse=True)[1], [both], grad=False,
             check_dtype=False)
        case(f, f"unique_rows_{tag}", "unique_rows", lambda x: ops.unique(x, axis=0), [both],
             grad=False)
        case(f, f"unique_size_{tag}", "unique_size_30",
             lambda x: ops.unique(x, size=30, fill_value=7), [both], grad=False)
        case(f, f"corrcoef_{tag}", "corrcoef", ops.corrcoef, [z])
        # cdist with p=2: sqrt(sum((a - b)^2)) in complex arithmetic, as JAX computes it.
        case(f, f"cdist_{tag}", "cdist", ops.cdist, [z, w + 2])
    f.save()


if __name__ == "__main__":
    main()
