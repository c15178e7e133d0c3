"""Loads in Keras 3.15 the files keras-cpp wrote (tools/interop/interop_models.cpp) and checks
them against what keras-cpp computed. Run by scripts/interop.sh: interop.py OUT_DIR.

For each entry of OUT_DIR/manifest.json (models built in C++, "cpp_<kind>", and Keras's own
fixture files saved again by keras-cpp, "py_<kind>" and "py_graph_<kind>" (graphs.py) and
"py_layer_<Class>" (layer_files.py, kind "layer:<Class>"; conv_lstm.py, kind
"layer:conv_lstm_files/<Class>"), tf_keras's legacy .h5 fixtures
converted to .keras by keras-cpp, "legacy_<file>", models with LoRA enabled built in C++ or
saved by Keras, "cpp_lora_<kind>" and "py_lora_<kind>" (lora.py's builders, LoRA enabled in
Keras's own build too: its load_own_variables assigns the merged kernel, zeroes the adapters),
and the float models of quantize.py quantized by keras-cpp's Model::quantize("int8"),
"cpp_quantized_<case>" (kind "quantize:<case>": Keras's own quantized file of the case, zeroed,
receives the weights), int4 the same way, "cpp_int4_<case>_<setting>" (quantize_int4.py,
kind "quantize_int4:<case>_<setting>"), and quantize_float8.py's float8 models after one epoch
of Adam in keras-cpp, "cpp_float8_<case>" (kind "quantize_float8:<case>", the same way, then resumed),
and gptq_awq.py's float models calibrated by keras-cpp with GPTQ/AWQ, "cpp_<mode>_<model>_<setting>"
(kind "gptq_awq:<setting>": Keras builds the model from its own quantized file's config, since
Keras 3.15.1 cannot load the weights it writes for these layers), and complex_scale.py's model
with complex64 and complex128 weights, built in C++ ("cpp_complex_scale") or saved by Keras
("py_complex_scale")):
  load     keras.saving.load_model(NAME.keras, safe_mode=True) with no warning, no log record
           of level WARNING or above and nothing printed (Keras reports unknown or unused keys
           and "Skipping variable loading" that way);
  predict  Keras's predictions on NAME.in<i>.npy equal keras-cpp's NAME.out<i>.npy
           (float32: rtol 1e-5, atol 1e-6, a different summation order);
  weights  NAME.weights.h5 loads (same rules) into Keras's own build of the same architecture
           (models.py or graphs.py; a compiled one with its optimizer built; for "layer:<Class>"
           Keras's load_model of tests/oracle/fixtures/layer_files/<Class>.keras with every
           weight zeroed) and predicts the same;
  resume   for a compiled model: two train_on_batch steps of the loaded model, then the same
           iteration count and predictions as keras-cpp after the same steps (rtol 1e-4: an Adam
           step divides by sqrt(v) and amplifies rounding); and, as a separate check, the two
           losses train_on_batch returned.
Prints one line per check and "N passed, N failed"; exits 1 on any failure.
"""

import contextlib
import io
import json
import logging
import os
import sys
import traceback
import warnings
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402,F401  (Keras on JAX, x64)

import keras  # noqa: E402
import numpy as np  # noqa: E402

import graphs  # noqa: E402  (the Functional graph architectures)
import lora  # noqa: E402  (the models with LoRA enabled)
import models  # noqa: E402  (the architectures, and registers "oracle>ScaleShift")
from complex_scale import complex_scale  # noqa: E402  (registers "oracle>ComplexScale")

PREDICT_TOL = dict(rtol=1e-5, atol=1e-6)
TRAIN_TOL = dict(rtol=1e-4, atol=1e-5)


def legacy_sequential_adam():
    """Keras 3's build of tools/keras_oracle/legacy_h5.py's Sequential (compiled there)."""
    model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(3, activation="softmax")])
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def legacy_functional():
    """Keras 3's build of legacy_h5.py's two-input Functional model."""
    a, b = keras.Input((4,)), keras.Input((3,))
    h = keras.layers.Concatenate()([keras.layers.Dense(5, activation="tanh")(a),
                                    keras.layers.Dense(5)(b)])
    return keras.Model([a, b], keras.layers.Dense(2)(keras.layers.BatchNormalization()(h)))


ARCHITECTURES = {"complex_scale": complex_scale,
                 "legacy_sequential_adam": legacy_sequential_adam,
                 "legacy_functional": legacy_functional}


def layer_file_model(cls):
    """Keras's build of layer_files.py's model for a layer class ("<Class>"; "<set>/<Class>" for
    another set, conv_lstm_files of conv_lstm.py): its own file, every weight zeroed, so that
    the predictions can only come from the .weights.h5 loaded into it."""
    folder, _, cls = cls.rpartition("/")
    model = keras.saving.load_model(os.path.join(oracle.ORACLE_DIR, folder or "layer_files",
                                                 cls + ".keras"))
    model.set_weights([np.zeros(v.shape, v.dtype) for v in model.weights])
    return model


def quantized_model(case, folder="quantize"):
    """Keras's own quantization of a quantize.py case (its saved file; quantize_int4.py's
    "<case>_<setting>" for int4), every weight zeroed, so that the predictions can only come
    from keras-cpp's .weights.h5."""
    stem = case + "_int8" if folder == "quantize" else case
    model = keras.saving.load_model(os.path.join(oracle.ORACLE_DIR, folder, stem + ".keras"))
    model.set_weights([np.zeros(v.shape, v.dtype) for v in model.weights])
    return model


def calibrated_model(setting):
    """Keras's build of a gptq_awq.py setting's quantized model from its saved config (Keras
    3.15.1 cannot load the weights it wrote there), every weight zeroed."""
    path = os.path.join(oracle.ORACLE_DIR, "gptq_awq", setting + ".keras")
    with zipfile.ZipFile(path) as z:
        config = json.loads(z.read("config.json"))
    model = keras.saving.deserialize_keras_object(config)
    model.set_weights([np.zeros(v.shape, v.dtype) for v in model.weights])
    return model


def architecture(kind):
    """A function building Keras's own model of a manifest entry's kind."""
    if kind.startswith("layer:"):
        return lambda: layer_file_model(kind[len("layer:"):])
    if kind.startswith("quantize:"):
        return lambda: quantized_model(kind[len("quantize:"):])
    if kind.startswith("quantize_int4:"):
        return lambda: quantized_model(kind[len("quantize_int4:"):], "quantize_int4")
    if kind.startswith("gptq_awq:"):
        return lambda: calibrated_model(kind[len("gptq_awq:"):])
    if kind.startswith("quantize_float8:"):
        return lambda: quantized_model(kind[len("quantize_float8:"):] + "_float8",
                                       "quantize_float8")
    return (ARCHITECTURES.get(kind) or getattr(models, kind, None)
            or getattr(lora, kind, None) or getattr(graphs, kind))


class Failed(Exception):
    pass


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(f"log {record.name}: {record.getMessage()}")


@contextlib.contextmanager
def strict(what):
    """Runs the block and fails on any warning, WARNING log record or printed text."""
    handler = _Records()
    root = logging.getLogger()
    root.addHandler(handler)
    out = io.StringIO()
    try:
        # record=True rather than simplefilter("error"): a warning raised as an exception inside
        # a Keras try/except could be swallowed; recorded, every one is seen.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with contextlib.redirect_stdout(out):
                yield
    finally:
        root.removeHandler(handler)
    problems = [f"{w.category.__name__}: {w.message}" for w in caught] + handler.messages
    if out.getvalue().strip():
        problems.append("printed: " + out.getvalue().strip())
    if problems:
        raise Failed(f"{what}: " + " | ".join(problems))


def compare(what, actual, expected, rtol, atol):
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    if actual.shape != expected.shape:
        raise Failed(f"{what}: shape {actual.shape}, keras-cpp {expected.shape}")
    diff = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
    worst = float(diff.max()) if diff.size else 0.0
    if not np.allclose(actual, expected, rtol=rtol, atol=atol):
        raise Failed(f"{what}: max |diff| {worst:.3g} beyond rtol {rtol} atol {atol}\n"
                     f"      keras:     {actual.ravel()[:6]}\n      keras-cpp: {expected.ravel()[:6]}")
    return worst


def as_list(y):
    """The outputs flat, in order (keras-cpp gives nested outputs as a flat list)."""
    return keras.tree.flatten(y)


class Run:
    def __init__(self, out_dir):
        self.dir = out_dir
        self.passed = 0
        self.failed = 0

    def npy(self, name):
        return np.load(os.path.join(self.dir, name + ".npy"))

    def check(self, label, fn):
        try:
            detail = fn()
            self.passed += 1
            print(f"PASS {label}" + (f" ({detail})" if detail else ""))
        except Failed as e:
            self.failed += 1
            print(f"FAIL {label}: {e}")
        except Exception as e:  # noqa: BLE001: any Keras error is a failed check
            self.failed += 1
            last = traceback.extract_tb(e.__traceback__)[-1]
            print(f"FAIL {label}: {type(e).__name__}: {e} (at {last.filename}:{last.lineno})")

    def predictions_match(self, model, entry):
        name = entry["name"]
        inputs = [self.npy(f"{name}.in{i}") for i in range(entry["inputs"])]
        got = as_list(model.predict(inputs if len(inputs) > 1 else inputs[0], verbose=0))
        if len(got) != entry["outputs"]:
            raise Failed(f"{len(got)} outputs, keras-cpp wrote {entry['outputs']}")
        expected = [self.npy(f"{name}.out{i}") for i in range(len(got))]
        tolerances = [PREDICT_TOL] * len(got)
        if entry["kind"].startswith("gptq_awq:"):
            # Logits up to ~20 from kernels Keras and keras-cpp dequantize in another float32
            # order (XLA divides by the AWQ scales as a reciprocal product): 2e-6 of the range.
            tolerances = [dict(PREDICT_TOL, atol=2e-6 * float(np.abs(e).max())) for e in expected]
        worst = max(compare(f"output {i}", got[i], expected[i], **tolerances[i])
                    for i in range(len(got)))
        return f"max |diff| {worst:.2g}"

    def entry(self, entry):
        name, kind = entry["name"], entry["kind"]
        path = os.path.join(self.dir, name)
        loaded = {}

        def load():
            keras.backend.clear_session()
            with strict("load_model"):
                loaded["model"] = keras.saving.load_model(path + ".keras", safe_mode=True)
            if entry["resume"] and getattr(loaded["model"], "optimizer", None) is None:
                raise Failed("the model is not compiled after loading")

        self.check(f"{name}: load {name}.keras", load)
        if "model" not in loaded:
            return
        self.check(f"{name}: predict", lambda: self.predictions_match(loaded["model"], entry))

        def weights():
            keras.backend.clear_session()
            model = architecture(kind)()
            if getattr(model, "optimizer", None) is not None:  # so that the file's optimizer variables load
                model.optimizer.build(model.trainable_variables)
            with strict("load_weights"):
                model.load_weights(path + ".weights.h5")
            return self.predictions_match(model, entry)

        self.check(f"{name}: load_weights {name}.weights.h5 into Keras's {kind}", weights)
        if entry["resume"]:
            trained = {}
            self.check(f"{name}: resume training: two train_on_batch steps, then predict",
                       lambda: self.resume(loaded["model"], entry, trained))
            if "losses" in trained:
                self.check(f"{name}: resume training: the two train_on_batch losses",
                           lambda: self.losses(trained["losses"], entry))

    def resume(self, model, entry, trained):
        """Weights and optimizer state after two steps: what the file restored drives them."""
        name = entry["name"]
        x1, y1, x2, y2, probe = (self.npy(f"{name}.{k}") for k in ("x1", "y1", "x2", "y2", "probe"))
        trained["losses"] = np.float32([model.train_on_batch(x1, y1, return_dict=True)["loss"],
                                        model.train_on_batch(x2, y2, return_dict=True)["loss"]])
        iterations = int(model.optimizer.iterations.numpy())
        if iterations != entry["iterations"]:
            raise Failed(f"optimizer.iterations {iterations}, keras-cpp {entry['iterations']}")
        after = compare("predictions after", model.predict(probe, verbose=0),
                        self.npy(f"{name}.after"), **TRAIN_TOL)
        return f"iterations {iterations}, max |diff| {after:.2g}"

    def losses(self, keras_losses, entry):
        cpp = self.npy(f"{entry['name']}.losses")
        try:
            worst = compare("losses", keras_losses, cpp, **TRAIN_TOL)
        except Failed as e:
            # Keras 3's train_on_batch resets the metrics first, so each loss is that batch's
            # alone. A running mean over n earlier batches gives cpp1 = (n cpp0 + keras1) / (n+1).
            n = (keras_losses[1] - cpp[1]) / (cpp[1] - cpp[0]) if cpp[1] != cpp[0] else 0
            if n > 0.5 and abs(n - round(n)) < 0.01:
                raise Failed(f"{e}\n      keras-cpp's second loss is the mean of Keras's second "
                             f"and {round(n)} earlier batch losses: keras-cpp's train_on_batch "
                             "does not reset the metrics (loss tracker) first, as Keras 3's "
                             "does") from None
            raise
        return f"losses {keras_losses}, max |diff| {worst:.2g}"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: interop.py OUT_DIR (written by interop_models)")
    run = Run(sys.argv[1])
    with open(os.path.join(run.dir, "manifest.json")) as f:
        entries = json.load(f)
    for entry in entries:
        run.entry(entry)
    print(f"{run.passed} passed, {run.failed} failed")
    sys.exit(1 if run.failed else 0)


if __name__ == "__main__":
    main()
