"""Predictions of two real Python Keras files in ../shared/models, computed by NumPy
re-implementations from the files' own weights (read with h5py). The C++ tests rebuild the same
architectures (by hand, and through load_model), load the weights from the same files and must
agree.

- heart_functional_bn.keras (Keras 3.10, Functional): Dense(128, relu), BatchNormalization
  (inference: moving statistics), Dropout(0.4) (identity at inference), Dense(64, relu),
  Dense(1, sigmoid).
- churn_functional_keras2.h5 (Keras 2.13 legacy HDF5, Functional): dense(16, relu) ->
  dense_1(8, relu); concatenate[dense, dense_1] -> dense_2(8, relu);
  concatenate_1[concatenate, dense_2] -> dense_3(1, sigmoid).

Only the inputs and the expected outputs are written (tests/golden/real_models_heart.npz and
real_models_churn.npz); the model files stay in ../shared/models."""

import io
import json
import os
import sys
import zipfile

import h5py
import numpy as np

from fixture import Fixture

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared",
                      "models")
HEART = os.path.join(MODELS, "heart_functional_bn.keras")
CHURN = os.path.join(MODELS, "churn_functional_keras2.h5")

for path in (HEART, CHURN):
    if not os.path.exists(path):
        print("skipping real_models.py:", path, "is not here")
        sys.exit(0)


def relu(x):
    return np.maximum(x, 0.0)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def dense(x, kernel, bias):
    return x @ kernel.astype(np.float64) + bias.astype(np.float64)


# ---- heart_functional_bn.keras: the .keras zip, weights at layers/<snake class>[_k]/vars/<i> --
with zipfile.ZipFile(HEART) as z:
    heart_config = json.loads(z.read("config.json"))
    with h5py.File(io.BytesIO(z.read("model.weights.h5")), "r") as h:
        def heart_vars(group, count):
            return [np.array(h[f"layers/{group}/vars/{i}"]) for i in range(count)]
        hw = {"dense": heart_vars("dense", 2), "bn": heart_vars("batch_normalization", 4),
              "dense_1": heart_vars("dense_1", 2), "dense_2": heart_vars("dense_2", 2)}
heart_layers = [(l["class_name"], l["config"]["name"]) for l in heart_config["config"]["layers"]]
assert heart_layers == [("InputLayer", "input_layer_7"), ("Dense", "dense_21"),
                        ("BatchNormalization", "batch_normalization_7"), ("Dropout", "dropout_7"),
                        ("Dense", "dense_22"), ("Dense", "dense_23")], heart_layers
bn_config = heart_config["config"]["layers"][2]["config"]
assert bn_config["epsilon"] == 0.001 and bn_config["axis"] == -1


def heart_predict(x):
    x = relu(dense(x.astype(np.float64), *hw["dense"]))
    gamma, beta, mean, var = (v.astype(np.float64) for v in hw["bn"])
    x = (x - mean) / np.sqrt(var + bn_config["epsilon"]) * gamma + beta
    x = relu(dense(x, *hw["dense_1"]))
    return sigmoid(dense(x, *hw["dense_2"]))


f = Fixture("real_models_heart", seed=21)
x = f.randn(8, 11)
f.case("predictions", "predict", [x], heart_predict(x).astype(np.float32), rtol=1e-5, atol=1e-5)
f.save()

# ---- churn_functional_keras2.h5: Keras 2 model_weights/<layer>/<weight_name> ---------------------
with h5py.File(CHURN, "r") as h:
    churn_config = json.loads(h.attrs["model_config"])
    mw = h["model_weights"]
    cw = {}
    for name in mw.attrs["layer_names"]:
        name = name.decode() if isinstance(name, bytes) else name
        names = [n.decode() if isinstance(n, bytes) else n for n in mw[name].attrs["weight_names"]]
        cw[name] = [np.array(mw[name][n]) for n in names]
churn_layers = [(l["class_name"], l["name"]) for l in churn_config["config"]["layers"]]
assert churn_layers == [("InputLayer", "input_1"), ("Dense", "dense"), ("Dense", "dense_1"),
                        ("Concatenate", "concatenate"), ("Dense", "dense_2"),
                        ("Concatenate", "concatenate_1"), ("Dense", "dense_3")], churn_layers


def churn_predict(x):
    x = x.astype(np.float64)
    d = relu(dense(x, *cw["dense"]))
    d1 = relu(dense(d, *cw["dense_1"]))
    c = np.concatenate([d, d1], axis=-1)
    d2 = relu(dense(c, *cw["dense_2"]))
    c1 = np.concatenate([c, d2], axis=-1)
    return sigmoid(dense(c1, *cw["dense_3"]))


f = Fixture("real_models_churn", seed=22)
x = f.uniform(-1.0, 0.5, 8, 30)  # spread over both classes (not saturated)
f.case("predictions", "predict", [x], churn_predict(x).astype(np.float32), rtol=1e-5, atol=1e-5)
f.save()
