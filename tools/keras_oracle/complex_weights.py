"""Complex weights in Keras 3.15's files, for tests/oracle/complex_weights_test.cpp: a model of
complex_scale.py's "oracle>ComplexScale" layers (complex_scale()) (complex64 and complex128 weights, trainable and
not) with random weights, saved by Keras as
    tests/oracle/fixtures/complex_weights/model.keras and model.weights.h5
and, in tests/oracle/fixtures/complex_weights.npz, case "predict": an input batch, Keras's
predictions and every weight's value in model.weights order; and in complex_dense.npz, case
"dense_complex_input": a Dense layer's output for a complex input (its kernel and bias given).
Run: ./scripts/oracle.sh complex_weights
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (sets up Keras on JAX with x64 first)
from oracle import Fixture  # noqa: E402
from complex_scale import complex_scale, randomize  # noqa: E402

import keras  # noqa: E402
import numpy as np  # noqa: E402


def main():
    f = Fixture("complex_weights", seed=5)
    model = complex_scale()
    randomize(model, seed=3)
    folder = os.path.join(oracle.ORACLE_DIR, "complex_weights")
    os.makedirs(folder, exist_ok=True)
    model.save(os.path.join(folder, "model.keras"))
    model.save_weights(os.path.join(folder, "model.weights.h5"))
    x = f.randn(5, 4)
    y = np.asarray(model.predict(x, verbose=0))
    weights = [np.asarray(v.value) for v in model.weights]
    f.case("predict", "predict", [x], [y, *weights], rtol=1e-5, atol=1e-6,
           paths=[v.path for v in model.weights])
    f.save()
    # A complex input through a Dense layer (a real kernel): Keras's matmul keeps it complex.
    f = Fixture("complex_dense", seed=6)
    dense = keras.layers.Dense(2)
    z = (f.randn(3, 4) + 1j * f.randn(3, 4)).astype(np.complex64)
    dense.build((None, 4))
    kernel, bias = f.randn(4, 2), f.randn(2)
    dense.set_weights([kernel, bias])
    f.case("dense_complex_input", "dense_complex_input", [z, kernel, bias],
           [np.asarray(dense(z))], rtol=1e-5, atol=1e-6)
    f.save()


if __name__ == "__main__":
    main()
