"""Loads in Keras 3.15, on the TensorFlow backend (JAX arrays hold no strings), the text models
keras-cpp wrote (tools/interop/string_files.cpp: Keras's string_graphs.py models saved again by
keras-cpp, and one built and adapted in C++) and checks that Keras predicts what keras-cpp
predicted: numbers within 1e-5, strings equal. Run by scripts/interop.sh when a Python
environment with TensorFlow is at hand (.cache/oracle-venv): string_interop.py DIR.
"""

import json
import os
import sys

os.environ["KERAS_BACKEND"] = "tensorflow"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import text_functions  # noqa: E402,F401  (the registered steps of py_custom_steps)

assert keras.__version__.startswith("3.15"), "the oracle is Keras 3.15, found " + keras.__version__


def as_numpy(y):
    a = np.asarray(y)
    if a.dtype.kind in "SO":
        return np.vectorize(lambda v: v.decode() if isinstance(v, bytes) else v, otypes=[object])(a)
    return a


def check(directory, name):
    with open(os.path.join(directory, name + ".json")) as f:
        entry = json.load(f)
    model = keras.saving.load_model(os.path.join(directory, name + ".keras"), safe_mode=True)
    feed = [tf.constant(entry["inputs"][n], dtype=d)
            for n, d in zip(entry["input_names"], entry["input_dtypes"])]
    ys = model.predict(feed if len(feed) > 1 else feed[0], verbose=0)
    ys = ys if isinstance(ys, (list, tuple)) else [ys]
    if len(ys) != len(entry["outputs"]):
        return f"{len(ys)} outputs, keras-cpp wrote {len(entry['outputs'])}"
    worst = 0.0
    for i, (got, want) in enumerate(zip(ys, entry["outputs"])):
        got = as_numpy(got)
        if got.dtype == object:
            if got.tolist() != want:
                return f"output {i}: Keras {got.tolist()} vs keras-cpp {want}"
            continue
        want = np.array([np.nan if v is None else v for v in np.ravel(np.array(want, dtype=object))],
                        dtype=np.float64).reshape(np.shape(want))
        if got.shape != want.shape:
            return f"output {i}: shape {got.shape} vs keras-cpp {want.shape}"
        if not np.allclose(got, want, rtol=1e-5, atol=1e-5, equal_nan=True):
            return f"output {i}: Keras {got.ravel()[:6]} vs keras-cpp {want.ravel()[:6]}"
        worst = max(worst, float(np.nanmax(np.abs(got - want), initial=0.0)))
    print(f"PASS {name} (max |diff| {worst:.2g})")
    return None


def main(directory):
    names = sorted(f[:-5] for f in os.listdir(directory) if f.endswith(".json"))
    failed = 0
    for name in names:
        try:
            problem = check(directory, name)
        except Exception as e:  # noqa: BLE001: any Keras error is a failed check
            problem = f"{type(e).__name__}: {e}"
        if problem:
            failed += 1
            print(f"FAIL {name}: {problem}")
    print(f"string interop: {len(names) - failed} passed, {failed} failed")
    return 1 if failed or not names else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
