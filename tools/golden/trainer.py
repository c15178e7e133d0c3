"""Fixtures for Model::fit/evaluate/predict: small models trained by a NumPy transcription of
Keras 3's training loop (batches in order, loss tracker weighted by batch size, metrics on the
pre-update predictions, validation on the last fraction of the samples after each epoch) with
plain SGD, whose update is var -= lr * grad in Keras and PyTorch alike.

Cases (op names):
  regression: Dense(2) on 3 features, MSE, SGD(0.1), batch 4, 10 samples, 2 epochs, no
    shuffle, validation_split 0.2. Inputs: x, y, kernel0, bias0. Outputs: kernel, bias,
    loss per epoch, val_loss per epoch, predict(x).
  classifier: Dense(3, softmax), sparse categorical crossentropy, SGD(0.5), batch 5, 12
    samples, 3 epochs, sample weights, metrics=["accuracy"], weighted_metrics=["accuracy"].
    Inputs: x, y, w, kernel0, bias0. Outputs: kernel, bias, loss, accuracy, weighted_accuracy
    (per epoch).
"""

import numpy as np
import torch

from fixture import Fixture


def regression(f):
    x = f.randn(10, 3)
    y = f.randn(10, 2)
    k0 = f.randn(3, 2) * 0.5
    b0 = f.randn(2) * 0.1
    k, b = k0.astype(np.float64), b0.astype(np.float64)
    xt, yt, xv, yv = x[:8].astype(np.float64), y[:8].astype(np.float64), x[8:].astype(np.float64), y[8:].astype(np.float64)
    losses, val_losses = [], []
    for _ in range(2):
        total, count = 0.0, 0
        for s in range(0, 8, 4):
            xb, yb = xt[s:s + 4], yt[s:s + 4]
            pred = xb @ k + b
            loss = ((pred - yb) ** 2).mean()
            g = 2 * (pred - yb) / pred.size
            k -= 0.1 * xb.T @ g
            b -= 0.1 * g.sum(0)
            total += loss * len(xb)
            count += len(xb)
        losses.append(total / count)
        val_losses.append((((xv @ k + b) - yv) ** 2).mean())
    # Cross-check the update with torch.optim.SGD on the same data.
    tk = torch.tensor(k0, dtype=torch.float64, requires_grad=True)
    tb = torch.tensor(b0, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.SGD([tk, tb], lr=0.1)
    for _ in range(2):
        for s in range(0, 8, 4):
            opt.zero_grad()
            loss = ((torch.tensor(xt[s:s + 4]) @ tk + tb - torch.tensor(yt[s:s + 4])) ** 2).mean()
            loss.backward()
            opt.step()
    np.testing.assert_allclose(tk.detach().numpy(), k, rtol=1e-12)
    f.case("regression", "regression", [x, y, k0, b0],
           [k.astype(np.float32), b.astype(np.float32), np.float32(losses), np.float32(val_losses),
            (x.astype(np.float64) @ k + b).astype(np.float32)], rtol=1e-4, atol=1e-6)


def classifier(f):
    x = f.randn(12, 4)
    y = f.randint(0, 3, 12)
    w = f.uniform(0.2, 2.0, 12)
    k0 = f.randn(4, 3) * 0.3
    b0 = np.zeros(3, np.float32)
    k, b = k0.astype(np.float64), b0.astype(np.float64)
    losses, accs, waccs = [], [], []
    for _ in range(3):
        lt = lc = at = ac = wt = wc = 0.0
        for s in range(0, 12, 5):
            xb, yb, wb = x[s:s + 5].astype(np.float64), y[s:s + 5], w[s:s + 5].astype(np.float64)
            z = xb @ k + b
            p = np.exp(z - z.max(1, keepdims=True))
            p /= p.sum(1, keepdims=True)
            n = len(xb)
            nll = -np.log(np.clip(p[np.arange(n), yb], 1e-7, 1 - 1e-7))
            loss = (nll * wb).sum() / n  # sum_over_batch_size divides by the batch size
            onehot = np.eye(3)[yb]
            g = (p - onehot) * wb[:, None] / n
            correct = (p.argmax(1) == yb).astype(np.float64)
            k -= 0.5 * xb.T @ g
            b -= 0.5 * g.sum(0)
            lt += loss * n
            lc += n
            at += correct.sum()
            ac += n
            wt += (correct * wb).sum()
            wc += wb.sum()
        losses.append(lt / lc)
        accs.append(at / ac)
        waccs.append(wt / wc)
    f.case("classifier", "classifier", [x, y, w, k0, b0],
           [k.astype(np.float32), b.astype(np.float32), np.float32(losses), np.float32(accs),
            np.float32(waccs)], rtol=1e-4, atol=1e-6)


def main():
    f = Fixture("trainer", seed=5)
    regression(f)
    classifier(f)
    f.save()


if __name__ == "__main__":
    main()
