"""Functional graphs as Keras 3.15 builds them, for tests/oracle/graphs_test.cpp: nested
Functional and Sequential models (used once, twice, two levels deep), layers with several
outputs, per-node call arguments (initial_state, use_causal_mask, return_attention_scores,
mask) and keras.ops calls recorded as graph nodes (NotEqual from Embedding(mask_zero), Mean,
Add, Concatenate, Reshape, ...).

Writes tests/oracle/fixtures/graphs/<kind>.keras and, in tests/oracle/fixtures/graphs.npz:
    op "predict_keras"   load_model(<kind>.keras), predict(inputs) == outputs; the C++ test also
                         compares the reloaded model's get_config() with the file's, key for key
    op "train_resume"    (kind "transfer", compiled and trained one epoch) two train_on_batch
                         steps after loading, then the predictions on a probe batch
    op "train_resume_losses"  the two losses of those steps.
Run: ./scripts/oracle.sh graphs
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402,F401  (sets up Keras on JAX first)

import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras import layers, ops  # noqa: E402

import models  # noqa: E402  (add_resume_cases)

GRAPHS_DIR = os.path.join(oracle.ORACLE_DIR, "graphs")
PREDICT_TOL = {"rtol": 1e-5, "atol": 1e-6}


def transfer(dropout=0.1):
    """keras.applications' pattern: a Functional base called on the model's input."""
    bi = keras.Input((6,), name="base_input")
    bh = layers.Dense(8, activation="relu", name="base_dense")(bi)
    base = keras.Model(bi, layers.Dense(4, name="base_features")(bh), name="base")
    x = keras.Input((6,), name="image")
    h = base(x)
    if dropout:
        h = layers.Dropout(dropout)(h)
    out = layers.Dense(3, activation="softmax", name="head")(h)
    return keras.Model(x, out, name="transfer")


def siamese():
    """A Functional tower used twice, with a Functional inside it (two levels), and a nested
    Sequential used once."""
    ii = keras.Input((4,))
    inner = keras.Model(ii, layers.Dense(5, name="inner_dense")(ii), name="inner")
    ti = keras.Input((4,))
    tower = keras.Model(ti, layers.Dense(3, activation="tanh", name="tower_dense")(inner(ti)),
                        name="tower")
    head = keras.Sequential([keras.Input((6,)), layers.Dense(4, activation="relu"),
                             layers.Dense(1)], name="head")
    a = keras.Input((4,), name="left")
    b = keras.Input((4,), name="right")
    joined = layers.Concatenate()([tower(a), tower(b)])
    return keras.Model([a, b], head(joined), name="siamese")


def rnn_states():
    """An LSTM encoder's states start a GRU decoder; causal self-attention in between."""
    seq = keras.Input((5, 3), name="sequence")
    h0 = keras.Input((4,), name="h0")
    c0 = keras.Input((4,), name="c0")
    o, h, c = layers.LSTM(4, return_sequences=True, return_state=True,
                          name="encoder")(seq, initial_state=[h0, c0])
    a = layers.Attention(use_scale=True, name="self_attention")([o, o], use_causal_mask=True)
    g = layers.GRU(4, name="decoder")(a, initial_state=h)
    return keras.Model([seq, h0, c0], [g, c], name="rnn_states")


def masked_ops():
    """Embedding(mask_zero) records a NotEqual node and the LSTM's mask argument; an explicit
    mask= from ops; ops on symbolic tensors."""
    ids = keras.Input((6,), dtype="int32", name="ids")
    e = layers.Embedding(12, 4, mask_zero=True, name="embed")(ids)
    seq = layers.LSTM(3, return_sequences=True, name="lstm")(e)
    pooled = ops.mean(seq, axis=1)
    plain = layers.Embedding(12, 4, name="plain_embed")(ids)
    gru = layers.GRU(3, name="gru")(plain, mask=ops.not_equal(ids, 0))
    joined = ops.concatenate([pooled * 2.0 + 1.0, ops.maximum(gru, 0.0)], axis=-1)
    out = ops.reshape(joined, (-1, 3, 2))
    return keras.Model(ids, [out, ops.sum(out, axis=-1)], name="masked_ops")


def attention_flags():
    """MultiHeadAttention with a key distinct from the value and a causal mask, one returning
    its scores, and AdditiveAttention with a causal mask."""
    q = keras.Input((4, 6), name="query")
    v = keras.Input((5, 6), name="value")
    k = keras.Input((5, 6), name="key")
    cross = layers.MultiHeadAttention(2, 3, name="cross")(q, v, key=k)
    self_out, scores = layers.MultiHeadAttention(2, 3, name="self")(
        cross, cross, use_causal_mask=True, return_attention_scores=True)
    additive = layers.AdditiveAttention(name="additive")([self_out, self_out],
                                                         use_causal_mask=True)
    return keras.Model([q, v, k], [additive, scores], name="attention_flags")


def nested_outputs():
    """Outputs nested in a list ([a, [b, c]]), as an RNN with return_state over stacked cells
    gives them."""
    x = keras.Input((4,), name="features")
    return keras.Model(x, [layers.Dense(2, name="a")(x),
                           [layers.Dense(3, name="b")(x), layers.Dense(1, name="c")(x)]],
                       name="nested_outputs")


# Cases whose reloaded config keras-cpp writes differently on purpose, with the reason.
CONFIG_DIFFERS = {
    "nested_outputs": "keras-cpp's models take and give their tensors as a flat list: a nested "
                      "output structure is read, and written back flat",
}


def transfer_compiled():
    """transfer() without Dropout (keras-cpp's random stream is not JAX's, and resumed steps
    must match), compiled with Adam."""
    model = transfer(dropout=0)
    model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01),
                  loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return model


def example_graph():
    """The Python twin of examples/functional_graph_model.h (same layers, names and graph)."""
    base_in = keras.Input((16,), name="base_input")
    hidden = layers.Dense(12, activation="relu", name="base_dense")(base_in)
    base = keras.Model(base_in, layers.Dense(8, name="base_proj")(hidden), name="base")
    image = keras.Input((16,), name="image")
    sequence = keras.Input((5, 3), name="sequence")
    h0 = keras.Input((6,), name="state_h")
    c0 = keras.Input((6,), name="state_c")
    o, h, c = layers.LSTM(6, return_sequences=True, return_state=True,
                          name="encoder")(sequence, initial_state=[h0, c0])
    decoded = layers.GRU(6, name="decoder")(o, initial_state=h)
    joined = ops.concatenate([base(image), ops.mean(o, axis=1) * 0.5 + decoded], axis=-1)
    out = layers.Dense(3, activation="softmax", name="classifier")(ops.relu(joined))
    return keras.Model([image, sequence, h0, c0], [out, c], name="example_graph")


def as_list(y):
    return [np.asarray(t) for t in (y if isinstance(y, (list, tuple)) else [y])]


def main():
    os.makedirs(GRAPHS_DIR, exist_ok=True)
    f = oracle.Fixture("graphs", seed=24)
    ids = f.randint(1, 12, 4, 6)
    ids[0, 4:] = 0  # padded rows: the masks matter
    ids[2, 2:] = 0
    kinds = {
        "transfer": (transfer, lambda: [f.randn(4, 6)]),
        "siamese": (siamese, lambda: [f.randn(3, 4), f.randn(3, 4)]),
        "rnn_states": (rnn_states, lambda: [f.randn(3, 5, 3), f.randn(3, 4), f.randn(3, 4)]),
        "masked_ops": (masked_ops, lambda: [ids.astype(np.int32)]),
        "attention_flags": (attention_flags,
                            lambda: [f.randn(2, 4, 6), f.randn(2, 5, 6), f.randn(2, 5, 6)]),
        "example_graph": (example_graph, lambda: [f.randn(3, 16), f.randn(3, 5, 3),
                                                  f.randn(3, 6), f.randn(3, 6)]),
        "nested_outputs": (nested_outputs, lambda: [f.randn(3, 4)]),
    }
    for seed, (kind, (build, make_inputs)) in enumerate(kinds.items()):
        keras.backend.clear_session()
        keras.utils.set_random_seed(300 + seed)
        model = build()
        inputs = make_inputs()
        outputs = keras.tree.flatten(model.predict(inputs if len(inputs) > 1 else inputs[0],
                                                   verbose=0))
        model.save(os.path.join(GRAPHS_DIR, kind + ".keras"))
        extra = {"config_differs": CONFIG_DIFFERS[kind]} if kind in CONFIG_DIFFERS else {}
        f.case(kind + "_keras", "predict_keras", inputs, [np.asarray(o) for o in outputs],
               file=kind, **PREDICT_TOL, **extra)

    # The transfer model compiled and trained one epoch resumes training.
    keras.backend.clear_session()
    keras.utils.set_random_seed(400)
    model = transfer_compiled()
    x, y = f.randn(32, 6), f.randint(0, 3, 32)
    model.fit(x, y, batch_size=8, epochs=1, shuffle=False, verbose=0)
    model.save(os.path.join(GRAPHS_DIR, "transfer_compiled.keras"))
    probe = f.randn(4, 6)
    models.add_resume_cases(f, model, "transfer", "transfer_compiled", probe, features=6)
    f.save()
    for name in sorted(os.listdir(GRAPHS_DIR)):
        size = os.path.getsize(os.path.join(GRAPHS_DIR, name))
        assert size < 200_000, name
        print(f"  graphs/{name}: {size} bytes")


if __name__ == "__main__":
    main()
