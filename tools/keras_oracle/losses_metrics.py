"""Losses and metrics against real Keras: the cases of tests/golden/losses.npz and
tests/golden/metrics*.npz replayed through keras.losses / keras.metrics classes built from the
same config, plus cases the NumPy goldens lack, written to tests/oracle/fixtures/ under the same
names.

Losses (op: the Keras class name; kwargs {"config", "weighted"}; inputs y_true, y_pred
[, sample_weight]; output: the reduced loss). "MeanSquaredError_masked" carries a boolean mask
on y_pred (inputs y_true, y_pred, mask[, sample_weight]), set with keras's set_keras_mask as a
masking layer leaves it. New loss cases ("extra_*"): reduction "mean" and None, weights of shape
(batch, 1), label smoothing and from_logits variants, ignore_class with 1-D labels, masks under
every reduction.

Metrics (op: the class name; kwargs {"config", "weighted"}; inputs y_true0, y_pred0[, w0],
y_true1, ...; "Mean"/"Sum" take values0[, w0], ...): result() after the last batch. New cases
("per_batch": true, "*_3batch"): three weighted batches (the golden's two and the first again
with its rows reversed and fresh weights), outputs result() after each batch.

Where keras-cpp is known to answer otherwise, the case carries "keras_cpp_differs" with the
reason (keras_cpp_differs() below; the C++ test prints and skips it). Keras's IoU metrics default
to dtype int32 and truncate float sample weights, so each weighted IoU case also has a
"_float32" twin built with dtype="float32", which is compared.

Tolerances: the golden's (2e-5 / 1e-6 for losses and wrapper metrics, 1e-5 / 2e-6 for the
others); both sides compute in float32, so only summation order differs.

Run: ./scripts/oracle.sh losses_metrics
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (sets up the JAX backend before keras)

import warnings  # noqa: E402

import jax.numpy as jnp  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras.src.backend import set_keras_mask  # noqa: E402

F32 = np.float32
warnings.filterwarnings("ignore", message=".*weight as `float`.*")  # Keras's IoU int32 default
warnings.filterwarnings("ignore", message=".*adjusted R2.*")


def keras_cpp_differs(op, kw):
    """The reason keras-cpp gives another answer for this case, or None (each one is a finding
    reported with the fixture; the C++ test prints and skips it)."""
    cfg = kw.get("config", {})
    if (op in ("IoU", "MeanIoU", "BinaryIoU", "OneHotIoU", "OneHotMeanIoU") and kw.get("weighted")
            and "dtype" not in cfg):
        return ("Keras 3.15's IoU metrics default to dtype int32 and cast float sample weights "
                "to int (truncating them, with a warning); keras-cpp keeps float32 weights. "
                "The '_float32' twin of this case (dtype='float32') is compared")
    return None


def case(f, name, op, ins, out, **kw):
    """Adds a case, marking a known keras-cpp difference."""
    reason = keras_cpp_differs(op, kw)
    if reason:
        kw["keras_cpp_differs"] = reason
    f.case(name, op, ins, out, **kw)


def f32(x):
    return np.asarray(x, dtype=F32)


# ---- losses ---------------------------------------------------------------------------------

def keras_loss(op, kw, ins):
    cfg = kw["config"]
    if op == "MeanSquaredError_masked":
        pred = jnp.asarray(ins[1])
        set_keras_mask(pred, jnp.asarray(ins[2]))
        loss = keras.losses.MeanSquaredError(**cfg)
        return f32(loss(ins[0], pred, sample_weight=ins[3] if kw["weighted"] else None))
    loss = getattr(keras.losses, op)(**cfg)
    return f32(loss(ins[0], ins[1], sample_weight=ins[2] if kw["weighted"] else None))


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return (e / e.sum(-1, keepdims=True)).astype(F32)


def extra_losses(f):
    """Cases the NumPy golden lacks; each under weighted and unweighted."""
    b, c = 4, 5
    onehot = lambda n: np.eye(c, dtype=F32)[f.randint(0, c, n)]
    data = {
        "mse": ("MeanSquaredError", {}, lambda: (f.randn(b, c), f.randn(b, c))),
        "bce_logits_smooth": ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.2},
                              lambda: (f.randint(0, 2, b, c).astype(F32), f.randn(b, c))),
        "bce_smooth_axis": ("BinaryCrossentropy", {"label_smoothing": 0.3, "axis": -1},
                            lambda: (f.randint(0, 2, b, c).astype(F32), f.uniform(0.02, 0.98, b, c))),
        "bfce_logits": ("BinaryFocalCrossentropy", {"from_logits": True, "gamma": 2.0},
                        lambda: (f.randint(0, 2, b, c).astype(F32), f.randn(b, c))),
        "bfce_smooth_balanced": ("BinaryFocalCrossentropy",
                                 {"apply_class_balancing": True, "label_smoothing": 0.1},
                                 lambda: (f.randint(0, 2, b, c).astype(F32), f.uniform(0.02, 0.98, b, c))),
        "cce_smooth": ("CategoricalCrossentropy", {"label_smoothing": 0.1},
                       lambda: (onehot(b), softmax(f.randn(b, c)))),
        "cfce_logits": ("CategoricalFocalCrossentropy", {"from_logits": True},
                        lambda: (onehot(b), f.randn(b, c))),
        "scce_ignore": ("SparseCategoricalCrossentropy", {"ignore_class": 0},
                        lambda: (f.randint(0, c, b * 2).astype(np.int32), softmax(f.randn(b * 2, c)))),
        "scce_ignore_logits": ("SparseCategoricalCrossentropy", {"from_logits": True, "ignore_class": 3},
                               lambda: (f.randint(0, c, b * 2, 1).astype(np.int32), f.randn(b * 2, c))),
        "huber": ("Huber", {"delta": 0.3}, lambda: (f.randn(b, c), f.randn(b, c))),
        "cosine_axis0": ("CosineSimilarity", {"axis": 0}, lambda: (f.randn(b, c), f.randn(b, c))),
        "kld": ("KLDivergence", {}, lambda: (softmax(f.randn(b, c)), softmax(f.randn(b, c)))),
    }
    n = 0
    for key, (cls, cfg, make) in data.items():
        for reduction in ("mean", None, "sum_over_batch_size", "sum", "mean_with_sample_weight", "none"):
            if reduction in ("sum_over_batch_size", "sum", "none") and key not in ("scce_ignore", "huber"):
                continue  # the golden covers these reductions for the other classes
            t, p = make()
            for weighted in (False, True):
                shape = (t.shape[0],) if cls != "CosineSimilarity" else (c,)
                ins = [t, p] + ([f.uniform(0, 2, *shape)] if weighted else [])
                config = dict(cfg, reduction=reduction)
                kw = {"config": config, "weighted": weighted}
                case(f, f"extra_{key}_{reduction}_{int(weighted)}", cls, ins, keras_loss(cls, kw, ins),
                       **kw, rtol=2e-5, atol=1e-6)
                n += 1
    # Weights of shape (batch, 1): Keras squeezes them to the per-sample values.
    t, p = f.randn(b, c), f.randn(b, c)
    ins = [t, p, f.uniform(0, 2, b, 1)]
    for reduction in ("sum_over_batch_size", "mean_with_sample_weight"):
        kw = {"config": {"reduction": reduction}, "weighted": True}
        case(f, f"extra_weight_column_{reduction}", "MeanSquaredError", ins,
               keras_loss("MeanSquaredError", kw, ins), **kw, rtol=2e-5, atol=1e-6)
        n += 1
    # Labels (batch,) against predictions (batch, 1): LossFunctionWrapper brings them to one rank
    # (its own random stream, so the cases above keep their data).
    rs = np.random.RandomState(11)
    for cls, cfg in [("BinaryCrossentropy", {}), ("BinaryFocalCrossentropy", {"gamma": 2.0}),
                     ("Hinge", {}), ("SquaredHinge", {}), ("Poisson", {}), ("KLDivergence", {})]:
        ins = [rs.randint(0, 2, b).astype(F32), rs.uniform(0.02, 0.98, (b, 1)).astype(F32)]
        kw = {"config": cfg, "weighted": False}
        case(f, f"extra_rank1_labels_{cls}", cls, ins, keras_loss(cls, kw, ins), **kw,
             rtol=2e-5, atol=1e-6)
        n += 1
    # A mask under every reduction, with and without weights.
    t, p = f.randn(3, 4, 2), f.randn(3, 4, 2)
    mask = np.array([[1, 1, 0, 0], [1, 1, 1, 1], [1, 0, 0, 0]], bool)
    w = f.uniform(0, 2, 3, 4)
    for reduction in ("mean", "none", "mean_with_sample_weight"):
        for weighted in (False, True):
            ins = [t, p, mask] + ([w] if weighted else [])
            kw = {"config": {"reduction": reduction}, "weighted": weighted}
            case(f, f"extra_masked_mse_{reduction}_{int(weighted)}", "MeanSquaredError_masked", ins,
                   keras_loss("MeanSquaredError_masked", kw, ins), **kw, rtol=2e-5, atol=1e-6)
            n += 1
    return n


def losses():
    f = oracle.Fixture("losses", seed=7)
    golden = oracle.load_cases(os.path.join(oracle.GOLDEN_DIR, "losses.npz"))
    worst = 0.0
    for name, (op, kw, ins, outs) in sorted(golden.items()):
        out = keras_loss(op, kw, ins)
        if not keras_cpp_differs(op, kw):
            worst = max(worst, rel_diff(out, outs[0]))
        case(f, name, op, ins, out, **kw)
    n = extra_losses(f)
    print(f"losses: {len(golden)} golden cases replayed (largest relative gap to the NumPy "
          f"golden {worst:.2e}), {n} new")
    f.save()


# ---- metrics --------------------------------------------------------------------------------

def make_metric(op, cfg):
    return getattr(keras.metrics, op)(**cfg)


def batches_of(op, kw, ins):
    """[(y_true, y_pred, weight)] or, for Mean/Sum, [(values, weight)]."""
    weighted = kw["weighted"]
    if op in ("Mean", "Sum"):
        s = 2 if weighted else 1
        return [(ins[i], ins[i + 1] if weighted else None) for i in range(0, len(ins), s)]
    s = 3 if weighted else 2
    return [(ins[i], ins[i + 1], ins[i + 2] if weighted else None) for i in range(0, len(ins), s)]


def keras_metric(op, kw, ins):
    m = make_metric(op, kw["config"])
    results = []
    for batch in batches_of(op, kw, ins):
        if op in ("Mean", "Sum"):
            m.update_state(batch[0], sample_weight=batch[1])
        else:
            m.update_state(batch[0], batch[1], sample_weight=batch[2])
        results.append(f32(m.result()))
    return results if kw.get("per_batch") else results[-1]


def rel_diff(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape:
        return float("inf")
    return float(np.max(np.abs(a - b) / (np.abs(b) + 1e-6), initial=0.0))


def metrics(name):
    f = oracle.Fixture(name, seed=101)
    golden = oracle.load_cases(os.path.join(oracle.GOLDEN_DIR, name + ".npz"))
    worst, worst_case, extra = 0.0, "", 0
    for name_, (op, kw, ins, outs) in sorted(golden.items()):
        out = keras_metric(op, kw, ins)
        d = rel_diff(out, outs[0])
        if d > worst and not keras_cpp_differs(op, kw):
            worst, worst_case = d, name_
        case(f, name_, op, ins, out, **kw)
        if keras_cpp_differs(op, kw) and op.endswith(("IoU")):
            kw32 = dict(kw, config=dict(kw["config"], dtype="float32"))
            case(f, name_ + "_float32", op, ins, keras_metric(op, kw32, ins), **kw32)
            extra += 1
        # Three weighted batches, result() after each: only from the weighted two-batch cases.
        batches = batches_of(op, kw, ins)
        if kw["weighted"] and len(batches) == 3:  # Mean and Sum: already three batches
            kw3 = dict(kw, per_batch=True)
            case(f, name_ + "_per_batch", op, ins, keras_metric(op, kw3, ins), **kw3)
            extra += 1
        if not kw["weighted"] or len(batches) != 2:
            continue
        first = batches[0]
        third = [np.ascontiguousarray(x[::-1]) for x in first[:-1]]
        third.append(f.uniform(0, 2, *np.shape(first[-1])))
        ins3 = [x for b in batches for x in b] + third
        kw3 = dict(kw, per_batch=True)
        case(f, name_ + "_3batch", op, ins3, keras_metric(op, kw3, ins3), **kw3)
        extra += 1
        if keras_cpp_differs(op, kw3) and op.endswith("IoU"):
            kw32 = dict(kw3, config=dict(kw3["config"], dtype="float32"))
            case(f, name_ + "_3batch_float32", op, ins3, keras_metric(op, kw32, ins3), **kw32)
            extra += 1
    print(f"{name}: {len(golden)} golden cases replayed (largest relative gap to the NumPy "
          f"golden {worst:.2e} in {worst_case}), {extra} three-batch cases")
    f.save()


def main():
    losses()
    for name in ("metrics", "metrics_confusion", "metrics_correlation", "metrics_f_score",
                 "metrics_iou", "metrics_regression"):
        metrics(name)


if __name__ == "__main__":
    main()
