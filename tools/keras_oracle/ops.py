"""keras.ops values and result dtypes from real Keras 3.15 (JAX backend, x64) for every op case
of the golden fixtures.

Each golden fixture in tests/golden (NumPy / PyTorch references) is replayed case by case through
keras.ops on the same inputs and kwargs; the result, converted with np.asarray, is written with
the same case name, op name, inputs and kwargs to tests/oracle/fixtures/ops_<name>.npz
(ops_image keeps its name), so the C++ golden maps replay it unchanged
(tests/ops_*/*_golden_test.cpp, run_oracle). The op names mean what those C++ maps make of
them (ops_adapters.py): "*_of_transpose" transposes first, "*_vjp" is a vector-Jacobian
product, "battery" runs a list of ops, "*_invariants" are computed from Keras's own
decomposition.

Where Keras raises, the case gets kwargs "raises": "<exception type>"; where Keras succeeds on a
case the golden expected to raise, the case holds Keras's result. Cases of keras-cpp-only
extensions (no keras.ops counterpart) are left out. Known keras-cpp differences are marked with
"keras_cpp_differs" (ops_differs.py; the C++ test prints them and does not compare).

ops_edge_cases.npz adds Keras's own edge cases (empty, 0-d, NaN/inf, negative axes, integer
wrap-around) for the common elementwise ops and reductions, replayed by the numpy_core map.

Tolerances: each case keeps the golden's rtol/atol; others use the C++ defaults (float32 1e-6,
float64 1e-12), except the cases in ops_differs.TOLERANCES (each with its reason, also written to
kwargs "tolerance_why"). Where Keras's result dtype differs from keras-cpp's only because of
jax_enable_x64 (64-bit indices, float64 computed in float32, float64 from Python floats), the
case compares values with check_dtype false at float32 tolerance and says why in "x64_dtype";
every such case is printed in the report.

Run: ./scripts/oracle.sh ops
"""

import sys

import numpy as np

import oracle  # noqa: F401  (sets up Keras on JAX with x64)
from ops_adapters import adapter, extension
from ops_differs import DIFFERS, SPLIT, TOLERANCES
from ops_edge_cases import edge_cases

FIXTURES = ["numpy_core", "numpy_elementwise", "numpy_linalg", "numpy_linalg_products",
            "numpy_reductions", "numpy_reductions_sorting", "numpy_shape", "nn_ops", "nn_conv",
            "ops_image"]

# Comparison-only kwargs of the golden format, never passed to an op.
TEST_KEYS = {"rtol", "atol", "raises", "check_dtype", "keras_cpp_differs"}

# (op, id(inputs)) -> the unsigned dtypes Keras returned, stored as int64 (see storable).
UNSIGNED = {}




def storable(y):
    """np.asarray of a result; uint16/32/64 (no keras-cpp dtype, so the .npz reader refuses
    them) are stored as int64, and the case says so in kwargs "keras_dtype"."""
    y = np.asarray(y)
    return y.astype(np.int64) if y.dtype in (np.uint16, np.uint32, np.uint64) else y


def run_case(op, kw, ins):
    """Keras's outputs for one case, or the exception it raised."""
    try:
        outs = adapter(op)(ins, {k: v for k, v in kw.items() if k not in TEST_KEYS or
                                 (op in ("isclose", "allclose") and k in ("rtol", "atol"))})
        wide = [str(np.asarray(o).dtype) for o in outs
                if np.asarray(o).dtype in (np.uint16, np.uint32, np.uint64)]
        if wide:
            UNSIGNED[(op, id(ins))] = wide
        return [storable(o) for o in outs], None
    except Exception as e:  # noqa: BLE001  (the exception type is what gets recorded)
        return None, e


def oracle_name(golden):
    """ops_<golden name>; ops_image keeps its name."""
    return golden if golden.startswith("ops_") else "ops_" + golden


def replay(name, report):
    cases = oracle.load_cases(f"{oracle.GOLDEN_DIR}/{name}.npz")
    fx = oracle.Fixture(oracle_name(name))
    for case, (op, kw, ins, golden) in sorted(cases.items()):
        why = extension(op, kw)
        if why:
            report.append(f"{name}/{case} ({op}): left out, keras-cpp extension: {why}")
            continue
        golden_raises = "raises" in kw
        outs, err = run_case(op, kw, ins)
        if op == "battery" and (err is not None or (name, case) in SPLIT):
            for sub, gold in split_battery(case, kw, ins, SPLIT.get((name, case), set()), golden):
                add_case(fx, name, *sub, report, golden_raises=False, golden=gold)
            continue
        add_case(fx, name, case, op, kw, ins, outs, err, report, golden_raises, golden)
    fx.save()


def split_battery(case, kw, ins, split, golden):
    """A battery where some op raises in Keras (or one listed in SPLIT): those ops become cases
    of their own (<case>_<op>), the rest stays one battery case. Returns [(case, golden)]."""
    names, arity = kw["ops"], kw.get("arity", 1)
    same = len(ins) == arity
    args = [ins if same else ins[arity * i: arity * i + arity] for i in range(len(names))]
    keep, cases = [], []
    for n, a in zip(names, args):
        outs, err = run_case("battery", dict(kw, ops=[n]), a)
        i = len(keep) + len(cases)
        if err is None and n not in split:
            keep.append((n, a, golden[i]))
        else:
            sub = {k: v for k, v in kw.items() if k not in ("ops", "arity")}
            cases.append(((f"{case}_{n}", n, sub, a, outs, err), [golden[i]]))
    rest = dict(kw, ops=[n for n, _, _ in keep])
    rest_ins = ins if same else [x for _, a, _ in keep for x in a]
    outs, err = run_case("battery", rest, rest_ins)
    return [((case, "battery", rest, rest_ins, outs, err), [g for _, _, g in keep])] + cases


def x64_dtype(keras_dt, golden_dt):
    """Why Keras's result dtype differs from keras-cpp's (the golden's), when it is the known
    effect of jax_enable_x64; None otherwise."""
    k, g = np.dtype(keras_dt).name, np.dtype(golden_dt).name
    if k in ("int64", "uint64") and g == "int32":
        return "x64: Keras on JAX returns 64-bit indices/integer accumulators; keras-cpp int32"
    if k == "float32" and g == "float64":
        return ("x64: Keras computes float64 inputs in float32 (result_type maps 64 to 32 bits); "
                "keras-cpp keeps float64")
    if k == "float64" and g == "float32":
        return ("x64: Keras on JAX makes float64 from Python floats / integer inputs; keras-cpp "
                "uses floatx (float32)")
    return None


def dtype_differences(name, case, kw, outs, golden, report):
    """Lets a case compare values only when Keras's dtype differs from keras-cpp's for the known
    x64 reason (recorded in kwargs "x64_dtype" and reported); float32 rounding then applies."""
    if golden is None or len(golden) != len(outs) or (name, case) in DIFFERS:
        return kw
    why = {x64_dtype(o.dtype, g.dtype) for o, g in zip(outs, golden) if o.dtype != g.dtype}
    if not why:
        return kw
    if None in why:
        report.append(f"{name}/{case}: UNEXPLAINED dtype difference "
                      + ", ".join(f"{o.dtype}/{g.dtype}" for o, g in zip(outs, golden)))
        return kw
    report.append(f"{name}/{case}: dtype " + ", ".join(f"Keras {o.dtype} keras-cpp {g.dtype}"
                                                      for o, g in zip(outs, golden)
                                                      if o.dtype != g.dtype))
    kw = dict(kw, check_dtype=False, x64_dtype="; ".join(sorted(why)))
    if kw.get("rtol", 1.0) < 1e-6 or ("rtol" not in kw and any(
            np.dtype(o.dtype).name == "float64" for o in outs)):
        kw["rtol"], kw["atol"] = 1e-6, 1e-7  # one side is float32
    return kw


def add_case(fx, name, case, op, kw, ins, outs, err, report, golden_raises, golden=None):
    """Records one case: Keras's outputs, or the error it raised, and known differences."""
    kw = {k: v for k, v in kw.items() if k != "raises"}
    if err is not None:
        kw["raises"] = type(err).__name__
        outs = []
        if not golden_raises:
            report.append(f"{name}/{case} ({op}): Keras raises {type(err).__name__}: "
                          f"{str(err).splitlines()[0][:160] if str(err) else ''}")
    elif golden_raises:
        report.append(f"{name}/{case} ({op}): golden expects an error, Keras returns "
                      + ", ".join(f"{o.dtype}{list(o.shape)}" for o in outs))
    if err is None:
        kw = dtype_differences(name, case, kw, outs, golden, report)
        if (op, id(ins)) in UNSIGNED:
            kw = dict(kw, keras_dtype=UNSIGNED[(op, id(ins))], check_dtype=False)
    if (name, case) in TOLERANCES:
        kw["rtol"], kw["atol"], kw["tolerance_why"] = TOLERANCES[(name, case)]
    if (name, case) in DIFFERS:
        kw["keras_cpp_differs"] = DIFFERS[(name, case)]
    fx.case(case, op, ins, outs, **kw)


def main():
    only = sys.argv[1:]
    report = []
    for name in FIXTURES:
        if not only or name in only:
            replay(name, report)
    if not only or "edge_cases" in only:
        fx = oracle.Fixture("ops_edge_cases")
        for case, op, ins, kw in edge_cases():
            outs, err = run_case(op, kw, ins)
            if err is not None:
                kw = dict(kw, raises=type(err).__name__)
                outs = []
            elif (op, id(ins)) in UNSIGNED:
                kw = dict(kw, keras_dtype=UNSIGNED[(op, id(ins))], check_dtype=False)
            if ("edge_cases", case) in DIFFERS:
                kw = dict(kw, keras_cpp_differs=DIFFERS[("edge_cases", case)])
            fx.case(case, op, ins, outs, **kw)
        fx.save()
    print("\n".join(report))


if __name__ == "__main__":
    main()
