"""Fixtures for keras::metrics FBetaScore and F1Score: two batches accumulated, with and
without sample weights, by a NumPy transcription of Keras 3's FBetaScore
(keras/src/metrics/f_score_metrics.py): predictions thresholded at `threshold` (`>`) or, when
unset, at the row maximum (`>=`, nonzero); weighted tp/fp/fn per class (summed over everything
for "micro"); F-beta with epsilon in each denominator; "weighted" weighs by the true-label mass.

Case op: the Keras class name. kwargs: {"config", "weighted"}. Inputs: y_true0, y_pred0[, w0],
y_true1, y_pred1[, w1]. Output: result() after both batches (float32).
"""

import numpy as np

from fixture import Fixture

EPS = 1e-7


def sums(t, p, w, cfg):
    p = p.astype(np.float32)
    th = cfg.get("threshold")
    if th is None:
        pred = (p >= p.max(-1, keepdims=True)) & (np.abs(p) > 1e-9)
    else:
        pred = p > np.float32(th)
    pred = pred.astype(np.float64)
    t = t.astype(np.float64)
    w = np.ones((t.shape[0], 1)) if w is None else w.astype(np.float64)[:, None]
    axis = None if cfg.get("average") == "micro" else 0
    s = lambda v: (v * w).sum(axis=axis)
    return np.array([s(pred * t), s(pred * (1 - t)), s((1 - pred) * t), s(t)])


def result(acc, cfg, beta):
    tp, fp, fn, iw = acc
    precision = tp / (tp + fp + EPS)
    recall = tp / (tp + fn + EPS)
    f = precision * recall / (beta ** 2 * precision + recall + EPS) * (1 + beta ** 2)
    avg = cfg.get("average")
    if avg == "weighted":
        return (f * (iw / (iw.sum() + EPS))).sum()
    if avg is not None:
        return f.mean()
    return f


def main():
    f = Fixture("metrics_f_score", seed=41)
    configs = [
        ("F1Score", {}), ("F1Score", {"average": "micro"}), ("F1Score", {"average": "macro"}),
        ("F1Score", {"average": "weighted", "threshold": 0.5}), ("F1Score", {"threshold": 0.35}),
        ("FBetaScore", {"beta": 2.0}), ("FBetaScore", {"beta": 0.5, "average": "micro", "threshold": 0.4}),
        ("FBetaScore", {"beta": 1.5, "average": "weighted"}), ("FBetaScore", {"average": "macro", "threshold": 0.6}),
    ]
    for i, (cls, cfg) in enumerate(configs):
        for weighted in (False, True):
            ins, acc = [], 0
            for _ in range(2):
                t = f.randint(0, 2, 7, 4).astype(np.float32)
                p = f.uniform(0, 1, 7, 4)
                w = f.uniform(0, 2, 7) if weighted else None
                ins += [t, p] + ([w] if weighted else [])
                acc = acc + sums(t, p, w, cfg)
            out = np.asarray(result(acc, cfg, cfg.get("beta", 1.0)), np.float32)
            f.case(f"{cls}_{i}_{int(weighted)}", cls, ins, out, config=cfg, weighted=weighted,
                   rtol=1e-5, atol=2e-6)
    # Keras's docstring example: F1Score(threshold=0.5) -> [0.5, 0.8, 0.6666667].
    t = np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], np.int32)
    p = np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], np.float32)
    ref = result(sums(t, p, None, {"threshold": 0.5}), {}, 1.0)
    assert np.allclose(ref, [0.5, 0.8, 0.6666667], atol=1e-6), ref
    f.case("F1Score_docstring", "F1Score", [t, p], ref.astype(np.float32), config={"threshold": 0.5},
           weighted=False, rtol=1e-5, atol=1e-6)
    f.save()


if __name__ == "__main__":
    main()
