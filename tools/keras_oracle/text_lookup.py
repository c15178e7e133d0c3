"""StringLookup, IntegerLookup and TextVectorization against real Keras 3.15 (TensorFlow does their lookups), for
tests/layers_preprocessing/lookup_layers_test.cpp.

Written to tests/oracle/fixtures/text_lookup.json:
  cases: each {"layer", "kwargs" (constructor arguments, Keras's config keys), "adapt" (an
    array adapt() reads whole) or "adapt_batches" (a list of batches, as a dataset), "calls":
    [{"input", "output", "dtype"}], "vocabulary", "vocabulary_no_special",
    "vocabulary_size", "config" (get_config())}
  errors: each {"layer", "kwargs", "vocabulary" (set_vocabulary's argument, optional),
    "call" (optional input), "error" (the exception class)}
and to tests/oracle/fixtures/text_lookup/*.keras: Functional models around IntegerLookup
(adapted, so the vocabulary is an asset; one in tf_idf mode, so the idf weights are a named
variable), a StringLookup and a TextVectorization model (string inputs), with their outputs in
text_lookup.json "files".

Run: ./scripts/oracle.sh text_lookup
"""

import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

L = keras.layers
OUT_DIR = os.path.join(oracle.ORACLE_DIR, "text_lookup")
os.makedirs(OUT_DIR, exist_ok=True)

WORDS = [["the", "cat", "sat"], ["on", "the", "mat"], ["the", "cat", "ran"], ["a", "dog", "ran"]]
IDS = [[12, 36, 12], [7, 12, 99], [36, 36, 5], [1138, 7, 12]]


def plain(x):
    """JSON form of a layer output: nested lists of Python numbers or strings."""
    a = np.asarray(x)
    if hasattr(x, "numpy"):
        a = x.numpy()
    if a.dtype.kind in "SO":
        return np.vectorize(lambda v: v.decode() if isinstance(v, bytes) else v,
                            otypes=[object])(a).tolist()
    return a.tolist()


def kind(x):
    return str(np.asarray(x).dtype)


def case(layer_name, kwargs, calls, adapt=None, adapt_batches=None):
    # JSON has no tuples: a list of n-gram widths is Keras's tuple.
    args = {k: tuple(v) if k == "ngrams" and isinstance(v, list) else v for k, v in kwargs.items()}
    layer = getattr(L, layer_name)(**args)
    if adapt is not None:
        layer.adapt(np.array(adapt))
    if adapt_batches is not None:
        # An iterator of batches (a list would be read as one array).
        layer.adapt(iter([np.array(b) for b in adapt_batches]))
    out = {"layer": layer_name, "kwargs": kwargs, "calls": []}
    if adapt is not None:
        out["adapt"] = adapt
    if adapt_batches is not None:
        out["adapt_batches"] = adapt_batches
    for x in calls:
        # StringLookup returns TensorFlow tensors for TensorFlow inputs (strings cannot become
        # JAX arrays); IntegerLookup converts to the backend's arrays either way.
        y = layer(tf.constant(x) if layer_name != "IntegerLookup" else np.array(x))
        out["calls"].append({"input": x, "output": plain(y), "dtype": kind(y)})
    out["vocabulary"] = [v if isinstance(v, str) else int(v) for v in layer.get_vocabulary()]
    out["vocabulary_no_special"] = [v if isinstance(v, str) else int(v)
                                    for v in layer.get_vocabulary(include_special_tokens=False)]
    out["vocabulary_size"] = int(layer.vocabulary_size())
    config = layer.get_config()
    config.pop("dtype", None)
    out["config"] = config
    return out


def string_cases():
    vocab = ["a", "b", "c", "d"]
    probes = [["a", "c", "zz"], [["a", "b"], ["zz", "d"]], "b", [["c"], ["q"]]]
    cases = [
        case("StringLookup", {"vocabulary": vocab}, probes),
        case("StringLookup", {"vocabulary": vocab, "mask_token": ""},
             [["a", "", "zz"], [["", "d"], ["c", ""]]]),
        case("StringLookup", {"vocabulary": ["", "[UNK]"] + vocab, "mask_token": ""},
             [["a", "", "zz"]]),
        case("StringLookup", {"vocabulary": vocab, "num_oov_indices": 0}, [["a", "d"]]),
        case("StringLookup", {"vocabulary": vocab, "invert": True},
             [[1, 2, 0, 9], [[4, 3], [1, 7]]]),
        case("StringLookup", {"vocabulary": vocab, "invert": True, "mask_token": "[MASK]"},
             [[0, 1, 2, 5, 6]]),
        case("StringLookup", {}, [["the", "cat", "fish"], [["mat", "the"], ["dog", "a"]]],
             adapt=WORDS),
        case("StringLookup", {"max_tokens": 4}, [["the", "cat", "ran", "sat"]], adapt=WORDS),
        case("StringLookup", {"mask_token": "", "oov_token": "?"},
             [["the", "", "zzz"]], adapt=[["", "x", "y", "y"], ["?", "x", "", "z"]]),
        case("StringLookup", {}, [["the", "dog"]], adapt_batches=[WORDS[:2], WORDS[2:]]),
        case("StringLookup", {}, [["the", "cat"]], adapt=["x", "the", "the", "cat"]),
        case("StringLookup", {"num_oov_indices": 3}, [["a", "q", "r", "s", "t", "u", "longer OOV"]],
             adapt=WORDS),
        case("StringLookup", {"num_oov_indices": 2, "salt": [7, 11]},
             [["a", "q", "r", "s", "t", "u"]], adapt=WORDS),
        case("StringLookup", {"num_oov_indices": 2, "salt": 42}, [["x", "y", "the"]], adapt=WORDS),
    ]
    for mode in ["one_hot", "multi_hot", "count"]:
        cases.append(case("StringLookup", {"vocabulary": vocab, "output_mode": mode},
                          [["a", "b", "zz"], "c", [["a"], ["d"]], [["a", "b"], ["b", "b"]]]))
        cases.append(case("StringLookup", {"output_mode": mode, "max_tokens": 8,
                                           "pad_to_max_tokens": True},
                          [[["the", "cat"], ["zz", "ran"]]], adapt=WORDS))
    cases.append(case("StringLookup", {"vocabulary": vocab, "output_mode": "multi_hot",
                                       "mask_token": ""}, [[["a", ""], ["", "d"]]]))
    cases.append(case("StringLookup", {"vocabulary": vocab, "output_mode": "tf_idf",
                                       "idf_weights": [0.5, 1.0, 2.0, 4.0]},
                      [["a", "b", "zz", "a"], [["a", "b"], ["b", "d"]]]))
    cases.append(case("StringLookup", {"vocabulary": ["[UNK]"] + vocab, "output_mode": "tf_idf",
                                       "idf_weights": [0.25, 0.5, 1.0, 2.0, 4.0]},
                      [[["a", "zz"], ["d", "d"]]]))
    cases.append(case("StringLookup", {"output_mode": "tf_idf"},
                      [[["the", "cat", "zz"], ["mat", "mat", "a"]]], adapt=WORDS))
    cases.append(case("StringLookup", {"output_mode": "tf_idf", "max_tokens": 10,
                                       "pad_to_max_tokens": True},
                      [[["the", "cat"], ["dog", "zz"]]], adapt=WORDS))
    return cases


def integer_cases():
    vocab = [12, 36, 1138, 42]
    cases = [
        case("IntegerLookup", {"vocabulary": vocab}, [[12, 1138, 5], [[36, 42], [7, 12]], 42]),
        case("IntegerLookup", {"vocabulary": vocab, "mask_token": 0}, [[12, 0, 5, 42]]),
        case("IntegerLookup", {"vocabulary": vocab, "num_oov_indices": 3, "mask_token": 0},
             [[12, 0, 11, 13, 14, -4, -5, 1000003]]),
        case("IntegerLookup", {"vocabulary": vocab, "num_oov_indices": 2,
                               "oov_method": "farmhash"}, [[12, 5, 6, 7, 8, -1]]),
        case("IntegerLookup", {"vocabulary": vocab, "num_oov_indices": 2,
                               "oov_method": "farmhash", "salt": [3, 5]}, [[12, 5, 6, 7, 8]]),
        case("IntegerLookup", {"vocabulary": vocab, "invert": True}, [[1, 2, 0, 9, 4]]),
        case("IntegerLookup", {"vocabulary": vocab, "invert": True, "mask_token": 0,
                               "oov_token": -7}, [[0, 1, 2, 3, 5, 6, 9]]),
        case("IntegerLookup", {}, [[12, 99, 5, 4]], adapt=IDS),
        case("IntegerLookup", {"max_tokens": 4, "mask_token": 0}, [[12, 99, 5, 0]],
             adapt=[[12, 12, 0, 7], [7, 5, 5, 5], [-1, -1, 3, 3]]),
        case("IntegerLookup", {}, [[12, 36]], adapt_batches=[IDS[:2], IDS[2:]]),
    ]
    for mode in ["one_hot", "multi_hot", "count"]:
        cases.append(case("IntegerLookup", {"vocabulary": vocab, "output_mode": mode},
                          [[12, 36, 5], 42, [[12], [1138]], [[12, 36], [36, 36]]]))
    cases.append(case("IntegerLookup", {"output_mode": "tf_idf"}, [[[12, 36, 5], [99, 99, 1138]]],
                      adapt=IDS))
    return cases


TEXTS = ["The cat sat on the mat.", "the CAT ran!  Fast,fast", "A dog, a cat; THE end",
         "Émile ZOLA's book\tis  here\n", "", "ünïcode and ASCII: façade"]


def text_cases():
    probes = [["The cat ran home.", "dog's DAY", "", "fast fast fast"]]
    cases = [
        case("TextVectorization", {}, probes + [[["the cat"], ["zz"]]], adapt=TEXTS),
        case("TextVectorization", {"max_tokens": 6, "output_sequence_length": 4}, probes,
             adapt=TEXTS),
        case("TextVectorization", {"output_sequence_length": 12, "ngrams": 2}, probes,
             adapt=TEXTS),
        case("TextVectorization", {"ngrams": [2, 3]}, probes, adapt=TEXTS),
        case("TextVectorization", {"standardize": "lower"}, probes, adapt=TEXTS),
        case("TextVectorization", {"standardize": "strip_punctuation"}, probes, adapt=TEXTS),
        case("TextVectorization", {"standardize": None, "split": "character"},
             [["héllo, wörld", "ab"]], adapt=TEXTS),
        case("TextVectorization", {"split": None, "vocabulary": ["the cat", "dog"]},
             [["The cat.", "dog", "x"], [["dog"], ["the cat"]]]),
        case("TextVectorization", {"vocabulary": ["cat", "the", "dog"],
                                   "output_sequence_length": 4}, probes),
        case("TextVectorization", {}, probes, adapt_batches=[TEXTS[:3], TEXTS[3:]]),
        case("TextVectorization", {"output_mode": "tf_idf"}, probes, adapt=TEXTS),
        case("TextVectorization", {"output_mode": "tf_idf", "ngrams": 2, "max_tokens": 20,
                                   "pad_to_max_tokens": True}, probes, adapt=TEXTS),
    ]
    for mode in ["multi_hot", "count"]:
        cases.append(case("TextVectorization", {"output_mode": mode}, probes, adapt=TEXTS))
        cases.append(case("TextVectorization", {"output_mode": mode,
                                                "vocabulary": ["cat", "the", "dog"]}, probes))
    cases.append(case("TextVectorization", {"output_mode": "tf_idf",
                                            "vocabulary": ["cat", "the", "dog"],
                                            "idf_weights": [1.5, 0.5, 2.0]}, probes))
    return cases


def error_cases():
    errors = []

    def expect(layer_name, kwargs, vocabulary=None, call=None):
        try:
            layer = getattr(L, layer_name)(**kwargs)
            if vocabulary is not None:
                layer.set_vocabulary(vocabulary)
            if call is not None:
                layer(np.array(call))
            raise AssertionError(f"no error for {layer_name} {kwargs}")
        except AssertionError:
            raise
        except Exception as e:  # noqa: BLE001  (the class is the fixture)
            entry = {"layer": layer_name, "kwargs": kwargs, "error": type(e).__name__}
            if vocabulary is not None:
                entry["vocabulary"] = vocabulary
            if call is not None:
                entry["call"] = call
            errors.append(entry)

    expect("StringLookup", {"max_tokens": 1})
    expect("StringLookup", {"num_oov_indices": -1})
    expect("StringLookup", {"output_mode": "bag"})
    expect("StringLookup", {"invert": True, "output_mode": "count"})
    expect("StringLookup", {"pad_to_max_tokens": True})
    expect("StringLookup", {"output_mode": "tf_idf", "vocabulary": ["a", "b"]})
    expect("StringLookup", {"idf_weights": [1.0, 2.0], "vocabulary": ["a", "b"]})
    expect("StringLookup", {}, vocabulary=["a", "b", "a"])
    expect("StringLookup", {"mask_token": ""}, vocabulary=["a", "", "b"])
    expect("StringLookup", {"invert": True}, vocabulary=["a", "[UNK]", "b"])
    expect("StringLookup", {"max_tokens": 3}, vocabulary=["a", "b", "c"])
    expect("StringLookup", {}, vocabulary=[])
    expect("StringLookup", {"output_mode": "multi_hot"}, call=["a"])
    expect("StringLookup", {"vocabulary": ["a"], "num_oov_indices": 0}, call=["a", "b"])
    expect("TextVectorization", {"standardize": "upper"})
    expect("TextVectorization", {"split": "comma"})
    expect("TextVectorization", {"output_mode": "multi_hot", "output_sequence_length": 3})
    expect("TextVectorization", {"vocabulary": ["a"]}, call=[["a b", "c"], ["d", "e"]])
    expect("IntegerLookup", {"max_tokens": 0})
    expect("IntegerLookup", {"vocabulary_dtype": "int32"})
    expect("IntegerLookup", {"salt": 3})
    expect("IntegerLookup", {"oov_method": "random"})
    return errors


def files():
    out = {}
    x = np.array(IDS, dtype="int64")
    keras.utils.set_random_seed(5)
    # An adapted IntegerLookup (vocabulary asset) feeding a Dense.
    lookup = L.IntegerLookup(output_mode="multi_hot", max_tokens=6)
    lookup.adapt(x)
    inp = keras.Input(shape=(3,), dtype="int64")
    model = keras.Model(inp, L.Dense(2)(lookup(inp)))
    model.save(os.path.join(OUT_DIR, "integer_multi_hot.keras"))
    out["integer_multi_hot"] = {"x": IDS, "y": model.predict(x, verbose=0).tolist()}
    # tf_idf: the idf weights are a named variable of the weights file.
    lookup = L.IntegerLookup(output_mode="tf_idf")
    lookup.adapt(x)
    model = keras.Model(inp, L.Dense(2)(lookup(inp)))
    model.save(os.path.join(OUT_DIR, "integer_tf_idf.keras"))
    out["integer_tf_idf"] = {"x": IDS, "y": model.predict(x, verbose=0).tolist()}
    # int mode with a mask token and an embedding.
    lookup = L.IntegerLookup(mask_token=0)
    lookup.adapt(x)
    model = keras.Model(inp, L.Embedding(10, 3)(lookup(inp)))
    model.save(os.path.join(OUT_DIR, "integer_embedding.keras"))
    out["integer_embedding"] = {"x": [[12, 0, 5], [1138, 7, 0]],
                                "y": model.predict(np.array([[12, 0, 5], [1138, 7, 0]]),
                                                   verbose=0).tolist()}
    # A StringLookup model (string input): its layer config and vocabulary asset.
    sinp = keras.Input(shape=(3,), dtype="string")
    slookup = L.StringLookup(output_mode="count")
    slookup.adapt(np.array(WORDS))
    smodel = keras.Model(sinp, slookup(sinp))
    path = os.path.join(OUT_DIR, "string_count.keras")
    smodel.save(path)
    probe = [["the", "cat", "zz"], ["mat", "mat", "a"]]
    out["string_count"] = {"x": probe, "y": plain(slookup(tf.constant(probe)))}
    with zipfile.ZipFile(path) as z:
        out["string_count"]["members"] = sorted(z.namelist())
    # A TextVectorization model: config, and its vocabulary written twice (the layer's and its
    # _lookup_layer's folders).
    vectorize = L.TextVectorization(output_mode="multi_hot", ngrams=2)
    vectorize.adapt(np.array(TEXTS))
    tinp = keras.Input(shape=(1,), dtype="string")
    path = os.path.join(OUT_DIR, "text_multi_hot.keras")
    keras.Model(tinp, vectorize(tinp)).save(path)
    probe = [["The cat ran home."], ["dog's DAY"]]
    out["text_multi_hot"] = {"x": probe, "y": plain(vectorize(tf.constant(probe)))}
    with zipfile.ZipFile(path) as z:
        out["text_multi_hot"]["members"] = sorted(z.namelist())
    return out


oracle.write_json("text_lookup", {"cases": string_cases() + integer_cases() + text_cases(),
                                  "errors": error_cases(), "files": files()})
print("wrote text_lookup.json and", len(os.listdir(OUT_DIR)), "model files")
