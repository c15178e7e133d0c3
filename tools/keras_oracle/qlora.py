"""LoRA on quantized layers (QLoRA) in Keras 3.15, for tests/quantization/qlora_oracle_test.cpp.

Per case (Dense, EinsumDense, Embedding; int8, int4 per channel, int4 in blocks) a one-layer
model with seeded float weights is quantized and given LoRA adapters, in both orders:
    q_then_l   model.quantize(mode, config), then layer.enable_lora(rank, lora_alpha)
    l_then_q   layer.enable_lora(rank, lora_alpha), then model.quantize(mode, config)
then the adapters are set to seeded non-zero values. Written:
    tests/oracle/fixtures/qlora.json    per case: the layer's float config, the mode and
        Int4QuantizationConfig block size, rank, lora_alpha, the order, and layer.weights
        names (in order) with their trainable flags
    tests/oracle/fixtures/qlora.npz     per case:
        <case>.float.<name>   the float weights before quantize
        <case>.x              inputs; <case>.y  layer(x); <case>.probe  a fixed cotangent
        <case>.kernel         Keras's kernel / embeddings property (int values + merged update)
        <case>.var.<name>     every variable of the layer after both steps (adapters set)
        <case>.grad.<name>    d sum(y * probe) / d each trainable variable (JAX)
        <case>.grad_x         d sum(y * probe) / d x (float inputs only)
        <case>.target         the target of one SGD(0.1) train_on_batch step with "mse";
        <case>.fit.var.<name> every variable after that step
        <case>.loaded_y       Keras's predict of the saved file, loaded back (adapters zero)
    tests/oracle/fixtures/qlora/<case>.keras  the model saved by Keras (q_then_l cases only:
        the merged, requantized kernel and its scales; l_then_q saves the same bytes, which
        this script checks).

Run: ./scripts/oracle.sh qlora (or KERAS_HOME=.cache/keras-home
.cache/interop-venv/bin/python tools/keras_oracle/qlora.py)
"""

import os
import tempfile
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import jax  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras import quantizers as Q  # noqa: E402

L = keras.layers
FILES_DIR = os.path.join(oracle.ORACLE_DIR, "qlora")

# name -> (layer factory, input shape, input kind, mode, int4 block size, rank, lora_alpha)
CASES = {
    "dense_int8": (lambda: L.Dense(5, activation="relu", name="dense"), (3, 6), "float",
                   "int8", None, 2, 4),
    "dense_int4_pc": (lambda: L.Dense(5, name="dense"), (3, 6), "float", "int4", -1, 2, None),
    # Odd units (the packed kernel pads a column), 10 inputs in blocks of 4 (a short group).
    "dense_int4_b4": (lambda: L.Dense(7, activation="tanh", name="dense"), (2, 10), "float",
                      "int4", 4, 3, 1.5),
    "einsum_int8": (lambda: L.EinsumDense("abc,cd->abd", (None, 5), bias_axes="d",
                                          name="einsum"), (2, 3, 4), "float", "int8", None, 2,
                    None),
    "einsum_int4": (lambda: L.EinsumDense("abc,cd->abd", (None, 5), bias_axes="d",
                                          name="einsum"), (2, 3, 8), "float", "int4", 4, 2, 3),
    "embedding_int8": (lambda: L.Embedding(10, 4, name="embedding"), (2, 3), "int", "int8",
                       None, 2, None),
    "embedding_int4": (lambda: L.Embedding(10, 5, name="embedding"), (2, 3), "int", "int4", 3,
                       2, 4),
}
ORDERS = ["q_then_l", "l_then_q"]


def seeded(shape, seed, mean=0.0):
    return (np.random.default_rng(seed).normal(mean, 0.5, shape)).astype("float32")


def quantize_config(mode, block):
    return Q.Int4QuantizationConfig(block_size=block) if mode == "int4" else None


def build_case(case, order, seed):
    factory, in_shape, kind, mode, block, rank, alpha = CASES[case]
    keras.backend.clear_session()
    dtype = "int32" if kind == "int" else "float32"
    model = keras.Sequential([keras.Input(in_shape[1:], dtype=dtype), factory()], name=case)
    layer = model.layers[0]
    float_weights = {}
    for i, w in enumerate(layer.weights):
        w.assign(seeded(w.shape, seed * 100 + i, mean=0.1))
        float_weights[w.name] = np.asarray(w)
    config = layer.get_config()
    steps = {
        "q": lambda: model.quantize(mode, config=quantize_config(mode, block)),
        "l": lambda: layer.enable_lora(rank, lora_alpha=alpha),
    }
    for step in (order[0], order[-1]):
        steps[step]()
    for i, w in enumerate(layer.weights):
        if w.name.startswith("lora_"):
            w.assign(seeded(w.shape, seed * 100 + 50 + i) * 0.5)
    rng = np.random.default_rng(seed)
    x = (rng.integers(0, 10, size=in_shape).astype("int32") if kind == "int"
         else rng.normal(size=in_shape).astype("float32"))
    return model, layer, config, float_weights, x


def record(case, order, seed, arrays, meta):
    model, layer, config, float_weights, x = build_case(case, order, seed)
    _, _, kind, mode, block, rank, alpha = CASES[case]
    key = f"{case}.{order}"
    y = np.asarray(layer(x))
    probe = seeded(y.shape, seed * 100 + 99)
    trainable = [v.value for v in layer.trainable_variables]
    non_trainable = [v.value for v in layer.non_trainable_variables]

    def loss(tv, inputs):
        out, _ = layer.stateless_call(tv, non_trainable, inputs)
        return (out * probe).sum()

    if kind == "float":
        grads, grad_x = jax.grad(loss, argnums=(0, 1))(trainable, x)
        arrays[f"{key}.grad_x"] = np.asarray(grad_x)
    else:
        grads = jax.grad(loss)(trainable, x)
    for v, g in zip(layer.trainable_variables, grads):
        arrays[f"{key}.grad.{v.name}"] = np.asarray(g)
    for name, value in float_weights.items():
        arrays[f"{key}.float.{name}"] = value
    arrays[f"{key}.x"] = x
    arrays[f"{key}.y"] = y
    arrays[f"{key}.probe"] = probe
    merged = layer.embeddings if case.startswith("embedding") else layer.kernel
    arrays[f"{key}.kernel"] = np.asarray(merged)
    for v in layer.weights:
        arrays[f"{key}.var.{v.name}"] = np.asarray(v)
    meta[key] = {
        "config": config, "mode": mode, "block_size": block, "rank": rank, "lora_alpha": alpha,
        "order": order, "policy": layer.dtype_policy.name,
        "weights": [{"name": w.name, "trainable": bool(w.trainable)} for w in layer.weights],
    }

    path = os.path.join(FILES_DIR, f"{case}.keras")
    if order == "q_then_l":
        model.save(path)
    else:  # the other order's file holds the same variables
        other = os.path.join(tempfile.gettempdir(), f"qlora-{case}.keras")
        model.save(other)
        a, b = keras.saving.load_model(path), keras.saving.load_model(other)
        for va, vb in zip(a.weights, b.weights):
            assert va.path == vb.path and np.array_equal(np.asarray(va), np.asarray(vb)), va.path
    loaded = keras.saving.load_model(path)
    arrays[f"{key}.loaded_y"] = np.asarray(loaded.predict(x, verbose=0))

    # One SGD step: only the adapters and the bias move.
    target = seeded(y.shape, seed * 100 + 98)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    model.train_on_batch(x, target)
    arrays[f"{key}.target"] = target
    for v in layer.weights:
        arrays[f"{key}.fit.var.{v.name}"] = np.asarray(v)
    print(f"  {key}: {layer.dtype_policy.name}, weights "
          f"{[w.name for w in layer.weights]}, |y| max {np.abs(y).max():.3g}")


def main():
    os.makedirs(FILES_DIR, exist_ok=True)
    arrays, meta = {}, {}
    for seed, case in enumerate(CASES, start=1):
        for order in ORDERS:
            record(case, order, seed, arrays, meta)
    path = os.path.join(oracle.ORACLE_DIR, "qlora.npz")
    np.savez_compressed(path, **arrays)
    print(os.path.relpath(path, oracle.ROOT), len(arrays), "arrays")
    oracle.write_json("qlora", meta)


if __name__ == "__main__":
    main()
