"""Complex tensors against real Keras 3.15 (JAX backend, x64), for
tests/ops_complex/complex_oracle_test.cpp: keras.ops.view_as_complex, view_as_real, polar, eig,
and the ops that take complex inputs (arithmetic, power, exp/log/sqrt and their variants, the
trigonometric and hyperbolic functions and their inverses, sign, abs/angle/real/imag/conj,
sum/mean/cumsum, matmul and the other products, einsum, where, concatenate, stack, cast,
equal), values and gradients.

Writes tests/oracle/fixtures/complex.npz. Each case stores the op's inputs, then random real
weights w for each output part, and as outputs the op's output followed (when kwargs grad is
true) by jax.grad, through Keras's function, of
    L = sum(real(y) * w_re + imag(y) * w_im)     (complex y)
    L = sum(y * w)                               (real y)
with respect to each input. For a complex input z = x + iy, JAX's gradient is dL/dx - i dL/dy
(the conjugate of the steepest-ascent direction), the convention keras-cpp follows.
Run: ./scripts/oracle.sh complex
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle import Fixture  # noqa: E402  (sets up Keras on JAX with x64 first)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402

ops = keras.ops
TOL = {np.complex64: dict(rtol=2e-5, atol=2e-5), np.float32: dict(rtol=2e-5, atol=2e-5),
       np.complex128: dict(rtol=1e-10, atol=1e-10), np.float64: dict(rtol=1e-10, atol=1e-10)}


def crandn(f, *shape, dtype=np.complex64):
    part = np.float32 if dtype == np.complex64 else np.float64
    return (f.randn(*shape, dtype=part) + 1j * f.randn(*shape, dtype=part)).astype(dtype)


def weights_for(f, y):
    part = np.float64 if y.dtype in (np.float64, np.complex128) else np.float32
    if np.iscomplexobj(y):
        return [f.randn(*y.shape, dtype=part), f.randn(*y.shape, dtype=part)]
    return [f.randn(*y.shape, dtype=part)]


def loss_of(y, w):
    if jnp.iscomplexobj(y):
        return jnp.sum(jnp.real(y) * w[0] + jnp.imag(y) * w[1])
    return jnp.sum(y * w[0])


def case(f, name, op, fn, inputs, grad=True, **kwargs):
    """fn(*inputs) -> one output; gradients with respect to every input when `grad`."""
    y = np.asarray(fn(*inputs))
    w = weights_for(f, y)
    outputs = [y]
    if grad:
        argnums = tuple(range(len(inputs)))
        grads = jax.grad(lambda *x: loss_of(fn(*x), w), argnums=argnums)(*inputs)
        outputs += [np.asarray(g) for g in grads]
    tol = TOL.get(y.dtype.type, dict(rtol=0, atol=0))
    if any(np.asarray(x).dtype == np.complex128 for x in inputs) and y.dtype in (
            np.complex64, np.float32):
        # Keras narrowed complex128 to complex64 (dtypes.result_type's 64-to-32-bit map);
        # keras-cpp keeps complex128: its values agree within float32's error.
        tol = dict(check_dtype=False, rtol=1e-5, atol=1e-5)
    f.case(name, op, [*inputs, *w], outputs, grad=grad, **{**tol, **kwargs})  # kwargs win


def main():
    f = Fixture("complex", seed=7)
    for dtype, tag in ((np.complex64, "c64"), (np.complex128, "c128")):
        z = crandn(f, 3, 4, dtype=dtype)
        w = crandn(f, 4, dtype=dtype)  # broadcast along the rows
        part = np.float32 if dtype == np.complex64 else np.float64
        r = f.randn(3, 4, dtype=part)
        for op in ("add", "subtract", "multiply", "divide"):
            case(f, f"{op}_{tag}", op, getattr(ops, op), [z, w])
            case(f, f"{op}_real_{tag}", op, getattr(ops, op), [z, r])
        # Keras's angle and mean compute complex128 in complex64 (dtypes.result_type maps 64
        # bits to 32, promotion.h); keras-cpp keeps complex128: values within float32's error.
        narrowed = dict(check_dtype=False, rtol=1e-6, atol=1e-6) if tag == "c128" else {}
        for op in ("negative", "square", "reciprocal", "exp", "log", "sqrt", "abs", "angle",
                   "real", "imag", "conj"):
            case(f, f"{op}_{tag}", op, getattr(ops, op), [z], **(narrowed if op == "angle" else {}))
        for op in ("sin", "cos", "tan", "sinh", "cosh", "tanh", "exp2", "expm1", "log1p",
                   "log2", "log10", "sign", "arcsin", "arccos", "arctan", "arcsinh",
                   "arctanh"):
            case(f, f"{op}_{tag}", op, getattr(ops, op), [0.5 * z])
        # arccosh on the right half-plane only: for Re z < 0, jax.grad of jnp.arccosh has the
        # wrong sign (its derivative rule takes one square root of (z - 1)(z + 1) where the
        # function takes two); keras-cpp's gradient there is checked by finite differences.
        right = (np.abs(z.real) + 1j * z.imag).astype(dtype)
        case(f, f"arccosh_{tag}", "arccosh", ops.arccosh, [right])
        case(f, f"power_{tag}", "power", ops.power, [z, 0.5 * w])
        case(f, f"power_real_{tag}", "power", ops.power, [z, r])
        case(f, f"cumsum_axis1_{tag}", "cumsum", lambda x: ops.cumsum(x, axis=1), [z], axis=1)
        case(f, f"cumsum_flat_{tag}", "cumsum", ops.cumsum, [z], axis=None)
        # sqrt and log across the branch cut and at the axes: signs of zero matter.
        edge = np.array([-4 + 0j, -4 - 0j, 0 + 4j, 0 - 4j, 4 + 0j, -1e-3 + 2j, 3 - 1e-30j],
                        dtype=dtype)
        case(f, f"sqrt_edges_{tag}", "sqrt", ops.sqrt, [edge], grad=False)
        case(f, f"log_edges_{tag}", "log", ops.log, [edge], grad=False)
        # The inverse functions across their branch cuts (on the real or imaginary axis, with
        # both signs of zero) and at large arguments.
        cuts = np.array([3 + 0j, 3 - 0j, -3 + 0j, -3 - 0j, 0 + 3j, 0 - 3j, -0.0 + 3j, 0.5 + 0j,
                         -20 + 1j, 15 - 30j], dtype=dtype)
        for op in ("arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"):
            case(f, f"{op}_cuts_{tag}", op, getattr(ops, op), [cuts], grad=False)
        # Products (keras-cpp multiplies halves pairwise; the order of rounding differs).
        case(f, f"prod_all_{tag}", "prod", ops.prod, [0.8 * z])
        case(f, f"prod_axis1_{tag}", "prod_axis1", lambda x: ops.prod(x, axis=1), [z])
        case(f, f"cumprod_axis1_{tag}", "cumprod_axis1", lambda x: ops.cumprod(x, axis=1), [z])
        case(f, f"cumprod_flat_{tag}", "cumprod_flat", ops.cumprod, [0.9 * z])
        # NumPy's lexicographic order: real parts first, the imaginary parts break ties (column
        # 1 repeats column 0's real parts; row 2 holds an exact duplicate).
        tied = z.copy()
        tied[:, 1] = tied[:, 0].real + 1j * (tied[:, 0].imag + 0.5)
        tied[2, 3] = tied[2, 2]
        for name, fn in (("max_axis1", lambda x: ops.max(x, axis=1)),
                         ("min_axis1", lambda x: ops.min(x, axis=1)),
                         ("max_all", ops.max),
                         ("amin_axis0", lambda x: ops.amin(x, axis=0)),
                         ("ptp_axis1", lambda x: ops.ptp(x, axis=1)),
                         ("max_initial", lambda x: ops.max(x, axis=1, initial=0.5)),
                         ("sort_axis1", lambda x: ops.sort(x, axis=1)),
                         ("sort_flat", lambda x: ops.sort(x, axis=None))):
            # The gradient of a tied extreme is where JAX and keras-cpp may split it otherwise.
            case(f, f"{name}_{tag}", name, fn, [tied], grad=name.startswith("sort"))
            case(f, f"{name}_grad_{tag}", name, fn, [z])
        # int32, as keras-cpp's argsort of every dtype (Keras's JAX backend gives int64 in x64).
        case(f, f"argsort_axis1_{tag}", "argsort_axis1", lambda x: ops.argsort(x, axis=1), [tied],
             grad=False, check_dtype=False)
        # Linear systems of complex matrices (keras-cpp: the real embedding of twice the size).
        sq = crandn(f, 2, 3, 3, dtype=dtype) + 3 * np.eye(3, dtype=dtype)
        case(f, f"inv_{tag}", "inv", ops.linalg.inv, [sq])
        case(f, f"solve_{tag}", "solve", ops.linalg.solve, [sq, crandn(f, 2, 3, 2, dtype=dtype)])
        case(f, f"solve_vector_{tag}", "solve", ops.linalg.solve, [sq[0], crandn(f, 3, dtype=dtype)])
        case(f, f"solve_real_b_{tag}", "solve", ops.linalg.solve,
             [sq, f.randn(2, 3, 2, dtype=part)])
        case(f, f"sum_axis1_{tag}", "sum", lambda x: ops.sum(x, axis=1), [z], axis=1)
        case(f, f"sum_all_{tag}", "sum", ops.sum, [z], axis=None)
        case(f, f"mean_axis0_{tag}", "mean", lambda x: ops.mean(x, axis=0), [z], axis=0,
             **narrowed)
        a, b = crandn(f, 2, 3, 4, dtype=dtype), crandn(f, 4, 5, dtype=dtype)
        case(f, f"matmul_{tag}", "matmul", ops.matmul, [a, b])
        case(f, f"matmul_real_{tag}", "matmul", ops.matmul, [a, f.randn(4, 2, dtype=part)])
        # The contractions, all matrix products of the parts in keras-cpp.
        m, v = crandn(f, 3, 4, dtype=dtype), crandn(f, 4, dtype=dtype)
        case(f, f"dot_{tag}", "dot", ops.dot, [m, crandn(f, 4, 2, dtype=dtype)])
        case(f, f"dot_vector_{tag}", "dot", ops.dot, [m, v])
        case(f, f"tensordot_{tag}", "tensordot", lambda x, y: ops.tensordot(x, y, axes=1),
             [m, crandn(f, 4, 2, dtype=dtype)])
        case(f, f"inner_{tag}", "inner", ops.inner, [m, crandn(f, 2, 4, dtype=dtype)])
        case(f, f"outer_{tag}", "outer", ops.outer, [v, crandn(f, 3, dtype=dtype)])
        case(f, f"vdot_{tag}", "vdot", ops.vdot, [v, crandn(f, 4, dtype=dtype)])
        case(f, f"kron_{tag}", "kron", ops.kron,
             [crandn(f, 2, 2, dtype=dtype), crandn(f, 2, 3, dtype=dtype)])
        case(f, f"einsum_{tag}", "einsum_ij_jk", lambda x, y: ops.einsum("ij,jk->ik", x, y),
             [m, crandn(f, 4, 2, dtype=dtype)])
        case(f, f"einsum_three_{tag}", "einsum_ij_j_k",
             lambda x, y, u: ops.einsum("ij,j,k->ik", x, y, u), [m, v, crandn(f, 2, dtype=dtype)])
        case(f, f"einsum_trace_{tag}", "einsum_ii", lambda x: ops.einsum("ii->", x),
             [crandn(f, 3, 3, dtype=dtype)])
        take_at = np.array([2, 0, 2, 3], dtype=np.int32)
        case(f, f"take_{tag}", "take", lambda x: ops.take(x, take_at, axis=1), [z],
             indices=take_at.tolist(), axis=1)
        along = np.array([[1], [3], [0]], dtype=np.int32)
        case(f, f"take_along_axis_{tag}", "take_along_axis",
             lambda x: ops.take_along_axis(x, along, axis=1), [z], indices=along.tolist(), axis=1)
        # Moments and norms of complex numbers are real (NumPy, JAX): |x - mean|^2, |x|.
        # Keras's var casts its real result back to the input's complex dtype; keras-cpp
        # returns the real part dtype, as NumPy, JAX and Keras's own std do.
        case(f, f"var_{tag}", "var", ops.var, [z], check_dtype=False)
        case(f, f"std_{tag}", "std", ops.std, [z])
        case(f, f"norm_{tag}", "norm", ops.norm, [z])
        case(f, f"norm_axis_{tag}", "norm_axis1", lambda x: ops.norm(x, axis=1), [z])
        case(f, f"round_{tag}", "round_1", lambda x: ops.round(x, 1), [z], grad=False)
        part_t = np.float32 if dtype == np.complex64 else np.float64
        specials = (np.array([np.nan, 1, np.inf, 2], part_t) +
                    1j * np.array([1, np.nan, 3, -np.inf], part_t)).astype(dtype)
        specials.real[2], specials.imag[2] = np.inf, 3  # (inf + 3j), not inf * (1 + 0j) + 3j
        case(f, f"nan_to_num_{tag}", "nan_to_num", ops.nan_to_num, [specials], grad=False)
        case(f, f"nansum_{tag}", "nansum", ops.nansum, [specials], grad=False)
        case(f, f"nanmean_{tag}", "nanmean", ops.nanmean, [specials], grad=False)
        case(f, f"tile_{tag}", "tile_1_2", lambda x: ops.tile(x, (1, 2)), [z])
        case(f, f"repeat_{tag}", "repeat_2_axis1", lambda x: ops.repeat(x, 2, axis=1), [z])
        case(f, f"roll_{tag}", "roll_1_axis1", lambda x: ops.roll(x, 1, axis=1), [z])
        case(f, f"flip_{tag}", "flip_axis1", lambda x: ops.flip(x, axis=1), [z])
        cond = f.randint(0, 2, 3, 4).astype(bool)
        case(f, f"where_{tag}", "where", lambda x, y: ops.where(cond, x, y),
             [z, crandn(f, 3, 4, dtype=dtype)], cond=cond.tolist())
        case(f, f"concatenate_{tag}", "concatenate", lambda x, y: ops.concatenate([x, y], axis=-1),
             [z, crandn(f, 3, 2, dtype=dtype)], axis=-1)
        case(f, f"stack_{tag}", "stack", lambda x, y: ops.stack([x, y], axis=1), [z, z * 2], axis=1)
        case(f, f"view_as_real_{tag}", "view_as_real", ops.view_as_real, [z])
        case(f, f"transpose_{tag}", "transpose", ops.transpose, [z])
        zz = z.copy()
        zz[0, 0] = w[0]
        case(f, f"equal_{tag}", "equal", ops.equal, [z, zz], grad=False)
        case(f, f"not_equal_{tag}", "not_equal", ops.not_equal, [z, zz], grad=False)
        case(f, f"cast_to_real_{tag}", "cast_real", lambda x: ops.cast(x, part), [z])
        case(f, f"cast_from_real_{tag}", "cast_complex", lambda x: ops.cast(x, dtype), [r])
    # view_as_complex and polar: Keras gives complex64 for every input dtype (its 32-bit
    # habit); keras-cpp keeps float64 as complex128, so the float64 cases compare values only.
    x = f.randn(3, 5, 2)
    case(f, "view_as_complex_f32", "view_as_complex", ops.view_as_complex, [x])
    x64 = f.randn(2, 2, dtype=np.float64)
    case(f, "view_as_complex_f64", "view_as_complex", ops.view_as_complex, [x64], grad=False,
         check_dtype=False, rtol=1e-6, atol=1e-6)
    r, theta = f.uniform(0.1, 2, 4, 3), f.uniform(-3, 3, 4, 3)
    case(f, "polar_f32", "polar", ops.polar, [r, theta])
    case(f, "polar_broadcast", "polar", ops.polar, [r, f.uniform(-3, 3, 3)])
    # eig: general matrices with real and complex eigenvalues; values and vectors (no gradient).
    for dtype, tag in ((np.float32, "f32"), (np.float64, "f64")):
        m = f.randn(2, 4, 4, dtype=dtype)
        w, v = ops.eig(m)
        # LAPACK builds differ in their last bits (JAX's against OpenBLAS).
        tol = dict(rtol=1e-4, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-8, atol=1e-8)
        f.case(f"eig_{tag}", "eig", [m], [np.asarray(w), np.asarray(v)], **tol)
    rot = np.array([[0.0, -1.0], [1.0, 0.0]], dtype=np.float32)  # eigenvalues +-i
    w, v = ops.eig(rot)
    f.case("eig_rotation", "eig", [rot], [np.asarray(w), np.asarray(v)], rtol=1e-6, atol=1e-6)
    f.save()


if __name__ == "__main__":
    main()
