"""Quantized models saved by Keras 3.15, for tests/oracle/quantize_test.cpp.

For each case, a small seeded float model is saved (<case>_float.keras), quantized by Keras with
model.quantize(mode) and saved again (<case>_<mode>.keras). Written to
tests/oracle/fixtures/quantize/ with quantize.npz holding, per case and mode:
    <case>.x                     the inputs
    <case>.float                 Keras's predict of the float model
    <case>.<mode>                Keras's predict of the quantized model
    <case>.<mode>.var.<path>     every variable of the quantized model (int8 kernels, scales)
    <case>.<mode>.grad           Dense and EinsumDense cases: the gradient of sum(outputs) by the inputs
keras-cpp loads the quantized files and predicts the same; it also quantizes the float files
itself and must produce the same variables and outputs.

Run: ./scripts/oracle.sh quantize (or, with the interop venv:
KERAS_HOME=.cache/keras-home .cache/interop-venv/bin/python tools/keras_oracle/quantize.py)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import jax  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402

L = keras.layers
OUT_DIR = os.path.join(oracle.ORACLE_DIR, "quantize")
MODES = ["int8"]


def seeded_weights(model, seed):
    rng = np.random.default_rng(seed)
    for v in model.weights:
        v.assign(rng.normal(0, 0.5, v.shape).astype(v.dtype))


def cases():
    rng = np.random.default_rng(1)
    keras.utils.set_random_seed(0)
    yield "dense_mlp", keras.Sequential([
        keras.Input((12,)),
        L.Dense(16, activation="relu"),
        L.Dense(8, use_bias=False),
        L.Dense(5, activation="softmax"),
    ]), rng.normal(0, 1, (6, 12)).astype("float32")
    # Dense on a rank-3 input: the inputs are quantized per row of the last axis.
    inp = keras.Input((3, 7))
    out = L.Dense(4, activation="tanh")(inp)
    yield "dense_rank3", keras.Model(inp, out), rng.normal(0, 2, (2, 3, 7)).astype("float32")
    inp = keras.Input((5, 6))
    out = L.EinsumDense("abc,cd->abd", (None, 4), bias_axes="d", activation="relu")(inp)
    yield "einsum_dense", keras.Model(inp, out), rng.normal(0, 1, (3, 5, 6)).astype("float32")
    inp = keras.Input((3, 8))
    out = L.EinsumDense("abc,cde->abde", (None, 2, 4), bias_axes="de")(inp)
    yield "einsum_heads", keras.Model(inp, out), rng.normal(0, 1, (2, 3, 8)).astype("float32")
    # Not "...b,bc->...c": Keras 3.15 cannot quantize equations with an ellipsis (TypeError in
    # _analyze_quantization_info, which passes the input rank where it takes a shape).
    inp = keras.Input((4,), dtype="int32")
    x = L.Embedding(10, 6)(inp)
    x = L.Flatten()(x)
    out = L.Dense(3)(x)
    yield "embedding", keras.Model(inp, out), rng.integers(0, 10, (5, 4)).astype("int32")


def record_quantized(q, key, x, arrays, path):
    """Keras's predictions of the quantized model q on x (arrays[key]), the inputs' gradient
    of sum(outputs) for float inputs (key.grad: Keras's custom gradient through the dequantized
    kernel) and every variable (key.var.<path>); q saved to `path`, which Keras loads back and
    predicts the same with. Returns the predictions."""
    y = np.asarray(q.predict(x, verbose=0))
    arrays[key] = y
    if not np.issubdtype(x.dtype, np.integer):
        grad = jax.grad(lambda t: jax.numpy.sum(q(t)))(jax.numpy.asarray(x))
        arrays[f"{key}.grad"] = np.asarray(grad)
    for v in q.weights:
        arrays[f"{key}.var.{v.path}"] = np.asarray(v.numpy())
    q.save(path)
    again = keras.saving.load_model(path)
    np.testing.assert_allclose(again.predict(x, verbose=0), y, rtol=1e-6, atol=1e-6)
    return y


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    arrays = {}
    for seed, (name, model, x) in enumerate(cases()):
        seeded_weights(model, seed)
        arrays[f"{name}.x"] = x
        arrays[f"{name}.float"] = np.asarray(model.predict(x, verbose=0))
        float_path = os.path.join(OUT_DIR, f"{name}_float.keras")
        model.save(float_path)
        for mode in MODES:
            q = keras.saving.load_model(float_path)
            q.quantize(mode)
            y = record_quantized(q, f"{name}.{mode}", x, arrays,
                                 os.path.join(OUT_DIR, f"{name}_{mode}.keras"))
            print(f"{name} {mode}: max |quantized - float| = "
                  f"{np.max(np.abs(y - arrays[f'{name}.float'])):.4g}")
    path = os.path.join(oracle.ORACLE_DIR, "quantize.npz")
    np.savez_compressed(path, **arrays)
    print(os.path.relpath(path, oracle.ROOT), len(arrays), "arrays")


if __name__ == "__main__":
    main()
