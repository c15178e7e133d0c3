"""Fixtures for keras::losses: every loss class under each reduction, with sample weights and
masks, computed by NumPy transcriptions of Keras 3's formulas (keras/src/losses/losses.py and
loss.py), cross-checked against torch.nn.functional where PyTorch has the same loss.

Case op: the Keras class name. kwargs: {"config": the class arguments, "weighted": bool,
"mask": bool}. Inputs: y_true, y_pred[, sample_weight][, mask]. Output: the loss.
"""

import numpy as np
import torch
import torch.nn.functional as F

from fixture import Fixture

EPS = 1e-7


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def bce_op(t, p, from_logits=False):
    if from_logits:
        p = sigmoid(p)
    p = np.clip(p, EPS, 1 - EPS)
    return -(t * np.log(p) + (1 - t) * np.log(1 - p))


def cce_op(t, p, from_logits=False, axis=-1):
    if from_logits:
        logp = p - p.max(axis=axis, keepdims=True)
        logp = logp - np.log(np.exp(logp).sum(axis=axis, keepdims=True))
    else:
        p = p / p.sum(axis=axis, keepdims=True)
        logp = np.log(np.clip(p, EPS, 1 - EPS))
    return -(t * logp).sum(axis=axis)


def to_hinge(t):
    return 2 * t - 1 if np.all((t == 0) | (t == 1)) else t


def l2n(x, axis):
    return x / np.sqrt(np.maximum((x * x).sum(axis=axis, keepdims=True), 1e-12))


def per_sample(cls, t, p, cfg):
    """Per-sample values of each loss (Keras's loss functions), in float64."""
    ls = cfg.get("label_smoothing", 0.0)
    axis = cfg.get("axis", -1)
    if cls == "MeanSquaredError":
        return ((t - p) ** 2).mean(-1)
    if cls == "MeanAbsoluteError":
        return np.abs(t - p).mean(-1)
    if cls == "MeanAbsolutePercentageError":
        return 100 * np.abs((t - p) / np.maximum(np.abs(t), EPS)).mean(-1)
    if cls == "MeanSquaredLogarithmicError":
        return ((np.log(np.maximum(p, EPS) + 1) - np.log(np.maximum(t, EPS) + 1)) ** 2).mean(-1)
    if cls == "CosineSimilarity":
        return -(l2n(t, axis) * l2n(p, axis)).sum(axis)
    if cls == "Huber":
        d = cfg.get("delta", 1.0)
        e = np.abs(p - t)
        return np.where(e <= d, 0.5 * e ** 2, d * e - 0.5 * d * d).mean(-1)
    if cls == "LogCosh":
        return np.log(np.cosh(p - t)).mean(-1)
    if cls == "Hinge":
        return np.maximum(1 - to_hinge(t) * p, 0).mean(-1)
    if cls == "SquaredHinge":
        return (np.maximum(1 - to_hinge(t) * p, 0) ** 2).mean(-1)
    if cls == "CategoricalHinge":
        pos = (t * p).sum(-1)
        neg = ((1 - t) * p).max(-1)
        return np.maximum(neg - pos + 1, 0)
    if cls == "KLDivergence":
        tc, pc = np.clip(t, EPS, 1), np.clip(p, EPS, 1)
        return (tc * np.log(tc / pc)).sum(-1)
    if cls == "Poisson":
        return (p - t * np.log(p + EPS)).mean(-1)
    if cls == "BinaryCrossentropy":
        ts = t * (1 - ls) + 0.5 * ls
        return bce_op(ts, p, cfg.get("from_logits", False)).mean(axis)
    if cls == "BinaryFocalCrossentropy":
        ts = t * (1 - ls) + 0.5 * ls
        pp = sigmoid(p) if cfg.get("from_logits", False) else p
        bce = bce_op(ts, pp)
        p_t = ts * pp + (1 - ts) * (1 - pp)
        focal = (1 - p_t) ** cfg.get("gamma", 2.0) * bce
        if cfg.get("apply_class_balancing", False):
            a = cfg.get("alpha", 0.25)
            focal = (ts * a + (1 - ts) * (1 - a)) * focal
        return focal.mean(axis)
    if cls == "CategoricalCrossentropy":
        ts = t * (1 - ls) + ls / p.shape[axis]
        return cce_op(ts, p, cfg.get("from_logits", False), axis)
    if cls == "CategoricalFocalCrossentropy":
        ts = t * (1 - ls) + ls / p.shape[axis]
        pp = softmax(p, axis) if cfg.get("from_logits", False) else p
        out = np.clip(pp / pp.sum(axis, keepdims=True), EPS, 1 - EPS)
        return (cfg.get("alpha", 0.25) * (1 - out) ** cfg.get("gamma", 2.0) * -ts * np.log(out)).sum(axis)
    if cls == "SparseCategoricalCrossentropy":
        ti = t.astype(np.int64)
        if ti.ndim == p.ndim:
            ti = ti[..., 0]
        ign = cfg.get("ignore_class")
        valid = np.ones(ti.shape, bool) if ign is None else ti != ign
        safe = np.where(valid, ti, 0)
        pp = np.where(valid[..., None], p, 0.0)
        oh = np.eye(p.shape[-1])[safe]
        return np.where(valid, cce_op(oh, pp, cfg.get("from_logits", False)), 0.0), valid
    if cls == "Dice":
        ax = cfg.get("axis")
        ax = tuple(ax) if isinstance(ax, list) else ax
        inter = (t * p).sum(axis=ax)
        return 1 - 2 * inter / (t.sum(axis=ax) + p.sum(axis=ax) + EPS)
    if cls == "Tversky":
        ax = cfg.get("axis")
        ax = tuple(ax) if isinstance(ax, list) else ax
        # Keras 3's tversky() calls y_true "inputs": alpha weighs sum((1 - y_pred) * y_true).
        inter = (p * t).sum(axis=ax)
        fp = ((1 - p) * t).sum(axis=ax)
        fn = (p * (1 - t)).sum(axis=ax)
        return 1 - inter / (inter + fp * cfg.get("alpha", 0.5) + fn * cfg.get("beta", 0.5) + EPS)
    if cls == "CategoricalGeneralizedCrossEntropy":
        q = cfg.get("q", 0.5)
        pt = p[np.arange(p.shape[0]), t.astype(np.int64)]
        return (1 - pt ** q) / q
    if cls == "Circle":
        gamma, margin = cfg.get("gamma", 80.0), cfg.get("margin", 0.4)
        lab = t.astype(np.int64)
        dist = np.maximum(1 - p @ p.T, 0)
        pos = lab[:, None] == lab[None, :]
        neg = ~pos
        if cfg.get("remove_diagonal", True):
            pos = pos & ~np.eye(len(lab), dtype=bool)
        pw = np.maximum((margin + dist) * pos, 0)
        nw = np.maximum((1 + margin - dist) * neg, 0)
        pwd = -gamma * pw * (margin - dist)
        nwd = gamma * nw * (1 - margin - dist)

        def lse(x, m):
            x = np.where(m, x, -np.inf)
            mx = np.max(x, axis=1, keepdims=True)
            mx = np.where(np.isfinite(mx), mx, 0)
            with np.errstate(divide="ignore"):
                return (np.log(np.exp(x - mx).sum(1)) + mx[:, 0])
        loss = np.logaddexp(0, lse(pwd, pos) + lse(nwd, neg))
        return loss, loss > 0
    raise KeyError(cls)


def reduce(values, weight, mask, reduction):
    """Keras's reduce_weighted_values."""
    if mask is not None:
        m = mask.astype(np.float64)
        if reduction in ("mean", "sum_over_batch_size"):
            m = np.where(mask, mask.size / max(mask.sum(), 1e-300) if mask.sum() else 0, 0)
        weight = m if weight is None else weight * m
    if weight is not None:
        if weight.ndim == values.ndim + 1 and weight.shape[-1] == 1:
            weight = weight[..., 0]
        values = values * weight
    if reduction == "none" or values.ndim == 0:
        return values
    total = values.sum()
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and weight is not None:
        return total / weight.sum()
    return total / values.size


def data_for(f, cls, cfg):
    b, c = 4, 5
    if cls in ("BinaryCrossentropy", "BinaryFocalCrossentropy"):
        t = f.randint(0, 2, b, c).astype(np.float32)
        p = f.randn(b, c) if cfg.get("from_logits") else f.uniform(0.02, 0.98, b, c)
    elif cls in ("CategoricalCrossentropy", "CategoricalFocalCrossentropy", "CategoricalHinge"):
        t = np.eye(c, dtype=np.float32)[f.randint(0, c, b)]
        p = f.randn(b, c) if cfg.get("from_logits") or cls == "CategoricalHinge" else softmax(f.randn(b, c))
    elif cls == "SparseCategoricalCrossentropy":
        t = f.randint(0, c, b, 3).astype(np.int32)
        p = f.randn(b, 3, c) if cfg.get("from_logits") else softmax(f.randn(b, 3, c))
    elif cls == "CategoricalGeneralizedCrossEntropy":
        t = f.randint(0, c, b).astype(np.int32)
        p = softmax(f.randn(b, c))
    elif cls in ("Hinge", "SquaredHinge"):
        t = f.randint(0, 2, b, c).astype(np.float32)
        p = f.randn(b, c)
    elif cls in ("KLDivergence",):
        t, p = softmax(f.randn(b, c)), softmax(f.randn(b, c))
    elif cls in ("Poisson", "MeanSquaredLogarithmicError"):
        t, p = f.uniform(0, 3, b, c), f.uniform(0.1, 3, b, c)
    elif cls in ("Dice", "Tversky"):
        t = f.randint(0, 2, b, c).astype(np.float32)
        p = f.uniform(0, 1, b, c)
    elif cls == "Circle":
        t = np.array([0, 1, 0, 2, 1, 0], np.int32)
        p = l2n(f.randn(6, 4).astype(np.float64), -1).astype(np.float32)
    else:
        t, p = f.randn(b, c), f.randn(b, c)
    return t.astype(t.dtype), p.astype(np.float32)


def torch_check(cls, cfg, t, p, values):
    """Per-sample values against torch.nn.functional where PyTorch has the same loss."""
    tt, pt = torch.tensor(t, dtype=torch.float64), torch.tensor(p, dtype=torch.float64)
    ref = None
    if cls == "MeanSquaredError":
        ref = F.mse_loss(pt, tt, reduction="none").mean(-1)
    elif cls == "MeanAbsoluteError":
        ref = F.l1_loss(pt, tt, reduction="none").mean(-1)
    elif cls == "Huber":
        ref = F.huber_loss(pt, tt, reduction="none", delta=cfg.get("delta", 1.0)).mean(-1)
    elif cls == "BinaryCrossentropy" and cfg.get("from_logits") and not cfg.get("label_smoothing"):
        ref = F.binary_cross_entropy_with_logits(pt, tt, reduction="none").mean(-1)
    elif cls == "CategoricalCrossentropy" and cfg.get("from_logits"):
        ref = F.cross_entropy(pt, tt, reduction="none", label_smoothing=cfg.get("label_smoothing", 0.0))
    elif cls == "SparseCategoricalCrossentropy" and cfg.get("from_logits") and cfg.get("ignore_class") is None:
        ref = F.cross_entropy(pt.permute(0, 2, 1), torch.tensor(t, dtype=torch.long), reduction="none")
    elif cls == "CosineSimilarity":
        ref = -F.cosine_similarity(pt, tt, dim=-1)
    elif cls == "KLDivergence":
        ref = F.kl_div(torch.log(torch.clamp(pt, EPS, 1)), torch.clamp(tt, EPS, 1), reduction="none").sum(-1)
    if ref is not None:
        np.testing.assert_allclose(values, ref.numpy(), rtol=1e-9, atol=1e-12, err_msg=cls)
        return True
    return False


def main():
    f = Fixture("losses", seed=7)
    configs = [
        ("MeanSquaredError", {}), ("MeanAbsoluteError", {}), ("MeanAbsolutePercentageError", {}),
        ("MeanSquaredLogarithmicError", {}), ("CosineSimilarity", {"axis": -1}),
        ("Huber", {"delta": 1.0}), ("Huber", {"delta": 0.5}), ("LogCosh", {}), ("Hinge", {}),
        ("SquaredHinge", {}), ("CategoricalHinge", {}), ("KLDivergence", {}), ("Poisson", {}),
        ("BinaryCrossentropy", {}), ("BinaryCrossentropy", {"from_logits": True}),
        ("BinaryCrossentropy", {"label_smoothing": 0.1}),
        ("BinaryFocalCrossentropy", {}),
        ("BinaryFocalCrossentropy", {"apply_class_balancing": True, "alpha": 0.3, "gamma": 1.5, "from_logits": True}),
        ("CategoricalCrossentropy", {}), ("CategoricalCrossentropy", {"from_logits": True}),
        ("CategoricalCrossentropy", {"from_logits": True, "label_smoothing": 0.2}),
        ("CategoricalFocalCrossentropy", {}), ("CategoricalFocalCrossentropy", {"from_logits": True, "label_smoothing": 0.1, "gamma": 3.0}),
        ("SparseCategoricalCrossentropy", {}), ("SparseCategoricalCrossentropy", {"from_logits": True}),
        ("SparseCategoricalCrossentropy", {"from_logits": True, "ignore_class": 2}),
        ("Dice", {}), ("Dice", {"axis": [1]}), ("Tversky", {}), ("Tversky", {"alpha": 0.7, "beta": 0.3, "axis": [1]}),
        ("CategoricalGeneralizedCrossEntropy", {"q": 0.7}),
        ("Circle", {}), ("Circle", {"gamma": 10.0, "margin": 0.25, "remove_diagonal": False}),
    ]
    checked = 0
    for i, (cls, cfg) in enumerate(configs):
        t, p = data_for(f, cls, cfg)
        res = per_sample(cls, t.astype(np.float64), p.astype(np.float64), cfg)
        values, loss_mask = res if isinstance(res, tuple) else (res, None)
        checked += torch_check(cls, cfg, t, p, values)
        reductions = ["sum_over_batch_size", "sum", "none", "mean_with_sample_weight"]
        for reduction in reductions:
            for weighted in (False, True):
                if np.ndim(values) == 0 and weighted:
                    continue
                w = f.uniform(0, 2, *np.shape(values)) if weighted else None
                out = reduce(values, None if w is None else w.astype(np.float64), loss_mask, reduction)
                ins = [t, p] + ([w] if weighted else [])
                c = dict(cfg, reduction=reduction)
                f.case(f"{cls}_{i}_{reduction}_{int(weighted)}", cls, ins, np.asarray(out, np.float32),
                       config=c, weighted=weighted, rtol=2e-5, atol=1e-6)
    # A mask on the predictions (as Embedding(mask_zero) leaves): (batch, time, features).
    t, p = f.randn(3, 4, 2), f.randn(3, 4, 2)
    mask = np.array([[1, 1, 0, 0], [1, 1, 1, 1], [1, 0, 0, 0]], bool)
    values = ((t - p) ** 2).astype(np.float64).mean(-1)
    for reduction in ("sum_over_batch_size", "sum"):
        for weighted in (False, True):
            w = f.uniform(0, 2, 3, 4) if weighted else None
            out = reduce(values, None if w is None else w.astype(np.float64), mask, reduction)
            ins = [t, p, mask] + ([w] if weighted else [])
            f.case(f"masked_mse_{reduction}_{int(weighted)}", "MeanSquaredError_masked", ins,
                   np.float32(out), config={"reduction": reduction}, weighted=weighted, rtol=2e-5, atol=1e-6)
    print(f"{checked} loss configurations also agree with torch.nn.functional")
    f.save()


if __name__ == "__main__":
    main()
