"""Muon and ScheduleFreeAdamW against real Keras 3.15, written to
tests/oracle/fixtures/optimizers_muon_sf.npz in the "optimizer" case layout of optimizers.py
(inputs: the initial variables, then each variable's gradients stacked over the steps; outputs:
each variable's values after every step, then with "finalize" the values after
finalize_variable_values). kwargs "paths" gives each variable's path: Muon picks its AdamW
branch from it ("embedding" in the path, exclude_layers regexes) and from the rank.

Variables: a tall 2-D kernel (transposed inside Newton-Schulz), a wide 2-D kernel, a 1-D bias,
an embedding table, an output kernel (excluded by name in some cases) and a 3-D kernel (always
AdamW in Muon). Cases: defaults, every argument non-default, None for the nullable ones, custom
Newton-Schulz coefficients, each of clipnorm, clipvalue, global_clipnorm, use_ema,
gradient_accumulation_steps, a learning-rate schedule; ScheduleFreeAdamW with defaults, warmup,
weight decay and the same shared options.

Defaults: optimizers_muon_sf_defaults.json holds the get_config() of each class's default
instance.

Files: training.py's comparison for both optimizers, in tests/oracle/fixtures/optimizers_muon_sf/
(cases.npz in training.py's layout): the UNTRAINED compiled model Keras saved (<case>.keras,
the optimizer from its compile_config), which keras-cpp fits for 2 epochs and compares with
Keras's fit (weights, optimizer variables by path and value, logs); and the model after Keras's
fit (<case>_trained.keras), whose optimizer variables keras-cpp must load in Keras's order.

Tolerance: 2e-5 relative / 2e-6 absolute, as optimizers.py (float32 steps; Newton-Schulz's
matrix products may sum in another order).

Run: ./scripts/oracle.sh optimizers_muon_sf
"""

import copy
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (sets up the JAX backend before keras)

import keras  # noqa: E402
import numpy as np  # noqa: E402
import training  # noqa: E402


def _load_sibling(name):
    """tools/keras_oracle/<name>.py by path (tools/golden, first on sys.path, has an
    optimizers.py too)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py")
    spec = importlib.util.spec_from_file_location("keras_oracle_" + name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


optimizers = _load_sibling("optimizers")

RTOL, ATOL = 2e-5, 2e-6
VARIABLES = [  # (path, shape)
    ("dense/kernel", (5, 3)),
    ("dense_1/kernel", (3, 6)),
    ("dense_1/bias", (6,)),
    ("embedding/embeddings", (7, 4)),
    ("out_dense/kernel", (4, 2)),
    ("conv/kernel", (2, 3, 4)),
]
SHARED = {
    "clipnorm": {"clipnorm": 0.5},
    "clipvalue": {"clipvalue": 0.2},
    "global_clipnorm": {"global_clipnorm": 0.8},
    "use_ema": {"use_ema": True, "ema_momentum": 0.7},
    "accumulation": {"gradient_accumulation_steps": 2},
    "schedule": {"learning_rate": keras.optimizers.schedules.ExponentialDecay(
        0.05, decay_steps=2, decay_rate=0.5)},
}
CASES = {
    "muon_default": ("Muon", {}),
    "muon_options": ("Muon", {
        "learning_rate": 0.02, "adam_beta_1": 0.8, "adam_beta_2": 0.99,
        "adam_weight_decay": 0.01, "epsilon": 1e-6, "weight_decay": 0.05,
        "exclude_layers": ["out_dense", "^dense_1/"], "exclude_embeddings": True,
        "adam_lr_ratio": 0.5, "momentum": 0.9, "ns_steps": 3, "nesterov": False,
        "rms_rate": 0.3}),
    "muon_none": ("Muon", {
        "learning_rate": 0.02, "weight_decay": None, "adam_weight_decay": None,
        "rms_rate": None, "exclude_embeddings": False, "ns_steps": 6}),
    "muon_coefficients": ("Muon", {
        "learning_rate": 0.05, "muon_a": 2.0, "muon_b": -1.5, "muon_c": 0.5,
        "ns_steps": 4}),
    "schedule_free_default": ("ScheduleFreeAdamW", {}),
    "schedule_free_options": ("ScheduleFreeAdamW", {
        "learning_rate": 0.01, "beta_1": 0.8, "beta_2": 0.99, "epsilon": 1e-6,
        "warmup_steps": 3, "weight_decay": 0.02}),
}
for option, extra in SHARED.items():
    CASES[f"muon_{option}"] = ("Muon", dict({"learning_rate": 0.02}, **extra))
    CASES[f"schedule_free_{option}"] = ("ScheduleFreeAdamW", dict({"learning_rate": 0.01},
                                                                  **extra))


def make_variables(values):
    """keras.Variables with the paths of VARIABLES (a name scope per layer name)."""
    out = []
    for (path, _), value in zip(VARIABLES, values):
        scope, name = path.split("/")
        with keras.name_scope(scope):
            out.append(keras.Variable(value, name=name))
        assert out[-1].path == path, out[-1].path
    return out


def slot_paths(record, values):
    """The paths of the optimizer's variables, built on VARIABLES, in Keras's order."""
    optimizer = getattr(keras.optimizers, record["class_name"]).from_config(
        copy.deepcopy(record["config"]))
    optimizer.build(make_variables(values))
    return [v.path for v in optimizer.variables]


TRAINING_CASES = [  # (case, training.py model kind, optimizer factory)
    # The output Dense excluded by name: its kernel, like the biases, takes the AdamW branch.
    ("mlp_muon", "mlp", lambda: keras.optimizers.Muon(
        0.02, exclude_layers=["dense_1"], adam_lr_ratio=0.5, weight_decay=0.01)),
    # Conv kernels (4-D) and BatchNormalization's vectors take the AdamW branch; the Dense
    # kernel (2-D) takes Muon's.
    ("cnn_muon", "cnn", lambda: keras.optimizers.Muon(0.02, nesterov=False, rms_rate=None)),
    ("mlp_schedule_free", "mlp", lambda: keras.optimizers.ScheduleFreeAdamW(
        0.01, warmup_steps=2, weight_decay=0.01)),
    ("lstm_schedule_free", "lstm", lambda: keras.optimizers.ScheduleFreeAdamW(0.01, beta_1=0.8)),
]


def training_files():
    training.OUT_DIR = os.path.join(oracle.ORACLE_DIR, "optimizers_muon_sf")
    os.makedirs(training.OUT_DIR, exist_ok=True)
    fx = oracle.Fixture("optimizers_muon_sf/cases", seed=0)
    for i, (name, kind, make_optimizer) in enumerate(TRAINING_CASES):
        training.run_case(fx, name, kind, make_optimizer, seed=300 + i, save_trained=True)
    fx.save()


def main():
    f = oracle.Fixture("optimizers_muon_sf", seed=21)
    for case, (cls, config) in CASES.items():
        optimizer = getattr(keras.optimizers, cls)(**dict(config, name=case))
        record = keras.optimizers.serialize(optimizer)
        steps = 6 if "gradient_accumulation_steps" in config else 4
        values = [f.randn(*shape) for _, shape in VARIABLES]
        grads = [np.stack([f.randn(*shape) for _ in range(steps)]) for _, shape in VARIABLES]
        finalize = bool(config.get("use_ema"))
        outs = optimizers.run_optimizer(record, values, grads, finalize, make_variables)
        slots = slot_paths(record, values)
        moved = max(float(np.max(np.abs(o[-1] - v))) for o, v in zip(outs, values))
        assert moved > 1e-4, (case, moved)  # every case changes the variables measurably
        f.case(case, "optimizer", values + grads, outs, optimizer=record, finalize=finalize,
               paths=[p for p, _ in VARIABLES], slots=slots, reference="keras", rtol=RTOL,
               atol=ATOL)
    print(f"optimizers_muon_sf: {len(CASES)} cases")
    f.save()
    # The configs of fresh default instances (for the registry's defaults and names).
    keras.backend.clear_session()
    oracle.write_json("optimizers_muon_sf_defaults", {
        cls: getattr(keras.optimizers, cls)().get_config()
        for cls in ("Muon", "ScheduleFreeAdamW")})
    training_files()


if __name__ == "__main__":
    main()
