"""Dense against PyTorch: the layer's output and the gradients of sum(output * upstream) with
respect to the input, the kernel and the bias (tests/layers/dense_test.cpp). The kernel is in
Keras layout (input_dim, units), which is torch.nn.functional.linear's weight transposed."""

import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

f = Fixture("layers_dense", seed=5)
torch.set_default_dtype(torch.float64)

ACTIVATIONS = {
    "linear": lambda z: z,
    "relu": torch.relu,
    "sigmoid": torch.sigmoid,
    "tanh": torch.tanh,
    "gelu": lambda z: F.gelu(z),  # keras.activations.gelu: exact (erf) form
    "softmax": lambda z: torch.softmax(z, dim=-1),
    "elu": F.elu,
    "selu": F.selu,
    "softplus": F.softplus,
    "silu": F.silu,
}


def dense_case(name, batch_shape, units, activation="linear", use_bias=True, dtype=np.float32):
    in_dim = batch_shape[-1]
    x = f.randn(*batch_shape, dtype=dtype)
    kernel = f.randn(in_dim, units, dtype=dtype) * 0.5
    bias = f.randn(units, dtype=dtype) * 0.5
    up = f.randn(*batch_shape[:-1], units, dtype=dtype)
    tx, tk, tb = (torch.tensor(a.astype(np.float64), requires_grad=True) for a in (x, kernel, bias))
    z = tx @ tk + (tb if use_bias else 0)
    y = ACTIVATIONS[activation](z)
    (y * torch.tensor(up.astype(np.float64))).sum().backward()
    weights = [kernel, bias] if use_bias else [kernel]
    grads = [tx.grad, tk.grad] + ([tb.grad] if use_bias else [])
    outs = [y.detach().numpy().astype(dtype)] + [g.numpy().astype(dtype) for g in grads]
    f.case(name, "dense", [x] + weights + [up], outs, units=units, activation=activation,
           use_bias=use_bias, n_inputs=1, n_weights=len(weights), rtol=1e-5, atol=1e-5)


dense_case("linear_wide", (8, 5), 3)
for act in ACTIVATIONS:
    dense_case(f"{act}_2d", (6, 4), 5, act)
dense_case("relu_3d", (2, 3, 4), 6, "relu")
dense_case("no_bias", (4, 3), 2, "tanh", use_bias=False)
dense_case("float64", (5, 3), 4, "sigmoid", dtype=np.float64)
f.save()
