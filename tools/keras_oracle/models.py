"""Model files written by Keras 3.15 that keras-cpp must load (tests/oracle/files_test.cpp).

For each kind of model (Sequential MLP; Sequential CNN with BatchNormalization and Dropout; a
Functional model with two inputs and two outputs; a Functional model with a shared layer; a
Sequential nested inside a Functional; Embedding + LSTM; a custom layer registered as
"oracle>ScaleShift"; a compiled model trained one epoch; a subclassed keras.Model registered as
"oracle>TwoTower", as built and as compiled and trained one epoch) this writes
    tests/oracle/fixtures/models/<kind>.keras        the whole model (model.save)
    tests/oracle/fixtures/models/<kind>.weights.h5   its weights alone (model.save_weights)
and, in tests/oracle/fixtures/models.npz, fixed inputs with Keras's predictions:
    op "predict_keras"    load_model(<kind>.keras), predict(inputs) == outputs
    op "predict_weights"  a model of the same architecture with fresh weights, then
                          load_weights(<kind>.weights.h5), predict(inputs) == outputs
    op "train_resume"     load_model(<compiled kind>.keras) (compiled, subclassed_compiled), two
                          train_on_batch steps on (x1, y1) and
                          (x2, y2), then the predictions on probe (they depend on the restored
                          Adam moments and iteration count);
    op "train_resume_losses"  the same steps: the two losses train_on_batch returns.
Float32 predictions are compared at rtol 1e-5 / atol 1e-6 (float32 rounding of a different
summation order); the training case at rtol 1e-4, as an Adam step divides by sqrt(v) and so
amplifies rounding. Run: ./scripts/oracle.sh models
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402,F401  (sets up Keras on JAX first)

import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras import layers  # noqa: E402

MODELS_DIR = os.path.join(oracle.ORACLE_DIR, "models")
PREDICT_TOL = {"rtol": 1e-5, "atol": 1e-6}
TRAIN_TOL = {"rtol": 1e-4, "atol": 1e-5}


@keras.saving.register_keras_serializable(package="oracle")
class ScaleShift(layers.Layer):
    """y = factor * (x * scale + shift), one scale and shift per feature. The C++ twin is in
    tests/oracle/files_test.cpp and tools/interop/interop_models.cpp."""

    def __init__(self, factor=1.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.scale = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="scale")
        self.shift = self.add_weight(shape=(input_shape[-1],), initializer="zeros", name="shift")

    def call(self, x):
        return self.factor * (x * self.scale + self.shift)

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


@keras.saving.register_keras_serializable(package="oracle")
class TwoTower(keras.Model):
    """A subclassed model: head(concat(left(x), right(x))), its sublayers tracked as attributes
    (their names are the saved weight paths). The C++ twin is tools/interop/two_tower.h."""

    def __init__(self, units=8, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.left = layers.Dense(units, activation="relu")
        self.right = layers.Dense(units, activation="tanh")
        self.head = layers.Dense(3)

    def call(self, x):
        return self.head(keras.ops.concatenate([self.left(x), self.right(x)], axis=-1))

    def get_config(self):
        config = super().get_config()
        config["units"] = self.units
        return config


def mlp():
    return keras.Sequential([keras.Input((8,)), layers.Dense(16, activation="relu"),
                             layers.Dense(4, activation="softmax")], name="mlp")


def cnn():
    return keras.Sequential([
        keras.Input((8, 8, 2)),
        layers.Conv2D(4, 3, activation="relu"),
        layers.BatchNormalization(),
        layers.MaxPooling2D(2),
        layers.Dropout(0.25),
        layers.Flatten(),
        layers.Dense(3, activation="softmax"),
    ], name="cnn")


def two_io():
    a = keras.Input((6,), name="a")
    b = keras.Input((3,), name="b")
    h = layers.Concatenate()([layers.Dense(5, activation="tanh")(a), layers.Dense(5)(b)])
    score = layers.Dense(2, name="score")(h)
    flag = layers.Dense(1, activation="sigmoid", name="flag")(h)
    return keras.Model([a, b], [score, flag], name="two_io")


def shared():
    a = keras.Input((4,), name="left")
    b = keras.Input((4,), name="right")
    tower = layers.Dense(3, activation="tanh", name="tower")  # one layer, called twice
    h = layers.Concatenate()([tower(a), tower(b)])
    return keras.Model([a, b], layers.Dense(1)(h), name="shared")


def nested():
    inner = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu"),
                              layers.Dense(4)], name="inner")
    x = keras.Input((6,))
    return keras.Model(x, layers.Dense(2)(inner(x)), name="nested")


def lstm():
    return keras.Sequential([keras.Input((7,), dtype="int32"), layers.Embedding(20, 8),
                             layers.LSTM(6), layers.Dense(3, activation="softmax")],
                            name="lstm")


def custom():
    return keras.Sequential([keras.Input((5,)), layers.Dense(4, activation="tanh"),
                             ScaleShift(0.5), layers.Dense(2)], name="custom")


def compiled():
    model = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu"),
                              layers.Dense(3, activation="softmax")], name="compiled")
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def subclassed():
    model = TwoTower(units=8, name="two_tower")
    model(keras.Input((5,)))  # builds the sublayers (a bare build() would not)
    return model


def subclassed_compiled():
    model = TwoTower(units=4, name="two_tower_compiled")
    model(keras.Input((6,)))
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


def randomize_non_trainable(model, rng):
    """Moving statistics and ScaleShift's weights away from their initial values, so that a
    loader that skipped them would be caught."""
    for layer in model._flatten_layers():
        if isinstance(layer, layers.BatchNormalization):
            gamma, beta, mean, var = layer.get_weights()
            layer.set_weights([rng.uniform(0.5, 1.5, gamma.shape).astype("float32"),
                               rng.normal(0, 0.5, beta.shape).astype("float32"),
                               rng.normal(0, 0.5, mean.shape).astype("float32"),
                               rng.uniform(0.5, 2.0, var.shape).astype("float32")])
        if isinstance(layer, ScaleShift):
            layer.set_weights([rng.uniform(0.5, 1.5, w.shape).astype("float32")
                               for w in layer.get_weights()])


def as_list(y):
    return [np.asarray(t) for t in (y if isinstance(y, (list, tuple)) else [y])]


def add_resume_cases(f, model, stem, file, probe, features):
    """Two train_on_batch steps of the compiled `model` saved as `file`, on fresh batches of
    `features` features and labels in 0..2: the "train_resume" case (predictions on `probe`
    after the steps) and "train_resume_losses" (the steps' losses)."""
    x1, y1, x2, y2 = (f.randn(8, features), f.randint(0, 3, 8), f.randn(8, features),
                      f.randint(0, 3, 8))
    loss1 = model.train_on_batch(x1, y1, return_dict=True)["loss"]
    loss2 = model.train_on_batch(x2, y2, return_dict=True)["loss"]
    after = np.asarray(model.predict(probe, verbose=0))
    resume = dict(file=file, iterations=int(model.optimizer.iterations.numpy()), **TRAIN_TOL)
    f.case(stem + "_resume", "train_resume", [x1, y1, x2, y2, probe], [after], **resume)
    f.case(stem + "_resume_losses", "train_resume_losses", [x1, y1, x2, y2, probe],
           [np.float32(loss1), np.float32(loss2)], **resume)


def trained_and_resumed(f, name, build, seed, features):
    """`build()` (compiled) trained one epoch and saved with its weights: its predictions on a
    probe batch (predict_keras, predict_weights) and its resumed training (add_resume_cases)."""
    keras.backend.clear_session()
    keras.utils.set_random_seed(seed)
    model = build()
    x = f.randn(32, features)
    y = f.randint(0, 3, 32)
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    probe = f.randn(4, features)
    model.save(os.path.join(MODELS_DIR, name + ".keras"))
    model.save_weights(os.path.join(MODELS_DIR, name + ".weights.h5"))
    predicted = np.asarray(model.predict(probe, verbose=0))
    f.case(name + "_keras", "predict_keras", [probe], [predicted], file=name, **PREDICT_TOL)
    f.case(name + "_weights", "predict_weights", [probe], [predicted], file=name,
           **PREDICT_TOL)
    add_resume_cases(f, model, name, name, probe, features)


def main():
    os.makedirs(MODELS_DIR, exist_ok=True)
    f = oracle.Fixture("models", seed=16)
    float_inputs = {
        "mlp": lambda: [f.randn(5, 8)],
        "cnn": lambda: [f.randn(3, 8, 8, 2)],
        "two_io": lambda: [f.randn(4, 6), f.randn(4, 3)],
        "shared": lambda: [f.randn(4, 4), f.randn(4, 4)],
        "nested": lambda: [f.randn(4, 6)],
        "lstm": lambda: [f.randint(0, 20, 4, 7)],
        "custom": lambda: [f.randn(4, 5)],
    }
    builders = {"mlp": mlp, "cnn": cnn, "two_io": two_io, "shared": shared, "nested": nested,
                "lstm": lstm, "custom": custom}
    for seed, (kind, build) in enumerate(builders.items()):
        keras.backend.clear_session()  # layer names independent of the order of models
        keras.utils.set_random_seed(100 + seed)
        model = build()
        randomize_non_trainable(model, f.rng)
        inputs = float_inputs[kind]()
        outputs = as_list(model.predict(inputs if len(inputs) > 1 else inputs[0], verbose=0))
        model.save(os.path.join(MODELS_DIR, kind + ".keras"))
        model.save_weights(os.path.join(MODELS_DIR, kind + ".weights.h5"))
        f.case(kind + "_keras", "predict_keras", inputs, outputs, file=kind, **PREDICT_TOL)
        f.case(kind + "_weights", "predict_weights", inputs, outputs, file=kind, **PREDICT_TOL)

    # Compiled and trained one epoch: the file carries Adam's moments and iteration count.
    trained_and_resumed(f, "compiled", compiled, seed=200, features=6)

    # The subclassed model (after the kinds above, so that their inputs keep their values).
    keras.backend.clear_session()
    keras.utils.set_random_seed(107)
    model = subclassed()
    inputs = [f.randn(4, 5)]
    outputs = as_list(model.predict(inputs[0], verbose=0))
    model.save(os.path.join(MODELS_DIR, "subclassed.keras"))
    model.save_weights(os.path.join(MODELS_DIR, "subclassed.weights.h5"))
    f.case("subclassed_keras", "predict_keras", inputs, outputs, file="subclassed", **PREDICT_TOL)
    f.case("subclassed_weights", "predict_weights", inputs, outputs, file="subclassed",
           **PREDICT_TOL)

    # The subclassed model compiled and trained one epoch (Adam's state in the file).
    trained_and_resumed(f, "subclassed_compiled", subclassed_compiled, seed=201, features=6)
    f.save()
    for name in sorted(os.listdir(MODELS_DIR)):
        size = os.path.getsize(os.path.join(MODELS_DIR, name))
        assert size < 200_000, name
        print(f"  models/{name}: {size} bytes")


if __name__ == "__main__":
    main()
