"""LoRA (enable_lora) in Keras 3.15, for tests/lora/lora_oracle_test.cpp.

Per layer case (Dense, EinsumDense, Embedding, Conv1D/2D/3D): the layer built on its input
shape, enable_lora(rank, lora_alpha) called, then every weight (the adapters included, so that
the update is not zero) set to seeded values. Written:
    tests/oracle/fixtures/lora.json   per case:
        config           layer.get_config() after enable_lora
        enable           {"rank", "lora_alpha"} (null: the default)
        weights          [{"name", "path", "shape", "trainable"}] in layer.weights order
        trainable        names of layer.trainable_weights, in order
        non_trainable    names of layer.non_trainable_weights, in order
        reloaded_config  the config of Layer.from_config(config) once built (what a .keras
                         file with this layer gives back: Dense and Embedding drop lora_alpha)
    tests/oracle/fixtures/lora.npz    per case <case>.x (input), <case>.w<i> (weights in
        layer.weights order), <case>.y (layer(x)), <case>.probe (a fixed cotangent) and
        <case>.g<i>: the gradient of sum(layer(x) * probe) for trainable weight i (JAX);
        <case>.kernel: the merged kernel (Keras's kernel / embeddings property);
        for each model file: <file>.x, <file>.y (Keras's predictions of the loaded file).
    tests/oracle/fixtures/lora/<file>.keras: models with LoRA enabled and non-zero adapters,
        saved by Keras (merged kernels; a reload zeroes the adapters).

Run: ./scripts/oracle.sh lora (or KERAS_HOME=.cache/keras-home
.cache/interop-venv/bin/python tools/keras_oracle/lora.py)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend, x64)

import jax  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402

L = keras.layers
FILES_DIR = os.path.join(oracle.ORACLE_DIR, "lora")


def seeded(shape, seed):
    return (np.random.default_rng(seed).normal(size=shape) * 0.5).astype("float32")


# name -> (layer factory, input shape, input kind, rank, lora_alpha)
CASES = {
    "dense": (lambda: L.Dense(5, activation="relu", name="dense"), (3, 4), "float", 2, None),
    "dense_alpha": (lambda: L.Dense(3, use_bias=False, name="dense_alpha"), (2, 6), "float", 3,
                    4.5),
    "einsum_dense": (lambda: L.EinsumDense("abc,cd->abd", (None, 6), bias_axes="d",
                                           name="einsum_dense"), (2, 3, 4), "float", 2, 8),
    "einsum_dense_3d_kernel": (lambda: L.EinsumDense("abc,cde->abde", (None, 2, 3),
                                                     name="einsum_3d"), (2, 3, 4), "float", 2,
                               None),
    "embedding": (lambda: L.Embedding(10, 4, name="embedding"), (2, 3), "int", 2, 6),
    "conv1d_groups": (lambda: L.Conv1D(4, 3, groups=2, padding="same", name="conv1d"),
                      (2, 6, 4), "float", 2, None),
    "conv2d": (lambda: L.Conv2D(3, 2, activation="tanh", name="conv2d"), (2, 5, 5, 2), "float",
               2, 1.5),
    "conv3d": (lambda: L.Conv3D(2, 2, name="conv3d"), (1, 3, 3, 3, 1), "float", 1, None),
}


def layer_case(name, arrays, meta, seed):
    factory, in_shape, kind, rank, alpha = CASES[name]
    keras.backend.clear_session()
    layer = factory()
    rng = np.random.default_rng(seed)
    x = (rng.integers(0, 10, size=in_shape).astype("int32") if kind == "int"
         else rng.normal(size=in_shape).astype("float32"))
    layer.build(in_shape)
    if alpha is None:
        layer.enable_lora(rank)
    else:
        layer.enable_lora(rank, lora_alpha=alpha)
    for i, w in enumerate(layer.weights):
        w.assign(seeded(w.shape, seed * 100 + i))
    y = np.asarray(layer(x))
    probe = seeded(y.shape, seed * 100 + 99)

    trainable = [v.value for v in layer.trainable_variables]
    non_trainable = [v.value for v in layer.non_trainable_variables]

    def loss(tv):
        out, _ = layer.stateless_call(tv, non_trainable, x)
        return (out * probe).sum()

    grads = jax.grad(loss)(trainable)
    merged = layer.embeddings if name == "embedding" else layer.kernel

    arrays[f"{name}.x"] = x
    arrays[f"{name}.y"] = y
    arrays[f"{name}.probe"] = probe
    arrays[f"{name}.kernel"] = np.asarray(merged)
    for i, w in enumerate(layer.weights):
        arrays[f"{name}.w{i}"] = np.asarray(w)
    for i, g in enumerate(grads):
        arrays[f"{name}.g{i}"] = np.asarray(g)
    config = layer.get_config()
    reloaded = layer.__class__.from_config(config)
    reloaded.build(in_shape)
    meta[name] = {
        "config": config,
        "enable": {"rank": rank, "lora_alpha": alpha},
        "weights": [{"name": w.name, "path": w.path, "shape": list(w.shape),
                     "trainable": bool(w.trainable)} for w in layer.weights],
        "trainable": [w.name for w in layer.trainable_weights],
        "non_trainable": [w.name for w in layer.non_trainable_weights],
        "reloaded_config": reloaded.get_config(),
        "reloaded_lora_enabled": bool(reloaded.lora_enabled),
    }
    print(f"  {name}: {len(layer.weights)} weights, output {y.shape}")


def lora_mlp():
    """An MLP with LoRA on both Dense layers (the interop round trip builds the same)."""
    model = keras.Sequential([keras.Input((6,)), L.Dense(8, activation="relu", name="hidden"),
                              L.Dense(3, name="head")], name="lora_mlp")
    model.get_layer("hidden").enable_lora(2)
    model.get_layer("head").enable_lora(2, lora_alpha=4)
    return model


def lora_mixed():
    """Embedding -> Conv1D -> EinsumDense, each with LoRA."""
    ids = keras.Input((5,), dtype="int32")
    x = L.Embedding(12, 4, name="embed")(ids)
    x = L.Conv1D(3, 2, name="conv")(x)
    y = L.EinsumDense("abc,cd->abd", (None, 2), bias_axes="d", name="proj")(x)
    model = keras.Model(ids, y, name="lora_mixed")
    model.get_layer("embed").enable_lora(2)
    model.get_layer("conv").enable_lora(1, lora_alpha=2.5)
    model.get_layer("proj").enable_lora(2)
    return model


MODELS = {"lora_mlp": (lora_mlp, (4, 6), "float"), "lora_mixed": (lora_mixed, (3, 5), "int")}


def model_file(name, arrays, seed):
    build, in_shape, kind = MODELS[name]
    keras.backend.clear_session()
    model = build()
    for i, w in enumerate(model.weights):
        w.assign(seeded(w.shape, seed * 100 + i))
    rng = np.random.default_rng(seed)
    x = (rng.integers(0, 12, size=in_shape).astype("int32") if kind == "int"
         else rng.normal(size=in_shape).astype("float32"))
    y = np.asarray(model.predict(x, verbose=0))
    path = os.path.join(FILES_DIR, name + ".keras")
    model.save(path)
    keras.backend.clear_session()
    loaded = keras.saving.load_model(path)
    got = np.asarray(loaded.predict(x, verbose=0))
    # Keras's own reload: merged kernels, zero adapters, the same function.
    np.testing.assert_allclose(got, y, rtol=1e-5, atol=1e-6)
    assert all(layer.lora_enabled for layer in loaded.layers if hasattr(layer, "lora_enabled"))
    arrays[f"{name}.x"] = x
    arrays[f"{name}.y"] = got
    print(f"  {os.path.relpath(path, oracle.ROOT)}")


def main():
    os.makedirs(FILES_DIR, exist_ok=True)
    arrays, meta = {}, {}
    for seed, name in enumerate(CASES, start=1):
        layer_case(name, arrays, meta, seed)
    for seed, name in enumerate(MODELS, start=50):
        model_file(name, arrays, seed)
    path = os.path.join(oracle.ORACLE_DIR, "lora.npz")
    np.savez_compressed(path, **arrays)
    print(os.path.relpath(path, oracle.ROOT))
    oracle.write_json("lora", meta)


if __name__ == "__main__":
    main()
