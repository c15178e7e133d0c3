"""HDF5 files written by h5py the way Keras writes weights, plus hostile ones, for
tests/saving/h5_test.cpp: float16, bfloat16 stored as uint16 with dtype="bfloat16", bool,
int64 scalars, variable-length UTF-8 name attributes, a chunked string-list attribute
(layer_names0, layer_names1) as legacy .h5 files have, and soft/external links that must be
refused. The expected values are in h5_reference.npz."""

import os

import h5py
import numpy as np

from fixture import GOLDEN_DIR

out = os.path.join(GOLDEN_DIR, "h5")
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
ref = {}
with h5py.File(os.path.join(out, "weights.h5"), "w") as f:
    g = f.create_group("layers/dense/vars")
    g.attrs["name"] = "dense"
    ref["f32"] = rng.standard_normal((3, 4)).astype(np.float32)
    g["0"] = ref["f32"]
    ref["f16"] = rng.standard_normal(5).astype(np.float16)
    g["1"] = ref["f16"]
    bf = rng.standard_normal(6).astype(np.float32)
    bits = (bf.view(np.uint32) >> 16).astype(np.uint16)  # truncation: exact bfloat16 values
    ref["bf16_as_f32"] = (bits.astype(np.uint32) << 16).view(np.float32)
    d = f.create_dataset("layers/dense/bf16", data=bits)
    d.attrs["dtype"] = "bfloat16"
    ref["bool"] = rng.standard_normal(4) > 0
    f["flags"] = ref["bool"]
    f["optimizer/vars/0"] = np.int64(42)
    ref["scalar"] = np.array(42, np.int64)
    f.attrs["layer_names0"] = np.array([b"a", b"b"])
    f.attrs["layer_names1"] = np.array([b"c"])
    f["soft"] = h5py.SoftLink("/flags")
    f["external"] = h5py.ExternalLink("other.h5", "/x")
np.savez(os.path.join(out, "h5_reference.npz"), **ref)
print("wrote", out)
