"""Writes golden fixtures: NumPy (or PyTorch) results that the C++ tests replay.

A fixture file is an .npz archive holding cases. Case `c` of op `f` stores
    c.op      the op name (uint8 bytes)
    c.kwargs  the keyword arguments as JSON (uint8 bytes)
    c.in0...  the input arrays
    c.out0... the expected outputs
The C++ side (tests/support/golden.h) maps op names to calls of keras::ops and compares.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/<script>.py
"""

import json
import os

import numpy as np

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden")


def _bytes(text):
    return np.frombuffer(text.encode("utf-8"), dtype=np.uint8)


class Fixture:
    def __init__(self, name, seed=0):
        self.name = name
        self.arrays = {}
        self.rng = np.random.default_rng(seed)

    def case(self, name, op, inputs, outputs, **kwargs):
        """Adds one case. `outputs` is an array or a list of arrays."""
        assert "." not in name, name
        assert name + ".op" not in self.arrays, "duplicate case " + name
        if not isinstance(outputs, (list, tuple)):
            outputs = [outputs]
        self.arrays[name + ".op"] = _bytes(op)
        self.arrays[name + ".kwargs"] = _bytes(json.dumps(kwargs, sort_keys=True))
        for i, x in enumerate(inputs):
            self.arrays[f"{name}.in{i}"] = np.asarray(x)
        for i, y in enumerate(outputs):
            self.arrays[f"{name}.out{i}"] = np.asarray(y)

    def randn(self, *shape, dtype=np.float32):
        return self.rng.standard_normal(shape).astype(dtype)

    def uniform(self, low, high, *shape, dtype=np.float32):
        return self.rng.uniform(low, high, shape).astype(dtype)

    def randint(self, low, high, *shape, dtype=np.int32):
        return self.rng.integers(low, high, shape).astype(dtype)

    def save(self):
        os.makedirs(GOLDEN_DIR, exist_ok=True)
        path = os.path.join(GOLDEN_DIR, self.name + ".npz")
        np.savez_compressed(path, **self.arrays)
        ops = {bytes(v).decode() for k, v in self.arrays.items() if k.endswith(".op")}
        cases = sum(1 for k in self.arrays if k.endswith(".op"))
        print(f"{path}: {cases} cases, {len(ops)} ops")
