"""Fixtures for keras.random: the numbers a seed must give, from an independent NumPy
implementation of the contract in include/keras/random/philox.h and random.h (Philox4x32-10,
the word layout, the transforms to each distribution, the streams and the samplers). Every
backend must reproduce them. Writes tests/golden/random_streams.npz.

Each case's kwargs hold the call (shape, seed and parameters); inputs hold tensor arguments.
"""

import math

import numpy as np

from fixture import Fixture

MASK = np.uint64(0xFFFFFFFF)


def philox(c0, c1, c2, c3, k0, k1):
    """Philox4x32-10 over arrays of 32-bit values held in uint64."""
    m0, m1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
    w0, w1 = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)
    for _ in range(10):
        p0, p1 = m0 * c0, m1 * c2
        c0, c1, c2, c3 = (p1 >> np.uint64(32)) ^ c1 ^ k0, p1 & MASK, (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & MASK
        k0, k1 = (k0 + w0) & MASK, (k1 + w1) & MASK
    return c0, c1, c2, c3


def words(seed, counter, n):
    """Words 0..n-1 of the stream (seed, counter), as uint64 holding 32-bit values."""
    blocks = np.arange((n + 3) // 4, dtype=np.uint64)
    full = lambda v: np.full(blocks.shape, v, np.uint64)
    out = philox(blocks & MASK, blocks >> np.uint64(32), full(counter & 0xFFFFFFFF),
                 full(counter >> 32), full(seed & 0xFFFFFFFF), full(seed >> 32))
    return np.stack(out, axis=1).reshape(-1)[:n]


def stream(seed, counter, k):
    return seed, (counter + (k << 48)) % (1 << 64)


def words64(seed, counter, n):
    w = words(seed, counter, 2 * n)
    return w[0::2] | (w[1::2] << np.uint64(32))


def unit53(bits):
    return (bits >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def uniform(shape, dtype, seed, counter=0):
    n = int(np.prod(shape))
    if dtype == np.float64:
        return unit53(words64(seed, counter, n)).reshape(shape)
    return ((words(seed, counter, n) >> np.uint64(8)).astype(np.float64) * 2.0 ** -24).astype(np.float32).reshape(shape)


def normal(shape, dtype, seed, counter=0):
    n = int(np.prod(shape))
    pairs = (n + 1) // 2
    if dtype == np.float64:
        w = words64(seed, counter, 2 * pairs)
        u1, u2 = 1.0 - unit53(w[0::2]), unit53(w[1::2])
    else:
        w = words(seed, counter, 2 * pairs).astype(np.float64)
        u1, u2 = (w[0::2] + 1.0) * 2.0 ** -32, w[1::2] * 2.0 ** -32
    r, theta = np.sqrt(-2.0 * np.log(u1)), 2 * math.pi * u2
    z = np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1).reshape(-1)[:n]
    return z.astype(dtype).reshape(shape)


def erfinv(y):
    """erfinv by bisection then Newton steps on math.erf (to double precision)."""
    out = []
    for v in y:
        lo, hi = -6.0, 6.0
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if math.erf(mid) < v else (lo, mid)
        x = 0.5 * (lo + hi)
        for _ in range(2):
            x -= (math.erf(x) - v) / (2 / math.sqrt(math.pi) * math.exp(-x * x))
        out.append(x)
    return np.array(out)


def truncated_normal(shape, seed):
    n = int(np.prod(shape))
    u = (words(seed, 0, n).astype(np.float64) + 0.5) * 2.0 ** -32
    lo, hi = 0.022750131948179195, 0.9772498680518208
    z = math.sqrt(2) * erfinv(2.0 * (lo + u * (hi - lo)) - 1.0)
    return np.clip(z, -2, 2).astype(np.float32).reshape(shape)


def int64_bits(seed, counter, n):
    return words64(seed, counter, n).view(np.int64)


def randint(shape, lo, hi, seed):
    r = int64_bits(seed, 0, int(np.prod(shape)))
    return (np.mod(r, hi - lo) + lo).astype(np.int32).reshape(shape)


def dropout(x, rate, seed):
    keep = uniform(x.shape, np.float32, seed) < np.float32(1 - rate)
    return np.where(keep, x / np.float32(1 - rate), np.float32(0)).astype(x.dtype)


def shuffle(x, axis, seed):
    moved = np.moveaxis(x, axis, -1)
    keys = int64_bits(seed, 0, moved.size).reshape(moved.shape)
    order = np.argsort(keys, axis=-1, kind="stable")
    return np.moveaxis(np.take_along_axis(moved, order, axis=-1), -1, axis)


def categorical(logits, num_samples, seed):
    b, c = logits.shape
    u = uniform((b, num_samples, c), np.float64, seed)
    with np.errstate(divide="ignore"):
        scores = logits.astype(np.float64)[:, None, :] - np.log(-np.log(u))
    return np.argmax(scores, axis=-1).astype(np.int32)


def first_accepted(groups, test, fallback):
    result, found = None, None
    for g in range(groups):
        values, accepted = test(g)
        first = np.argmax(accepted, axis=-1)[..., None]
        chosen = np.take_along_axis(values, first, axis=-1)[..., 0]
        anyg = accepted.any(axis=-1)
        take = anyg if found is None else anyg & ~found
        result = np.where(take, chosen, fallback if result is None else result)
        found = anyg if found is None else found | anyg
        if found.all():
            break
    return result


def log_gamma(alpha, seed, base):
    boosted = alpha < 1
    d = np.where(boosted, alpha + 1, alpha) - 1 / 3
    c = 1 / np.sqrt(9 * d)

    def test(g):
        shape = alpha.shape + (4,)
        x = normal(shape, np.float64, *stream(seed, 0, base + 2 * g))
        u = uniform(shape, np.float64, *stream(seed, 0, base + 2 * g + 1))
        t = c[..., None] * x + 1
        v = t * t * t
        log_v = np.log(np.where(v > 0, v, 1.0))
        dk = d[..., None]
        with np.errstate(divide="ignore"):
            ok = (v > 0) & (np.log(u) < 0.5 * x * x + dk - dk * v + dk * log_v)
        return log_v, ok

    log_g = np.log(d) + first_accepted(2, test, 0.0)
    w = 1.0 - uniform(alpha.shape, np.float64, *stream(seed, 0, base + 4))
    with np.errstate(divide="ignore"):
        log_g = np.where(boosted, log_g + np.log(w) / alpha, log_g)
    return np.where(alpha >= 0, log_g, np.nan)


lgamma = np.vectorize(math.lgamma, otypes=[np.float64])


def binomial(n, p, seed):
    flip = p > 0.5
    q = np.where(flip, 1 - p, p)
    small = n * q < 10
    # Inversion.
    u = uniform(n.shape, np.float64, seed)
    ratio = q / (1 - q)
    pmf = np.exp(n * np.log1p(-q))
    cdf, count = pmf, np.zeros_like(n)
    for j in range(48):
        count = count + (cdf < u)
        pmf = pmf * np.maximum(n - j, 0) * ratio / (j + 1)
        cdf = cdf + pmf
    k_small = np.minimum(count, n)
    # BTRS.
    nn, qq = n[..., None], q[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        spq = np.sqrt(nn * qq * (1 - qq))
        b = spq * 2.53 + 1.15
        a = b * 0.0248 + qq * 0.01 - 0.0873
        c = nn * qq + 0.5
        v_r = 0.92 - 4.2 / b
        alpha = (5.1 / b + 2.83) * spq
        log_ratio = np.log(qq / (1 - qq))
        m = np.floor((nn + 1) * qq)
        h = lgamma(m + 1) + lgamma(nn - m + 1)

        def test(g):
            shape = n.shape + (4,)
            uu = uniform(shape, np.float64, *stream(seed, 0, 1 + 2 * g)) - 0.5
            vv = uniform(shape, np.float64, *stream(seed, 0, 2 + 2 * g))
            us = 0.5 - np.abs(uu)
            k = np.floor((a * 2 / us + b) * uu + c)
            squeeze = (us >= 0.07) & (vv <= v_r)
            inside = (k >= 0) & (k <= nn)
            kc = np.minimum(np.maximum(k, 0), nn)
            lhs = np.log(vv * alpha / (a / (us * us) + b))
            bound = h - lgamma(kc + 1) - lgamma(nn - kc + 1) + (kc - m) * log_ratio
            return kc, squeeze | (inside & (lhs <= bound))

        k_large = first_accepted(6, test, m[..., 0]) if (~small).any() else k_small
    k = np.where(small, k_small, k_large)
    k = np.where(flip, n - k, k)
    return np.where((n >= 0) & (p >= 0) & (p <= 1), k, np.nan)


f = Fixture("random_streams")
S = 20240521  # a seed with both 32-bit halves in use: 0 in the high half, so also test a wide one
WIDE = (7 << 32) | 12345

for seed in (S, WIDE):
    f.case(f"uniform_f32_{seed}", "uniform", [], uniform((3, 5), np.float32, seed), shape=[3, 5],
           dtype="float32", seed=seed)
    f.case(f"uniform_f64_{seed}", "uniform", [], uniform((7,), np.float64, seed), shape=[7],
           dtype="float64", seed=seed)
    f.case(f"normal_f32_{seed}", "normal", [], normal((9,), np.float32, seed), shape=[9],
           dtype="float32", seed=seed)
    f.case(f"normal_f64_{seed}", "normal", [], normal((2, 3), np.float64, seed), shape=[2, 3],
           dtype="float64", seed=seed)
f.case("truncated_normal", "truncated_normal", [], truncated_normal((11,), S), shape=[11],
       dtype="float32", seed=S)
f.case("randint", "randint", [], randint((12,), -5, 1000, S), shape=[12], minval=-5, maxval=1000,
       seed=S)
x = f.randn(4, 6)
f.case("dropout", "dropout", [x], dropout(x, 0.4, S), rate=0.4, seed=S)
x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
for axis in (0, 1, 2):
    f.case(f"shuffle_axis{axis}", "shuffle", [x], shuffle(x, axis, S), axis=axis, seed=S)
logits = f.randn(3, 5)
f.case("categorical", "categorical", [logits], categorical(logits, 6, S), num_samples=6, seed=S)
alpha = np.array([0.3, 0.9, 1.0, 2.5, 40.0, 0.05], np.float64)
f.case("gamma", "gamma", [alpha], np.exp(log_gamma(alpha, S, 0)), shape=[6], seed=S)
a, b = np.array([0.5, 2.0, 7.0]), np.array([0.9, 2.0, 15.0])
diff = log_gamma(a, S, 0) - log_gamma(b, S, 5)
f.case("beta", "beta", [a, b], 1 / (1 + np.exp(-diff)), shape=[3], seed=S)
n = np.array([5, 12, 100, 1000, 60, 7, 3e5, 40], np.float64)
p = np.array([0.3, 0.9, 0.05, 0.4, 0.55, 0.0, 0.6, 1.0], np.float64)
f.case("binomial", "binomial", [n, p], binomial(n, p, S), shape=[8], seed=S)
f.save()
