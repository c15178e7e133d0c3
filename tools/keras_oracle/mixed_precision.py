"""Mixed precision in real Keras 3.15 (JAX backend, CPU): what keras-cpp's mixed_float16 and
mixed_bfloat16 policies and its LossScaleOptimizer must reproduce.

Writes, under tests/oracle/fixtures/mixed_precision/:
  - <case>.keras: a small MLP and a small CNN built under each policy (seeded), compiled and
    saved UNTRAINED. Under mixed_float16 Keras's compile wraps the optimizer in a
    LossScaleOptimizer (auto_scale_loss); one more case passes a LossScaleOptimizer with a huge
    initial scale and dynamic_growth_steps=2, so that its first steps have non-finite float16
    gradients (skipped, the scale halved) and later ones grow the scale again.
  - cases.npz: for each case, training.py's record of a 2-epoch fit (batch logs, History,
    evaluate, predict, final weights, optimizer variables including dynamic_scale and
    step_counter); tests/oracle/training_test.cpp replays it (OracleTraining.MixedPrecision*).
  - layers.npz: each layer's output (as float32) and its dtype for the first 16 samples, layer
    after layer, with the untrained weights (tests/oracle/mixed_precision_test.cpp).
  - loss_scale.json: a LossScaleOptimizer(SGD) applied to one variable with a fixed sequence of
    gradients, some not finite: the variable, dynamic_scale, step_counter and the inner
    iteration count after each step, and scale_loss before and after building (exact).

The MLP and the CNN end in Activation("softmax", dtype="float32"), as Keras's mixed-precision
guide advises: that layer's own policy overrides the global one.
"""

import os

import oracle
import keras
import numpy as np
from keras import layers, optimizers

import training

OUT = "mixed_precision"
OUT_DIR = os.path.join(oracle.ORACLE_DIR, OUT)
POLICIES = ["mixed_float16", "mixed_bfloat16"]
# 16-bit tolerance: float16 has a 2**-11 relative step, bfloat16 2**-8; six training steps and
# a dozen rounded ops per layer stay within a few steps of either.
TOLERANCE = {"mixed_float16": (2e-2, 2e-3), "mixed_bfloat16": (6e-2, 1e-2)}


def mlp():
    return keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu"),
                             layers.Dense(3), layers.Activation("softmax", dtype="float32")],
                            name="mlp")


def cnn():
    return keras.Sequential([
        keras.Input((8, 8, 1)),
        layers.Conv2D(4, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(),
        layers.Conv2D(4, 3, use_bias=False),
        layers.BatchNormalization(),
        layers.Activation("relu"),
        layers.Flatten(),
        layers.Dense(3),
        layers.Activation("softmax", dtype="float32"),
    ], name="cnn")


MODELS = {"mlp": mlp, "cnn": cnn}


def under(policy, make):
    """A model factory that sets the global policy first (run_case's clear_session resets it)."""
    def build():
        keras.config.set_dtype_policy(policy)
        return make()
    return build


def forced_skips():
    # Scaled float16 gradients overflow for the first steps, then fit; growth every 2 steps.
    return optimizers.LossScaleOptimizer(optimizers.SGD(0.1), initial_scale=2.0 ** 20,
                                         dynamic_growth_steps=2)


CASES = [  # (case, model kind, policy, optimizer)
    ("mlp_mixed_float16", "mlp", "mixed_float16", lambda: optimizers.Adam(0.01)),
    ("cnn_mixed_float16", "cnn", "mixed_float16", lambda: optimizers.Adam(0.01)),
    ("mlp_mixed_bfloat16", "mlp", "mixed_bfloat16", lambda: optimizers.Adam(0.01)),
    ("cnn_mixed_bfloat16", "cnn", "mixed_bfloat16", lambda: optimizers.Adam(0.01)),
    ("mlp_mixed_float16_skips", "mlp", "mixed_float16", forced_skips),
]


def training_cases():
    fx = oracle.Fixture(OUT + "/cases", seed=0)
    saved_models, saved_dir = training.MODELS, training.OUT_DIR
    training.OUT_DIR = OUT_DIR
    for i, (name, kind, policy, make_optimizer) in enumerate(CASES):
        training.MODELS = {**saved_models, kind: under(policy, MODELS[kind])}
        rtol, atol = TOLERANCE[policy]
        # run_case stores its own (float32) tolerances; the 16-bit ones replace them.
        original_case = fx.case

        def case(n, op, ins, outs, **kw):
            kw.update(rtol=rtol, atol=atol, policy=policy)
            original_case(n, op, ins, outs, **kw)

        fx.case = case
        training.run_case(fx, name, kind, make_optimizer, seed=300 + i)
        fx.case = original_case
        keras.config.set_dtype_policy("float32")
    training.MODELS, training.OUT_DIR = saved_models, saved_dir
    fx.save()


def layer_outputs():
    """Each case's untrained model applied layer by layer to the first batch."""
    fx = oracle.Fixture(OUT + "/layers", seed=1)
    for i, (name, kind, policy, _) in enumerate(CASES[:4]):
        keras.backend.clear_session()
        model = keras.saving.load_model(os.path.join(OUT_DIR, name + ".keras"))
        rng = np.random.default_rng(400 + i)
        x = training.data(kind, rng)[0][:16]
        outs, dtypes, names = [], [], []
        h = x
        for layer in model.layers:
            h = layer(h)
            outs.append(np.asarray(keras.ops.convert_to_numpy(keras.ops.cast(h, "float32"))))
            dtypes.append(keras.backend.standardize_dtype(h.dtype))
            names.append(layer.name)
        rtol, atol = TOLERANCE[policy]
        fx.case(name, kind, [x], outs, model=name + ".keras", policy=policy, dtypes=dtypes,
                layers=names, compute_dtype=model.layers[0].compute_dtype,
                variable_dtype=model.layers[0].variable_dtype,
                model_policy=model.dtype_policy.name,
                optimizer=type(model.optimizer).__name__, rtol=rtol, atol=atol)
        print(f"{name}: {list(zip(names, dtypes))}")
    fx.save()


def loss_scale_schedule():
    keras.backend.clear_session()
    var = keras.Variable(np.array([1.0, -2.0], np.float32), name="w")
    opt = optimizers.LossScaleOptimizer(optimizers.SGD(0.5), initial_scale=8.0,
                                        dynamic_growth_steps=3)
    before_build = float(opt.scale_loss(2.0))
    inf, nan = np.inf, np.nan
    grads = [[8.0, 16.0], [inf, 1.0], [4.0, 4.0], [2.0, -2.0], [1.0, 1.0], [nan, 0.0],
             [-4.0, 8.0], [1.0, 2.0], [2.0, 2.0], [0.5, 0.5], [-inf, 1.0], [8.0, 8.0]]
    steps = []
    opt.build([var])
    for g in grads:
        # The stateless form the JAX trainer uses (the stateful apply's ops.cond leaks a tracer
        # on JAX).
        new_vars, new_state = opt.stateless_apply([v.value for v in opt.variables],
                                                  [np.array(g, np.float32)], [var.value])
        var.assign(new_vars[0])
        for v, value in zip(opt.variables, new_state):
            v.assign(value)
        steps.append({"grad": [str(v) for v in g],
                      "variable": [float(v) for v in np.asarray(var.numpy())],
                      "dynamic_scale": float(opt.dynamic_scale.numpy()),
                      "step_counter": int(opt.step_counter.numpy()),
                      "iterations": int(opt.iterations.numpy())})
    oracle.write_json(OUT + "/loss_scale", {
        "initial_scale": 8.0, "dynamic_growth_steps": 3, "learning_rate": 0.5,
        "scale_loss_before_build": before_build,
        "scale_loss_after": float(opt.scale_loss(2.0)),
        "variables": [v.path for v in opt.variables],
        "config": keras.saving.serialize_keras_object(opt),
        "steps": steps})


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    training_cases()
    layer_outputs()
    loss_scale_schedule()


if __name__ == "__main__":
    main()
