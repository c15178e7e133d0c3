"""Checks the ONNX files keras-cpp exported (tools/onnx/export_models.cpp) with the ONNX checker
and ONNX Runtime. Run by scripts/onnx_check.sh: check_onnx.py OUT_DIR.

For each entry of OUT_DIR/manifest.json:
  export   keras-cpp wrote NAME.onnx (an entry with "error" is a failure; one with
           "expected_error", a model the exporter may refuse (keras.ops nodes, a mask), is
           reported and counted apart);
  checker  onnx.checker.check_model(NAME.onnx, full_check=True) (shape inference included);
  batch 3  an onnxruntime InferenceSession (CPUExecutionProvider) fed NAME.in<i>.npy in the
           graph's input order gives NAME.out<i>.npy: |ort - cpp| <= 1e-5 * max(1, |cpp|)
           elementwise, with the same shapes;
  batch 2  the same on the first 2 rows of each input against the first 2 rows of each output
           (the batch axis is dynamic).
Prints one line per check (the max abs error and the max error relative to max(1, |cpp|))
and "N passed, N failed"; exits 1 on any failure.
"""

import json
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort

TOL = 1e-5


def errors(got, want):
    """(max abs error, max error relative to max(1, |want|)) of one output. A NaN keras-cpp
    computed (a mean over a sequence masked whole divides 0 by 0, in Keras too) must be a NaN
    in ONNX Runtime's output at the same place; NaN anywhere else is an infinite error."""
    if got.size == 0:
        return 0.0, 0.0
    got, want = got.astype(np.float64), want.astype(np.float64)
    both_nan = np.isnan(got) & np.isnan(want)
    got, want = np.where(both_nan, 0.0, got), np.where(both_nan, 0.0, want)
    if np.isnan(got).any() or np.isnan(want).any():
        return float("inf"), float("inf")
    diff = np.abs(got - want)
    rel = diff / np.maximum(1.0, np.abs(want.astype(np.float64)))
    return float(diff.max()), float(rel.max())


def compare(session, inputs, expected):
    """Runs the session; returns (ok, max abs, max rel, problems per output)."""
    feed = {meta.name: x for meta, x in zip(session.get_inputs(), inputs)}
    got = session.run(None, feed)
    problems = []
    if len(got) != len(expected):
        return False, float("nan"), float("nan"), [
            f"{len(got)} outputs, expected {len(expected)}"]
    worst_abs = worst_rel = 0.0
    for meta, g, w in zip(session.get_outputs(), got, expected):
        if g.shape != w.shape:
            problems.append(f"output {meta.name}: shape {g.shape}, expected {w.shape}")
            continue
        a, r = errors(g, w)
        worst_abs, worst_rel = max(worst_abs, a), max(worst_rel, r)
        if not (np.isfinite(g) | (np.isnan(g) & np.isnan(w))).all() or r > TOL:
            problems.append(f"output {meta.name}: max abs {a:.3g}, max rel {r:.3g}")
    return not problems, worst_abs, worst_rel, problems


def main():
    out_dir = sys.argv[1]
    with open(os.path.join(out_dir, "manifest.json")) as f:
        manifest = json.load(f)
    passed = failed = expected_errors = 0

    def report(ok, name, check, detail="", problems=()):
        nonlocal passed, failed
        passed += ok
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} {name} {check}{': ' + detail if detail else ''}")
        for p in problems:
            print(f"     {p}")

    for entry in manifest:
        name = entry["name"]
        if "expected_error" in entry:
            expected_errors += 1
            print(f"EXPECTED-ERROR {name} export: {entry['expected_error']}")
            continue
        if "error" in entry:
            report(False, name, "export", entry["error"])
            continue
        path = os.path.join(out_dir, name + ".onnx")
        try:
            onnx.checker.check_model(path, full_check=True)
            report(True, name, "checker", f"opset {entry['opset']}")
        except Exception as e:  # noqa: BLE001  (any checker complaint is a failure)
            report(False, name, "checker", f"{type(e).__name__}: {e}")
            continue
        inputs = [np.load(os.path.join(out_dir, f"{name}.in{i}.npy"))
                  for i in range(entry["inputs"])]
        expected = [np.load(os.path.join(out_dir, f"{name}.out{i}.npy"))
                    for i in range(entry["outputs"])]
        try:
            session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
        except Exception as e:  # noqa: BLE001
            report(False, name, "session", f"{type(e).__name__}: {e}")
            continue
        for rows in (None, 2):
            check = f"batch {len(inputs[0]) if rows is None else rows}"
            xs = inputs if rows is None else [x[:rows] for x in inputs]
            ys = expected if rows is None else [y[:rows] for y in expected]
            try:
                ok, a, r, problems = compare(session, xs, ys)
                report(ok, name, check, f"max abs {a:.3g}, max rel {r:.3g}", problems)
            except Exception as e:  # noqa: BLE001
                report(False, name, check, f"{type(e).__name__}: {e}")

    if expected_errors:
        print(f"{expected_errors} models refused by export_model as expected")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
