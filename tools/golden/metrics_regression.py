"""Fixtures for keras::metrics R2Score: two batches accumulated, with and without sample
weights, by a NumPy transcription of Keras 3's R2Score (keras/src/metrics/regression_metrics.py):
weighted sums per output, raw = 1 - residual / (squared_sum - sum * mean) with inf -> 0,
uniform / variance-weighted / no aggregation, adjusted R2 when num_regressors < n - 1. The plain
R2 is also checked against its textbook form (1 - SS_res / SS_tot on the concatenated data).

Case op: "R2Score". kwargs: {"config", "weighted"}. Inputs: y_true0, y_pred0[, w0], y_true1,
y_pred1[, w1]. Output: result() after both batches (float32).
"""

import numpy as np

from fixture import Fixture


def r2(batches, cfg):
    s = sq = res = cnt = 0
    n = 0
    for t, p, w in batches:
        t, p = t.astype(np.float64), p.astype(np.float64)
        w = np.ones_like(t) if w is None else np.broadcast_to(w.astype(np.float64)[:, None], t.shape)
        s = s + (t * w).sum(0)
        sq = sq + (t * t * w).sum(0)
        res = res + ((t - p) ** 2 * w).sum(0)
        cnt = cnt + w.sum(0)
        n += t.size  # Keras counts ops.size(y_true): every element, zero weights included
    mean = s / cnt
    total = sq - s * mean
    raw = 1 - res / total
    raw = np.where(np.isinf(raw), 0.0, raw)
    agg = cfg.get("class_aggregation", "uniform_average")
    if agg == "uniform_average":
        out = raw.mean()
    elif agg == "variance_weighted_average":
        out = (total * raw).sum() / total.sum()
    else:
        out = raw
    pr = cfg.get("num_regressors", 0)
    if pr != 0 and not (pr > n - 1) and pr != n - 1:
        out = 1 - (1 - out) * (n - 1) / (n - pr - 1)
    return out


def main():
    f = Fixture("metrics_regression", seed=53)
    configs = [{}, {"class_aggregation": "variance_weighted_average"}, {"class_aggregation": None},
               {"num_regressors": 3}, {"num_regressors": 20}, {"class_aggregation": None, "num_regressors": 2}]
    for i, cfg in enumerate(configs):
        for weighted in (False, True):
            ins, batches = [], []
            for _ in range(2):
                t = f.randn(6, 3)
                p = t + 0.5 * f.randn(6, 3)
                w = f.uniform(0, 2, 6) if weighted else None
                if weighted:
                    w[0] = 0.0  # a zero weight (it still counts in num_samples, as in Keras)
                ins += [t, p] + ([w] if weighted else [])
                batches.append((t, p, w))
            out = np.asarray(r2(batches, cfg), np.float32)
            if not cfg and not weighted:
                tt = np.concatenate([b[0] for b in batches]).astype(np.float64)
                pp = np.concatenate([b[1] for b in batches]).astype(np.float64)
                text = (1 - ((tt - pp) ** 2).sum(0) / ((tt - tt.mean(0)) ** 2).sum(0)).mean()
                assert abs(text - out) < 1e-5, (text, out)
            f.case(f"R2Score_{i}_{int(weighted)}", "R2Score", ins, out, config=cfg, weighted=weighted,
                   rtol=1e-4, atol=2e-6)
    f.save()


if __name__ == "__main__":
    main()
