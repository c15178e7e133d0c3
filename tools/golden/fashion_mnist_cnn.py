"""Predictions of ../shared/models/fashion_mnist_cnn.keras (a Keras 3.10 Sequential CNN) computed
by a PyTorch re-implementation from the file's own weights, read with h5py. The C++ test builds
the same architecture, loads the weights from the same file and must agree.

Only the inputs and the expected outputs are written (tests/golden/fashion_mnist_cnn.npz); the
model file stays in ../shared/models."""

import io
import json
import os
import sys
import zipfile

import h5py
import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared",
                     "models", "fashion_mnist_cnn.keras")

if not os.path.exists(MODEL):
    print("skipping fashion_mnist_cnn.py:", MODEL, "is not here")
    sys.exit(0)

with zipfile.ZipFile(MODEL) as z:
    config = json.loads(z.read("config.json"))
    weights = h5py.File(io.BytesIO(z.read("model.weights.h5")), "r")
    w = {name: [np.array(weights[f"layers/{name}/vars/{i}"]) for i in range(2)]
         for name in ("conv2d", "conv2d_1", "dense", "dense_1")}
names = [layer["class_name"] for layer in config["config"]["layers"]]
assert names == ["InputLayer", "Conv2D", "MaxPooling2D", "Conv2D", "MaxPooling2D", "Flatten",
                 "Dropout", "Dense", "Dense"], names


def conv(x, kernel, bias):
    # Keras kernel (kh, kw, in, out) -> torch (out, in, kh, kw); x is NHWC.
    k = torch.tensor(kernel).permute(3, 2, 0, 1)
    y = F.conv2d(x.permute(0, 3, 1, 2), k.double(), torch.tensor(bias).double())
    return y.permute(0, 2, 3, 1)


def pool(x):
    return F.max_pool2d(x.permute(0, 3, 1, 2), 2).permute(0, 2, 3, 1)


def predict(images):
    x = torch.tensor(images.astype(np.float64))
    x = pool(torch.relu(conv(x, *w["conv2d"])))
    x = pool(torch.relu(conv(x, *w["conv2d_1"])))
    x = x.reshape(x.shape[0], -1)  # Flatten of NHWC: row-major over (h, w, c), as Keras
    x = torch.relu(x @ torch.tensor(w["dense"][0]).double() + torch.tensor(w["dense"][1]).double())
    x = x @ torch.tensor(w["dense_1"][0]).double() + torch.tensor(w["dense_1"][1]).double()
    return torch.softmax(x, dim=-1).numpy()


f = Fixture("fashion_mnist_cnn", seed=11)
images = f.uniform(0.0, 1.0, 6, 28, 28, 1)
f.case("predictions", "predict", [images], predict(images).astype(np.float32), rtol=1e-5,
       atol=1e-6)
# The first kernel as h5py reads it, for the HDF5 reader's own test.
f.case("conv2d_kernel", "read_dataset", [], w["conv2d"][0], path="layers/conv2d/vars/0")
f.save()
