"""Training runs of real Keras 3.15 (JAX backend, CPU) that keras-cpp must reproduce.

Each case builds a small model in Keras, seeds it, compiles it and saves the UNTRAINED compiled
model as tests/oracle/fixtures/training/<case>.keras. The C++ test
(tests/oracle/training_test.cpp) loads that file (weights, optimizer and schedule come from the
file's compile_config), fits it for 2 epochs with shuffle=False and the same batch size, and
compares with what Keras recorded here after its own 2-epoch fit:
  - the logs of every on_train_batch_end (Keras 3's running means over the epoch so far),
  - the History dict, the final weights (model.get_weights()) and the optimizer's variables
    (iteration, learning rate, EMA averages, accumulators, slots) and current learning rate,
  - evaluate() (return_dict) and predict() on the training data,
  - the optimizer's get_config() (so the schedule's config is checked to survive loading).

Covered: an MLP, a CNN with BatchNormalization, an LSTM and a two-output Functional model, each
with Adam; the MLP with each of the 12 optimizers, the 6 schedules, clipnorm, global_clipnorm,
clipvalue, use_ema and weight_decay; beyond that gradient accumulation, and the CNN, LSTM and
two-output models with a second optimizer each. 48 samples, batch 16: 3 steps per epoch, 6 in all.

All arrays are in tests/oracle/fixtures/training/cases.npz (golden layout: case.op = the model
kind, case.kwargs = JSON with the file name and log keys, case.in* = data, case.out* = results).
"""

import os

import oracle  # noqa: F401  (sets the backend before keras is imported)
import keras
import numpy as np
from keras import layers, optimizers
from keras.optimizers import schedules

OUT_DIR = os.path.join(oracle.ORACLE_DIR, "training")
N, BATCH, EPOCHS = 48, 16, 2


class BatchLogs(keras.callbacks.Callback):
    """Records the logs Keras passes to on_train_batch_end (running means, not per-step)."""

    def __init__(self):
        super().__init__()
        self.rows = []

    def on_train_batch_end(self, batch, logs=None):
        self.rows.append({k: float(v) for k, v in (logs or {}).items()})


# --- models (float32; weights from the seed, saved into the .keras file) ---

def mlp():
    return keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu"),
                             layers.Dense(3, activation="softmax")], name="mlp")


def cnn():
    # A Conv2D -> MaxPooling2D pair (keras-cpp may fuse it) then Conv2D -> BatchNormalization.
    # The second Conv2D has no bias: before BatchNormalization its gradient is 0 up to rounding,
    # and Adam scales that noise to full-size steps of either sign, in Keras as in keras-cpp.
    return keras.Sequential([
        keras.Input((8, 8, 1)),
        layers.Conv2D(4, 3, padding="same", activation="relu"),
        layers.MaxPooling2D(),
        layers.Conv2D(4, 3, use_bias=False),
        layers.BatchNormalization(),
        layers.Activation("relu"),
        layers.Flatten(),
        layers.Dense(3, activation="softmax"),
    ], name="cnn")


def lstm():
    return keras.Sequential([keras.Input((5, 3)), layers.LSTM(6), layers.Dense(1)], name="lstm")


def two_outputs():
    x = keras.Input((6,), name="features")
    h = layers.Dense(8, activation="relu")(x)
    score = layers.Dense(1, name="score")(h)
    klass = layers.Dense(3, activation="softmax", name="klass")(h)
    return keras.Model(x, [score, klass], name="two_outputs")


def data(kind, rng):
    """(x, y) for a model kind; y is a dict for the two-output model."""
    if kind == "cnn":
        x = rng.standard_normal((N, 8, 8, 1)).astype(np.float32)
        return x, rng.integers(0, 3, N).astype(np.int32)
    if kind == "lstm":
        x = rng.standard_normal((N, 5, 3)).astype(np.float32)
        return x, (x.sum(axis=(1, 2)) * 0.3)[:, None].astype(np.float32)
    x = rng.standard_normal((N, 6)).astype(np.float32)
    labels = rng.integers(0, 3, N).astype(np.int32)
    if kind == "two_outputs":
        score = (x[:, :1] - 0.5 * x[:, 1:2]).astype(np.float32)
        return x, {"score": score, "klass": labels}
    return x, labels


MODELS = {"mlp": mlp, "cnn": cnn, "lstm": lstm, "two_outputs": two_outputs}


def compile_args(kind):
    if kind == "lstm":
        return dict(loss="mse", metrics=["mae"])
    if kind == "two_outputs":
        return dict(loss={"score": "mse", "klass": "sparse_categorical_crossentropy"},
                    loss_weights={"score": 0.5, "klass": 1.0},
                    metrics={"score": ["mae"], "klass": ["accuracy"]})
    return dict(loss="sparse_categorical_crossentropy", metrics=["accuracy"])


# --- cases: (name, model kind, optimizer factory) ---

def sched_sgd(schedule):
    return lambda: optimizers.SGD(learning_rate=schedule(), momentum=0.5)


CASES = [
    ("mlp_adam", "mlp", lambda: optimizers.Adam(0.01)),
    ("cnn_adam", "cnn", lambda: optimizers.Adam(0.01)),
    ("lstm_adam", "lstm", lambda: optimizers.Adam(0.01)),
    ("two_outputs_adam", "two_outputs", lambda: optimizers.Adam(0.01)),
    # Every optimizer on the MLP, with non-default settings where they exist.
    ("mlp_sgd_nesterov", "mlp", lambda: optimizers.SGD(0.1, momentum=0.9, nesterov=True)),
    ("mlp_adam_amsgrad", "mlp", lambda: optimizers.Adam(0.01, beta_1=0.8, amsgrad=True)),
    ("mlp_adamw", "mlp", lambda: optimizers.AdamW(0.01, weight_decay=0.05)),
    ("mlp_adamax", "mlp", lambda: optimizers.Adamax(0.01)),
    ("mlp_nadam", "mlp", lambda: optimizers.Nadam(0.01)),
    ("mlp_rmsprop", "mlp", lambda: optimizers.RMSprop(0.01, rho=0.8, momentum=0.5,
                                                       centered=True)),
    ("mlp_adagrad", "mlp", lambda: optimizers.Adagrad(0.1, initial_accumulator_value=0.2)),
    ("mlp_adadelta", "mlp", lambda: optimizers.Adadelta(1.0, rho=0.9)),
    ("mlp_adafactor", "mlp", lambda: optimizers.Adafactor(0.05)),
    ("mlp_ftrl", "mlp", lambda: optimizers.Ftrl(0.1, l1_regularization_strength=0.001,
                                                 l2_regularization_strength=0.01,
                                                 l2_shrinkage_regularization_strength=0.01,
                                                 beta=0.1)),
    ("mlp_lamb", "mlp", lambda: optimizers.Lamb(0.01)),
    ("mlp_lion", "mlp", lambda: optimizers.Lion(0.003)),
    # Every schedule (SGD with momentum), decaying within the 6 steps.
    ("mlp_exponential_decay", "mlp", sched_sgd(
        lambda: schedules.ExponentialDecay(0.2, decay_steps=2, decay_rate=0.5, staircase=True))),
    ("mlp_piecewise_constant", "mlp", sched_sgd(
        lambda: schedules.PiecewiseConstantDecay([1, 3], [0.2, 0.1, 0.05]))),
    ("mlp_polynomial_decay", "mlp", sched_sgd(
        lambda: schedules.PolynomialDecay(0.2, decay_steps=4, end_learning_rate=0.01,
                                          power=2.0))),
    ("mlp_inverse_time_decay", "mlp", sched_sgd(
        lambda: schedules.InverseTimeDecay(0.2, decay_steps=1, decay_rate=0.5))),
    ("mlp_cosine_decay_warmup", "mlp", sched_sgd(
        lambda: schedules.CosineDecay(0.05, decay_steps=4, alpha=0.1, warmup_target=0.2,
                                      warmup_steps=2))),
    ("mlp_cosine_decay_restarts", "mlp", sched_sgd(
        lambda: schedules.CosineDecayRestarts(0.2, first_decay_steps=2, t_mul=1.5, m_mul=0.8,
                                              alpha=0.05))),
    # Gradient clipping, EMA and weight decay (Adam).
    ("mlp_clipnorm", "mlp", lambda: optimizers.Adam(0.01, clipnorm=0.05)),
    ("mlp_global_clipnorm", "mlp", lambda: optimizers.Adam(0.01, global_clipnorm=0.05)),
    ("mlp_clipvalue", "mlp", lambda: optimizers.Adam(0.01, clipvalue=0.02)),
    ("mlp_use_ema", "mlp", lambda: optimizers.Adam(0.01, use_ema=True, ema_momentum=0.5)),
    ("mlp_use_ema_overwrite", "mlp", lambda: optimizers.SGD(0.1, use_ema=True, ema_momentum=0.6,
                                                            ema_overwrite_frequency=2)),
    ("mlp_weight_decay", "mlp", lambda: optimizers.Adam(0.01, weight_decay=0.1)),
    ("mlp_sgd_weight_decay", "mlp", lambda: optimizers.SGD(0.1, momentum=0.5, weight_decay=0.05)),
    # Beyond the brief, cheap: gradient accumulation, and the other models with other optimizers.
    ("mlp_gradient_accumulation", "mlp", lambda: optimizers.Adam(0.01,
                                                                  gradient_accumulation_steps=2)),
    ("cnn_sgd_nesterov", "cnn", lambda: optimizers.SGD(0.05, momentum=0.9, nesterov=True)),
    ("lstm_rmsprop", "lstm", lambda: optimizers.RMSprop(0.01, momentum=0.5)),
    ("two_outputs_lamb_global_clipnorm", "two_outputs",
     lambda: optimizers.Lamb(0.01, global_clipnorm=0.1)),
]

# Cases keras-cpp is known to get wrong: {case: reason}; the C++ test prints and skips them.
KERAS_CPP_DIFFERS = {}


def flat(y):
    """Targets/predictions as a list in the model's output order."""
    if isinstance(y, dict):
        return [y["score"], y["klass"]]
    return list(y) if isinstance(y, (list, tuple)) else [y]


def run_case(fx, name, kind, make_optimizer, seed, save_trained=False):
    """One case; with `save_trained`, the model after fit (its optimizer state included) is
    also saved, as <name>_trained.keras."""
    keras.backend.clear_session()
    keras.utils.set_random_seed(seed)
    rng = np.random.default_rng(seed)
    x, y = data(kind, rng)
    model = MODELS[kind]()
    model.compile(optimizer=make_optimizer(), **compile_args(kind))
    model.save(os.path.join(OUT_DIR, name + ".keras"))
    optimizer_config = keras.saving.serialize_keras_object(model.optimizer.get_config())

    logs = BatchLogs()
    history = model.fit(x, y, batch_size=BATCH, epochs=EPOCHS, shuffle=False, verbose=0,
                        callbacks=[logs])
    weights = model.get_weights()
    # The optimizer's state after fit: iteration, learning_rate, EMA averages, accumulators, slots.
    # Read before evaluate(): with use_ema, fit's end assigns each average's array to its model
    # variable, and evaluate's jitted step donates that shared buffer, leaving the optimizer's
    # average deleted (reading it then raises "Array has been deleted").
    slots = [np.asarray(v.numpy()) for v in model.optimizer.variables]
    final_learning_rate = float(model.optimizer.learning_rate)
    if save_trained:
        model.save(os.path.join(OUT_DIR, name + "_trained.keras"))
    batch_keys = sorted(logs.rows[0])
    history_keys = sorted(history.history)
    scores = model.evaluate(x, y, batch_size=BATCH, verbose=0, return_dict=True)
    evaluate_keys = sorted(scores)
    predictions = flat(model.predict(x, batch_size=BATCH, verbose=0))

    outputs = [
        np.array([[r[k] for k in batch_keys] for r in logs.rows], np.float64),
        np.array([history.history[k] for k in history_keys], np.float64).T,
        np.array([scores[k] for k in evaluate_keys], np.float64),
        *[np.asarray(p) for p in predictions],
        *[np.asarray(w) for w in weights],
        *slots,
    ]
    kwargs = dict(model=name + ".keras", batch_size=BATCH, epochs=EPOCHS, batch_keys=batch_keys,
                  history_keys=history_keys, evaluate_keys=evaluate_keys,
                  num_outputs=len(predictions), num_weights=len(weights),
                  num_optimizer_variables=len(slots),
                  optimizer_variables=[v.path for v in model.optimizer.variables],
                  final_learning_rate=final_learning_rate,
                  optimizer_config=optimizer_config, rtol=1e-4, atol=1e-6)
    if name in KERAS_CPP_DIFFERS:
        kwargs["keras_cpp_differs"] = KERAS_CPP_DIFFERS[name]
    fx.case(name, kind, [x, *flat(y)], outputs, **kwargs)
    print(f"{name}: loss {logs.rows[0]['loss']:.5f} -> {logs.rows[-1]['loss']:.5f}")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    fx = oracle.Fixture("training/cases", seed=0)
    for i, (name, kind, make_optimizer) in enumerate(CASES):
        run_case(fx, name, kind, make_optimizer, seed=100 + i)
    fx.save()


if __name__ == "__main__":
    main()
