"""Functional models with string Inputs, saved by real Keras 3.15, for
tests/models/string_graphs_test.cpp: keras-cpp loads each file, predicts on the same strings and
compares with Keras's predictions. JAX arrays hold no strings, so Keras's predictions come from
each saved file loaded again by Keras on the TensorFlow backend (a subprocess: the backend is
chosen at import), as a Keras user serves such a model.

Written to tests/oracle/fixtures/string_graphs/*.keras and string_graphs.json:
  {name: {"inputs": {input name: nested lists of strings or numbers},
          "outputs": [nested lists: numbers, or strings for a StringLookup(invert) output],
          "output_shapes": [Keras's model.outputs shapes, null for None],
          "input_dtypes": [...], "output_dtypes": [...]}}

Run: ./scripts/oracle.sh string_graphs
"""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import keras  # noqa: E402
import numpy as np  # noqa: E402

L = keras.layers
OUT_DIR = os.path.join(oracle.ORACLE_DIR, "string_graphs")
os.makedirs(OUT_DIR, exist_ok=True)

CORPUS = [
    "The cat sat on the mat.",
    "A dog ran in the park!",
    "the cat and the dog",
    "Rain, rain: go away; come again another day",
    "Keras models read strings",
    "dogs and cats and mats",
]
PROBE = ["the cat ran", "An unseen sentence, with PUNCTUATION!", "", "dog dog dog dog dog dog dog dog dog",
         "Ünïcode wörds stay whole"]


def plain(a):
    """JSON form of an output: numbers, or decoded strings."""
    a = np.asarray(a)
    if a.dtype.kind in "SOU":
        return np.vectorize(lambda v: v.decode() if isinstance(v, bytes) else str(v),
                            otypes=[object])(a).tolist()
    return a.tolist()


def record(name, model, inputs):
    """Saves `model`; its predictions on `inputs` (a dict by input name) come later."""
    path = os.path.join(OUT_DIR, name + ".keras")
    model.save(path)
    return {
        "inputs": {k: plain(v) for k, v in inputs.items()},
        "input_names": [t.name for t in model.inputs],
        "input_dtypes": [str(t.dtype) for t in model.inputs],
        "output_shapes": [list(t.shape) for t in model.outputs],
        "output_dtypes": [str(t.dtype) for t in model.outputs],
    }


PREDICT = """
import json, os, sys
os.environ["KERAS_BACKEND"] = "tensorflow"
import keras, numpy as np, tensorflow as tf
sys.path.insert(0, sys.argv[2])
import text_functions  # noqa: F401  (registers the custom steps of "custom_steps")
cases = json.load(sys.stdin)
out = {}
for name, case in cases.items():
    model = keras.saving.load_model(os.path.join(sys.argv[1], name + ".keras"))
    feed = [tf.constant(case["inputs"][n], dtype=d)
            for n, d in zip(case["input_names"], case["input_dtypes"])]
    ys = model.predict(feed if len(feed) > 1 else feed[0], verbose=0)
    ys = ys if isinstance(ys, (list, tuple)) else [ys]
    out[name] = [np.asarray(y).tolist() if np.asarray(y).dtype.kind not in "SOU" else
                 np.vectorize(lambda v: v.decode() if isinstance(v, bytes) else str(v),
                              otypes=[object])(np.asarray(y)).tolist() for y in ys]
# The text classifier trained end to end on strings (SGD, batches of 2 in order, 3 epochs):
# the loss per epoch and the predictions after.
case = cases["text_classifier"]
model = keras.saving.load_model(os.path.join(sys.argv[1], "text_classifier.keras"))
model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.5),
              loss="sparse_categorical_crossentropy")
x = tf.constant(case["inputs"]["text"])
y = np.array(case["train_labels"])
history = model.fit(x, y, batch_size=2, epochs=3, shuffle=False, verbose=0)
out["text_classifier_trained"] = {"loss": history.history["loss"],
                                  "predictions": model.predict(x, verbose=0).tolist()}
json.dump(out, sys.stdout)  # NaN (an all-masked average) as NaN: fixed by the parent
"""


def without_nan(v):
    """JSON has no NaN: null stands for it (the tests read null as NaN)."""
    if isinstance(v, list):
        return [without_nan(x) for x in v]
    return None if isinstance(v, float) and v != v else v


def predict_with_tensorflow(cases):
    """Keras's predictions of every saved model, by Keras on the TensorFlow backend."""
    here = os.path.dirname(os.path.abspath(__file__))
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", PREDICT, OUT_DIR, here],
                          input=json.dumps(cases), capture_output=True, text=True)
    if done.returncode:
        sys.exit("Keras on TensorFlow failed:\n" + done.stderr[-3000:])
    results = json.loads(done.stdout)
    cases["text_classifier"]["trained"] = results.pop("text_classifier_trained")
    for name, ys in results.items():
        cases[name]["outputs"] = without_nan(ys)
    return cases


def text_classifier():
    # The end-to-end model of Keras's text classification guide: raw text in, classes out.
    keras.utils.set_random_seed(1)
    vectorize = L.TextVectorization(max_tokens=30, output_sequence_length=8)
    vectorize.adapt(np.array(CORPUS))
    text = keras.Input(shape=(1,), dtype="string", name="text")
    x = vectorize(text)
    x = L.Embedding(30, 4)(x)
    x = L.GlobalAveragePooling1D()(x)
    out = L.Dense(3, activation="softmax")(x)
    case = record("text_classifier", keras.Model(text, out), {"text": [[p] for p in PROBE]})
    case["train_labels"] = [0, 2, 1, 1, 0]
    return case


def ragged_tokens():
    # int mode without output_sequence_length: the token axis is None, as long as the longest
    # document of the batch; mask_zero hides the padding from the pooling.
    keras.utils.set_random_seed(2)
    vectorize = L.TextVectorization(max_tokens=40, standardize="lower_and_strip_punctuation")
    vectorize.adapt(np.array(CORPUS))
    text = keras.Input(shape=(), dtype="string", name="sentence")
    x = L.Embedding(40, 5, mask_zero=True)(vectorize(text))
    x = L.GlobalAveragePooling1D()(x)
    out = L.Dense(2)(x)
    return record("ragged_tokens", keras.Model(text, out), {"sentence": PROBE})


def multi_input():
    # Two string features and a number: a one-hot StringLookup, a Hashing one-hot, their
    # HashedCrossing, and the number, concatenated into a Dense.
    keras.utils.set_random_seed(3)
    city = keras.Input(shape=(1,), dtype="string", name="city")
    tag = keras.Input(shape=(1,), dtype="string", name="tag")
    age = keras.Input(shape=(1,), dtype="float32", name="age")
    city_hot = L.StringLookup(vocabulary=["paris", "tokyo", "lima"], output_mode="one_hot")(city)
    tag_hot = L.Hashing(num_bins=6, output_mode="one_hot")(tag)
    crossed = L.HashedCrossing(num_bins=7, output_mode="one_hot")([city, tag])
    x = L.Concatenate()([city_hot, tag_hot, crossed, age])
    out = L.Dense(2, name="score")(x)
    model = keras.Model([city, tag, age], out)
    inputs = {"city": [["paris"], ["lima"], ["oslo"], ["tokyo"]],
              "tag": [["a"], ["b"], ["a"], ["zz top"]],
              "age": [[31.0], [5.5], [70.0], [0.0]]}
    return record("multi_input", model, inputs)


def invert_output():
    # Numbers in, strings out: the arg max of a Dense mapped back to labels by an inverted
    # StringLookup (a string output of the model).
    keras.utils.set_random_seed(4)
    x = keras.Input(shape=(4,), name="features")
    logits = L.Dense(4, name="logits")(x)
    index = keras.ops.argmax(logits, axis=-1)
    labels = L.StringLookup(vocabulary=["cat", "dog", "bird"], invert=True, name="labels")(index)
    model = keras.Model(x, [labels, logits])
    feats = np.random.default_rng(0).normal(size=(6, 4)).astype("float32").tolist()
    return record("invert_output", model, {"features": feats})


def custom_steps():
    # TextVectorization with registered Python functions for standardize and split (keras-cpp
    # registers C++ twins under the same names).
    import text_functions
    vectorize = L.TextVectorization(standardize=text_functions.no_digits,
                                    split=text_functions.on_commas, output_sequence_length=5)
    vectorize.adapt(np.array(["Red1,green2,blue3", "red,RED,,green", "Blue,cyan4"]))
    text = keras.Input(shape=(1,), dtype="string", name="colours")
    return record("custom_steps", keras.Model(text, vectorize(text)),
                  {"colours": [["RED,cyan9,Magenta"], [",,blue"], ["green2,green,x7"]]})


oracle.write_json("string_graphs", predict_with_tensorflow({
    "custom_steps": custom_steps(),
    "text_classifier": text_classifier(),
    "ragged_tokens": ragged_tokens(),
    "multi_input": multi_input(),
    "invert_output": invert_output()}))
print("wrote string_graphs.json and", len(os.listdir(OUT_DIR)), "model files")
