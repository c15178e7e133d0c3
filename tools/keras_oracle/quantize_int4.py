"""int4 quantization by Keras 3.15, for tests/quantization/quantize_int4_*_test.cpp.

Small seeded float models (odd units, so packing pads; input dims that some block sizes do not
divide) are saved (<case>_float.keras), quantized by Keras with model.quantize("int4", config)
for a few Int4QuantizationConfig settings and saved again (<case>_<setting>.keras), under
tests/oracle/fixtures/quantize_int4/. quantize_int4.npz holds:
    <case>.x                          the inputs
    <case>.float                      Keras's predict of the float model
    <case>.<setting>                  Keras's predict of the quantized model
    <case>.<setting>.var.<path>       every variable of the quantized model
    <case>.<setting>.grad             Dense/EinsumDense: d sum(outputs) / d inputs
    pack.<n>.x / .axis / .packed / .unpacked     keras.quantizers.pack_int4 / unpack_int4
    grouped.<n>.x / .block_size / .values / .scale / .zero / .dequantized
                                      abs_max_quantize_grouped_with_zero_point (to_numpy=True)
                                      and dequantize_with_sz_map
quantize_int4.json holds Keras's serialized Int4QuantizationConfig and Int4DTypePolicy objects.

Run: ./scripts/oracle.sh quantize_int4 (or, with the interop venv:
KERAS_HOME=.cache/keras-home .cache/interop-venv/bin/python tools/keras_oracle/quantize_int4.py)
"""

import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras import quantizers as Q  # noqa: E402
from keras.src.quantizers.quantizers import dequantize_with_sz_map  # noqa: E402  (not exported)
from quantize import record_quantized  # noqa: E402  (the int8 generator's recording)

L = keras.layers
OUT_DIR = os.path.join(oracle.ORACLE_DIR, "quantize_int4")

# setting name -> the config model.quantize gets (None: quantize("int4"), Keras's default).
SETTINGS = {
    "default": None,  # Int4QuantizationConfig(): block_size 128, one padded group here
    "per_channel": lambda: Q.Int4QuantizationConfig(block_size=None),
    "pc_minus1": lambda: Q.Int4QuantizationConfig(block_size=-1),
    "b4": lambda: Q.Int4QuantizationConfig(block_size=4),
    "b5": lambda: Q.Int4QuantizationConfig(block_size=5),
    "b3": lambda: Q.Int4QuantizationConfig(block_size=3),
    # Per channel with int8 inputs (an activation quantizer in the config).
    "act": lambda: Q.Int4QuantizationConfig(block_size=-1, activation_quantizer=Q.AbsMaxQuantizer()),
}


def seeded_weights(model, seed):
    # Off-centre (mean 0.1), so the zero points of sub-channel groups are not all -1 or 0.
    rng = np.random.default_rng(seed)
    for v in model.weights:
        v.assign(rng.normal(0.1, 0.5, v.shape).astype(v.dtype))


def cases():
    rng = np.random.default_rng(7)
    keras.utils.set_random_seed(0)
    yield "dense_mlp", ["per_channel", "pc_minus1", "b4", "b5", "default", "act"], keras.Sequential([
        keras.Input((12,)),
        L.Dense(16, activation="relu"),
        L.Dense(7, use_bias=False),  # odd units: the packed kernel pads a column
        L.Dense(5, activation="softmax"),
    ]), rng.normal(0, 1, (6, 12)).astype("float32")
    inp = keras.Input((3, 7))
    out = L.Dense(5, activation="tanh")(inp)
    yield "dense_rank3", ["per_channel", "b3"], keras.Model(inp, out), \
        rng.normal(0, 2, (2, 3, 7)).astype("float32")
    inp = keras.Input((5, 6))
    out = L.EinsumDense("abc,cd->abd", (None, 5), bias_axes="d", activation="relu")(inp)
    yield "einsum_dense", ["per_channel", "b4", "act"], keras.Model(inp, out), \
        rng.normal(0, 1, (3, 5, 6)).astype("float32")
    inp = keras.Input((3, 8))
    out = L.EinsumDense("abc,cde->abde", (None, 3, 3), bias_axes="de")(inp)
    yield "einsum_heads", ["per_channel", "b3"], keras.Model(inp, out), \
        rng.normal(0, 1, (2, 3, 8)).astype("float32")
    # The reduced kernel axis last: Keras reshapes (not transposes) the kernel to (rows, columns).
    inp = keras.Input((4, 6))
    out = L.EinsumDense("abc,dc->abd", (None, 5))(inp)
    yield "einsum_transposed", ["per_channel", "b4"], keras.Model(inp, out), \
        rng.normal(0, 1, (2, 4, 6)).astype("float32")
    inp = keras.Input((4,), dtype="int32")
    x = L.Embedding(10, 7)(inp)  # odd output_dim; blocks of 3 leave a short last group
    x = L.Flatten()(x)
    out = L.Dense(3)(x)
    yield "embedding", ["per_channel", "b3"], keras.Model(inp, out), \
        rng.integers(0, 10, (5, 4)).astype("int32")


def model_fixtures(arrays):
    for seed, (name, settings, model, x) in enumerate(cases()):
        seeded_weights(model, seed)
        arrays[f"{name}.x"] = x
        arrays[f"{name}.float"] = np.asarray(model.predict(x, verbose=0))
        float_path = os.path.join(OUT_DIR, f"{name}_float.keras")
        model.save(float_path)
        for setting in settings:
            q = keras.saving.load_model(float_path)
            make = SETTINGS[setting]
            q.quantize("int4", config=None if make is None else make())
            y = record_quantized(q, f"{name}.{setting}", x, arrays,
                                 os.path.join(OUT_DIR, f"{name}_{setting}.keras"))
            print(f"{name} {setting}: {[l.dtype_policy.name for l in q.layers if l.weights]} "
                  f"max |int4 - float| = {np.max(np.abs(y - arrays[f'{name}.float'])):.4g}")


def quantizer_fixtures(arrays):
    rng = np.random.default_rng(3)
    # (shape, axis): odd and even lengths, first, middle and last axes.
    packs = [((3, 5), 0), ((3, 5), -1), ((4, 6), 1), ((2, 5, 3), 1), ((7,), 0)]
    for n, (shape, axis) in enumerate(packs):
        x = rng.integers(-8, 8, shape).astype("int8")
        packed, packed_shape, orig_len = Q.pack_int4(x, axis=axis)
        unpacked = Q.unpack_int4(packed, orig_len, axis=axis)
        arrays[f"pack.{n}.x"] = x
        arrays[f"pack.{n}.axis"] = np.array(axis, "int64")
        arrays[f"pack.{n}.packed"] = np.asarray(packed)
        arrays[f"pack.{n}.unpacked"] = np.asarray(unpacked)
        assert np.array_equal(np.asarray(unpacked), x)
    grouped = [((10, 6), 4), ((8, 3), 8), ((9, 5), 2), ((5, 4), 16)]
    for n, (shape, block) in enumerate(grouped):
        x = rng.normal(0.2, 1.0, shape).astype("float32")
        if n == 1:
            x = np.abs(x)  # all positive: the zero point saturates at qmin
        values, scale, zero = Q.abs_max_quantize_grouped_with_zero_point(
            x, block_size=block, to_numpy=True)
        g_idx = np.floor_divide(np.arange(shape[0], dtype="float32"), block)
        deq = dequantize_with_sz_map(values, scale, zero, g_idx, group_axis=0)
        arrays[f"grouped.{n}.x"] = x
        arrays[f"grouped.{n}.block_size"] = np.array(block, "int64")
        arrays[f"grouped.{n}.values"] = np.asarray(values)
        arrays[f"grouped.{n}.scale"] = np.asarray(scale)
        arrays[f"grouped.{n}.zero"] = np.asarray(zero)
        arrays[f"grouped.{n}.dequantized"] = np.asarray(deq)
        assert np.asarray(scale).shape == (math.ceil(shape[0] / block), shape[1])


def config_fixtures():
    ser = keras.saving.serialize_keras_object
    configs = {
        "default": Q.Int4QuantizationConfig(),
        "block_64": Q.Int4QuantizationConfig(block_size=64),
        "per_channel_none": Q.Int4QuantizationConfig(block_size=None),
        "per_channel_minus1": Q.Int4QuantizationConfig(block_size=-1),
        "weight_quantizer": Q.Int4QuantizationConfig(
            block_size=None, weight_quantizer=Q.AbsMaxQuantizer(axis=0, value_range=(-8, 7))),
        "activation_quantizer": Q.Int4QuantizationConfig(
            block_size=-1, activation_quantizer=Q.AbsMaxQuantizer()),
    }
    out = {"configs": {k: ser(v) for k, v in configs.items()}, "policies": {}, "errors": {}}
    for name in ["int4/128_from_float32", "int4/-1_from_float32", "int4/32_from_mixed_bfloat16",
                 "int4_from_float32"]:
        policy = keras.dtype_policies.get(name)
        out["policies"][name] = {"serialized": ser(policy), "name": policy.name,
                                 "class": type(policy).__name__}
    # Keras's errors (ValueError for each): the C++ tests raise the same kind.
    bad = {
        "block_size_0": lambda: Q.Int4QuantizationConfig(block_size=0),
        "block_size_-2": lambda: Q.Int4QuantizationConfig(block_size=-2),
        "sub_channel_with_quantizer": lambda: Q.Int4QuantizationConfig(
            block_size=8, activation_quantizer=Q.AbsMaxQuantizer()),
        "weight_range": lambda: Q.Int4QuantizationConfig(
            block_size=None, weight_quantizer=Q.AbsMaxQuantizer(axis=0)),
        "policy_block_0": lambda: keras.dtype_policies.get("int4/0_from_float32"),
        "policy_block_x": lambda: keras.dtype_policies.get("int4/x_from_float32"),
    }
    for name, make in bad.items():
        try:
            make()
            out["errors"][name] = None
        except Exception as e:  # noqa: BLE001  (record the kind)
            out["errors"][name] = type(e).__name__
    # EinsumDense with "..." cannot be quantized by Keras 3.15 (any mode).
    layer = L.EinsumDense("...b,bc->...c", 5)
    layer.build((1, 2, 7))
    try:
        layer.quantize("int4")
        out["errors"]["einsum_ellipsis"] = None
    except Exception as e:  # noqa: BLE001
        out["errors"]["einsum_ellipsis"] = type(e).__name__
    path = os.path.join(oracle.ORACLE_DIR, "quantize_int4.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print(os.path.relpath(path, oracle.ROOT), out["errors"])


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    arrays = {}
    model_fixtures(arrays)
    quantizer_fixtures(arrays)
    config_fixtures()
    path = os.path.join(oracle.ORACLE_DIR, "quantize_int4.npz")
    np.savez_compressed(path, **arrays)
    print(os.path.relpath(path, oracle.ROOT), len(arrays), "arrays")


if __name__ == "__main__":
    main()
