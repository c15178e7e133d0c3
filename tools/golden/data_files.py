"""Writes the files tests/data/utils_test.cpp reads: a CSV table with numpy.loadtxt's view of
it (header skipped, columns picked by usecols, float32 and int32), .npy files of several dtypes
and shapes in C and Fortran order, and numpy's own results for normalize (the formula of
keras.utils.normalize's NumPy path) and to_categorical on a (n, 1) label column.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/data_files.py
"""

import os

import numpy as np

from fixture import GOLDEN_DIR

out = os.path.join(GOLDEN_DIR, "data")
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(11)

# A CSV with a header, a quoted header name, spaces and negative/exponent values.
table = np.round(rng.standard_normal((6, 4)) * 100, 3)
table[:, 3] = rng.integers(-50, 50, 6)
header = ["id", "height cm", "\"weight, kg\"", "label"]
csv_path = os.path.join(out, "table.csv")
with open(csv_path, "w") as fh:
    fh.write(",".join(header) + "\n")
    for i, row in enumerate(table):
        cells = [f"{v:.3f}" if j != 2 else f"{v:.3e}" for j, v in enumerate(row[:3])]
        cells.append(str(int(row[3])))
        fh.write(", ".join(cells) + "\n")
        if i == 2:
            fh.write("\n")  # a blank line, which loadtxt skips too

expected = {
    "all_f4": np.loadtxt(csv_path, delimiter=",", skiprows=1, dtype=np.float32),
    # usecols in a chosen order, as the test picks ("label", "height cm").
    "label_height_f4": np.loadtxt(csv_path, delimiter=",", skiprows=1, usecols=(3, 1),
                                  dtype=np.float32),
    "label_i4": np.loadtxt(csv_path, delimiter=",", skiprows=1, usecols=(3,), dtype=np.int32),
}

# .npy files: several dtypes and shapes, C order and Fortran order.
npys = {
    "c_float64_3d": rng.standard_normal((2, 3, 4)),
    "c_int16": rng.integers(-3000, 3000, (5, 2)).astype(np.int16),
    "c_uint8": rng.integers(0, 255, (3,)).astype(np.uint8),
    "c_float16": rng.standard_normal((2, 3)).astype(np.float16),
    "c_int8": rng.integers(-100, 100, (2, 2, 2)).astype(np.int8),
    "f_float32_2d": np.asfortranarray(rng.standard_normal((3, 5)).astype(np.float32)),
    "f_int64_3d": np.asfortranarray(rng.integers(-10**9, 10**9, (2, 3, 4))),
}
for name, a in npys.items():
    np.save(os.path.join(out, name + ".npy"), a)
    expected["npy_" + name] = np.ascontiguousarray(a)

x = rng.standard_normal((4, 3)).astype(np.float32)
x[2] = 0  # a zero row: its norm is replaced by 1
for order in (1, 2):
    norm = np.atleast_1d(np.linalg.norm(x, order, -1))
    norm[norm == 0] = 1
    expected[f"normalize_in"] = x
    expected[f"normalize_l{order}"] = (x / np.expand_dims(norm, -1)).astype(np.float32)
labels = np.array([[2], [0], [1], [2]])
expected["categorical_in"] = labels
categorical = np.zeros((4, 3))
categorical[np.arange(4), labels.reshape(-1)] = 1
expected["categorical_out"] = categorical.reshape(4, 3)

np.savez(os.path.join(out, "expected.npz"), **expected)
print("wrote", out)
