"""Writes string arrays the ways NumPy saves them ("<U" unicode, "|S" bytes, big-endian ">U",
Fortran order, 0-d, empty, empty strings) and a JSON of their values, for
tests/utils/npy_strings_test.cpp. Also the exact file numpy.save writes for a few arrays, which
keras-cpp's writer must reproduce byte for byte."""

import json
import os

import numpy as np

from fixture import GOLDEN_DIR

out = os.path.join(GOLDEN_DIR, "npy_strings")
os.makedirs(out, exist_ok=True)

words = [["the", "Grüße", "猫"], ["", "emoji 🙂", "tab\there"]]
arrays = {
    "unicode_2x3": np.array(words),
    "bytes_4": np.array([b"abc", b"", b"x\x00y", b"longer"]),
    "big_endian": np.array(["naïve", "zz"]).astype(">U5"),
    "fortran_3x2": np.asfortranarray(np.array([["a", "bb"], ["ccc", "d"], ["é", "ff"]])),
    "scalar": np.array("alone"),
    "empty": np.zeros((0, 2), dtype="<U3"),
    "only_empty_strings": np.array(["", ""]),
}
reference = {}
for name, a in arrays.items():
    np.save(os.path.join(out, name + ".npy"), a)
    flat = np.ascontiguousarray(a).reshape(-1).tolist()
    # Bytes come back as UTF-8 text with NumPy's trailing-NUL padding stripped.
    values = [v.decode("latin-1") if isinstance(v, bytes) else v for v in flat]
    reference[name] = {"shape": list(a.shape), "values": values}
# Fortran order is a storage detail: the reference is in C order.
with open(os.path.join(out, "reference.json"), "w", encoding="utf-8") as f:
    json.dump(reference, f, ensure_ascii=False, indent=1)
print("wrote", len(arrays), "string npy files to", out)
