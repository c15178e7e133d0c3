"""keras.activations, keras.regularizers and keras.constraints against real Keras: the cases of
tests/golden/layer_functions.npz replayed through the Keras functions and classes, plus the
activations the golden lacks, float64 inputs and configured regularizers and constraints,
written to tests/oracle/fixtures/layer_functions.npz.

op "activation": keras.activations.get(fn)(x), for every activation of keras.activations that
keras-cpp has (all but `threshold`, which needs arguments); float32 cases at rtol 1e-5 /
atol 1e-6 (the golden's) on random values and edge values (0, the shrink and hard-sigmoid
corners, +-20), float64 cases at rtol 1e-10 / atol 1e-12 (both sides in double; only the
order of operations differs).
op "regularizer": keras.regularizers.get(fn) or, with kwargs "regularizer", the deserialized
record, applied to a (4, 6) weight; the scalar penalty.
op "constraint": keras.constraints.get(fn) or the kwargs "constraint" record; the constrained
weight.
Cases with "raises" expect an error (Keras raised one). Cases with "keras_cpp_differs" (listed
by activation_differs() and the 'l1_l2' / 'l1l2' names) are printed and skipped by the C++ test.

Run: ./scripts/oracle.sh layer_functions
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (sets up the JAX backend before keras)

import keras  # noqa: E402
import numpy as np  # noqa: E402

# keras.activations (3.15) that keras-cpp's activations::get knows; `threshold` needs arguments.
ACTIVATIONS = [
    "celu", "elu", "exponential", "gelu", "glu", "hard_shrink", "hard_sigmoid", "hard_silu",
    "hard_swish", "hard_tanh", "leaky_relu", "linear", "log_sigmoid", "log_softmax", "mish",
    "relu", "relu6", "selu", "sigmoid", "silu", "soft_shrink", "softmax", "softplus", "softsign",
    "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "swish", "tanh", "tanh_shrink",
]


def activation(fn, x):
    return np.asarray(keras.activations.get(fn)(x))


def regularizer(kw, w):
    r = (keras.regularizers.deserialize(dict(kw["regularizer"])) if "regularizer" in kw
         else keras.regularizers.get(kw["fn"]))
    # A tensor, as a layer passes its variable: keras.utils.normalize's NumPy path ignores
    # axis=0 (`axis or -1`), so OrthogonalRegularizer(mode="columns") fails on NumPy input.
    return np.asarray(r(keras.ops.convert_to_tensor(w)), np.float32)


def constraint(kw, w):
    c = (keras.constraints.deserialize(dict(kw["constraint"])) if "constraint" in kw
         else keras.constraints.get(kw["fn"]))
    return np.asarray(c(keras.ops.convert_to_tensor(w)), np.float32)


def replay(f, golden):
    worst = 0.0
    for name, (op, kw, ins, outs) in sorted(golden.items()):
        if op == "regularizer" and kw["fn"] == "l1_l2":
            # Keras 3 knows the class L1L2 by "L1L2" and "l1l2" only: get("l1_l2") raises.
            try:
                regularizer(kw, ins[0])
                raise AssertionError("Keras read 'l1_l2'")
            except ValueError as e:
                f.case(name, op, ins, [], **kw, raises="ValueError", keras_says=str(e),
                       keras_cpp_differs="kept on purpose: keras-cpp still reads Keras 2's "
                       "'l1_l2' (L1L2(l1=0.01, l2=0.01)), which Keras 3.15's "
                       "keras.regularizers.get refuses with a ValueError")
            continue
        if op == "activation":
            out = activation(kw["fn"], ins[0])
        elif op == "regularizer":
            if kw.get("mode"):
                kw = dict(kw, regularizer={"class_name": "OrthogonalRegularizer",
                                           "config": {"factor": 0.01, "mode": kw["mode"]}})
            out = regularizer(kw, ins[0])
        else:
            out = constraint(kw, ins[0])
        d = np.max(np.abs(out.astype(np.float64) - outs[0]) / (np.abs(outs[0]) + 1e-6))
        worst = max(worst, float(d))
        f.case(name, op, ins, out, **kw)
    return worst


def sparsemax_support(x):
    """The largest support size over the rows of x (sparsemax keeps k entries of a row)."""
    s = -np.sort(-x.astype(np.float64), axis=-1)
    k = np.arange(1, x.shape[-1] + 1)
    return int((1 + k * s > np.cumsum(s, axis=-1)).sum(-1).max())


def activation_differs(fn, x, out):
    """Why keras-cpp answers otherwise (a Keras 3.15 bug each), or None."""
    if fn == "sparsemax" and sparsemax_support(x) > 1:
        return ("Keras 3.15's JAX sparsemax (backend/jax/nn.py) takes tau = (sum of the cumsum "
                "over the whole support - 1) / k instead of (cumsum at k - 1) / k, so a row whose "
                "support has more than one entry comes out wrong (Keras: [1, 0.9, -1] -> "
                "[0.05, 0, 0]); keras-cpp gives the sparsemax projection [0.55, 0.45, 0]")
    if out.dtype != x.dtype:
        return (f"Keras 3.15's ops.{fn} returns {out.dtype} for {x.dtype} input "
                "(dtypes.result_type('float64', float) is 'float32'); keras-cpp keeps float64. "
                "The '_values' twin compares the values with check_dtype false")
    return None


def activations_extra(f):
    x = (f.randn(3, 6) * 2).astype(np.float32)
    x[0] = [-20.0, -3.0, -0.5, 0.0, 0.5, 3.0]  # 0, the shrink corners, hard_sigmoid's ends
    n = 0
    for fn in ACTIVATIONS:
        for suffix, xs, tol in (("edges", x, (1e-5, 1e-6)),
                                ("float64", x.astype(np.float64) * 0.7, (1e-10, 1e-12))):
            out = activation(fn, xs)
            kw = {"fn": fn, "rtol": tol[0], "atol": tol[1]}
            reason = activation_differs(fn, xs, out)
            if reason:
                kw["keras_cpp_differs"] = reason
            f.case(f"activation_{fn}_{suffix}", "activation", [xs], out, **kw)
            n += 1
            if reason and out.dtype != xs.dtype:  # float32 values: float32 rounding
                f.case(f"activation_{fn}_{suffix}_values", "activation", [xs], out, fn=fn,
                       check_dtype=False, rtol=1e-6, atol=1e-7)
                n += 1
    # Sparsemax where Keras is right: every row keeps a single entry.
    x1 = np.array([[3.0, 0.5, -1.0, 1.0], [-2.0, -0.5, 2.5, 0.0]], np.float32)
    assert sparsemax_support(x1) == 1
    f.case("activation_sparsemax_single_support", "activation", [x1],
           activation("sparsemax", x1), fn="sparsemax", rtol=1e-5, atol=1e-6)
    return n + 1


def configured(f):
    w = f.randn(4, 6)
    regs = {
        "l1_005": {"class_name": "L1", "config": {"l1": 0.05}},
        "l2_02": {"class_name": "L2", "config": {"l2": 0.2}},
        "l1l2_record": {"class_name": "L1L2", "config": {"l1": 0.01, "l2": 0.01}},
        "l1l2_only_l2": {"class_name": "L1L2", "config": {"l1": 0.0, "l2": 0.3}},
        "orthogonal_columns_01": {"class_name": "OrthogonalRegularizer",
                                  "config": {"factor": 0.1, "mode": "columns"}},
    }
    for key, record in regs.items():
        kw = {"fn": record["class_name"], "regularizer": record, "rtol": 1e-5}
        f.case("regularizer_" + key, "regularizer", [w], regularizer(kw, w), **kw)
    # Keras 3's names for the classes: "l1", "l2", "l1l2", "orthogonal_regularizer" and the
    # class names; "l1l2" is L1L2() with both factors 0.
    names = ["L1", "L2", "L1L2", "l1l2", "OrthogonalRegularizer", "orthogonal_regularizer"]
    for name in names:
        kw = {"fn": name, "rtol": 1e-5}
        f.case("regularizer_by_name_" + name, "regularizer", [w], regularizer(kw, w), **kw)
    cons = {
        "max_norm_axis1": {"class_name": "MaxNorm", "config": {"max_value": 1.5, "axis": 1}},
        "max_norm_all": {"class_name": "MaxNorm", "config": {"max_value": 1.0, "axis": [0, 1]}},
        "min_max_norm_rate": {"class_name": "MinMaxNorm",
                              "config": {"min_value": 0.8, "max_value": 1.2, "rate": 0.7,
                                         "axis": 0}},
        "unit_norm_axis1": {"class_name": "UnitNorm", "config": {"axis": 1}},
        "non_neg_record": {"class_name": "NonNeg", "config": {}},
    }
    for key, record in cons.items():
        kw = {"fn": record["class_name"], "constraint": record, "rtol": 1e-5}
        f.case("constraint_" + key, "constraint", [w], constraint(kw, w), **kw)
    for name in ["MaxNorm", "MinMaxNorm", "NonNeg", "UnitNorm"]:
        kw = {"fn": name, "rtol": 1e-5}
        f.case("constraint_by_name_" + name, "constraint", [w], constraint(kw, w), **kw)
    return len(regs) + len(names) + len(cons) + 4


def main():
    f = oracle.Fixture("layer_functions", seed=23)
    golden = oracle.load_cases(os.path.join(oracle.GOLDEN_DIR, "layer_functions.npz"))
    worst = replay(f, golden)
    n = activations_extra(f) + configured(f)
    print(f"layer_functions: {len(golden)} golden cases replayed (largest relative gap to the "
          f"golden {worst:.2e}), {n} new")
    f.save()


if __name__ == "__main__":
    main()
