"""Fixtures for keras::metrics confusion-matrix metrics (TruePositives ... AUC): two batches
accumulated, with and without sample weights, by a NumPy transcription of Keras 3's
update_confusion_matrix_variables (keras/src/metrics/metrics_utils.py: the `>` comparison, the
bucketed path for evenly spaced thresholds, AUC's -epsilon / 1 + epsilon end thresholds) and of
each metric's result() (keras/src/metrics/confusion_metrics.py). AUC is also checked against
closed forms: 1 for a perfectly separable set, 0 for a reversed one, and the Mann-Whitney
statistic for ROC with many thresholds.

Case op: the Keras class name. kwargs: {"config": class arguments, "weighted": bool, and for
the X-at-Y metrics "value": the constraint}. Inputs: y_true0, y_pred0[, w0], y_true1,
y_pred1[, w1]. Output: result() after both batches (float32).
"""

import numpy as np

from fixture import Fixture

EPS = 1e-7
F32 = np.float32


def evenly(th):
    n = len(th)
    if n < 3:
        return False
    return np.allclose(th, np.arange(n, dtype=F32) / (n - 1), atol=EPS)


def counts(t, p, w, thresholds, even, top_k=None, class_id=None, multi_label=False, lw=None):
    """tp, fp, tn, fn per threshold: shape (T,) or (T, labels)."""
    t = t.astype(F32)
    p = p.astype(F32)
    if w is not None:
        w = w.astype(F32)[..., None]
        if w.ndim == t.ndim + 1 and w.shape[-1] == 1:
            w = w[..., 0]
    if top_k is not None:
        idx = np.argsort(-p, axis=-1, kind="stable")[..., :top_k]
        mask = np.zeros_like(p)
        np.put_along_axis(mask, idx, 1.0, -1)
        p = p * mask + F32(-1e10) * (1 - mask)
    if class_id is not None:
        t = t[..., class_id, None]
        p = p[..., class_id, None]
    w = np.ones_like(p) if w is None else np.broadcast_to(w, p.shape).astype(np.float64)
    if lw is not None and not multi_label:
        w = w * np.broadcast_to(np.asarray(lw)[None], p.shape)
    if not multi_label:
        t, p, w = t.reshape(-1), p.reshape(-1), w.reshape(-1)
    label = t != 0
    T = len(thresholds)
    if even:
        with_eps = thresholds[0] < 0 or thresholds[-1] > 1
        b = np.ceil(np.clip(p, F32(0), F32(1)) * F32(T - 1)).astype(np.float64) - 1
        if with_eps:
            b = np.maximum(b, 0)
        pos = b[None] >= np.arange(T).reshape((T,) + (1,) * b.ndim)
    else:
        th = np.asarray(thresholds, F32).reshape((T,) + (1,) * p.ndim)
        pos = p[None] > th
    lab = label[None]
    ww = w[None].astype(np.float64)
    tp = ((lab & pos) * ww).sum(1)
    fp = ((~lab & pos) * ww).sum(1)
    tn = ((~lab & ~pos) * ww).sum(1)
    fn = ((lab & ~pos) * ww).sum(1)
    return tp, fp, tn, fn


def dnn(a, b):
    b = np.asarray(b, np.float64)
    return np.where(b == 0, 0.0, np.asarray(a) / np.where(b == 0, 1.0, b))


def parse_thresholds(th, default):
    if th is None:
        return [default]
    return [th] if np.isscalar(th) else list(th)


def auc_thresholds(cfg):
    if cfg.get("thresholds") is not None:
        inner = sorted(cfg["thresholds"])
        even = evenly(np.array([0.0] + inner + [1.0]))
    else:
        n = cfg.get("num_thresholds", 200)
        inner = [(i + 1) * 1.0 / (n - 1) for i in range(n - 2)]
        even = True
    return [0.0 - EPS] + inner + [1.0 + EPS], even


def auc_result(cfg, tp, fp, tn, fn):
    curve = cfg.get("curve", "ROC").upper()
    summ = cfg.get("summation_method", "interpolation").lower()
    ml = cfg.get("multi_label", False)
    lw = cfg.get("label_weights")
    n = tp.shape[0]

    def agg(terms):
        if ml:
            by = terms.sum(0)
            return by.mean() if lw is None else dnn((by * np.asarray(lw)).sum(), np.sum(lw))
        return terms.sum()

    if curve == "PR" and summ == "interpolation":
        dtp = tp[: n - 1] - tp[1:]
        pp = tp + fp
        dp = pp[: n - 1] - pp[1:]
        slope = dnn(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - slope * pp[1:]
        ratio = np.where((pp[: n - 1] > 0) & (pp[1:] > 0), dnn(pp[: n - 1], np.maximum(pp[1:], 0)), 1.0)
        inc = dnn(slope * (dtp + intercept * np.log(ratio)), np.maximum(tp[1:] + fn[1:], 0))
        return agg(inc)
    recall = dnn(tp, tp + fn)
    if curve == "ROC":
        x, y = dnn(fp, fp + tn), recall
    elif curve == "PR":
        x, y = recall, dnn(tp, tp + fp)
    else:
        scale = dnn(tp + fn, tn + fp)
        rg = np.where(tp == 0, 0.0, 1.0 - scale * dnn(fn, tp))
        pg = np.where(tp == 0, 1.0, 1.0 - scale * dnn(fp, tp))
        x, y = np.maximum(rg, 0.0), pg
    if summ == "interpolation":
        h = (y[: n - 1] + y[1:]) / 2
    elif summ == "minoring":
        h = np.minimum(y[: n - 1], y[1:])
    else:
        h = np.maximum(y[: n - 1], y[1:])
    return agg((x[: n - 1] - x[1:]) * h)


AT = {"PrecisionAtRecall": "recall", "RecallAtPrecision": "precision",
      "SensitivityAtSpecificity": "specificity", "SpecificityAtSensitivity": "sensitivity"}
COUNTS = {"TruePositives": 0, "FalsePositives": 1, "TrueNegatives": 2, "FalseNegatives": 3}


def metric(cls, cfg, batches):
    """result() after accumulating `batches` [(t, p, w)]."""
    if cls in COUNTS:
        th = parse_thresholds(cfg.get("thresholds"), 0.5)
        acc = sum(counts(t, p, w, th, evenly(th))[COUNTS[cls]] for t, p, w in batches)
        return acc[0] if len(th) == 1 else acc
    if cls in ("Precision", "Recall"):
        top_k = cfg.get("top_k")
        th = parse_thresholds(cfg.get("thresholds"), 0.5 if top_k is None else -1e10)
        c = [counts(t, p, w, th, evenly(th), top_k=top_k, class_id=cfg.get("class_id"))
             for t, p, w in batches]
        tp = sum(x[0] for x in c)
        other = sum(x[1] if cls == "Precision" else x[3] for x in c)
        r = dnn(tp, tp + other)
        return r[0] if len(th) == 1 else r
    if cls in AT:
        n = cfg.get("num_thresholds", 200)
        th = [0.5] if n == 1 else [0.0] + [(i + 1) * 1.0 / (n - 1) for i in range(n - 2)] + [1.0]
        c = [counts(t, p, w, th, n != 1, class_id=cfg.get("class_id")) for t, p, w in batches]
        tp, fp, tn, fn = (sum(x[i] for x in c) for i in range(4))
        rec = dnn(tp, tp + fn).astype(F32)
        prec = dnn(tp, tp + fp).astype(F32)
        spec = dnn(tn, tn + fp).astype(F32)
        cons, dep = {"PrecisionAtRecall": (rec, prec), "RecallAtPrecision": (prec, rec),
                     "SensitivityAtSpecificity": (spec, rec),
                     "SpecificityAtSensitivity": (rec, spec)}[cls]
        v = F32(cfg[AT[cls]])
        return max(0.0, np.where(cons >= v, dep, 0).max())
    if cls == "AUC":
        th, even = auc_thresholds(cfg)
        c = []
        for t, p, w in batches:
            if cfg.get("from_logits"):
                p = (1 / (1 + np.exp(-p.astype(np.float64)))).astype(F32)
            c.append(counts(t, p, w, th, even, multi_label=cfg.get("multi_label", False),
                            lw=cfg.get("label_weights")))
        tp, fp, tn, fn = (sum(x[i] for x in c) for i in range(4))
        return auc_result(cfg, tp, fp, tn, fn)
    raise KeyError(cls)


def mann_whitney(t, p, w=None):
    """P(score of a positive > score of a negative) + 0.5 P(tie), weighted pairs."""
    t, p = t.reshape(-1) != 0, p.reshape(-1).astype(np.float64)
    w = np.ones_like(p) if w is None else np.broadcast_to(w.reshape(-1, *([1] * (t.ndim - 1))), p.shape).reshape(-1)
    pos, neg = p[t], p[~t]
    wp, wn = w[t], w[~t]
    gt = (pos[:, None] > neg[None]) + 0.5 * (pos[:, None] == neg[None])
    return (gt * wp[:, None] * wn[None]).sum() / (wp.sum() * wn.sum())


def main():
    f = Fixture("metrics_confusion", seed=23)

    def binary(b=8, c=3, logits=False):
        t = f.randint(0, 2, b, c).astype(F32)
        p = f.randn(b, c) * 2 if logits else f.uniform(0.0, 1.0, b, c)
        return t, p

    configs = [
        ("TruePositives", {}), ("TruePositives", {"thresholds": [0.15, 0.5, 0.85]}),
        ("FalsePositives", {"thresholds": 0.3}), ("FalsePositives", {}),
        ("TrueNegatives", {"thresholds": [0.0, 0.25, 0.5, 0.75, 1.0]}), ("TrueNegatives", {}),
        ("FalseNegatives", {"thresholds": [0.2, 0.6]}), ("FalseNegatives", {}),
        ("Precision", {}), ("Precision", {"thresholds": [0.2, 0.4, 0.7]}),
        ("Precision", {"top_k": 2}), ("Precision", {"class_id": 1}),
        ("Precision", {"top_k": 1, "class_id": 2, "thresholds": 0.3}),
        ("Recall", {}), ("Recall", {"thresholds": [0.0, 0.5, 1.0]}), ("Recall", {"top_k": 2}),
        ("Recall", {"class_id": 0, "thresholds": [0.1, 0.6]}),
        ("PrecisionAtRecall", {"recall": 0.6}), ("PrecisionAtRecall", {"recall": 0.3, "num_thresholds": 7, "class_id": 1}),
        ("RecallAtPrecision", {"precision": 0.55}), ("RecallAtPrecision", {"precision": 0.8, "num_thresholds": 1}),
        ("SensitivityAtSpecificity", {"specificity": 0.5}), ("SensitivityAtSpecificity", {"specificity": 0.8, "num_thresholds": 11}),
        ("SpecificityAtSensitivity", {"sensitivity": 0.5}), ("SpecificityAtSensitivity", {"sensitivity": 0.9, "class_id": 2}),
        ("AUC", {}), ("AUC", {"curve": "PR"}), ("AUC", {"summation_method": "minoring"}),
        ("AUC", {"summation_method": "majoring", "num_thresholds": 13}),
        ("AUC", {"curve": "PR", "summation_method": "majoring"}),
        ("AUC", {"curve": "PR", "summation_method": "minoring", "num_thresholds": 9}),
        ("AUC", {"curve": "PRGAIN"}),
        ("AUC", {"thresholds": [0.7, 0.2, 0.45]}), ("AUC", {"curve": "PR", "thresholds": [0.3, 0.6]}),
        ("AUC", {"multi_label": True}), ("AUC", {"multi_label": True, "num_labels": 3, "curve": "PR"}),
        ("AUC", {"multi_label": True, "label_weights": [0.5, 1.0, 2.0]}),
        ("AUC", {"label_weights": [0.2, 1.0, 0.7]}),
        ("AUC", {"from_logits": True, "num_thresholds": 50}),
    ]
    for i, (cls, cfg) in enumerate(configs):
        ctor_cfg = dict(cfg)
        for weighted in (False, True):
            ins, batches = [], []
            for _ in range(2):
                t, p = binary(logits=cfg.get("from_logits", False))
                w = f.uniform(0, 2, t.shape[0]) if weighted else None
                ins += [t, p] + ([w] if weighted else [])
                batches.append((t, p, w))
            out = np.asarray(metric(cls, cfg, batches), F32)
            f.case(f"{cls}_{i}_{int(weighted)}", cls, ins, out, config=ctor_cfg, weighted=weighted,
                   rtol=1e-5, atol=2e-6)

    # Rank-1 inputs, weights per element.
    for cls, cfg in (("Precision", {"thresholds": [0.3, 0.5]}), ("AUC", {"curve": "PR"}),
                     ("FalseNegatives", {})):
        ins, batches = [], []
        for _ in range(2):
            t = f.randint(0, 2, 10).astype(F32)
            p = f.uniform(0, 1, 10)
            w = f.uniform(0, 2, 10)
            ins += [t, p, w]
            batches.append((t, p, w))
        f.case(f"{cls}_rank1", cls, ins, np.asarray(metric(cls, cfg, batches), F32), config=cfg,
               weighted=True, rtol=1e-5, atol=2e-6)

    # Closed forms for AUC: separable -> 1, reversed -> 0, Mann-Whitney with many thresholds.
    t = np.array([0, 0, 0, 1, 1, 1], F32)
    p = np.array([0.1, 0.2, 0.35, 0.6, 0.8, 0.9], F32)
    for curve in ("ROC", "PR"):
        f.case(f"AUC_separable_{curve}", "AUC", [t, p], F32(1.0), config={"curve": curve},
               weighted=False, rtol=0, atol=1e-6)
        assert abs(metric("AUC", {"curve": curve}, [(t, p, None)]) - 1.0) < 1e-6
    f.case("AUC_reversed", "AUC", [t, 1 - p], F32(0.0), config={}, weighted=False, rtol=0, atol=1e-6)
    assert abs(metric("AUC", {}, [(t, 1 - p, None)])) < 1e-6
    for weighted in (False, True):
        ins, batches, allt, allp, allw = [], [], [], [], []
        for _ in range(2):
            t = f.randint(0, 2, 200).astype(F32)
            p = np.clip(f.randn(200) * 0.2 + 0.4 + 0.2 * t, 0.001, 0.999).astype(F32)
            w = f.uniform(0.1, 2, 200) if weighted else None
            ins += [t, p] + ([w] if weighted else [])
            batches.append((t, p, w))
            allt.append(t), allp.append(p), allw.append(w if weighted else np.ones(200, F32))
        mw = mann_whitney(np.concatenate(allt), np.concatenate(allp), np.concatenate(allw))
        cfg = {"num_thresholds": 5000}
        ref = metric("AUC", cfg, batches)
        assert abs(ref - mw) < 2e-3, (ref, mw)
        f.case(f"AUC_mann_whitney_{int(weighted)}", "AUC", ins, F32(mw), config=cfg,
               weighted=weighted, rtol=0, atol=2e-3)
    f.save()


if __name__ == "__main__":
    main()
