"""Legacy Keras 2 HDF5 model files written by tf_keras 2.21 that keras-cpp must load.

Writes tests/oracle/fixtures/legacy/sequential_adam.h5 (a compiled Sequential trained one epoch,
so the file holds training_config and optimizer_weights) and legacy/functional.h5 (a
two-input Functional with BatchNormalization, never compiled), and in
tests/oracle/fixtures/legacy.npz the predictions tf_keras makes on fixed inputs:
    op "predict_legacy"  load_model(legacy/<file>.h5), predict(inputs) == outputs
                         (kwargs "compiled": whether the file carries a training config).
Float32 at rtol 1e-5 / atol 1e-6 (summation order only). Needs tensorflow-cpu and tf-keras
(requirements-oracle.txt). Run: ./scripts/oracle.sh legacy_h5
"""

import os
import sys

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"  # plain kernels: no oneDNN reordering of sums
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (paths and the fixture writer; Keras 3 itself is not used here)

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_keras  # noqa: E402
from tf_keras import layers  # noqa: E402

assert tf_keras.__version__.startswith("2.21"), tf_keras.__version__
LEGACY_DIR = os.path.join(oracle.ORACLE_DIR, "legacy")
TOL = {"rtol": 1e-5, "atol": 1e-6}


def sequential_adam(f):
    model = tf_keras.Sequential([layers.Dense(8, activation="relu", input_shape=(6,)),
                                 layers.Dense(3, activation="softmax")])
    model.compile(optimizer=tf_keras.optimizers.Adam(learning_rate=0.01),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(f.randn(32, 6), f.randint(0, 3, 32), batch_size=8, epochs=1, shuffle=False,
              verbose=0)
    return model


def functional(f):
    a = tf_keras.Input((4,), name="a")
    b = tf_keras.Input((3,), name="b")
    h = layers.Concatenate()([layers.Dense(5, activation="tanh")(a), layers.Dense(5)(b)])
    bn = layers.BatchNormalization()
    h = bn(h)
    model = tf_keras.Model([a, b], layers.Dense(2)(h))
    gamma, beta, mean, var = bn.get_weights()  # moving statistics away from 0 and 1
    bn.set_weights([f.uniform(0.5, 1.5, *gamma.shape), f.randn(*beta.shape) * 0.5,
                    f.randn(*mean.shape) * 0.5, f.uniform(0.5, 2.0, *var.shape)])
    return model


def main():
    os.makedirs(LEGACY_DIR, exist_ok=True)
    f = oracle.Fixture("legacy", seed=17)
    tf.keras.utils.set_random_seed(1)
    model = sequential_adam(f)
    x = f.randn(5, 6)
    model.save(os.path.join(LEGACY_DIR, "sequential_adam.h5"))  # .h5: the legacy HDF5 format
    f.case("sequential_adam", "predict_legacy", [x], [model.predict(x, verbose=0)],
           file="sequential_adam", compiled=True, **TOL)

    tf.keras.utils.set_random_seed(2)
    model = functional(f)
    xa, xb = f.randn(4, 4), f.randn(4, 3)
    model.save(os.path.join(LEGACY_DIR, "functional.h5"))
    f.case("functional", "predict_legacy", [xa, xb], [model.predict([xa, xb], verbose=0)],
           file="functional", compiled=False, **TOL)
    f.save()
    for name in sorted(os.listdir(LEGACY_DIR)):
        print(f"  legacy/{name}: {os.path.getsize(os.path.join(LEGACY_DIR, name))} bytes")


if __name__ == "__main__":
    main()
