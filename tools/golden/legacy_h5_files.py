"""Small legacy Keras 2 .h5 files written with h5py in Keras 2's layout
(keras/src/legacy/saving/legacy_h5_format.py), for tests/saving/legacy_h5_test.cpp:

- weights_only.h5: a weights-only file (layer_names at the root) of
  Input(4) -> Dense(3) -> BatchNormalization -> Dropout -> Dense(2); names as fixed-length bytes
  (h5py 2 era), BatchNormalization's weights in Keras 2's trainable-then-non-trainable order,
  Dropout with an empty float64 weight_names array.
- bad_weight_count.h5: the same, but dense_1 lists only its kernel.
- sequential_full.h5: a full model (model_config, training_config, model_weights) of the same
  network as a Keras 2.4-2.10 Sequential (an InputLayer named dense_input, a legacy Adam with
  lr/decay), names as variable-length strings.
- no_model_config.h5: model_weights without the model_config attribute.
- deep_config.h5: a model_config nested 5000 lists deep (a hostile file: refused, no crash).

The values are random; the tests compare what keras-cpp loads with what h5py wrote (read back
through keras-cpp's H5 reader, itself checked against h5py in h5_test.cpp)."""

import json
import os

import h5py
import numpy as np

from fixture import GOLDEN_DIR

out = os.path.join(GOLDEN_DIR, "legacy_h5")
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(5)

weights = {
    "dense": [("dense/kernel:0", rng.standard_normal((4, 3))),
              ("dense/bias:0", rng.standard_normal(3))],
    "batch_normalization": [
        ("batch_normalization/gamma:0", rng.uniform(0.5, 1.5, 3)),
        ("batch_normalization/beta:0", rng.standard_normal(3)),
        ("batch_normalization/moving_mean:0", rng.standard_normal(3)),
        ("batch_normalization/moving_variance:0", rng.uniform(0.5, 1.5, 3))],
    "dropout": [],
    "dense_1": [("dense_1/kernel:0", rng.standard_normal((3, 2))),
                ("dense_1/bias:0", rng.standard_normal(2))],
}


def names(values, vlen):
    if not values:
        return np.array([], dtype=np.float64)  # what Keras 2 writes for a layer without weights
    if vlen:
        return np.array(values, dtype=h5py.string_dtype())
    return np.array([v.encode() for v in values])


def write_weights(group, layer_weights, vlen):
    group.attrs["backend"] = "tensorflow"
    group.attrs["keras_version"] = "2.13.1"
    group.attrs["layer_names"] = names(list(layer_weights), vlen)
    for layer, ws in layer_weights.items():
        g = group.create_group(layer)
        g.attrs["weight_names"] = names([n for n, _ in ws], vlen)
        for n, value in ws:
            g.create_dataset(n, data=value.astype(np.float32), track_times=False)


with h5py.File(os.path.join(out, "weights_only.h5"), "w") as f:
    write_weights(f, weights, vlen=False)

with h5py.File(os.path.join(out, "bad_weight_count.h5"), "w") as f:
    write_weights(f, {**weights, "dense_1": weights["dense_1"][:1]}, vlen=False)


def layer(class_name, name, **config):
    return {"class_name": class_name,
            "config": {"name": name, "trainable": True, "dtype": "float32", **config}}


model_config = {"class_name": "Sequential", "config": {"name": "sequential", "layers": [
    {"class_name": "InputLayer", "config": {"batch_input_shape": [None, 4], "dtype": "float32",
                                            "sparse": False, "ragged": False,
                                            "name": "dense_input"}},
    layer("Dense", "dense", units=3, activation="relu", use_bias=True,
          kernel_initializer={"class_name": "GlorotUniform", "config": {"seed": None}},
          bias_initializer={"class_name": "Zeros", "config": {}},
          kernel_regularizer={"class_name": "L2", "config": {"l2": 0.01}},
          bias_regularizer=None, activity_regularizer=None,
          kernel_constraint={"class_name": "MaxNorm", "config": {"max_value": 2, "axis": 0}},
          bias_constraint=None),
    layer("BatchNormalization", "batch_normalization", axis=[1], momentum=0.99, epsilon=0.001,
          center=True, scale=True,
          beta_initializer={"class_name": "Zeros", "config": {}},
          gamma_initializer={"class_name": "Ones", "config": {}},
          moving_mean_initializer={"class_name": "Zeros", "config": {}},
          moving_variance_initializer={"class_name": "Ones", "config": {}},
          beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
          gamma_constraint=None),
    layer("Dropout", "dropout", rate=0.5, noise_shape=None, seed=None),
    layer("Dense", "dense_1", units=2, activation="softmax", use_bias=True,
          kernel_initializer={"class_name": "GlorotUniform", "config": {"seed": None}},
          bias_initializer={"class_name": "Zeros", "config": {}},
          kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
          kernel_constraint=None, bias_constraint=None),
]}}
training_config = {
    "loss": "sparse_categorical_crossentropy",
    "metrics": [[{"class_name": "MeanMetricWrapper",
                  "config": {"name": "accuracy", "dtype": "float32",
                             "fn": "sparse_categorical_accuracy"}}]],
    "weighted_metrics": None, "loss_weights": None,
    "optimizer_config": {"class_name": "Adam", "config": {
        "name": "Adam", "lr": 0.0020000000949949026, "decay": 0.0, "beta_1": 0.9,
        "beta_2": 0.999, "epsilon": 1e-07, "amsgrad": False}}}

with h5py.File(os.path.join(out, "sequential_full.h5"), "w") as f:
    f.attrs["backend"] = "tensorflow"
    f.attrs["keras_version"] = "2.9.0"
    f.attrs["model_config"] = json.dumps(model_config)
    f.attrs["training_config"] = json.dumps(training_config)
    write_weights(f.create_group("model_weights"),
                  {"dense_input": [], **weights}, vlen=True)

with h5py.File(os.path.join(out, "no_model_config.h5"), "w") as f:
    f.attrs["keras_version"] = "2.13.1"
    write_weights(f.create_group("model_weights"), weights, vlen=True)

with h5py.File(os.path.join(out, "deep_config.h5"), "w") as f:
    f.attrs["model_config"] = "[" * 5000 + "]" * 5000
    write_weights(f.create_group("model_weights"), weights, vlen=True)

print("wrote", sorted(os.listdir(out)))
