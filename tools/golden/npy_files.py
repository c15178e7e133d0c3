"""Writes .npy files in the layouts NumPy can produce (big-endian, Fortran order, format 2.0,
0-d, empty, complex) plus the same arrays in plain form, for tests/utils/npy_test.cpp."""

import os

import numpy as np
from numpy.lib import format as npformat

from fixture import GOLDEN_DIR

out = os.path.join(GOLDEN_DIR, "npy")
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(3)

arrays = {
    "big_endian_f8": rng.standard_normal((3, 4)).astype(">f8"),
    "fortran_i4": np.asfortranarray(rng.integers(-100, 100, (3, 5)).astype(np.int32)),
    "bool": rng.standard_normal(7) > 0,
    "float16": rng.standard_normal((2, 2)).astype(np.float16),
    "uint8": rng.integers(0, 255, (4,)).astype(np.uint8),
    "scalar_f4": np.array(3.25, np.float32),
    "empty_f4": np.zeros((0, 3), np.float32),
    "int64_3d": rng.integers(-10**12, 10**12, (2, 3, 2)).astype(np.int64),
}
for name, a in arrays.items():
    np.save(os.path.join(out, name + ".npy"), a)
with open(os.path.join(out, "version2_f4.npy"), "wb") as fh:
    v2 = rng.standard_normal((2, 3)).astype(np.float32)
    npformat.write_array(fh, v2, version=(2, 0))
arrays["version2_f4"] = v2
# Complex numbers: pairs of floats, each part in the file's byte order.
rng_complex = np.random.default_rng(4)
for name, dtype, fortran in (("complex64", "<c8", False), ("big_endian_c16", ">c16", False),
                             ("fortran_c8", "<c8", True)):
    z = (rng_complex.standard_normal((3, 2)) + 1j * rng_complex.standard_normal((3, 2))).astype(dtype)
    arrays[name] = np.asfortranarray(z) if fortran else z
    np.save(os.path.join(out, name + ".npy"), arrays[name])
# The reference: every array in native byte order and C order.
np.savez(os.path.join(out, "reference.npz"),
         **{k: np.array(v.astype(v.dtype.newbyteorder("=")), order="C") for k, v in arrays.items()})
print("wrote", len(arrays), "npy files to", out)
