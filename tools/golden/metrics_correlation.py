"""Fixtures for keras::metrics PearsonCorrelation and ConcordanceCorrelation: two batches
accumulated, with and without sample weights, by NumPy transcriptions of Keras 3's
pearson_correlation / concordance_correlation (keras/src/metrics/correlation_metrics.py; the
concordance formula as Keras writes it, y_true centred on y_pred's mean in the covariance) and
MeanMetricWrapper's weighted mean over samples. Pearson is also checked against np.corrcoef.

Case op: the Keras class name. kwargs: {"config", "weighted"}. Inputs: y_true0, y_pred0[, w0],
y_true1, y_pred1[, w1]. Output: result() after both batches (float32).
"""

import numpy as np

from fixture import Fixture

EPS = 1e-7


def pearson(t, p, axis=-1):
    tn = t - t.mean(axis, keepdims=True)
    pn = p - p.mean(axis, keepdims=True)
    tn = tn / tn.std(axis, keepdims=True)
    pn = pn / pn.std(axis, keepdims=True)
    return (tn * pn).mean(axis)


def concordance(t, p, axis=-1):
    tm, pm = t.mean(axis, keepdims=True), p.mean(axis, keepdims=True)
    tv, pv = (t - tm).var(axis, keepdims=True), (p - pm).var(axis, keepdims=True)
    covar = (t - pm) * (p - pm)
    norm = tv + pv + (tm - pm) ** 2
    return (2 * covar / (norm + EPS)).mean(axis)


def main():
    f = Fixture("metrics_correlation", seed=61)
    fns = {"PearsonCorrelation": pearson, "ConcordanceCorrelation": concordance}
    for cls, fn in fns.items():
        for cfg in ({}, {"axis": 0}):
            axis = cfg.get("axis", -1)
            for weighted in (False, True):
                ins, total, count = [], 0.0, 0.0
                for _ in range(2):
                    t = f.randn(5, 5)
                    p = 0.6 * t + 0.5 * f.randn(5, 5) + 0.3
                    v = fn(t.astype(np.float64), p.astype(np.float64), axis)
                    if cls == "PearsonCorrelation" and axis == -1:
                        ref = [np.corrcoef(a, b)[0, 1] for a, b in zip(t.astype(np.float64), p.astype(np.float64))]
                        assert np.allclose(v, ref, atol=1e-9)
                    w = f.uniform(0, 2, 5) if weighted else None
                    ins += [t, p] + ([w] if weighted else [])
                    total += (v * (w if weighted else 1)).sum()
                    count += w.sum() if weighted else v.shape[0]
                f.case(f"{cls}_{axis}_{int(weighted)}", cls, ins, np.float32(total / count),
                       config=cfg, weighted=weighted, rtol=1e-5, atol=2e-6)
    f.save()


if __name__ == "__main__":
    main()
