"""MultiOptimizer / OptimizerMap, ReversibleEmbedding and keras.quantizers.Quantizer, get and
fake_quant_with_min_max_vars against real Keras 3.15, for tests/optimizers/multi_optimizer_test.cpp,
tests/layers_core/reversible_embedding_test.cpp and tests/quantization/fake_quant_test.cpp.

Written to tests/oracle/fixtures/multi_optimizer.npz (arrays, by name), multi_optimizer.json
(configs, lookups) and tests/oracle/fixtures/multi_optimizer/*.keras:

MultiOptimizer (keys "mo.<case>.*"): a Functional model x -> Dense "enc" -> Dense "mid" ->
Dense "dec", compiled with a MultiOptimizer and saved untrained (<case>.keras), trained with
fit(batch_size=4, epochs=3, shuffle=False) and saved again (<case>_trained.keras).
  mo.x, mo.y                        the data
  mo.<case>.w<i>                    model.weights after training, in order
  mo.<case>.loss                    the loss of each epoch
  mo.<case>.opt.<path>              every optimizer variable after training, by path
Cases: "map" has the keys in sorted order (Keras lists sub-optimizers by insertion order,
keras-cpp by key order, so here both write optimizer/vars alike), an exact key that a regex also
matches ("mid/kernel" and "mid/.*"), Adam, SGD with and without momentum, and the default
RMSprop; "unsorted_lsf" inserts its keys out of order and sets loss_scale_factor=4.
JSON "lookups": OptimizerMap[key] for the docstring's map plus overlapping regexes: the name of
the optimizer or "ValueError".

ReversibleEmbedding (keys "re.<case>.*"): input_dim 7, output_dim 4, seeded weights.
  re.<case>.embeddings, re.<case>.reverse_embeddings (untied), re.ids, re.h, re.r_fwd, re.r_rev
  re.<case>.forward = layer(ids); re.<case>.reverse = layer(h, reverse=True)
  re.<case>.grad_h, .grad_embeddings, .grad_reverse_embeddings: gradients of
      sum(layer(h, reverse=True) * r_rev); .fwd_grad_embeddings: of sum(layer(ids) * r_fwd)
  re.<case>.int8.forward / .int8.reverse / .int8.var.<name>: after layer.quantize("int8")
JSON "reversible_embedding": get_config() of each case. File reversible_embedding.keras: a
Functional ids -> ReversibleEmbedding(tie_weights=False) model (weights "embeddings",
"reverse_embeddings"), with re.file.forward its predict of re.ids.

fake_quant_with_min_max_vars (keys "fq.<case>.*"): x, min, max, out and the gradients
(grad_x, grad_min, grad_max) of sum(out * r) with jax.grad through Keras's custom gradient;
JSON "fake_quant": each case's num_bits, narrow_range, axis.

quantizers.get (JSON "quantizers_get"): the class and config of get(identifier) for names and
serialized objects, or the error class (a serialized quantization config is refused: get()
only returns callables).

Run: ./scripts/oracle.sh multi_optimizer
"""

import copy
import json
import os
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import jax  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras.src.optimizers.multi_optimizer import MultiOptimizer, OptimizerMap  # noqa: E402

L = keras.layers
O = keras.optimizers
OUT_DIR = os.path.join(oracle.ORACLE_DIR, "multi_optimizer")
arrays = {}
doc = {}


def f32(a):
    return np.asarray(a, dtype=np.float32)


# ---- MultiOptimizer --------------------------------------------------------------------------

def mlp(seed):
    keras.utils.set_random_seed(seed)
    x = keras.Input((4,), name="x")
    h = L.Dense(5, activation="tanh", name="enc")(x)
    h = L.Dense(3, activation="tanh", name="mid")(h)
    out = L.Dense(2, name="dec")(h)
    return keras.Model(x, out)


def multi_cases():
    keras.backend.clear_session()
    # Keys inserted in sorted order.
    m = {"dec/kernel": O.SGD(0.1, momentum=0.9),
         "enc/.*": O.Adam(0.01),
         "mid/.*": O.SGD(0.05),
         "mid/kernel": O.Adam(0.02, name="adam_mid")}
    yield "map", MultiOptimizer(OptimizerMap(O.RMSprop(0.01), m))
    keras.backend.clear_session()
    m = {"enc/.*": O.Adam(0.01), "dec/kernel": O.SGD(0.1, momentum=0.9, nesterov=True)}
    yield "unsorted_lsf", MultiOptimizer(OptimizerMap(O.RMSprop(0.01), m), loss_scale_factor=4.0)


def multi_optimizer():
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, (16, 4)).astype("float32")
    y = rng.normal(0, 1, (16, 2)).astype("float32")
    arrays["mo.x"], arrays["mo.y"] = x, y
    configs = {}
    for i, (case, opt) in enumerate(multi_cases()):
        model = mlp(10 + i)
        model.compile(optimizer=opt, loss="mse")
        model.save(os.path.join(OUT_DIR, case + ".keras"))
        hist = model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
        arrays[f"mo.{case}.loss"] = f32(hist.history["loss"])
        for k, w in enumerate(model.weights):
            arrays[f"mo.{case}.w{k}"] = np.asarray(w)
        for v in opt.variables:
            arrays[f"mo.{case}.opt.{v.path}"] = np.asarray(v)
        model.save(os.path.join(OUT_DIR, case + "_trained.keras"))
        with zipfile.ZipFile(os.path.join(OUT_DIR, case + "_trained.keras")) as z:
            configs[case] = json.loads(z.read("config.json"))["compile_config"]["optimizer"]
        configs[case + ".variables"] = [v.path for v in opt.variables]
        configs[case + ".optimizers"] = [o.name for o in opt.optimizers]
    doc["multi_optimizer"] = configs

    # OptimizerMap lookups: the docstring's map, an exact key beside a regex, and regexes that
    # overlap.
    keras.backend.clear_session()
    adam, sgd, rms = O.Adam(name="adam"), O.SGD(name="sgd"), O.RMSprop(name="rmsprop")
    om = OptimizerMap(default_optimizer=rms)
    om["encoder/layer_0/dense"] = adam
    om["encoder/.*"] = sgd
    om["decoder"] = adam
    om["x/.*"] = O.SGD(name="sgd_x")
    om[".*/kernel"] = O.SGD(name="sgd_kernel")
    om["a.c"] = O.SGD(name="sgd_dot")
    om["(head|neck)/[0-9]+/w"] = O.SGD(name="sgd_alt")
    queries = ["decoder", "encoder/layer_0/dense", "encoder/layer_0/attention/query",
               "decoder/layer_0/dense", "encoder", "x/kernel", "x/bias", "y/kernel", "abc",
               "a/c", "abcd", "head/12/w", "neck/3/w", "head/x/w", "dense/kernel/extra"]
    lookups = []
    for q in queries:
        try:
            lookups.append([q, om[q].name])
        except ValueError:
            lookups.append([q, "ValueError"])
    doc["lookups"] = {"keys": {k: v.name for k, v in om.items()}, "default": rms.name,
                      "results": lookups}


# ---- ReversibleEmbedding ---------------------------------------------------------------------

RE_CASES = {
    "tied": {},
    "untied": {"tie_weights": False},
    "tied_cap": {"logit_soft_cap": 2.0},
    "untied_cap_f64": {"tie_weights": False, "logit_soft_cap": 1.5, "reverse_dtype": "float64"},
    "mask_zero": {"mask_zero": True},
}


def reversible_embedding():
    rng = np.random.default_rng(5)
    ids = np.array([[0, 3, 6], [2, 2, 5]], dtype="int32")
    h = rng.normal(0, 1.5, (2, 3, 4)).astype("float32")
    r_fwd = rng.normal(0, 1, (2, 3, 4)).astype("float32")
    r_rev = rng.normal(0, 1, (2, 3, 7)).astype("float32")
    arrays.update({"re.ids": ids, "re.h": h, "re.r_fwd": r_fwd, "re.r_rev": r_rev})
    configs = {}
    for case, kw in RE_CASES.items():
        keras.backend.clear_session()
        layer = L.ReversibleEmbedding(7, 4, name="rev_emb", **kw)
        layer.build((None, 3))
        for v in layer.weights:
            v.assign(rng.normal(0, 0.8, v.shape).astype("float32"))
            arrays[f"re.{case}.{v.name}"] = np.asarray(v)
        arrays[f"re.{case}.forward"] = np.asarray(layer(ids))
        arrays[f"re.{case}.reverse"] = np.asarray(layer(h, reverse=True))
        tv = [v.value for v in layer.trainable_variables]

        def rev_loss(tvals, hh):
            out, _ = layer.stateless_call(tvals, [], hh, reverse=True)
            return jax.numpy.sum(out * r_rev)

        g_vars, g_h = jax.grad(rev_loss, argnums=(0, 1))(tv, h)
        arrays[f"re.{case}.grad_h"] = np.asarray(g_h)
        for v, g in zip(layer.trainable_variables, g_vars):
            arrays[f"re.{case}.grad_{v.name}"] = np.asarray(g)

        def fwd_loss(tvals):
            out, _ = layer.stateless_call(tvals, [], ids)
            return jax.numpy.sum(out * r_fwd)

        for v, g in zip(layer.trainable_variables, jax.grad(fwd_loss)(tv)):
            arrays[f"re.{case}.fwd_grad_{v.name}"] = np.asarray(g)
        configs[case] = layer.get_config()
        layer.quantize("int8")
        arrays[f"re.{case}.int8.forward"] = np.asarray(layer(ids))
        arrays[f"re.{case}.int8.reverse"] = np.asarray(layer(h, reverse=True))
        for v in layer.weights:
            arrays[f"re.{case}.int8.var.{v.name}"] = np.asarray(v)
        configs[case + ".int8"] = layer.get_config()
    doc["reversible_embedding"] = configs

    keras.backend.clear_session()
    inp = keras.Input((3,), dtype="int32", name="ids")
    emb = L.ReversibleEmbedding(7, 4, tie_weights=False, logit_soft_cap=3.0, name="tok")
    model = keras.Model(inp, emb(inp))
    for v in model.weights:
        v.assign(rng.normal(0, 0.8, v.shape).astype("float32"))
        arrays[f"re.file.{v.name}"] = np.asarray(v)
    arrays["re.file.forward"] = np.asarray(model.predict(ids, verbose=0))
    model.save(os.path.join(OUT_DIR, "reversible_embedding.keras"))


# ---- fake_quant_with_min_max_vars -------------------------------------------------------------

FQ_CASES = {
    # name: (x shape, min, max, num_bits, narrow_range, axis)
    "tensor_8": ((4, 6), -1.3, 2.7, 8, False, None),
    "tensor_8_narrow": ((4, 6), -1.3, 2.7, 8, True, None),
    "tensor_4_positive": ((4, 6), 0.5, 3.0, 4, False, None),
    "tensor_4_negative": ((4, 6), -3.0, -0.25, 4, True, None),
    "tensor_2": ((3, 5), -1.0, 1.0, 2, False, None),
    "channel_last": ((3, 4, 3), [-1.0, -0.5, 0.2], [1.0, 2.5, 1.7], 8, False, -1),
    "channel_last_4": ((5, 3), [-2.0, -0.1, -1.2], [0.3, 0.9, 3.1], 4, True, 1),
}


def fake_quant():
    rng = np.random.default_rng(7)
    meta = {}
    for case, (shape, lo, hi, bits, narrow, axis) in FQ_CASES.items():
        x = rng.uniform(-3.5, 3.5, shape).astype("float32")
        lo, hi = f32(lo), f32(hi)
        # Values exactly at the ends of the (nudged) range too.
        x.flat[0], x.flat[1] = np.ravel(lo)[0], np.ravel(hi)[-1]
        r = rng.normal(0, 1, shape).astype("float32")

        def f(xx, mn, mx):
            return keras.quantizers.fake_quant_with_min_max_vars(
                xx, mn, mx, num_bits=bits, narrow_range=narrow, axis=axis)

        out = f(x, lo, hi)
        gx, gmin, gmax = jax.grad(lambda a, b, c: jax.numpy.sum(f(a, b, c) * r),
                                  argnums=(0, 1, 2))(x, lo, hi)
        for k, v in {"x": x, "min": lo, "max": hi, "r": r, "out": out, "grad_x": gx,
                     "grad_min": gmin, "grad_max": gmax}.items():
            arrays[f"fq.{case}.{k}"] = np.asarray(v)
        meta[case] = {"num_bits": bits, "narrow_range": narrow, "axis": axis}
    doc["fake_quant"] = meta


def quantizers_get():
    out = {}
    for ident in ["Quantizer", "quantizer", "AbsMaxQuantizer", "abs_max_quantizer",
                  "Int8QuantizationConfig", "nope"]:
        key = ident
        try:
            obj = keras.quantizers.get(ident)
            out[key] = {"class": type(obj).__name__}
        except Exception as e:  # noqa: BLE001  (the error class is the expectation)
            out[key] = {"error": type(e).__name__}
    records = {
        "abs_max_record": keras.saving.serialize_keras_object(
            keras.quantizers.AbsMaxQuantizer(axis=-1, value_range=(-100, 100))),
        "quantizer_record": {"module": "keras.quantizers", "class_name": "Quantizer",
                             "config": {"output_dtype": "int8"}, "registered_name": None},
        "int8_config_record": keras.saving.serialize_keras_object(
            keras.quantizers.Int8QuantizationConfig()),
    }
    for key, rec in records.items():
        rec = json.loads(json.dumps(rec))
        try:
            obj = keras.quantizers.get(copy.deepcopy(rec))
        except ValueError as e:  # a config is not callable: get() refuses it
            out[key] = {"record": rec, "error": type(e).__name__}
            continue
        entry = {"record": rec, "class": type(obj).__name__}
        if hasattr(obj, "get_config") and type(obj).__name__ == "AbsMaxQuantizer":
            entry["config"] = json.loads(json.dumps(obj.get_config()))
        out[key] = entry
    doc["quantizers_get"] = out


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    multi_optimizer()
    reversible_embedding()
    fake_quant()
    quantizers_get()
    path = os.path.join(oracle.ORACLE_DIR, "multi_optimizer.npz")
    np.savez_compressed(path, **arrays)
    print(f"{os.path.relpath(path, oracle.ROOT)}: {len(arrays)} arrays")
    oracle.write_json("multi_optimizer", json.loads(json.dumps(doc, default=str)))


if __name__ == "__main__":
    main()
