"""Fixtures for keras::metrics IoU, MeanIoU, BinaryIoU, OneHotIoU and OneHotMeanIoU: two
batches accumulated, with and without sample weights, by a NumPy transcription of Keras 3's
_IoUBase.update_state / IoU.result (keras/src/metrics/iou_metrics.py): argmax for one-hot
inputs, out-of-range and ignore_class entries dropped, the confusion matrix rows = true class,
IoU = tp / (tp + fp + fn + epsilon) over classes with a non-empty denominator.

Case op: the Keras class name. kwargs: {"config", "weighted"}. Inputs: y_true0, y_pred0[, w0],
y_true1, y_pred1[, w1]. Output: result() after both batches (float32).
"""

import numpy as np

from fixture import Fixture

EPS = 1e-7


def confusion(t, p, w, n, ignore):
    t = t.reshape(-1).astype(np.float64)
    p = p.reshape(-1).astype(np.float64)
    w = np.ones_like(t) if w is None else np.broadcast_to(np.asarray(w, np.float64).reshape(-1) if np.ndim(w) > 1 else w, t.shape)
    ok = (t >= 0) & (t < n) & (p >= 0) & (p < n)
    if ignore is not None:
        ok &= t != ignore
    cm = np.zeros((n, n))
    np.add.at(cm, (t[ok].astype(np.int64), p[ok].astype(np.int64)), w[ok])
    return cm


def iou(cm, targets):
    row, col, tp = cm.sum(0), cm.sum(1), np.diag(cm)
    denom = (row + col - tp)[targets].astype(np.float32).astype(np.float64)
    tp = tp[targets]
    valid = denom > 1e-9
    v = np.where(valid, tp / (denom + EPS), 0.0)
    return v.sum() / (valid.sum() + EPS)


def update(cls, cfg, t, p, w):
    axis = cfg.get("axis", -1)
    if cls == "BinaryIoU":
        p = (p.astype(np.float32) >= np.float32(cfg.get("threshold", 0.5))).astype(np.float64)
        return confusion(t, p, w, 2, None)
    sparse_t = cfg.get("sparse_y_true", True) and cls not in ("OneHotIoU", "OneHotMeanIoU")
    sparse_p = cfg.get("sparse_y_pred", cls not in ("OneHotIoU", "OneHotMeanIoU"))
    if not sparse_t:
        t = t.argmax(axis)
    if not sparse_p:
        p = p.argmax(axis)
    return confusion(t, p, w, cfg["num_classes"], cfg.get("ignore_class"))


def targets_of(cls, cfg):
    if cls in ("MeanIoU", "OneHotMeanIoU"):
        return list(range(cfg["num_classes"]))
    if cls == "BinaryIoU":
        return list(cfg.get("target_class_ids", [0, 1]))
    return list(cfg["target_class_ids"])


def main():
    f = Fixture("metrics_iou", seed=31)
    configs = [
        ("IoU", {"num_classes": 4, "target_class_ids": [0, 2]}),
        ("IoU", {"num_classes": 4, "target_class_ids": [3], "ignore_class": 1}),
        ("IoU", {"num_classes": 3, "target_class_ids": [0, 1, 2], "sparse_y_pred": False}),
        ("MeanIoU", {"num_classes": 4}),
        ("MeanIoU", {"num_classes": 4, "ignore_class": 0}),
        ("MeanIoU", {"num_classes": 3, "sparse_y_true": False, "sparse_y_pred": False}),
        ("MeanIoU", {"num_classes": 5}),  # classes 3 and 4 absent: left out of the mean
        ("BinaryIoU", {}), ("BinaryIoU", {"target_class_ids": [1], "threshold": 0.3}),
        ("OneHotIoU", {"num_classes": 3, "target_class_ids": [0, 2]}),
        ("OneHotIoU", {"num_classes": 3, "target_class_ids": [1], "sparse_y_pred": True}),
        ("OneHotMeanIoU", {"num_classes": 3}),
        ("OneHotMeanIoU", {"num_classes": 3, "ignore_class": 2}),
    ]
    for i, (cls, cfg) in enumerate(configs):
        for weighted in (False, True):
            ins, cm = [], 0
            for b in range(2):
                n = cfg.get("num_classes", 2)
                if cls == "BinaryIoU":
                    t = f.randint(0, 2, 4, 3).astype(np.float32)
                    p = f.uniform(0, 1, 4, 3)
                    w = f.uniform(0, 2, 4, 3) if weighted else None
                else:
                    shape = (6, 2)
                    # a few out-of-range ids (-1, n) and, with 5 classes, only ids < 3
                    hi = 3 if n == 5 else n
                    ti = f.randint(0, hi, *shape)
                    pi = f.randint(0, hi, *shape)
                    if b == 1 and n != 5:
                        ti[0, 0], pi[1, 1] = -1, n
                    sparse_t = cfg.get("sparse_y_true", True) and "OneHot" not in cls
                    sparse_p = cfg.get("sparse_y_pred", "OneHot" not in cls)
                    t = ti.astype(np.float32) if sparse_t else np.eye(n, dtype=np.float32)[np.clip(ti, 0, n - 1)]
                    if sparse_p:
                        p = pi.astype(np.float32)
                    else:
                        p = f.uniform(0, 0.5, *shape, n)
                        np.put_along_axis(p, np.clip(pi, 0, n - 1)[..., None], 0.9, -1)
                    w = f.uniform(0, 2, 6, 2) if weighted else None
                ins += [t, p] + ([w] if weighted else [])
                cm = cm + update(cls, cfg, t, p, w)
            out = np.float32(iou(cm, targets_of(cls, cfg)))
            f.case(f"{cls}_{i}_{int(weighted)}", cls, ins, out, config=cfg, weighted=weighted,
                   rtol=1e-5, atol=2e-6)
    # Keras's docstring examples.
    t, p = np.array([0, 0, 1, 1], np.float32), np.array([0, 1, 0, 1], np.float32)
    w = np.array([0.3, 0.3, 0.3, 0.1], np.float32)
    f.case("IoU_docstring", "IoU", [t, p, w], np.float32(0.33333334), config={"num_classes": 2, "target_class_ids": [0]},
           weighted=True, rtol=1e-5, atol=1e-6)
    assert abs(iou(confusion(t, p, w, 2, None), [0]) - 0.33333334) < 1e-6
    f.case("MeanIoU_docstring", "MeanIoU", [t, p], np.float32(1 / 3), config={"num_classes": 2},
           weighted=False, rtol=1e-5, atol=1e-6)
    f.save()


if __name__ == "__main__":
    main()
