"""Fourier ops against real Keras 3.15 (JAX backend, x64): keras.ops.fft, fft2, ifft2, rfft,
irfft, stft and istft, values and gradients, for tests/ops_functional/fourier_oracle_test.cpp.

Writes tests/oracle/fixtures/fft.npz. Complex values travel as (real, imag) pairs, as Keras
passes them. Each case stores the op's inputs, then random weights w of the outputs' shapes,
and as outputs the op's outputs followed by the gradient, jax.grad through Keras's function, of
sum(output * w) (summed over the output parts) with respect to each input part:
  fft/fft2/ifft2  in (re, im, w_re, w_im)  out (re, im, d_re, d_im)
  rfft            in (x, w_re, w_im)       out (re, im, d_x)            kwargs fft_length
  irfft           in (re, im, w)           out (y, d_re, d_im)          kwargs fft_length
  stft            in (x, w_re, w_im[, window])  out (re, im, d_x)
  istft           in (re, im, w[, window])      out (y, d_re, d_im)
Odd and even lengths, fft_length padding and cropping, batch axes, float32 and float64.
Also writes tests/oracle/fixtures/fft_layers.npz (tests/layers_preprocessing/
spectrogram_oracle_test.cpp): keras.layers.STFTSpectrogram in every mode and layout and
MelSpectrogram with its defaults and options, each case the input, then as outputs the layer's
output and its kernels, with kwargs config (Keras's get_config) and keys (the config keys that
keras-cpp must write back the same).
Run: ./scripts/oracle.sh fft
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402,F401  (sets up Keras on JAX with x64 first)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402

TOL = {np.float32: dict(rtol=1e-4, atol=1e-4), np.float64: dict(rtol=1e-9, atol=1e-9)}


def weighted_sum(outputs, weights):
    return sum(jnp.sum(o * w) for o, w in zip(outputs, weights))


def tol(dtype):
    return TOL[np.dtype(dtype).type]


def complex_case(f, name, op, shape, dtype=np.float32):
    fn = getattr(keras.ops, op)
    re, im = f.randn(*shape, dtype=dtype), f.randn(*shape, dtype=dtype)
    out = [np.asarray(o) for o in fn((re, im))]
    w = [f.randn(*o.shape, dtype=dtype) for o in out]
    grads = jax.grad(lambda r, i: weighted_sum(fn((r, i)), w), argnums=(0, 1))(re, im)
    f.case(name, op, [re, im, *w], [*out, *(np.asarray(g) for g in grads)], **tol(dtype))


def rfft_case(f, name, shape, fft_length=None, dtype=np.float32):
    x = f.randn(*shape, dtype=dtype)
    out = [np.asarray(o) for o in keras.ops.rfft(x, fft_length)]
    w = [f.randn(*o.shape, dtype=dtype) for o in out]
    grad = jax.grad(lambda v: weighted_sum(keras.ops.rfft(v, fft_length), w))(x)
    f.case(name, "rfft", [x, *w], [*out, np.asarray(grad)], fft_length=fft_length, **tol(dtype))


def irfft_case(f, name, shape, fft_length=None, dtype=np.float32):
    re, im = f.randn(*shape, dtype=dtype), f.randn(*shape, dtype=dtype)
    y = np.asarray(keras.ops.irfft((re, im), fft_length))
    w = f.randn(*y.shape, dtype=dtype)
    grads = jax.grad(lambda r, i: jnp.sum(keras.ops.irfft((r, i), fft_length) * w),
                     argnums=(0, 1))(re, im)
    f.case(name, "irfft", [re, im, w], [y, *(np.asarray(g) for g in grads)],
           fft_length=fft_length, **tol(dtype))


def window_arg(window, length, dtype, f):
    """(the window Keras receives, the extra fixture inputs, the kwarg naming it)."""
    if window == "tensor":
        values = f.uniform(0.2, 1.0, length, dtype=dtype)
        return values, [values], "tensor"
    return window, [], window if window is not None else "none"


def stft_case(f, name, shape, sequence_length, sequence_stride, fft_length, window="hann",
              center=True, dtype=np.float32):
    x = f.randn(*shape, dtype=dtype)
    win, extra, win_name = window_arg(window, sequence_length, dtype, f)

    def run(v):
        return keras.ops.stft(v, sequence_length, sequence_stride, fft_length, window=win,
                              center=center)

    out = [np.asarray(o) for o in run(x)]
    w = [f.randn(*o.shape, dtype=dtype) for o in out]
    grad = jax.grad(lambda v: weighted_sum(run(v), w))(x)
    f.case(name, "stft", [x, *w, *extra], [*out, np.asarray(grad)],
           sequence_length=sequence_length, sequence_stride=sequence_stride,
           fft_length=fft_length, window=win_name, center=center, **tol(dtype))


def istft_case(f, name, batch, frames, sequence_length, sequence_stride, fft_length,
               length=None, window="hann", center=True, dtype=np.float32):
    bins = fft_length // 2 + 1
    re = f.randn(*batch, frames, bins, dtype=dtype)
    im = f.randn(*batch, frames, bins, dtype=dtype)
    win, extra, win_name = window_arg(window, sequence_length, dtype, f)

    def run(r, i):
        return keras.ops.istft((r, i), sequence_length, sequence_stride, fft_length,
                               length=length, window=win, center=center)

    y = np.asarray(run(re, im))
    w = f.randn(*y.shape, dtype=dtype)
    grads = jax.grad(lambda r, i: jnp.sum(run(r, i) * w), argnums=(0, 1))(re, im)
    f.case(name, "istft", [re, im, w, *extra], [y, *(np.asarray(g) for g in grads)],
           sequence_length=sequence_length, sequence_stride=sequence_stride,
           fft_length=fft_length, length=length, window=win_name, center=center, **tol(dtype))


def main():
    f = oracle.Fixture("fft", seed=33)
    complex_case(f, "fft_odd", "fft", (2, 3, 7))
    complex_case(f, "fft_even", "fft", (4, 8))
    complex_case(f, "fft_prime", "fft", (13,))
    complex_case(f, "fft_f64", "fft", (3, 6), np.float64)
    complex_case(f, "fft2_batch", "fft2", (2, 4, 6))
    complex_case(f, "fft2_odd_f64", "fft2", (3, 5), np.float64)
    complex_case(f, "ifft2_batch", "ifft2", (2, 3, 5))
    complex_case(f, "ifft2_f64", "ifft2", (4, 4), np.float64)

    rfft_case(f, "rfft_odd", (2, 7))
    rfft_case(f, "rfft_even", (3, 8))
    rfft_case(f, "rfft_pad", (3, 8), fft_length=12)
    rfft_case(f, "rfft_crop_odd", (2, 9), fft_length=5)
    rfft_case(f, "rfft_f64", (2, 3, 10), fft_length=7, dtype=np.float64)

    irfft_case(f, "irfft_default", (2, 5))
    irfft_case(f, "irfft_odd_crop", (3, 6), fft_length=9)
    irfft_case(f, "irfft_even_pad", (2, 4), fft_length=12)
    irfft_case(f, "irfft_f64", (2, 3, 6), fft_length=11, dtype=np.float64)

    stft_case(f, "stft_hann", (2, 64), 16, 8, 32)
    stft_case(f, "stft_hamming_nocenter", (3, 50), 15, 5, 16, window="hamming", center=False)
    stft_case(f, "stft_none", (2, 40), 10, 4, 10, window=None)
    stft_case(f, "stft_tensor_odd_fft", (1, 2, 45), 9, 3, 13, window="tensor")
    stft_case(f, "stft_f64", (2, 33), 12, 6, 16, dtype=np.float64)

    istft_case(f, "istft_hann", (2,), 9, 16, 8, 32)
    istft_case(f, "istft_length", (2,), 9, 16, 8, 32, length=40)
    istft_case(f, "istft_hamming_nocenter", (3,), 7, 15, 5, 16, window="hamming", center=False)
    istft_case(f, "istft_none", (2,), 6, 10, 4, 10, window=None)
    istft_case(f, "istft_tensor", (1, 2), 8, 9, 3, 13, window="tensor")
    istft_case(f, "istft_f64", (2,), 5, 12, 6, 16, dtype=np.float64)
    f.save()
    layers()


def layer_case(f, name, layer, x, keys, **tolerance):
    """The layer's output on x, its kernels (STFTSpectrogram), and its config (kwargs "config",
    the keys C++ must write back in kwargs "keys")."""
    y = np.asarray(layer(x))
    kernels = [np.asarray(w) for w in layer.weights]
    f.case(name, layer.__class__.__name__, [x], [y, *kernels], config=layer.get_config(),
           keys=keys, **(tolerance or dict(rtol=1e-4, atol=1e-4)))


STFT_KEYS = ["mode", "frame_length", "frame_step", "fft_length", "window", "periodic",
             "scaling", "padding", "data_format", "expand_dims"]
MEL_KEYS = ["fft_length", "sequence_stride", "sequence_length", "window", "sampling_rate",
            "num_mel_bins", "min_freq", "max_freq", "power_to_db", "top_db", "mag_exp",
            "min_power", "ref_power"]


def layers():
    """STFTSpectrogram in every mode and layout, MelSpectrogram with defaults and options:
    tests/oracle/fixtures/fft_layers.npz."""
    f = oracle.Fixture("fft_layers", seed=34)
    x = f.randn(2, 64, 2)
    x_first = np.ascontiguousarray(np.swapaxes(x, 1, 2))
    spec = keras.layers.STFTSpectrogram
    layer_case(f, "stft_log", spec(frame_length=16, frame_step=8), x, STFT_KEYS)
    layer_case(f, "stft_magnitude_same_hamming",
               spec(mode="magnitude", frame_length=16, frame_step=4, fft_length=32,
                    window="hamming", padding="same"), x, STFT_KEYS)
    layer_case(f, "stft_psd_spectrum", spec(mode="psd", frame_length=12, scaling="spectrum"), x,
               STFT_KEYS)
    layer_case(f, "stft_real_periodic", spec(mode="real", frame_length=10, frame_step=5,
                                             periodic=True), x, STFT_KEYS)
    layer_case(f, "stft_imag_plain", spec(mode="imag", frame_length=8, window=None,
                                          scaling=None), x, STFT_KEYS)
    layer_case(f, "stft_angle_first", spec(mode="angle", frame_length=16, frame_step=8,
                                           data_format="channels_first"), x_first, STFT_KEYS,
               rtol=1e-3, atol=1e-3)
    layer_case(f, "stft_stft_expand", spec(mode="stft", frame_length=16, frame_step=8,
                                           expand_dims=True), x, STFT_KEYS)
    layer_case(f, "stft_log_first_expand",
               spec(frame_length=16, frame_step=8, data_format="channels_first",
                    expand_dims=True), x_first, STFT_KEYS)
    layer_case(f, "stft_odd_fft_same", spec(mode="magnitude", frame_length=15, frame_step=6,
                                            fft_length=15, padding="same"), x, STFT_KEYS)
    # Keras's float64 STFT kernels are only float32-accurate (3.7e-7 from the formula evaluated
    # in float64 with NumPy); keras-cpp's are float64-accurate, so the case compares at 1e-5.
    layer_case(f, "stft_float64", spec(frame_length=16, frame_step=8, dtype="float64"),
               x.astype(np.float64), STFT_KEYS, rtol=1e-5, atol=1e-5)

    mel = keras.layers.MelSpectrogram
    audio = f.randn(2, 4000)
    db = dict(rtol=1e-4, atol=2e-3)
    layer_case(f, "mel_defaults", mel(), audio, MEL_KEYS, **db)
    layer_case(f, "mel_small", mel(fft_length=256, sequence_stride=128, num_mel_bins=32,
                                   sampling_rate=8000), audio, MEL_KEYS, **db)
    layer_case(f, "mel_linear_hamming",
               mel(fft_length=256, sequence_stride=100, sequence_length=200, window="hamming",
                   num_mel_bins=20, min_freq=50.0, max_freq=3000.0, power_to_db=False,
                   mag_exp=1.0), audio, MEL_KEYS)
    layer_case(f, "mel_unbatched_nowindow",
               mel(fft_length=128, sequence_stride=64, window=None, num_mel_bins=16,
                   top_db=40.0, ref_power=2.0, min_power=1e-6), audio[0], MEL_KEYS, **db)
    layer_case(f, "mel_float64", mel(fft_length=256, sequence_stride=128, num_mel_bins=24,
                                     dtype="float64"), audio.astype(np.float64), MEL_KEYS, **db)
    f.save()


if __name__ == "__main__":
    main()
