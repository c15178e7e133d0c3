"""keras.ops calls recorded as nodes of Functional graphs (Keras 3.15, JAX backend, x64), for
tests/oracle/op_nodes_test.cpp: tests/oracle/fixtures/op_nodes.json.

Keras 3 records every keras.ops call made on symbolic tensors (and the KerasTensor operators:
x + y, -x, x[1:]) as a node whose record is the op class, its constructor config and the call's
arguments. keras-cpp rebuilds such a graph from Keras's config (FunctionalModel::from_config,
keras/ops/operation.h) and must give Keras's outputs and write Keras's config back.

Cases come from op_nodes_numpy.py (keras.src.ops.numpy) and op_nodes_nn.py (keras.src.ops.nn,
.math, .core, .linalg, .image), each a module-level list CASES of dicts:

  {"name": "mean_axis1",                      unique over all modules
   "build": lambda x: ops.mean(x, axis=1),    keras tensors in -> a tensor, or a list/tuple
   "inputs": [np.array(..., "float32")],      tiny arrays: one keras.Input per array
   "rtol": 1e-5, "atol": 1e-6,                optional (default: the C++ test's, by dtype)
   "check_values": False,                     optional: compare dtype and shape only
                                              (empty_like: uninitialized values)
   "keras_cpp_differs": "reason",             optional: written, reported, not compared
   "keras_config_differs": "reason"}          optional: values compared, the config not

For each case: one keras.Input(batch_shape=a.shape, dtype=str(a.dtype)) per input array,
outs = build(*inputs), model = keras.Model(inputs, outs); the fixture holds model.get_config()
and Keras's outputs model(inputs), which must also equal build(*arrays) run eagerly (so the
graph computes what the op computes). A case whose build fails in Keras is a bug of the case
list: the script stops.

JSON: {"keras_version": ..., "cases": [{"name", "config", "inputs": [tensor], "outputs":
[tensor], "classes": [op classes of the graph], "rtol"?, "atol"?, "check_values"?,
"keras_cpp_differs"?}]} where a tensor is {"dtype", "shape", "values"}: values flat in row-major
order, NaN and infinities as the strings "nan", "inf", "-inf", booleans as true/false.

Run: ./scripts/oracle.sh op_nodes
"""

import copy
import importlib
import json
import math
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend, x64)

import jax  # noqa: E402
import numpy as np  # noqa: E402

import keras  # noqa: E402

CASE_MODULES = ["op_nodes_numpy", "op_nodes_nn"]
OPTIONAL_KEYS = ("rtol", "atol", "check_values", "keras_cpp_differs", "keras_config_differs")


def load_cases():
    cases = []
    for module in CASE_MODULES:
        try:
            cases += importlib.import_module(module).CASES
        except ModuleNotFoundError as e:
            print(f"warning: {module}.py not used: {e}", file=sys.stderr)
        except Exception:  # written separately: report it, keep the other modules' cases
            print(f"warning: {module}.py not used:\n{traceback.format_exc()}", file=sys.stderr)
    names = [c["name"] for c in cases]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    assert not duplicates, f"duplicate case names: {duplicates}"
    return cases


def encode_value(v, dtype):
    if dtype == np.bool_:
        return bool(v)
    if np.issubdtype(dtype, np.integer):
        return int(v)
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def encode_tensor(a):
    a = np.asarray(a)
    return {"dtype": str(a.dtype), "shape": list(a.shape),
            "values": [encode_value(v, a.dtype) for v in a.reshape(-1)]}


def flat_outputs(out):
    """The outputs as arrays. A Python number (Ndim and Size return ints) becomes what Keras's
    convert_to_tensor makes of it: int32, float32 or bool (Ndim's symbolic dtype says float32)."""
    def array(v):
        if hasattr(v, "dtype"):
            return np.asarray(v)
        dtype = "bool" if isinstance(v, bool) else "int32" if isinstance(v, int) else "float32"
        return np.asarray(v, dtype)
    return [array(v) for v in jax.tree_util.tree_leaves(out)]


def x64_reason(actual, symbolic):
    """Why Keras's value has another dtype than its symbolic output, when that is the known
    effect of jax_enable_x64 (the symbolic dtype is the one Keras means); None otherwise."""
    a, s = np.dtype(actual).name, np.dtype(symbolic).name
    if a in ("int64", "uint64") and s == "int32":
        return "x64: Keras on JAX returns 64-bit indices/counts; its symbolic dtype is int32"
    if a == "float64" and s == "float32":
        return "x64: Keras on JAX makes float64 from Python floats; its symbolic dtype is float32"
    return None


def same(a, b):
    return (a.dtype == b.dtype and a.shape == b.shape
            and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))


def run_case(case):
    arrays = case["inputs"]
    ins = [keras.Input(batch_shape=a.shape, dtype=str(a.dtype)) for a in arrays]
    outs = case["build"](*ins)
    model = keras.Model(ins, outs, name=case["name"])
    config = model.get_config()
    # Python Keras must read its own config back (the record is complete).
    keras.Model.from_config(copy.deepcopy(config))  # (from_config consumes its argument)
    symbolic = [str(t.dtype) for t in jax.tree_util.tree_leaves(outs)]
    got = flat_outputs(model(arrays))
    eager = flat_outputs(case["build"](*[keras.ops.convert_to_tensor(a) for a in arrays]))
    assert len(got) == len(eager) == len(symbolic), case["name"]
    for g, e in zip(got, eager):
        # (A case marked keras_cpp_differs may be one where Keras's graph and eager call
        # disagree; the fixture keeps the graph's values, which the test does not compare.)
        check_values = case.get("check_values", True) and "keras_cpp_differs" not in case
        ok = same(g, e) if check_values else (g.dtype == e.dtype and g.shape == e.shape)
        assert ok, f"{case['name']}: the graph gives {g!r}, the eager call {e!r}"
    classes = sorted({layer["class_name"] for layer in config["layers"]
                      if layer.get("module", "").startswith("keras.src.ops.")})
    entry = {"name": case["name"], "config": config, "classes": classes,
             "inputs": [encode_tensor(a) for a in arrays],
             "outputs": [encode_tensor(g) for g in got]}
    # keras-cpp gives the dtype Keras means: where only x64 makes the value's dtype differ,
    # the output also carries the symbolic dtype, which the test accepts instead.
    # (Other differences leave the value's dtype as the one to match: Keras's symbolic dtype
    # is then simply wrong, as for lu_factor's pivots.)
    reasons = set()
    for out, g, sym in zip(entry["outputs"], got, symbolic):
        why = x64_reason(g.dtype, sym) if g.dtype != np.dtype(sym) else None
        if why:
            out["symbolic_dtype"] = sym
            reasons.add(why)
    if reasons:
        entry["x64_dtype"] = "; ".join(sorted(reasons))
    for key in OPTIONAL_KEYS:
        if key in case:
            entry[key] = case[key]
    return entry


def write_fixture(cases):
    """tests/oracle/fixtures/op_nodes.json with one case per line (sorted keys, compact):
    oracle.write_json's one value per line would make it several megabytes."""
    path = os.path.join(oracle.ORACLE_DIR, "op_nodes.json")
    os.makedirs(oracle.ORACLE_DIR, exist_ok=True)
    with open(path, "w") as f:
        f.write('{"keras_version": %s,\n "cases": [\n' % json.dumps(keras.__version__))
        f.write(",\n".join(json.dumps(c, sort_keys=True, allow_nan=False) for c in cases))
        f.write("\n]}\n")
    print(f"{os.path.relpath(path, oracle.ROOT)}: {os.path.getsize(path) // 1024} KiB")


def main():
    cases, failed = [], []
    for c in load_cases():
        try:
            cases.append(run_case(c))
        except Exception as e:
            failed.append(c["name"])
            print(f"{c['name']}: {type(e).__name__}: {str(e)[:400]}", file=sys.stderr)
    write_fixture(cases)
    classes = {c for case in cases for c in case["classes"]}
    print(len(cases), "cases,", len(classes), "op classes")
    # A case Keras cannot run is a mistake of the case list: the others are written, and the
    # script fails so that it is seen.
    if failed:
        sys.exit(f"{len(failed)} cases failed in Keras and were left out: {failed}")


if __name__ == "__main__":
    main()
