"""ConvLSTM1D, ConvLSTM2D and ConvLSTM3D run by real Keras 3.15 (JAX backend, CPU), for
tests/layers_rnn/conv_lstm_oracle_test.cpp (and tests/oracle/layers_test.cpp, which replays every
layers_*.npz):

  tests/oracle/fixtures/layers_conv_lstm.npz   layers.py's case layout (op "layer"): seeded
      inputs and weights, Keras's outputs (sequence or last output, then the final states with
      return_state), and the gradients of sum(output * upstream) with respect to the floating
      inputs and every trainable weight (jax.vjp, which is jax.grad of that scalar loss).
      Cases: ranks 1, 2 and 3; channels_last and channels_first; padding "valid" and "same";
      strides; dilation; return_sequences and return_state; go_backwards; a mask; initial
      states; unit_forget_bias off; no bias; non-default activations. rtol = atol = 1e-5, and
      each case's float32-vs-float64 distance is printed (layers.float64_noise).
  tests/oracle/fixtures/conv_lstm_files/<ClassName>.keras   one file per class, saved by Keras
      (model.save of keras.Input -> the layer), seeded random weights; Keras loads it back
      (safe_mode) and must predict the same before it is written.
  tests/oracle/fixtures/conv_lstm_files.npz   op "predict_keras" per file: the inputs, Keras's
      predict outputs, and kwargs file=<ClassName>, config=<the layer's Keras config> (which
      keras-cpp's get_config must equal key for key), rtol = atol = 1e-5.

Not covered here: dropout and recurrent_dropout in training (Keras's masks come from JAX's random
streams, which keras-cpp does not reproduce; tests/layers_rnn checks the masks' behaviour), and
the lone ConvLSTMCell (Keras's cell config has no "rank", so Keras cannot rebuild it from its
record).

Run: ./scripts/oracle.sh conv_lstm (or, with the interop venv:
KERAS_HOME=.cache/keras-home .cache/interop-venv/bin/python tools/keras_oracle/conv_lstm.py)
"""

import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend, x64)

import keras  # noqa: E402
import numpy as np  # noqa: E402

import interop  # noqa: E402  (strict(): no warning, log record or print)
import layers  # noqa: E402  (layer_case, mask_of, call_mask, default_weight)

L = keras.layers
FILES_DIR = os.path.join(oracle.ORACLE_DIR, "conv_lstm_files")
TOL = dict(rtol=1e-5, atol=1e-5)
MAX_TOTAL_BYTES = 600_000


def call_initial_state(l, xs, t):
    """layer(x, initial_state=[h, c]); keras-cpp's list call [x, h, c]."""
    return l(xs[0], initial_state=list(xs[1:]), training=t)


def mask_case(fx, name, make, inputs):
    """A masked case run by Keras's unrolled loop, after checking that its scan loop gives other
    outputs for the same layer and weights (the Keras 3.15 JAX bug this case steers around)."""
    layer = layers.layer_case(fx, name, lambda: make(True), inputs, call=layers.call_mask,
                              mask=True)
    scan = make(False)
    layers.call_mask(scan, inputs, False)
    scan.set_weights(layer.get_weights())
    a = np.asarray(layers.call_mask(layer, inputs, False)[0] if layer.return_state
                   else layers.call_mask(layer, inputs, False))
    b = np.asarray(layers.call_mask(scan, inputs, False)[0] if scan.return_state
                   else layers.call_mask(scan, inputs, False))
    assert not np.allclose(a, b, rtol=1e-5, atol=1e-5), name + ": the scan loop agrees now"
    print(f"  {name}: Keras's scan loop (unroll=False) differs by {np.max(np.abs(a - b)):.3g}")


def cases(fx):
    r = fx.randn
    case = layers.layer_case
    case(fx, "conv_lstm1d_valid_seq", lambda: L.ConvLSTM1D(
        3, 3, return_sequences=True, name="conv_lstm1d_valid_seq"), [r(2, 4, 7, 2)])
    case(fx, "conv_lstm1d_cf_same_strided_state", lambda: L.ConvLSTM1D(
        2, 3, strides=2, padding="same", data_format="channels_first", return_state=True,
        unit_forget_bias=False, name="conv_lstm1d_cf_same_strided_state"), [r(2, 3, 2, 7)])
    case(fx, "conv_lstm2d_same_backwards", lambda: L.ConvLSTM2D(
        3, 3, padding="same", return_sequences=True, go_backwards=True,
        name="conv_lstm2d_same_backwards"), [r(2, 3, 5, 5, 2)])
    case(fx, "conv_lstm2d_cf_dilated_state", lambda: L.ConvLSTM2D(
        2, (2, 3), dilation_rate=(2, 1), data_format="channels_first", return_state=True,
        activation="relu", recurrent_activation="hard_sigmoid",
        name="conv_lstm2d_cf_dilated_state"), [r(2, 3, 2, 6, 5)])
    case(fx, "conv_lstm2d_strided_nobias", lambda: L.ConvLSTM2D(
        2, 3, strides=(2, 1), use_bias=False, return_sequences=True, return_state=True,
        name="conv_lstm2d_strided_nobias"), [r(2, 3, 7, 4, 1)])
    # Masks: Keras's unrolled loop (unroll=True). Its JAX scan loop (unroll=False) broadcasts
    # the (batch, 1) step mask against the trailing axes of the (batch, *spatial, filters)
    # states, so it masks along the last spatial axis instead of the batch (when the sizes
    # happen to broadcast at all); mask_cases checks that it does differ.
    mask_case(fx, "conv_lstm2d_mask", lambda unroll: L.ConvLSTM2D(
        2, 2, return_sequences=True, unroll=unroll, name="conv_lstm2d_mask"),
        [r(3, 5, 4, 4, 2), layers.mask_of(fx.rng, 3, 5)])
    mask_case(fx, "conv_lstm2d_mask_backwards_state", lambda unroll: L.ConvLSTM2D(
        2, 2, padding="same", go_backwards=True, return_state=True, unroll=unroll,
        name="conv_lstm2d_mask_backwards_state"),
        [r(3, 4, 3, 3, 1), layers.mask_of(fx.rng, 3, 4)])
    case(fx, "conv_lstm2d_initial_state", lambda: L.ConvLSTM2D(
        2, 3, padding="same", return_sequences=True, name="conv_lstm2d_initial_state"),
        [r(2, 3, 4, 4, 2), r(2, 4, 4, 2), r(2, 4, 4, 2)], call=call_initial_state,
        list_call=True)
    case(fx, "conv_lstm3d_same_seq_state", lambda: L.ConvLSTM3D(
        2, 2, padding="same", return_sequences=True, return_state=True,
        name="conv_lstm3d_same_seq_state"), [r(2, 3, 3, 4, 3, 2)])
    case(fx, "conv_lstm3d_cf_strided", lambda: L.ConvLSTM3D(
        2, (1, 2, 2), strides=2, data_format="channels_first", activation="sigmoid",
        name="conv_lstm3d_cf_strided"), [r(2, 2, 2, 3, 4, 4)])


# ---- one .keras file per class -----------------------------------------------------------------

FILE_LAYERS = {
    "ConvLSTM1D": (lambda: L.ConvLSTM1D(3, 3, padding="same", return_sequences=True,
                                        name="conv_lstm1d"), (4, 6, 2)),
    "ConvLSTM2D": (lambda: L.ConvLSTM2D(2, 3, strides=2, data_format="channels_first",
                                        name="conv_lstm2d"), (3, 2, 7, 6)),
    "ConvLSTM3D": (lambda: L.ConvLSTM3D(2, 2, return_state=True, name="conv_lstm3d"),
                   (2, 3, 3, 4, 1)),
}


def as_list(y):
    return [np.asarray(t) for t in (y if isinstance(y, (list, tuple)) else [y])]


def files(fx):
    shutil.rmtree(FILES_DIR, ignore_errors=True)
    os.makedirs(FILES_DIR)
    for cls, (make, shape) in sorted(FILE_LAYERS.items()):
        inp = keras.Input(shape=shape, name="input_0")
        layer = make()
        out = layer(inp)
        model = keras.Model(inp, out, name="layer_file")
        model.set_weights([layers.default_weight(fx.rng, v) for v in model.weights])
        x = fx.randn(2, *shape)
        outputs = as_list(model.predict(x, verbose=0))
        path = os.path.join(FILES_DIR, cls + ".keras")
        model.save(path)
        with interop.strict(f"{cls}: load_model"):
            again = keras.saving.load_model(path, safe_mode=True)
        for a, b in zip(as_list(again.predict(x, verbose=0)), outputs):
            np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6,
                                       err_msg=f"{cls}: the reloaded file predicts otherwise")
        config = json.loads(json.dumps(layer.get_config()))
        fx.case(cls, "predict_keras", [x], outputs, file=cls, config=config, **TOL)


def main():
    keras.backend.clear_session()
    fx = oracle.Fixture("layers_conv_lstm", seed=2100)
    cases(fx)
    fx.save()
    files_fx = oracle.Fixture("conv_lstm_files", seed=2101)
    files(files_fx)
    files_fx.save()
    total = sum(os.path.getsize(os.path.join(FILES_DIR, n)) for n in os.listdir(FILES_DIR))
    for name in ("layers_conv_lstm", "conv_lstm_files"):
        total += os.path.getsize(os.path.join(oracle.ORACLE_DIR, name + ".npz"))
    print(f"conv_lstm fixtures: {total} bytes; largest float32-vs-float64 error / tolerance:",
          max(layers.NOISE.values()))
    assert total < MAX_TOTAL_BYTES, "conv_lstm fixtures too large"


if __name__ == "__main__":
    main()
