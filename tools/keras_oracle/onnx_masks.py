"""Models with Keras masks saved by real Keras 3.15 (JAX backend), for the ONNX export check
(scripts/onnx_check.sh: tools/onnx/export_models.cpp loads each file, exports it and
tools/onnx/check_onnx.py runs it in ONNX Runtime against keras-cpp's predictions).

Keras records a mask as the `mask` argument of the layer that reads it, computed by keras.ops
nodes of the graph (`not_equal(ids, 0)` for Embedding(mask_zero=True), `any(not_equal(x, v),
axis=-1)` for Masking), unlike keras-cpp's own graphs, where masks travel with the tensors.
These files make the export handle that form too.

  tests/oracle/fixtures/onnx_masks/<name>.keras   seeded random weights; Keras loads each one
      back (safe_mode) and must predict the same before it is written. The float input of a
      Masking model is named "padded_steps": the export check zeroes whole steps of it.

Run: ./scripts/oracle.sh onnx_masks
"""

import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend, x64)

import keras  # noqa: E402
import numpy as np  # noqa: E402

import interop  # noqa: E402  (strict(): no warning, log record or print)

L = keras.layers
OUT_DIR = os.path.join(oracle.ORACLE_DIR, "onnx_masks")


def text_lstm():
    """Embedding(mask_zero) into a stacked LSTM, Bidirectional GRU and a masked mean."""
    ids = keras.Input((9,), dtype="int32", name="ids")
    e = L.Embedding(20, 6, mask_zero=True)(ids)
    seq = L.LSTM(5, return_sequences=True)(e)
    last = L.LSTM(3, go_backwards=True)(seq)
    both = L.Bidirectional(L.GRU(4, return_sequences=True))(L.Dense(4, activation="relu")(e))
    pooled = L.GlobalAveragePooling1D()(both)
    return keras.Model(ids, [last, pooled], name="text_lstm")


def masked_steps():
    """Masking on float steps into GRU (reset_after off), SimpleRNN states and a masked mean."""
    x = keras.Input((8, 3), name="padded_steps")
    m = L.Masking(mask_value=0.0)(x)
    gru = L.GRU(4, return_sequences=True, reset_after=False)(m)
    out, state = L.SimpleRNN(3, return_state=True)(L.LayerNormalization()(gru))
    return keras.Model(x, [out, state, L.GlobalAveragePooling1D()(gru)], name="masked_steps")


def main():
    keras.utils.set_random_seed(7)
    shutil.rmtree(OUT_DIR, ignore_errors=True)
    os.makedirs(OUT_DIR)
    rng = np.random.default_rng(7)
    for make in (text_lstm, masked_steps):
        model = make()
        for w in model.weights:
            w.assign(rng.normal(0.0, 0.3, w.shape).astype(w.dtype))
        spec = model.inputs[0]
        if spec.dtype == "int32":
            x = rng.integers(0, 20, (3, spec.shape[1])).astype("int32")
            x[0, -3:] = 0
            x[1, :2] = 0
        else:
            x = rng.normal(size=(3,) + tuple(spec.shape[1:])).astype("float32")
            x[0, -3:] = 0
            x[1, :2] = 0
        want = model.predict(x, verbose=0)
        path = os.path.join(OUT_DIR, model.name + ".keras")
        model.save(path)
        with interop.strict(f"{model.name}: load_model"):
            again = keras.saving.load_model(path)
        for a, b in zip(keras.tree.flatten(want), keras.tree.flatten(again.predict(x, verbose=0))):
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
        print(f"{os.path.relpath(path, oracle.ROOT)}: {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
