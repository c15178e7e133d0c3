"""Shared set-up of the Keras oracle scripts: real Keras 3.15 on the JAX backend (CPU, 64-bit
types on, so float64 and int64 cases stay 64-bit) writing fixtures that the C++ tests replay.

Import this module before keras. A fixture file has the layout of tools/golden/fixture.py (case
`c` stores c.op, c.kwargs as JSON, c.in0..., c.out0...), written to tests/oracle/fixtures/.
"""

import json
import os
import sys

os.environ["KERAS_BACKEND"] = "jax"
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)

import numpy as np  # noqa: E402
import keras  # noqa: E402

assert keras.__version__.startswith("3.15"), "the oracle is Keras 3.15, found " + keras.__version__
assert keras.backend.backend() == "jax"

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
ORACLE_DIR = os.path.join(ROOT, "tests", "oracle", "fixtures")
GOLDEN_DIR = os.path.join(ROOT, "tests", "golden")
sys.path.insert(0, os.path.join(ROOT, "tools", "golden"))

from fixture import Fixture as _GoldenFixture  # noqa: E402


class Fixture(_GoldenFixture):
    """A golden-format fixture written under tests/oracle/fixtures."""

    def save(self):
        os.makedirs(ORACLE_DIR, exist_ok=True)
        path = os.path.join(ORACLE_DIR, self.name + ".npz")
        np.savez_compressed(path, **self.arrays)
        cases = sum(1 for k in self.arrays if k.endswith(".op"))
        print(f"{os.path.relpath(path, ROOT)}: {cases} cases")


def load_cases(path):
    """The cases of a golden-format .npz: {case: (op, kwargs, [inputs], [outputs])}."""
    z = np.load(path)
    cases = {}
    for key in z.files:
        if key.endswith(".op"):
            name = key[:-3]
            ins, outs = [], []
            while f"{name}.in{len(ins)}" in z.files:
                ins.append(z[f"{name}.in{len(ins)}"])
            while f"{name}.out{len(outs)}" in z.files:
                outs.append(z[f"{name}.out{len(outs)}"])
            cases[name] = (bytes(z[key]).decode(), json.loads(bytes(z[name + ".kwargs"]).decode()),
                           ins, outs)
    return cases


def write_json(name, value):
    """Writes tests/oracle/fixtures/<name>.json (sorted keys, so regeneration diffs stay small)."""
    os.makedirs(ORACLE_DIR, exist_ok=True)
    path = os.path.join(ORACLE_DIR, name + ".json")
    with open(path, "w") as f:
        json.dump(value, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{os.path.relpath(path, ROOT)}")
