"""Hashing and HashedCrossing against real Keras 3.15 (which runs TensorFlow's string ops), for
tests/layers_preprocessing/hashing_test.cpp.

Written to tests/oracle/fixtures/hashing.json, hashing.npz and hashing/*.keras:

JSON "strings": a few hundred byte strings (hex) across FarmHash's length classes (0, 1..16,
17..32, 33..64, longer, up to 1000 bytes; random bytes, UTF-8, NULs inside) with, from
TensorFlow, "fingerprint" (tf.fingerprint's Fingerprint64, decimal text), "fast" (per
num_bins of JSON "num_bins": tf.strings.to_hash_bucket_fast) and "strong" (per key of JSON
"keys", per num_bins: tf.strings.to_hash_bucket_strong).

JSON "hashing": cases {name: {"kwargs", "config" (get_config()), "input": {"kind": "array" |
"strings", "strings", "shape"}}}; npz "hashing.<name>.x" (numeric inputs) and
"hashing.<name>.y" (the layer's output) or JSON "error" (the Keras error class).
JSON "crossing": the same for HashedCrossing, with "inputs" a list of features (kind "array":
npz "crossing.<name>.x<i>"; kind "strings": strings + shape).

Files: hashing/hashing_dense.keras, a Functional model Input((1,), int64) -> Hashing(num_bins=8,
output_mode="one_hot") -> Dense(3); hashing/crossing_dense.keras, Input(()) x2 int64 ->
HashedCrossing(num_bins=6, output_mode="one_hot") -> Dense(2). npz "file.<name>.x*" and
"file.<name>.y" (predict).

Run: ./scripts/oracle.sh hashing
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

L = keras.layers
OUT_DIR = os.path.join(oracle.ORACLE_DIR, "hashing")
arrays = {}
doc = {}

NUM_BINS = [1, 2, 3, 7, 1000, 2**31 - 1, 2**62 + 7]
KEYS = [[133, 137], [0, 0], [2**63 - 1, 1], [-1, 42]]


def test_strings():
    rng = np.random.default_rng(11)
    out = [b""]
    for n in range(1, 201):
        out.append(rng.integers(0, 256, n, dtype=np.uint8).tobytes())
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129]:
        out.append(("é日" * n).encode()[:n])  # UTF-8, cut wherever
        out.append(b"\x00" * n)
        out.append(b"a" * (n - 1) + b"\x00")
    for n in [255, 256, 257, 300, 511, 512, 513, 1000]:
        out.append(rng.integers(0, 256, n, dtype=np.uint8).tobytes())
    out += [s.encode() for s in ["A", "B", "C", "D", "E", "1", "-1", "0", "true", "hello world",
                                 "naïve café", "日本語のテキスト", "a\x00b"]]
    return out


def hash_tables():
    strs = test_strings()
    t = tf.constant(strs)
    fps = [int.from_bytes(bytes(b), "little") for b in tf.fingerprint(t).numpy()]
    entries = []
    for i, s in enumerate(strs):
        entries.append({"hex": s.hex(), "fingerprint": str(fps[i]), "fast": [], "strong": []})
    for nb in NUM_BINS:
        fast = tf.strings.to_hash_bucket_fast(t, nb).numpy()
        for e, v in zip(entries, fast):
            e["fast"].append(int(v))
    for key in KEYS:
        per_key = [[] for _ in strs]
        for nb in NUM_BINS:
            strong = tf.strings.to_hash_bucket_strong(t, nb, key=key).numpy()
            for row, v in zip(per_key, strong):
                row.append(int(v))
        for e, row in zip(entries, per_key):
            e["strong"].append(row)
    doc["strings"] = entries
    doc["num_bins"] = NUM_BINS
    doc["keys"] = KEYS


def record_input(x):
    if isinstance(x, np.ndarray) and x.dtype.kind in "US":
        return {"kind": "strings", "strings": [str(v) for v in x.ravel()],
                "shape": list(x.shape)}
    return {"kind": "array"}


def hashing_cases():
    ints = np.array([[0, 1, -1, 42], [7, 2**40, -(2**62), 123456789]], dtype="int64")
    floats = np.array([[0.0, 0.5, -0.5, 1.9], [-2.7, 1e30, np.nan, np.inf],
                       [-np.inf, 9.3e18, -9.3e18, 4096.25]], dtype="float64")
    words = np.array([["A"], ["B"], ["C"], ["D"], ["E"]])
    mixed = np.array([["", "a", "naïve café", "日本語"], ["a\x00b", "x" * 17, "y" * 40, "z" * 100]])
    seq = np.array([[1, 2, 3, 3], [4, 4, 4, 5], [0, 9, 8, 7]], dtype="int64")
    yield "int_fast", dict(num_bins=3), ints
    yield "int_fast_1", dict(num_bins=1), ints
    yield "int_fast_1_mask", dict(num_bins=1, mask_value=0), ints
    yield "int_fast_big", dict(num_bins=2**40), ints
    yield "int32_fast", dict(num_bins=7), ints.astype("int32") % 1000
    yield "uint8_fast", dict(num_bins=7), np.array([0, 1, 200, 255], dtype="uint8")
    yield "int8_fast", dict(num_bins=7), np.array([0, -1, 100, -128], dtype="int8")
    yield "bool_fast", dict(num_bins=11), np.array([True, False, True])
    yield "int_mask", dict(num_bins=5, mask_value=0), ints
    yield "int_mask_neg", dict(num_bins=5, mask_value=-1), ints
    yield "int_salt", dict(num_bins=7, salt=133), ints
    yield "int_salt_pair", dict(num_bins=7, salt=[133, 137]), ints
    yield "int_salt_neg_mask", dict(num_bins=7, salt=[-5, 2**62], mask_value=42), ints
    yield "int_dtype32", dict(num_bins=9, dtype="int32"), ints
    yield "int_scalar", dict(num_bins=9), np.array(42, dtype="int64")
    yield "float64_fast", dict(num_bins=13), floats
    yield "float32_fast", dict(num_bins=13), floats.astype("float32")
    yield "float_mask", dict(num_bins=13, mask_value=0), floats
    yield "float_salt", dict(num_bins=13, salt=[1, 2]), floats.astype("float32")
    yield "str_fast", dict(num_bins=3), words
    yield "str_mask", dict(num_bins=3, mask_value=""), np.array([["A"], ["B"], [""], ["C"], ["D"]])
    yield "str_salt_pair", dict(num_bins=3, salt=[133, 137]), words
    yield "str_salt_one", dict(num_bins=3, salt=133), words
    yield "str_mixed", dict(num_bins=1000), mixed
    yield "str_mixed_mask", dict(num_bins=1000, mask_value="a\x00b"), mixed
    yield "str_mixed_salt", dict(num_bins=97, salt=[9, 10], mask_value=""), mixed
    yield "str_scalar", dict(num_bins=9), np.array("hello")
    yield "one_hot_col", dict(num_bins=6, output_mode="one_hot"), ints[:, :1].copy()
    yield "one_hot_vec", dict(num_bins=6, output_mode="one_hot"), ints[0]
    yield "one_hot_2d", dict(num_bins=6, output_mode="one_hot"), ints
    yield "one_hot_4d_squeeze", dict(num_bins=6, output_mode="one_hot"), seq.reshape(3, 4, 1, 1)
    yield "one_hot_str", dict(num_bins=4, output_mode="one_hot", mask_value=""), np.array(
        [["a"], [""], ["b"]])
    yield "one_hot_f64", dict(num_bins=6, output_mode="one_hot", dtype="float64"), ints[0]
    yield "one_hot_int", dict(num_bins=6, output_mode="one_hot", dtype="int32"), ints[0]
    yield "one_hot_scalar", dict(num_bins=6, output_mode="one_hot"), np.array(3, dtype="int64")
    yield "multi_hot", dict(num_bins=5, output_mode="multi_hot"), seq
    yield "multi_hot_vec", dict(num_bins=5, output_mode="multi_hot"), seq[0]
    yield "multi_hot_scalar", dict(num_bins=5, output_mode="multi_hot"), np.array(3, dtype="int64")
    yield "multi_hot_3d", dict(num_bins=5, output_mode="multi_hot"), np.stack([seq, seq + 1])
    yield "multi_hot_str_mask", dict(num_bins=4, output_mode="multi_hot", mask_value=""), mixed
    yield "count", dict(num_bins=5, output_mode="count"), seq
    yield "count_vec", dict(num_bins=5, output_mode="count"), seq[1]
    yield "count_3d", dict(num_bins=5, output_mode="count"), np.stack([seq, seq * 3])
    yield "count_int64", dict(num_bins=4, output_mode="count", dtype="int64", salt=7), seq
    yield "count_mask", dict(num_bins=4, output_mode="count", mask_value=4), seq


def hashing():
    cases = {}
    for name, kwargs, x in hashing_cases():
        keras.backend.clear_session()
        layer = L.Hashing(**kwargs)
        entry = {"kwargs": kwargs, "config": layer.get_config(), "input": record_input(x)}
        if entry["input"]["kind"] == "array":
            arrays[f"hashing.{name}.x"] = x
        try:
            arrays[f"hashing.{name}.y"] = np.asarray(layer(x))
        except Exception as e:  # noqa: BLE001  (the error class is the expectation)
            entry["error"] = type(e).__name__
        cases[name] = entry
    doc["hashing"] = cases


def crossing_cases():
    a = np.array([0, 1, -1, 42, 2**40, -(2**62)], dtype="int64")
    b = np.array([5, 5, 7, 1, 0, -3], dtype="int64")
    s = np.array(["x", "y", "", "naïve", "a\x00b", "z" * 70])
    t = np.array(["red", "green", "blue", "red", "green", "blue"])
    yield "int_str", dict(num_bins=7), [a, s]
    yield "str_str", dict(num_bins=7), [s, t]
    yield "str_int", dict(num_bins=7), [s, a]
    yield "int_int", dict(num_bins=7), [a, b]
    yield "int_int_col", dict(num_bins=1000), [a[:, None], b[:, None]]
    yield "str_str_col", dict(num_bins=1000), [s[:, None], t[:, None]]
    yield "three", dict(num_bins=11), [a, t, b]
    yield "int32", dict(num_bins=7), [a.astype("int32"), b.astype("int32")]
    yield "raw", dict(num_bins=0), [a, s]
    yield "big_bins", dict(num_bins=2**62 + 7), [a, b]
    yield "dtype32", dict(num_bins=7, dtype="int32"), [a, s]
    yield "scalar", dict(num_bins=5), [np.array(1, dtype="int64"), np.array("a")]
    yield "scalar_one_hot", dict(num_bins=5, output_mode="one_hot"), [np.array(1, dtype="int64"),
                                                                       np.array("a")]
    yield "one_hot", dict(num_bins=5, output_mode="one_hot"), [a, s]
    yield "one_hot_col", dict(num_bins=5, output_mode="one_hot"), [a[:, None], t[:, None]]
    yield "one_hot_f64", dict(num_bins=5, output_mode="one_hot", dtype="float64"), [a, b]


def crossing():
    cases = {}
    for name, kwargs, xs in crossing_cases():
        keras.backend.clear_session()
        layer = L.HashedCrossing(**kwargs)
        entry = {"kwargs": kwargs, "config": layer.get_config(), "inputs": []}
        for i, x in enumerate(xs):
            entry["inputs"].append(record_input(x))
            if entry["inputs"][-1]["kind"] == "array":
                arrays[f"crossing.{name}.x{i}"] = x
        try:
            arrays[f"crossing.{name}.y"] = np.asarray(layer(tuple(xs)))
        except Exception as e:  # noqa: BLE001
            entry["error"] = type(e).__name__
        cases[name] = entry
    doc["crossing"] = cases


def files():
    os.makedirs(OUT_DIR, exist_ok=True)
    keras.backend.clear_session()
    keras.utils.set_random_seed(5)
    ids = keras.Input((1,), dtype="int64", name="ids")
    h = L.Hashing(num_bins=8, output_mode="one_hot", name="hash")(ids)
    out = L.Dense(3, name="dense")(h)
    model = keras.Model(ids, out)
    x = np.array([[0], [1], [-1], [42], [2**40], [7], [8], [123456]], dtype="int64")
    arrays["file.hashing_dense.x"] = x
    arrays["file.hashing_dense.y"] = np.asarray(model.predict(x, verbose=0))
    model.save(os.path.join(OUT_DIR, "hashing_dense.keras"))

    keras.backend.clear_session()
    keras.utils.set_random_seed(6)
    a = keras.Input((), dtype="int64", name="a")
    b = keras.Input((), dtype="int64", name="b")
    c = L.HashedCrossing(num_bins=6, output_mode="one_hot", name="cross")((a, b))
    out = L.Dense(2, name="dense")(c)
    model = keras.Model([a, b], out)
    xa = np.array([0, 1, 2, 3, -4, 2**33], dtype="int64")
    xb = np.array([5, 5, 7, 1, 0, -3], dtype="int64")
    arrays["file.crossing_dense.x0"], arrays["file.crossing_dense.x1"] = xa, xb
    arrays["file.crossing_dense.y"] = np.asarray(model.predict([xa, xb], verbose=0))
    model.save(os.path.join(OUT_DIR, "crossing_dense.keras"))


def main():
    hash_tables()
    hashing()
    crossing()
    files()
    path = os.path.join(oracle.ORACLE_DIR, "hashing.npz")
    np.savez_compressed(path, **arrays)
    print(f"{os.path.relpath(path, oracle.ROOT)}: {len(arrays)} arrays")
    oracle.write_json("hashing", json.loads(json.dumps(doc)))


if __name__ == "__main__":
    main()
