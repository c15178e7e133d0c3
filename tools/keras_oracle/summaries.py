"""What users read: Keras 3.15's model.summary() text, model.fit(verbose=2) epoch lines and the
exceptions of five common mistakes, written for tests/oracle/summary_test.cpp to compare.

Writes tests/oracle/fixtures/summaries/:
  <model>.keras       small models (units 4-16) that the C++ test loads with load_model;
  summaries.json      {"summaries": {case: {"model", "text", "expand_nested", "show_trainable",
                       "columns"}}, "fit_verbose2": {...}, "errors": {...}}.

Summary text is captured as Keras prints it to a non-terminal: print_fn collects the string
that rich renders with colour off. Keras's default line_length is min(88 | 108 | +12 for
show_trainable, terminal columns - 4), and rich wraps the "Model:" line at the console width,
both read from $COLUMNS (80 when unset and not a terminal); each case records the COLUMNS it
was printed under, and the C++ test sets the same value. Each text is taken from the model
reloaded from its .keras file (what the C++ side loads), after checking that it equals the
original model's text.

fit(verbose=2): a small Sequential MLP, SGD, MSE + MAE, 12 samples in batches of 4 with
validation data, 2 epochs, shuffle off; the lines are stored raw along with the data and the
initial weights (fit_mlp.keras) so the C++ side can run the same fit. Times differ, so the
test masks them with a shared regex.

errors: for each mistake, Keras's exception type and message, plus the facts the C++ message
must contain (shapes, names, Keras's key phrase); the comparison rule is documented in the test.
"""

import contextlib
import io
import json
import os
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402,F401  (sets the backend before keras)

import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras import layers  # noqa: E402

import graphs  # noqa: E402  (Functional graphs with op nodes and nested models)

OUT = os.path.join(oracle.ORACLE_DIR, "summaries")


def model_path(name):
    return os.path.join(OUT, name + ".keras")


def summary_text(model, columns, **kwargs):
    """model.summary() as printed to a non-terminal of `columns` columns."""
    os.environ["COLUMNS"] = str(columns)
    lines = []
    model.summary(print_fn=lambda s, **_: lines.append(s), **kwargs)
    assert len(lines) == 1  # rich captures the whole table, then print_fn gets it once
    return lines[0]


# ---- the models ---------------------------------------------------------------------------


def mlp():
    return keras.Sequential([keras.Input((8,)), layers.Dense(16, activation="relu"),
                             layers.Dense(4)], name="mlp")


def cnn():
    return keras.Sequential([
        keras.Input((8, 8, 1)),
        layers.Conv2D(4, 3, activation="relu"),
        layers.MaxPooling2D(2),
        layers.Flatten(),
        layers.Dense(4, activation="softmax"),
    ], name="cnn")


def two_in_two_out():
    a = keras.Input((4,), name="features")
    b = keras.Input((6,), name="extra")
    h = layers.Concatenate(name="merge")([a, b])
    h = layers.Dense(8, activation="relu", name="hidden")(h)
    return keras.Model([a, b], [layers.Dense(1, name="score")(h),
                                layers.Dense(3, activation="softmax", name="klass")(h)],
                       name="two_in_two_out")


def shared_layers():
    a = keras.Input((5,), name="left")
    b = keras.Input((5,), name="right")
    shared = layers.Dense(4, activation="tanh", name="shared")
    return keras.Model([a, b], layers.Subtract(name="diff")([shared(a), shared(b)]),
                       name="siamese")


def nested():
    inner = keras.Sequential([keras.Input((6,)), layers.Dense(8, activation="relu"),
                              layers.Dense(4)], name="encoder")
    inner.layers[0].trainable = False  # so show_trainable has an N inside the nested model
    x = keras.Input((6,), name="x")
    return keras.Model(x, layers.Dense(2, name="head")(inner(x)), name="nested")


def frozen_bn():
    model = keras.Sequential([
        keras.Input((6,)),
        layers.Dense(8, name="frozen"),
        layers.BatchNormalization(name="bn"),
        layers.Dense(4, activation="relu", name="top"),
    ], name="frozen_bn")
    model.get_layer("frozen").trainable = False
    return model


def rnn():
    return keras.Sequential([
        keras.Input((5,), dtype="int32"),
        layers.Embedding(20, 4),
        layers.GRU(6, return_sequences=True),
        layers.LSTM(4),
        layers.Dense(1),
    ], name="rnn")


def mha():
    x = keras.Input((5, 8), name="tokens")
    att = layers.MultiHeadAttention(num_heads=2, key_dim=4, name="mha")(x, x)
    h = layers.LayerNormalization(name="norm")(layers.Add(name="residual")([x, att]))
    return keras.Model(x, layers.GlobalAveragePooling1D(name="pool")(h), name="attention")


def list_output():
    x = keras.Input((3, 4), name="seq")
    out, h, c = layers.LSTM(4, return_state=True, name="lstm")(x)
    return keras.Model(x, layers.Concatenate(name="states")([out, h, c]), name="list_output")


def long_name():
    return keras.Sequential(
        [keras.Input((4,)), layers.Dense(4, name="a_dense_layer_with_a_very_long_name_indeed")],
        name="a_model_whose_name_is_long_enough_that_rich_has_to_wrap_the_title_line_of_it")


def trained_mlp():
    """Compiled and trained: Keras adds an "Optimizer params" line (the Adam slots)."""
    model = mlp()
    model.name = "trained_mlp"
    model.compile(optimizer="adam", loss="mse")
    rng = np.random.default_rng(0)
    model.fit(rng.normal(size=(8, 8)), rng.normal(size=(8, 4)), epochs=1, verbose=0)
    return model


def graph():
    """Keras ops as graph nodes, a nested Functional base, RNN states (graphs.py's
    example_graph)."""
    return graphs.example_graph()


def siamese():
    """A Functional tower used twice with a model nested two deep (graphs.py)."""
    return graphs.siamese()


MODELS = {f.__name__: f for f in (mlp, cnn, two_in_two_out, shared_layers, nested, frozen_bn,
                                  rnn, mha, list_output, long_name, trained_mlp, graph, siamese)}

# case: (model, columns, summary kwargs). COLUMNS 80 is what a log file or a pipe gets; 200 a
# wide terminal, where Keras's own default widths (88, 108, +12) apply.
CASES = {
    "mlp": ("mlp", 80, {}),
    "mlp_wide": ("mlp", 200, {}),
    "cnn": ("cnn", 80, {}),
    "two_in_two_out": ("two_in_two_out", 80, {}),
    "two_in_two_out_wide": ("two_in_two_out", 200, {}),
    "shared_layers": ("shared_layers", 200, {}),
    "nested": ("nested", 80, {}),
    "nested_expand": ("nested", 80, {"expand_nested": True}),
    "nested_trainable": ("nested", 200, {"show_trainable": True}),
    "nested_expand_trainable": ("nested", 200, {"expand_nested": True, "show_trainable": True}),
    "frozen_bn": ("frozen_bn", 80, {}),
    "frozen_bn_trainable": ("frozen_bn", 80, {"show_trainable": True}),
    "rnn": ("rnn", 80, {}),
    "mha": ("mha", 200, {}),
    "list_output": ("list_output", 80, {}),
    "list_output_wide": ("list_output", 200, {}),
    "long_name": ("long_name", 80, {}),
    "trained_mlp": ("trained_mlp", 80, {}),
    "graph": ("graph", 200, {}),
    "graph_expand": ("graph", 200, {"expand_nested": True}),
    "siamese_expand": ("siamese", 200, {"expand_nested": True}),
}


def summaries():
    out = {}
    for name, make in MODELS.items():
        keras.backend.clear_session()
        keras.utils.set_random_seed(0)
        model = make()
        model.save(model_path(name))
        loaded = keras.saving.load_model(model_path(name))
        for case, (model_name, columns, kwargs) in CASES.items():
            if model_name != name:
                continue
            text = summary_text(loaded, columns, **kwargs)
            original = summary_text(model, columns, **kwargs)
            if text != original:
                print(f"note: {case}: the reloaded model prints differently from the original")
            out[case] = {"model": name, "text": text, "columns": columns,
                         "expand_nested": kwargs.get("expand_nested", False),
                         "show_trainable": kwargs.get("show_trainable", False)}
    return out


# ---- fit(verbose=2) -----------------------------------------------------------------------


def fit_verbose2():
    keras.backend.clear_session()
    keras.utils.set_random_seed(1)
    rng = np.random.default_rng(1)
    x = rng.normal(size=(12, 8)).round(3)
    y = rng.normal(size=(12, 4)).round(3)
    vx = rng.normal(size=(4, 8)).round(3)
    vy = rng.normal(size=(4, 4)).round(3)
    model = mlp()
    model.name = "fit_mlp"
    model.save(model_path("fit_mlp"))  # the weights before training
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        model.fit(x.astype("float32"), y.astype("float32"), batch_size=4, epochs=2,
                  shuffle=False, verbose=2,
                  validation_data=(vx.astype("float32"), vy.astype("float32")))
    return {"stdout": stdout.getvalue(), "x": x.tolist(), "y": y.tolist(),
            "val_x": vx.tolist(), "val_y": vy.tolist(), "batch_size": 4, "epochs": 2,
            "learning_rate": 0.05, "model": "fit_mlp",
            # Progbar's time fields, masked on both sides: "<elapsed>s" and "<per step>/step".
            "time_mask": [r" - \d+s - \d+(us|ms|s)/step", " - <t>s - <t>/step"]}


# ---- errors -------------------------------------------------------------------------------


def caught(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (recording whatever Keras raises is the point)
        return {"type": type(e).__name__, "message": str(e)}
    return {"type": None, "message": "(no exception)"}


class Subclassed(keras.Model):
    def __init__(self):
        super().__init__(name="subclassed")
        self.hidden = layers.Dense(4)
        self.out = layers.Dense(2)

    def call(self, x):
        return self.out(self.hidden(x))


def errors():
    out = {}
    keras.backend.clear_session()
    model = keras.saving.load_model(model_path("mlp"))  # Input (None, 8)
    bad = np.zeros((2, 5), "float32")
    out["wrong_input_shape_predict"] = caught(lambda: model.predict(bad, verbose=0))
    out["wrong_input_shape_predict"]["facts"] = ["dense", "(2, 5)", "8", "expected"]
    functional = keras.saving.load_model(model_path("two_in_two_out"))
    out["wrong_input_shape_functional"] = caught(
        lambda: functional.predict([np.zeros((2, 4)), np.zeros((2, 7))], verbose=0))
    # Keras checks no Input layer's shape: the concatenation fails in "hidden".
    out["wrong_input_shape_functional"]["facts"] = ["hidden", "(2, 11)", "10", "incompatible"]

    # A subclassed model before its first call: Keras builds it on the first predict/fit, but
    # count_params() (and summary's counts) need the weights.
    sub = Subclassed()
    out["unbuilt_subclassed_count_params"] = caught(sub.count_params)
    out["unbuilt_subclassed_count_params"]["facts"] = ["count_params", "subclassed", "built"]
    sub2 = Subclassed()
    out["unbuilt_subclassed_predict"] = caught(
        lambda: sub2.predict(np.zeros((3, 5), "float32"), verbose=0))
    out["unbuilt_subclassed_predict"]["facts"] = []

    # compile() without a loss: Keras 3.15 trains with a loss of 0 and raises nothing; fit()
    # without compile() at all raises.
    nolos = keras.saving.load_model(model_path("mlp"))
    nolos.compile(optimizer="sgd")
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        out["fit_without_loss"] = caught(
            lambda: nolos.fit(np.zeros((4, 8)), np.zeros((4, 4)), verbose=2))
    out["fit_without_loss"]["stdout"] = stdout.getvalue()
    out["fit_without_loss"]["facts"] = []
    uncompiled = keras.saving.load_model(model_path("mlp"))
    out["fit_without_compile"] = caught(
        lambda: uncompiled.fit(np.zeros((4, 8)), np.zeros((4, 4)), verbose=0))
    out["fit_without_compile"]["facts"] = ["compile"]

    # A .keras holding a custom layer that the loading program has not registered.
    @keras.saving.register_keras_serializable(package="my_package")
    class Scale(layers.Layer):
        def call(self, x):
            return 2.0 * x

    x = keras.Input((4,), name="x")
    keras.Model(x, Scale(name="scale")(layers.Dense(4, name="dense")(x)),
                name="custom").save(model_path("unknown_layer"))
    del keras.saving.get_custom_objects()["my_package>Scale"]
    out["unknown_layer"] = caught(lambda: keras.saving.load_model(model_path("unknown_layer")))
    out["unknown_layer"]["facts"] = ["Scale", "register_keras_serializable"]

    # Weights of another architecture: the cnn's weights into the mlp.
    with tempfile.TemporaryDirectory() as tmp:
        weights = os.path.join(tmp, "cnn.weights.h5")
        keras.saving.load_model(model_path("cnn")).save_weights(weights)
        with open(weights, "rb") as f, open(os.path.join(OUT, "cnn.weights.h5"), "wb") as g:
            g.write(f.read())
    target = keras.saving.load_model(model_path("mlp"))
    out["mismatched_weights"] = caught(
        lambda: target.load_weights(os.path.join(OUT, "cnn.weights.h5")))
    out["mismatched_weights"]["facts"] = ["dense", "(8, 16)", "(36, 4)"]
    return out


# Known differences of keras-cpp, {section: {case: reason}}: the C++ test prints these cases
# with both texts and does not compare them (every one is reported as a finding).
KERAS_CPP_DIFFERS = {
    "summaries": {
        "trained_mlp": "optimizer memory: keras-cpp's iterations variable is int64, Keras "
                       "3.15's int32, so 'Total params: 638 (2.50 KB)' and 'Optimizer params: "
                       "426 (1.67 KB)' against Keras's 2.49 KB and 1.66 KB",
    },
    "errors": {
        "fit_without_loss": "Keras on JAX trains with a loss of 0 (trainer.py skips its 'No loss "
                            "to compute' check for jax only); keras-cpp raises ValueError 'No "
                            "loss to compute. Provide a `loss` argument in compile()', as Keras "
                            "does on the TensorFlow and torch backends",
        "wrong_input_shape_functional": "keras-cpp checks every Input's shape and names it "
                                        "(\"input 1 ('extra') has shape (2, 7) but the model "
                                        "expects (None, 6)\"); Keras checks no Input and "
                                        "fails later, in 'hidden', on the concatenation",
    },
}
# Cases where only the exception type differs: the facts are still checked.
KERAS_CPP_TYPE_DIFFERS = {
    "unknown_layer": "keras-cpp throws ValueError; Keras TypeError (from_config's wrapper)",
}


def main():
    os.makedirs(OUT, exist_ok=True)
    value = {"summaries": summaries(), "fit_verbose2": fit_verbose2(), "errors": errors()}
    for section, cases in KERAS_CPP_DIFFERS.items():
        for case, reason in cases.items():
            value[section][case]["keras_cpp_differs"] = reason
    for case, reason in KERAS_CPP_TYPE_DIFFERS.items():
        value["errors"][case]["keras_cpp_type_differs"] = reason
    path = os.path.join(OUT, "summaries.json")
    with open(path, "w") as f:
        json.dump(value, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    print(f"{os.path.relpath(path, oracle.ROOT)}: {len(value['summaries'])} summaries, "
          f"{len(value['errors'])} errors")


if __name__ == "__main__":
    main()
