"""Fixtures for keras.ops control flow (cond, switch, while_loop, fori_loop, scan,
associative_scan, map, vectorized_map). Writes tests/golden/control_flow.npz.

The ops take functions, so each op name here stands for one op applied with one fixed function
(the C++ test maps the same names to the same functions); the expected results are the plain
Python loops of the Keras docstrings, or NumPy's cumulative functions.
"""

import numpy as np

from fixture import Fixture

f = Fixture("control_flow", seed=3)
r = f.randn


def scan_ref(step, init, xs, reverse=False):
    carry, ys = init, [None] * len(xs[0])
    order = range(len(xs[0]))
    for i in (reversed(order) if reverse else order):
        carry, ys[i] = step(carry, [x[i] for x in xs])
    return carry, np.stack(ys)


# ---- scan ------------------------------------------------------------------------------------
# scan_cumsum: f(c, x) = (c + x, c + x) from zeros; scan_cumprod: (c * x, c * x) from ones.
for name, dtype in [("f32", np.float32), ("f64", np.float64), ("i32", np.int32)]:
    xs = (r(6, 3) * 3).astype(dtype)
    for reverse in (False, True):
        tag = f"{name}_rev" if reverse else name
        carry, ys = scan_ref(lambda c, x: (c + x[0], c + x[0]), np.zeros(3, dtype), [xs], reverse)
        f.case(f"scan_cumsum_{tag}", "scan_cumsum", [xs], [carry, ys], reverse=reverse)
xs = f.uniform(0.5, 1.5, 7, 2)
carry, ys = scan_ref(lambda c, x: (c * x[0], c * x[0]), np.ones(2, np.float32), [xs])
f.case("scan_cumprod", "scan_cumprod", [xs], [carry, ys])
# One step, and zero steps (the carry is the initial one; ys is (0, 2)).
xs = r(1, 2)
f.case("scan_cumsum_one_step", "scan_cumsum", [xs], [xs[0], xs], reverse=False)
xs = np.zeros((0, 2), np.float32)
f.case("scan_cumsum_empty", "scan_cumsum", [xs], [np.zeros(2, np.float32), xs], reverse=False)

# A linear recurrence over two xs: h_t = a_t h_{t-1} + x_t, ys = h_t (the list form).
a, x, h0 = f.uniform(-1, 1, 5, 4), r(5, 4), r(4)
for reverse in (False, True):
    carry, ys = scan_ref(lambda h, ax: (ax[0] * h + ax[1], ax[0] * h + ax[1]), h0, [a, x], reverse)
    f.case(f"scan_recurrence{'_rev' if reverse else ''}", "scan_recurrence", [a, x, h0],
           [carry, ys], reverse=reverse)

# No xs, only a length: f(c, None) = (2 c, c).
c0 = np.array([1.5, -0.5], np.float32)
carry, ys = c0, []
for _ in range(4):
    ys.append(carry)
    carry = carry * 2
f.case("scan_length", "scan_length", [c0], [carry, np.stack(ys)], length=4)

# ---- associative_scan ------------------------------------------------------------------------
cumulative = {"add": np.cumsum, "multiply": np.cumprod, "maximum": np.maximum.accumulate,
              "minimum": np.minimum.accumulate}


def assoc_ref(fn, x, axis, reverse):
    if reverse:
        return np.flip(cumulative[fn](np.flip(x, axis), axis=axis), axis)
    return cumulative[fn](x, axis=axis)


for n in (1, 2, 3, 5, 8, 13):
    x = r(n)
    f.case(f"assoc_add_n{n}", "assoc", [x], assoc_ref("add", x, 0, False), fn="add", axis=0,
           reverse=False)
for fn in cumulative:
    for axis in (0, 1, -1):
        for reverse in (False, True):
            x = f.uniform(0.5, 1.5, 5, 6, 3) if fn == "multiply" else r(5, 6, 3)
            f.case(f"assoc_{fn}_ax{axis}_{'rev' if reverse else 'fwd'}", "assoc", [x],
                   assoc_ref(fn, x, axis, reverse), fn=fn, axis=axis, reverse=reverse)
x = f.randint(-20, 20, 7, 3)
f.case("assoc_add_int32", "assoc", [x], np.cumsum(x, axis=0).astype(np.int32), fn="add", axis=0,
       reverse=False)
x = r(9, 2).astype(np.float64)
f.case("assoc_add_f64", "assoc", [x], np.cumsum(x, axis=0), fn="add", axis=0, reverse=False)
x = np.zeros((0, 3), np.float32)
f.case("assoc_add_empty", "assoc", [x], x, fn="add", axis=0, reverse=False)

# Matrix products are associative but not commutative: result k = M_0 @ ... @ M_k (reversed:
# M_(n-1) @ ... @ M_k, the scan of the reversed sequence).
ms = r(7, 2, 2).astype(np.float64)
fwd = [ms[0]]
for m in ms[1:]:
    fwd.append(fwd[-1] @ m)
bwd = [ms[-1]]
for m in ms[-2::-1]:
    bwd.append(bwd[-1] @ m)
f.case("assoc_matmul", "assoc_matmul", [ms], np.stack(fwd), reverse=False)
f.case("assoc_matmul_rev", "assoc_matmul", [ms], np.stack(bwd[::-1]), reverse=True)

# A tuple op: composing affine maps h -> a h + b gives the linear recurrence h_k (from h = 0)
# in the second output and the running products of a in the first.
a, b = f.uniform(-1, 1, 6, 2), r(6, 2)
prods, hs, h = [], [], np.zeros(2, np.float32)
for k in range(6):
    h = a[k] * h + b[k]
    hs.append(h)
    prods.append(np.prod(a[: k + 1], axis=0))
f.case("assoc_affine", "assoc_affine", [a, b], [np.stack(prods), np.stack(hs)])

# ---- fori_loop and while_loop ----------------------------------------------------------------
x = f.uniform(-2, 2, 5)
for n in (0, 1, 5):
    f.case(f"fori_power_{n}", "fori_power", [x], x ** n, n=n)
# Sum of the loop indices 3..9 into a float tensor (the index enters as a weak int).
f.case("fori_index_sum", "fori_index_sum", [np.zeros((), np.float32)],
       np.float32(sum(range(3, 10))), lower=3, upper=10)

# Newton's iteration for sqrt(a) until max |x^2 - a| < tol, at most max_iter steps; returns x and
# the number of steps (int32).
for tol, max_iter in ((1e-10, 50), (1e-10, 2)):
    a = f.uniform(0.5, 9, 4).astype(np.float64)
    x, i = a.copy(), 0
    while i < max_iter and np.max(np.abs(x * x - a)) >= tol:
        x, i = 0.5 * (x + a / x), i + 1
    f.case(f"while_newton_{max_iter}", "while_newton", [a], [x, np.int32(i)], tol=tol,
           max_iter=max_iter)

# ---- map, vectorized_map, switch, cond ---------------------------------------------------------
xs = r(4, 3)
f.case("map_outer", "map_outer", [xs], np.stack([np.outer(v, v) for v in xs]))
f.case("map_outer_empty", "map_outer", [np.zeros((0, 3), np.float32)],
       np.zeros((0, 3, 3), np.float32))
f.case("map_row_sum", "map_row_sum", [xs], xs.sum(axis=1))
f.case("vmap_outer", "vmap_outer", [xs], np.stack([np.outer(v, v) for v in xs]))
ys = r(4, 3)
f.case("vmap_pair", "vmap_pair", [xs, ys], [xs * ys, xs.sum(axis=1) + ys.sum(axis=1)])

x = r(3)
branches = [lambda v: v + 1, lambda v: v * 2, lambda v: -v]
for index in (-1, 0, 1, 2, 5):  # clamped into [0, 2]
    f.case(f"switch_{index}".replace("-", "m"), "switch", [x],
           branches[min(max(index, 0), 2)](x), index=index)
for pred in (np.array(True), np.array(False), np.array([True]), np.float32(0.0), np.int32(3)):
    tag = f"{pred.dtype}_{pred.ndim}d_{bool(pred)}"
    f.case(f"cond_{tag}", "cond", [pred, x], x * 2 if bool(pred) else x - 1)

# ---- errors ------------------------------------------------------------------------------------
f.case("cond_pred_not_scalar", "cond", [np.array([True, False]), x], x, raises="ValueError")
f.case("switch_float_index", "switch_tensor_index", [np.float32(1), x], x, raises="TypeError")
f.case("scan_length_mismatch", "scan_cumsum_length", [r(4, 2)], [r(2), r(4, 2)], length=3,
       raises="ValueError")
f.case("assoc_extent_mismatch", "assoc_affine", [r(4, 2), r(5, 2)], [r(4, 2), r(4, 2)],
       raises="ValueError")
f.case("map_0d", "map_row_sum", [np.float32(1)], np.float32(1), raises="ValueError")
f.case("assoc_bad_axis", "assoc", [r(3, 2)], r(3, 2), fn="add", axis=2, reverse=False,
       raises="ValueError")

f.save()
