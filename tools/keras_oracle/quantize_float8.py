"""float8 quantization and float8 training in Keras 3.15, for tests/quantization/float8_*_test.cpp.

Written to tests/oracle/fixtures/quantize_float8/ (the .keras files) and
tests/oracle/fixtures/quantize_float8.npz:
    round.x                          float32 inputs: a sweep with ties, subnormals, the formats'
                                     max, values past it, +-inf, nan, -0
    round.<format>                   x cast to the float8 format and back to float32 (ml_dtypes;
                                     JAX's jit cast is checked to agree)
    qdq.x, qdq.scale                 inputs and a scale
    qdq.<format>                     keras.quantizers.quantize_and_dequantize(x, scale, format)
    scale.amax, scale.scale          inputs of keras.quantizers.compute_float8_scale
    scale.out                        compute_float8_scale(amax, scale, 448)
    amax.x, amax.history, amax.out   compute_float8_amax_history(x, history)
    <case>.x, <case>.y               data
    <case>.float8                    predict of the model quantized by model.quantize("float8")
                                     (inference: the scales as stored, all 1 after quantize)
    <case>.float8.var.<path>         its variables right after quantize()
    <case>.<run>.loss                the logs["loss"] of every on_train_batch_end of a fit
                                     (Keras's running mean over the epoch)
    <case>.<run>.var.<path>          every variable after that fit (kernels, biases, scales,
                                     amax histories)
    <case>.<run>.predict             predict after that fit
    overwrite.<run>                  values of a plain variable w and an overwrite_with_gradient
                                     one s after each of 4 optimizer.apply calls (step, [w, s],
                                     3); overwrite.<run>.num_variables: len(optimizer.variables)
Cases: "mlp" (Dense x 3, quantize("float8"), amax_history_length 1024) and "einsum"
(EinsumDense x 2, built from QuantizedFloat8DTypePolicy(amax_history_length=3) so the
histories roll over during the fit; its float8 file is a model built from the policy).
Runs: sgd, adam, sgd_accum (SGD with gradient_accumulation_steps=2), lso
(LossScaleOptimizer(SGD)); "mlp_bf16": the mlp under mixed_bfloat16 (predict, sgd). Files: <case>_float.keras (the float model), <case>_float8.keras
(before training), <case>_adam.keras (after the adam fit: non-trivial scales and histories).

Run: ./scripts/oracle.sh quantize_float8 (or, with the interop venv:
KERAS_HOME=.cache/keras-home .cache/interop-venv/bin/python tools/keras_oracle/quantize_float8.py)
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import keras  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from keras import quantizers  # noqa: E402
from keras.dtype_policies import QuantizedFloat8DTypePolicy  # noqa: E402

L = keras.layers
OUT_DIR = os.path.join(oracle.ORACLE_DIR, "quantize_float8")
FORMATS = ["float8_e4m3fn", "float8_e5m2"]
BATCH, EPOCHS = 4, 2


class BatchLogs(keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.losses = []

    def on_train_batch_end(self, batch, logs=None):
        self.losses.append(float(logs["loss"]))


def rounding_inputs():
    """Every float8 value of both formats, the midpoints between neighbours (ties), points a
    float32 ulp either side of those, random values over the formats' ranges, and specials."""
    grids = []
    for fmt in FORMATS:
        every = np.arange(256, dtype=np.uint8).view(getattr(ml_dtypes, fmt)).astype(np.float32)
        every = np.unique(every[np.isfinite(every)])
        mids = (every[:-1] + every[1:]) / 2  # exact in float32
        grids += [every, mids, np.nextafter(mids, np.float32(np.inf)),
                  np.nextafter(mids, np.float32(-np.inf))]
    rng = np.random.default_rng(0)
    grids.append(rng.normal(0, 1, 500).astype(np.float32) * np.float32(2.0) **
                 rng.integers(-20, 18, 500).astype(np.float32))
    grids.append(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 448, 464, 480,
                           57344, 61440, 61441, 65536, 1e10, -1e10, 2.0**-9, 2.0**-10,
                           1.5 * 2.0**-10, 2.0**-16, 2.0**-17, 1.5 * 2.0**-17], np.float32))
    return np.concatenate(grids).astype(np.float32)


def numerics(arrays):
    x = rounding_inputs()
    arrays["round.x"] = x
    for fmt in FORMATS:
        y = x.astype(fmt).astype(np.float32)
        jitted = np.asarray(jax.jit(lambda t: t.astype(fmt).astype(jnp.float32))(x))
        np.testing.assert_array_equal(y, jitted)  # XLA's cast is ml_dtypes' (nan == nan here)
        arrays[f"round.{fmt}"] = y
    rng = np.random.default_rng(1)
    qx = np.concatenate([rng.normal(0, 30, 200), rng.normal(0, 3000, 200),
                         [1e6, -1e6, 0.0]]).astype(np.float32)
    arrays["qdq.x"] = qx
    arrays["qdq.scale"] = np.float32(0.37)
    for fmt in FORMATS:
        arrays[f"qdq.{fmt}"] = np.asarray(
            quantizers.quantize_and_dequantize(qx, np.float32(0.37), fmt, "float32"))
    amax = np.array([0.0, 3.5, 448.0, 1e-3, np.inf, np.nan, 7e4], np.float32)
    scale = np.array([2.0, 0.5, 1.0, 3.0, 0.25, 1.5, 1.0], np.float32)
    arrays["scale.amax"], arrays["scale.scale"] = amax, scale
    arrays["scale.out"] = np.asarray(
        quantizers.compute_float8_scale(amax, scale, np.float32(448.0)))
    hx = rng.normal(0, 2, (3, 5)).astype(np.float32)
    history = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    arrays["amax.x"], arrays["amax.history"] = hx, history
    arrays["amax.out"] = np.asarray(quantizers.compute_float8_amax_history(hx, history))


def overwrite(arrays):
    """Optimizers applied by hand to a plain variable and an overwrite_with_gradient one."""
    rng = np.random.default_rng(3)
    grads = rng.normal(0, 1, (4, 2, 3)).astype(np.float32)
    arrays["overwrite.w0"] = w0 = rng.normal(0, 1, (3,)).astype(np.float32)
    arrays["overwrite.s0"] = s0 = rng.normal(0, 1, (3,)).astype(np.float32)
    arrays["overwrite.grads"] = grads  # step, variable (w, s), values
    runs = {
        "sgd": lambda: keras.optimizers.SGD(0.1, momentum=0.9),
        "adam_scaled": lambda: keras.optimizers.Adam(0.1, loss_scale_factor=4.0),
        "sgd_accum": lambda: keras.optimizers.SGD(0.1, gradient_accumulation_steps=2),
        "adam_ema": lambda: keras.optimizers.Adam(0.1, use_ema=True),
    }  # LossScaleOptimizer: its eager apply fails on JAX (ops.cond); see the "lso" fits
    for run, make in runs.items():
        w = keras.Variable(w0, name="w")
        s = keras.Variable(s0, name="s")
        s.overwrite_with_gradient = True
        opt = make()
        values = []
        for g in grads:
            opt.apply([g[0], g[1]], [w, s])
            values.append(np.stack([w.numpy(), s.numpy()]))
        arrays[f"overwrite.{run}"] = np.stack(values)
        arrays[f"overwrite.{run}.num_variables"] = np.int64(len(opt.variables))


def mlp(dtype=None):
    return keras.Sequential([
        keras.Input((12,)),
        L.Dense(16, activation="relu", dtype=dtype),
        L.Dense(8, use_bias=False, dtype=dtype),
        L.Dense(4, dtype=dtype),
    ], name="mlp")


def einsum(dtype=None):
    inp = keras.Input((5, 6))
    x = L.EinsumDense("abc,cde->abde", (None, 2, 4), bias_axes="de", activation="relu",
                      dtype=dtype, name="heads")(inp)
    x = L.Reshape((5, 8))(x)
    out = L.EinsumDense("abc,cd->abd", (None, 3), bias_axes="d", dtype=dtype, name="proj")(x)
    return keras.Model(inp, out, name="einsum")


def mixed_bfloat16(arrays, data):
    """The mlp under mixed_bfloat16 quantized to float8 ("float8_from_mixed_bfloat16"): the
    quantize-dequantize runs in bfloat16, the bias is not rounded; predict and an SGD fit."""
    x, y = (a.astype("float32") for a in data)
    model = mlp("mixed_bfloat16")
    float_weights(model, 0)
    model.quantize("float8")
    arrays["mlp_bf16.float8"] = np.asarray(model.predict(x, verbose=0)).astype(np.float32)
    path = os.path.join(OUT_DIR, "mlp_bf16_float8.keras")
    model.save(path)
    model = keras.saving.load_model(path)
    model.compile(optimizer=keras.optimizers.SGD(0.02), loss="mean_squared_error")
    logs = BatchLogs()
    model.fit(x, y, batch_size=BATCH, epochs=EPOCHS, shuffle=False, verbose=0, callbacks=[logs])
    arrays["mlp_bf16.sgd.loss"] = np.array(logs.losses, np.float32)
    record_vars(arrays, "mlp_bf16.sgd", model)
    print("mlp_bf16 sgd losses", np.round(logs.losses, 4))


def float_weights(model, seed):
    rng = np.random.default_rng(seed)
    for v in model.weights:
        v.assign(rng.normal(0, 0.3, v.shape).astype(v.dtype))


def optimizer(run):
    if run == "sgd":
        return keras.optimizers.SGD(0.02)
    if run == "adam":
        return keras.optimizers.Adam(0.01)
    if run == "sgd_accum":
        return keras.optimizers.SGD(0.02, gradient_accumulation_steps=2)
    if run == "lso":
        return keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(0.02))
    raise ValueError(run)


def record_vars(arrays, prefix, model):
    for v in model.weights:
        arrays[f"{prefix}.var.{v.path}"] = np.asarray(v.numpy())


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    arrays = {}
    numerics(arrays)
    overwrite(arrays)
    rng = np.random.default_rng(2)
    data = {
        "mlp": (rng.normal(0, 1, (16, 12)), rng.normal(0, 1, (16, 4))),
        "einsum": (rng.normal(0, 1, (8, 5, 6)), rng.normal(0, 1, (8, 5, 3))),
    }
    for seed, name in enumerate(["mlp", "einsum"]):
        x, y = (a.astype("float32") for a in data[name])
        arrays[f"{name}.x"], arrays[f"{name}.y"] = x, y
        build = mlp if name == "mlp" else einsum
        model = build()
        float_weights(model, seed)
        float_path = os.path.join(OUT_DIR, f"{name}_float.keras")
        model.save(float_path)

        def start():
            """The float8 model a run starts from (fresh, so every run starts alike)."""
            if name == "mlp":
                q = keras.saving.load_model(float_path)
                q.quantize("float8")
                return q
            policy = QuantizedFloat8DTypePolicy("float8", "float32", amax_history_length=3)
            q = build(policy)
            for layer, source in zip(q.layers, model.layers):
                if isinstance(layer, L.EinsumDense):
                    layer._kernel.assign(np.array(source._kernel.numpy()))
                    layer.bias.assign(np.array(source.bias.numpy()))
            return q

        q = start()
        arrays[f"{name}.float8"] = np.asarray(q.predict(x, verbose=0))
        record_vars(arrays, f"{name}.float8", q)
        q.save(os.path.join(OUT_DIR, f"{name}_float8.keras"))
        for run in ["sgd", "adam", "sgd_accum", "lso"]:
            keras.utils.set_random_seed(0)
            q = start()
            q.compile(optimizer=optimizer(run), loss="mean_squared_error")
            logs = BatchLogs()
            q.fit(x, y, batch_size=BATCH, epochs=EPOCHS, shuffle=False, verbose=0,
                  callbacks=[logs])
            arrays[f"{name}.{run}.loss"] = np.array(logs.losses, np.float32)
            record_vars(arrays, f"{name}.{run}", q)
            arrays[f"{name}.{run}.predict"] = np.asarray(q.predict(x, verbose=0))
            if run == "adam":
                path = os.path.join(OUT_DIR, f"{name}_adam.keras")
                q.save(path, include_optimizer=False)
                again = keras.saving.load_model(path)
                np.testing.assert_allclose(again.predict(x, verbose=0),
                                           arrays[f"{name}.adam.predict"], rtol=1e-6)
            print(name, run, "losses", np.round(logs.losses, 4))
    mixed_bfloat16(arrays, data["mlp"])
    path = os.path.join(oracle.ORACLE_DIR, "quantize_float8.npz")
    np.savez_compressed(path, **arrays)
    print(os.path.relpath(path, oracle.ROOT), len(arrays), "arrays")


if __name__ == "__main__":
    main()
