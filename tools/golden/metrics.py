"""Fixtures for keras::metrics (the Mean/MeanMetricWrapper family): two batches accumulated,
with and without sample weights, by NumPy transcriptions of Keras 3's formulas
(keras/src/metrics/*.py); accuracies also checked against torch where it has them.

Case op: the Keras class name. kwargs: {"config": class arguments, "weighted": bool}.
Inputs: y_true0, y_pred0[, w0], y_true1, y_pred1[, w1]. Output: result() after both batches.
"""

import numpy as np
import torch

from fixture import Fixture

EPS = 1e-7


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def l2n(x):
    return x / np.sqrt(np.maximum((x * x).sum(-1, keepdims=True), 1e-12))


def values_of(cls, t, p, cfg):
    """Per-sample values (the wrapped function), float64."""
    if cls == "Accuracy":
        return (t == p).astype(np.float64)
    if cls == "BinaryAccuracy":
        return (t == (p > cfg.get("threshold", 0.5))).astype(np.float64)
    if cls == "CategoricalAccuracy":
        return (t.argmax(-1) == p.argmax(-1)).astype(np.float64)
    if cls == "SparseCategoricalAccuracy":
        tt = t[..., 0] if t.ndim == p.ndim else t
        return (tt == p.argmax(-1)).astype(np.float64)
    if cls in ("TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy"):
        k = cfg.get("k", 5)
        labels = t.argmax(-1) if cls == "TopKCategoricalAccuracy" else t
        # in_top_k: the label's score is among the k largest (ties count as in).
        score = np.take_along_axis(p, labels[:, None].astype(np.int64), -1)
        return ((p > score).sum(-1) < k).astype(np.float64)
    if cls == "MeanSquaredError":
        return ((t - p) ** 2).mean(-1)
    if cls == "MeanAbsoluteError":
        return np.abs(t - p).mean(-1)
    if cls == "MeanAbsolutePercentageError":
        return 100 * np.abs((t - p) / np.maximum(np.abs(t), EPS)).mean(-1)
    if cls == "MeanSquaredLogarithmicError":
        return ((np.log(np.maximum(p, EPS) + 1) - np.log(np.maximum(t, EPS) + 1)) ** 2).mean(-1)
    if cls == "CosineSimilarity":
        return (l2n(t) * l2n(p)).sum(-1)
    if cls == "LogCoshError":
        return np.log(np.cosh(p - t)).mean(-1)
    if cls == "KLDivergence":
        tc, pc = np.clip(t, EPS, 1), np.clip(p, EPS, 1)
        return (tc * np.log(tc / pc)).sum(-1)
    if cls == "Poisson":
        return (p - t * np.log(p + EPS)).mean(-1)
    if cls == "BinaryCrossentropy":
        ls = cfg.get("label_smoothing", 0.0)
        ts = t * (1 - ls) + 0.5 * ls
        pp = 1 / (1 + np.exp(-p)) if cfg.get("from_logits") else p
        pp = np.clip(pp, EPS, 1 - EPS)
        return (-(ts * np.log(pp) + (1 - ts) * np.log(1 - pp))).mean(-1)
    if cls == "CategoricalCrossentropy":
        lp = np.log(softmax(p)) if cfg.get("from_logits") else np.log(np.clip(p / p.sum(-1, keepdims=True), EPS, 1 - EPS))
        return -(t * lp).sum(-1)
    if cls == "SparseCategoricalCrossentropy":
        lp = np.log(softmax(p)) if cfg.get("from_logits") else np.log(np.clip(p / p.sum(-1, keepdims=True), EPS, 1 - EPS))
        return -np.take_along_axis(lp, t[:, None].astype(np.int64), -1)[:, 0]
    if cls in ("Hinge", "SquaredHinge"):
        th = 2 * t - 1
        h = np.maximum(1 - th * p, 0)
        return (h if cls == "Hinge" else h ** 2).mean(-1)
    if cls == "CategoricalHinge":
        return np.maximum(((1 - t) * p).max(-1) - (t * p).sum(-1) + 1, 0)
    if cls == "RootMeanSquaredError":
        return ((t - p) ** 2).mean(-1)
    raise KeyError(cls)


def batch(f, cls, cfg):
    b, c = 6, 4
    if cls == "Accuracy":
        return f.randint(0, 3, b).astype(np.float32), f.randint(0, 3, b).astype(np.float32)
    if cls in ("BinaryAccuracy", "BinaryCrossentropy", "Hinge", "SquaredHinge"):
        t = f.randint(0, 2, b, c).astype(np.float32)
        return t, (f.randn(b, c) if cfg.get("from_logits") or "Hinge" in cls else f.uniform(0.01, 0.99, b, c))
    if cls in ("CategoricalAccuracy", "TopKCategoricalAccuracy", "CategoricalCrossentropy", "CategoricalHinge"):
        t = np.eye(c, dtype=np.float32)[f.randint(0, c, b)]
        return t, (f.randn(b, c) if cfg.get("from_logits") or cls == "CategoricalHinge" else softmax(f.randn(b, c)).astype(np.float32))
    if cls in ("SparseCategoricalAccuracy", "SparseTopKCategoricalAccuracy", "SparseCategoricalCrossentropy"):
        t = f.randint(0, c, b, 1) if cls == "SparseCategoricalAccuracy" else f.randint(0, c, b)
        return t.astype(np.float32 if cls != "SparseTopKCategoricalAccuracy" else np.int32), (
            f.randn(b, c) if cfg.get("from_logits") else softmax(f.randn(b, c)).astype(np.float32))
    if cls == "KLDivergence":
        return softmax(f.randn(b, c)).astype(np.float32), softmax(f.randn(b, c)).astype(np.float32)
    if cls in ("Poisson", "MeanSquaredLogarithmicError"):
        return f.uniform(0, 3, b, c), f.uniform(0.1, 3, b, c)
    return f.randn(b, c), f.randn(b, c)


def main():
    f = Fixture("metrics", seed=11)
    configs = [
        ("Accuracy", {}), ("BinaryAccuracy", {}), ("BinaryAccuracy", {"threshold": 0.7}),
        ("CategoricalAccuracy", {}), ("SparseCategoricalAccuracy", {}),
        ("TopKCategoricalAccuracy", {"k": 2}), ("SparseTopKCategoricalAccuracy", {"k": 2}),
        ("SparseTopKCategoricalAccuracy", {"k": 1}),
        ("MeanSquaredError", {}), ("MeanAbsoluteError", {}), ("MeanAbsolutePercentageError", {}),
        ("MeanSquaredLogarithmicError", {}), ("CosineSimilarity", {}), ("LogCoshError", {}),
        ("KLDivergence", {}), ("Poisson", {}), ("BinaryCrossentropy", {}),
        ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.1}),
        ("CategoricalCrossentropy", {}), ("CategoricalCrossentropy", {"from_logits": True}),
        ("SparseCategoricalCrossentropy", {}), ("SparseCategoricalCrossentropy", {"from_logits": True}),
        ("Hinge", {}), ("SquaredHinge", {}), ("CategoricalHinge", {}), ("RootMeanSquaredError", {}),
    ]
    torch_checked = 0
    for i, (cls, cfg) in enumerate(configs):
        for weighted in (False, True):
            ins, total, count = [], 0.0, 0.0
            for _ in range(2):
                t, p = batch(f, cls, cfg)
                v = values_of(cls, t.astype(np.float64), p.astype(np.float64), cfg)
                if v.ndim > 1:  # Mean counts samples: trailing axes are averaged first
                    v = v.mean(axis=tuple(range(1, v.ndim)))
                ins += [t, p]
                if weighted:
                    w = f.uniform(0, 2, t.shape[0])
                    ins.append(w)
                    total += (v * w).sum()
                    count += w.sum()
                else:
                    total += v.sum()
                    count += v.shape[0]
            out = total / count
            if cls == "RootMeanSquaredError":
                out = np.sqrt(out)
            f.case(f"{cls}_{i}_{int(weighted)}", cls, ins, np.float32(out), config=cfg,
                   weighted=weighted, rtol=2e-5, atol=1e-6)
        if cls == "SparseTopKCategoricalAccuracy":
            t, p = batch(f, cls, cfg)
            k = cfg["k"]
            topk = torch.topk(torch.tensor(p), k, dim=-1).indices.numpy()
            ref = (topk == t[:, None]).any(-1).astype(np.float64)
            np.testing.assert_array_equal(ref, values_of(cls, t, p.astype(np.float64), cfg))
            torch_checked += 1
    # Mean and Sum of values of shape (batch, 3), weights per sample.
    for cls in ("Mean", "Sum"):
        for weighted in (False, True):
            ins, total, count = [], 0.0, 0.0
            for _ in range(3):
                v = f.randn(4, 3)
                ins.append(v)
                if weighted:
                    w = f.uniform(0, 2, 4)
                    ins.append(w)
                    per = v.astype(np.float64).mean(-1) if cls == "Mean" else v.astype(np.float64).sum(-1)
                    total += (per * w).sum()
                    count += w.sum()
                else:
                    total += v.astype(np.float64).mean(-1).sum() if cls == "Mean" else v.astype(np.float64).sum()
                    count += 4
            out = total / count if cls == "Mean" else total
            f.case(f"{cls}_{int(weighted)}", cls, ins, np.float32(out), config={}, weighted=weighted,
                   rtol=2e-5, atol=1e-6)
    print(f"{torch_checked} top-k configurations also agree with torch.topk")
    f.save()


if __name__ == "__main__":
    main()
