"""One .keras file per layer class, saved by Keras 3.15, for tests/oracle/layer_files_test.cpp
(Keras -> keras-cpp) and the live round trip (tools/interop/layer_files.cpp, interop.py:
keras-cpp saves each file again and Keras loads it with safe_mode=True and no warning).

For every layer class of layers.py (all the classes keras-cpp registers, the cases of
src/layers/builtin_layers.cpp) one of its cases is taken: the layer as layers.py configures it
(seeded, non-default configuration) and inputs of its shapes. The file is a Functional model
keras.Input(s) of the case's input shapes without the batch axis -> the layer -> its output(s)
(layers called with a list take one Input per list item; MultiHeadAttention and
GroupQueryAttention are called as layer(query, value(, key)) with the case's call arguments;
several outputs are the model's flat list of outputs, StackedRNNCells' nested states
flattened).
Every weight gets seeded random values (layers.default_weight: variances positive, counts 7),
then Normalization's finalize_state, as loading a file does. Written:
    tests/oracle/fixtures/layer_files/<ClassName>.keras   (model.save; Keras's class name)
    tests/oracle/fixtures/layer_files.npz   one case per class, op "predict_keras":
        inputs     the case's call inputs (batch of 2-5)
        outputs    Keras's model.predict, one per model output
        kwargs     file=<ClassName>, source=<layers.py case>, covers=[classes exercised],
                   rtol = atol = 1e-5 (layers.py's tolerance), and keras_cpp_differs="<what
                   fails>" for a case keras-cpp does not pass yet (none at the moment).
Which case per class: the first of layers.py (family order) whose "covers" names the class and
that has no mask input (masks are in layers.py and graphs.py) and no keras_cpp_differs, with
PREFERRED overriding (a case whose weights are in the file rather than in its config); cells
(LSTMCell, GRUCell, SimpleRNNCell, StackedRNNCells) are saved inside their RNN, Bidirectional and
TimeDistributed with their inner layer. Beyond layers.py: "Sequential" (a Sequential model saved
as is), "Functional" (a Functional model nested in one) and "InputLayer" (a model whose output is
its input).

Random layers (Dropout family, GaussianNoise, Random* augmentations) are inference-time
identities in predict, as in layers.py. Each file is loaded back by Keras itself (safe_mode=True,
no warning, log record or printed text) and must predict the same before it is written.

Skipped classes: none. Aliases (AvgPool1D, Convolution2D, GroupedQueryAttention, Model, ...) are
the same classes and get no file of their own.

Run: ./scripts/oracle.sh layer_files (or, with the interop venv:
KERAS_HOME=.cache/keras-home .cache/interop-venv/bin/python tools/keras_oracle/layer_files.py)
"""

import os
import shutil
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend, x64)

import keras  # noqa: E402
import numpy as np  # noqa: E402

import interop  # noqa: E402  (strict(): no warning, log record or print)
import layers  # noqa: E402  (the layer cases)

L = keras.layers
FILES_DIR = os.path.join(oracle.ORACLE_DIR, "layer_files")
TOL = dict(rtol=1e-5, atol=1e-5)
# Class -> layers.py case, where the first case is not the one to save.
PREFERRED = {"Normalization": "normalization_weights_invert"}
# Classes no file is written for, with the reason (printed).
SKIPPED = {}
MAX_TOTAL_BYTES = 2_000_000


class Case:
    """A layers.py case as recorded (the layer is made at once: the family loops' lambdas bind
    their loop variables late)."""

    def __init__(self, name, layer, inputs, kwargs):
        self.name = name
        self.layer = layer
        self.inputs = [np.asarray(x) for x in inputs]
        self.kwargs = kwargs
        self.covers = kwargs.get("covers") or [
            keras.saving.serialize_keras_object(layer)["class_name"]]


def record_cases(fx):
    """Every case of layers.py's families, without computing them."""
    cases = []

    def record(fx_, name, make, inputs, **kwargs):
        cases.append(Case(name, make(), inputs, kwargs))

    original = layers.layer_case
    layers.layer_case = record
    try:
        with warnings.catch_warnings():  # LayerNormalization(rms_scaling=True) is deprecated
            warnings.simplefilter("ignore")
            for family in layers.FAMILIES:
                family(fx)
    finally:
        layers.layer_case = original
    return cases


def choose(cases):
    """{class name: case}, one case per class that layers.py covers."""
    usable = [c for c in cases if not c.kwargs.get("mask") and "keras_cpp_differs" not in c.kwargs]
    by_name = {c.name: c for c in cases}
    chosen = {}
    for c in cases:
        for cls in c.covers:
            if cls in chosen or cls in SKIPPED:
                continue
            if cls in PREFERRED:
                chosen[cls] = by_name[PREFERRED[cls]]
                continue
            candidates = [u for u in usable if cls in u.covers]
            if not candidates:
                SKIPPED[cls] = "every layers.py case of it has a mask input or keras_cpp_differs"
                continue
            # A case not chosen yet, so that RNN and its cells are different files.
            taken = {id(t) for t in chosen.values()}
            chosen[cls] = next((u for u in candidates if id(u) not in taken), candidates[0])
    return chosen


def call_layer(case, ins):
    """A fresh copy of the case's layer (from its record) called on the model's Inputs as the
    case calls it on tensors."""
    layer = keras.saving.deserialize_keras_object(keras.saving.serialize_keras_object(case.layer))
    kw = case.kwargs
    call_args = kw.get("call_args", {})
    if isinstance(layer, (L.MultiHeadAttention, L.GroupQueryAttention)):
        return layer(*ins, **call_args)
    if kw.get("list_call"):
        return layer(ins, **call_args)
    return layer(ins[0], **call_args)


def functional_around(case):
    ins = [keras.Input(shape=x.shape[1:], dtype=str(x.dtype), name=f"input_{i}")
           for i, x in enumerate(case.inputs)]
    # Nested outputs (StackedRNNCells' states, cell by cell) flattened, as layers.py orders them.
    outs = keras.tree.flatten(call_layer(case, ins))
    outs = outs if len(outs) > 1 else outs[0]
    return keras.Model(ins if len(ins) > 1 else ins[0], outs, name="layer_file")


def extra_models(fx):
    """Files for the classes that are models or are in every model: (class, model, inputs)."""
    seq = keras.Sequential([keras.Input((4,), name="input_0"),
                            L.Dense(3, activation="tanh", name="dense"),
                            L.Dense(2, name="head")], name="sequential")
    inner_in = keras.Input((4,), name="inner_input")
    inner = keras.Model(inner_in, L.Dense(3, activation="relu", name="inner_dense")(inner_in),
                        name="inner")
    x = keras.Input((4,), name="input_0")
    nested = keras.Model(x, L.Dense(2, name="head")(inner(x)), name="layer_file")
    y = keras.Input((3, 2), name="input_0")
    identity = keras.Model(y, y, name="layer_file")
    return [("Sequential", seq, [fx.randn(3, 4)]),
            ("Functional", nested, [fx.randn(3, 4)]),
            ("InputLayer", identity, [fx.randn(2, 3, 2)])]


def randomize(model, rng):
    """Seeded values for every weight (layers.default_weight), then finalize_state."""
    weights = [layers.default_weight(rng, v) for v in model.weights]
    model.set_weights(weights)
    for layer in model._flatten_layers():
        if hasattr(layer, "finalize_state"):
            layer.finalize_state()


def as_list(y):
    return [np.asarray(t) for t in (y if isinstance(y, (list, tuple)) else [y])]


def predict(model, inputs):
    return as_list(model.predict(inputs if len(inputs) > 1 else inputs[0], verbose=0))


def save_and_check(cls, model, inputs):
    """Saves <cls>.keras and returns Keras's predictions, after checking that Keras loads the
    file (safe_mode, quietly) and predicts the same."""
    outputs = predict(model, inputs)
    path = os.path.join(FILES_DIR, cls + ".keras")
    model.save(path)
    with interop.strict(f"{cls}: load_model"):
        again = keras.saving.load_model(path, safe_mode=True)
    for i, (a, b) in enumerate(zip(predict(again, inputs), outputs)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6,
                                   err_msg=f"{cls}: the reloaded file predicts otherwise ({i})")
    return outputs


def main():
    shutil.rmtree(FILES_DIR, ignore_errors=True)
    os.makedirs(FILES_DIR)
    fx = oracle.Fixture("layer_files", seed=300)
    keras.backend.clear_session()
    keras.utils.set_random_seed(300)
    cases = record_cases(fx)
    chosen = choose(cases)
    for cls, case in sorted(chosen.items()):
        model = functional_around(case)
        randomize(model, fx.rng)
        outputs = save_and_check(cls, model, case.inputs)
        fx.case(cls, "predict_keras", case.inputs, outputs, file=cls, source=case.name,
                covers=case.covers, **TOL)
    for cls, model, inputs in extra_models(fx):
        randomize(model, fx.rng)
        outputs = save_and_check(cls, model, inputs)
        fx.case(cls, "predict_keras", inputs, outputs, file=cls, source="layer_files.py",
                covers=[cls], **TOL)
    fx.save()
    total = 0
    for name in sorted(os.listdir(FILES_DIR)):
        size = os.path.getsize(os.path.join(FILES_DIR, name))
        total += size
        print(f"  layer_files/{name}: {size} bytes")
    npz = os.path.getsize(os.path.join(oracle.ORACLE_DIR, "layer_files.npz"))
    print(f"{len(os.listdir(FILES_DIR))} files, {total} bytes; layer_files.npz {npz} bytes")
    assert total + npz < MAX_TOTAL_BYTES, "layer files too large"
    for cls, why in sorted(SKIPPED.items()):
        print(f"  skipped {cls}: {why}")


if __name__ == "__main__":
    main()
