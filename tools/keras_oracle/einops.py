"""keras.ops.rearrange against real Keras 3.15 (JAX backend), for tests/ops_shapes or wherever
tests/oracle replays it: tests/oracle/fixtures/einops.npz, op "rearrange" with kwargs pattern
and axes_lengths, on Keras's own docstring patterns (transpose, merges, splits with one length
inferred, space-to-depth) and a few more (a group kept whole, an int tensor, a 1-d identity);
and tests/oracle/fixtures/einops_model.keras, a Functional model with a Rearrange op node, with
its predictions (op "rearrange_model").
Run: ./scripts/oracle.sh einops
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402,F401  (sets up Keras on JAX with x64 first)

import keras  # noqa: E402
import numpy as np  # noqa: E402

CASES = [
    ("transpose", "b h w c -> b c h w", {}),
    ("merge_batch", "b h w c -> (b h) w c", {}),
    ("merge_width", "b h w c -> h (b w) c", {}),
    ("flatten", "b h w c -> b (c h w)", {}),
    ("patches", "b (h1 h) (w1 w) c -> (b h1 w1) h w c", {"h1": 2, "w1": 2}),
    ("space_to_depth", "b (h h1) (w w1) c -> b h w (c h1 w1)", {"h1": 2, "w1": 2}),
    ("infer_first", "b (h h1) w c -> b h h1 w c", {"h1": 3}),
    ("group_kept", "b h w c -> b (h w c)", {}),
    ("spaces", "  b h   w c->c  (w   h) b  ", {}),
]


def main():
    f = oracle.Fixture("einops", seed=3)
    images = f.randn(2, 6, 4, 3)
    for name, pattern, lengths in CASES:
        out = np.asarray(keras.ops.rearrange(images, pattern, **lengths))
        f.case(name, "rearrange", [images], [out], pattern=pattern, axes_lengths=lengths)
    ints = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    f.case("int32", "rearrange", [ints],
           [np.asarray(keras.ops.rearrange(ints, "a b c -> c (a b)"))],
           pattern="a b c -> c (a b)", axes_lengths={})
    vec = f.randn(5)
    f.case("identity_1d", "rearrange", [vec], [np.asarray(keras.ops.rearrange(vec, "n -> n"))],
           pattern="n -> n", axes_lengths={})
    # A Functional graph with rearrange as an op node (Rearrange, lengths as call kwargs):
    # saved by Keras, keras-cpp loads it and predicts the same.
    # (A fixed batch: Keras 3.15's symbolic rearrange multiplies a None batch and fails.)
    inputs = keras.Input((6, 4, 3), batch_size=2)
    y = keras.ops.rearrange(inputs, "b (h h1) (w w1) c -> b h w (c h1 w1)", h1=2, w1=2)
    y = keras.layers.Dense(2)(y)
    model = keras.Model(inputs, y)
    model.save(os.path.join(oracle.ORACLE_DIR, "einops_model.keras"))
    # An eager call: under jit (predict) Keras 3.15's rearrange computes lengths with
    # ops.prod, which JAX traces, and reshape refuses the traced lengths.
    f.case("model", "rearrange_model", [images], [np.asarray(model(images))])
    f.save()


if __name__ == "__main__":
    main()
