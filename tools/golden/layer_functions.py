"""keras.activations by name, keras.regularizers and keras.constraints against NumPy/PyTorch
(tests/layer_functions/*). Keras's defaults: leaky_relu slope 0.2, gelu exact, elu/celu alpha 1."""

import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

f = Fixture("layer_functions", seed=21)
x = f.randn(3, 5) * 2
t = torch.tensor(x.astype(np.float64))

activations = {
    "relu": torch.relu(t), "relu6": F.relu6(t), "sigmoid": torch.sigmoid(t),
    "tanh": torch.tanh(t), "softplus": F.softplus(t), "softsign": F.softsign(t),
    "silu": F.silu(t), "swish": F.silu(t), "gelu": F.gelu(t), "elu": F.elu(t),
    "selu": F.selu(t), "celu": F.celu(t), "leaky_relu": F.leaky_relu(t, 0.2),
    "hard_sigmoid": F.relu6(t + 3) / 6, "hard_silu": t * F.relu6(t + 3) / 6,
    "hard_swish": t * F.relu6(t + 3) / 6, "mish": t * torch.tanh(F.softplus(t)),
    "exponential": torch.exp(t), "linear": t, "log_sigmoid": F.logsigmoid(t),
    "softmax": torch.softmax(t, -1), "log_softmax": torch.log_softmax(t, -1),
    "tanh_shrink": t - torch.tanh(t), "hard_tanh": F.hardtanh(t),
}
for name, y in activations.items():
    f.case(f"activation_{name}", "activation", [x], y.numpy().astype(np.float32), fn=name,
           rtol=1e-5, atol=1e-6)

w = f.randn(4, 6)
n = np.float64
f.case("l1", "regularizer", [w], np.float32(0.01 * np.abs(w.astype(n)).sum()), fn="l1")
f.case("l2", "regularizer", [w], np.float32(0.01 * (w.astype(n) ** 2).sum()), fn="l2")
f.case("l1_l2", "regularizer", [w], np.float32(0.01 * np.abs(w.astype(n)).sum() + 0.01 * (w.astype(n) ** 2).sum()),
       fn="l1_l2")
for mode, axis in (("rows", 1), ("columns", 0)):
    v = w.astype(n) / np.maximum(np.linalg.norm(w.astype(n), axis=axis, keepdims=True), 1e-12)
    p = v @ v.T if mode == "rows" else v.T @ v
    size = p.shape[0]
    off = p * (1 - np.eye(size))
    val = 0.01 * 0.5 * np.abs(off).sum() / (size * (size - 1) / 2)
    f.case(f"orthogonal_{mode}", "regularizer", [w], np.float32(val), fn="orthogonal_regularizer",
           mode=mode, rtol=1e-5)

eps = 1e-7
norms0 = np.sqrt((w.astype(n) ** 2).sum(axis=0, keepdims=True))
f.case("max_norm", "constraint", [w], (w * (np.clip(norms0, 0, 2.0) / (eps + norms0))).astype(np.float32),
       fn="max_norm", rtol=1e-5)
desired = 1.0 * np.clip(norms0, 0.0, 1.0)
f.case("min_max_norm", "constraint", [w], (w * (desired / (eps + norms0))).astype(np.float32),
       fn="min_max_norm", rtol=1e-5)
f.case("non_neg", "constraint", [w], np.maximum(w, 0), fn="non_neg")
f.case("unit_norm", "constraint", [w], (w / (eps + norms0)).astype(np.float32), fn="unit_norm", rtol=1e-5)
f.save()
