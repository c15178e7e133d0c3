"""Keras 3.15's TensorBoard callback, run for real, and the event files it writes read back by
TensorFlow: tests/oracle/fixtures/tensorboard_events.json for tests/callbacks/tensorboard_test.cpp.

The oracle venv has TensorFlow but not the tensorboard package, which implements
tf.summary.scalar and tf.summary.histogram; Keras's callback gets a `summary` module whose
scalar and histogram do what tensorboard's summary_v2 versions do (plugin "scalars": a float32
scalar tensor; plugin "histograms": TensorBoard's 30 buckets as a float64 (k, 3) tensor), both
through TensorFlow's own tf.summary.write, create_file_writer and record_if. Everything else
(the callback's logic, steps, tags, record_if scopes, keras_model_summary) is Keras's.

    python tensorboard_events.py              # writes the fixture
    python tensorboard_events.py --check DIR  # reads keras-cpp's event files (DIR/<run>/...,
                                              # kept by the C++ test with KERAS_TB_KEEP=DIR)
                                              # with TensorFlow (TFRecordDataset checks the
                                              # CRCs) and compares them with the fixture
"""

import glob
import json
import math
import os
import shutil
import sys
import tempfile

import oracle  # noqa: F401  (JAX backend, before keras)
import keras
import numpy as np
import tensorflow as tf
from tensorflow.core.framework import summary_pb2
from tensorflow.core.util import event_pb2

FIXTURE = os.path.join(oracle.ORACLE_DIR, "tensorboard_events.json")


def _metadata(plugin):
    return summary_pb2.SummaryMetadata(
        plugin_data=summary_pb2.SummaryMetadata.PluginData(plugin_name=plugin)
    )


def _buckets(data, bucket_count=30):
    # tensorboard/plugins/histogram/summary_v2.py _buckets, in TensorFlow ops.
    data = tf.cast(tf.reshape(data, [-1]), tf.float64)
    if int(tf.size(data)) == 0:
        return tf.zeros((0, 3), tf.float64)
    min_, max_ = tf.reduce_min(data), tf.reduce_max(data)
    range_ = max_ - min_
    if float(range_) == 0:
        return tf.stack([[min_ - 0.5, min_ + 0.5, tf.cast(tf.size(data), tf.float64)]])
    width = range_ / tf.cast(bucket_count, tf.float64)
    idx = tf.minimum(tf.cast(tf.floor((data - min_) / width), tf.int32), bucket_count - 1)
    counts = tf.reduce_sum(tf.one_hot(idx, depth=bucket_count, dtype=tf.float64), axis=0)
    edges = tf.linspace(min_, max_, bucket_count + 1)
    edges = tf.concat([edges[:-1], [max_]], 0)
    return tf.transpose(tf.stack([edges[:-1], edges[1:], counts]))


class Summary:
    """tensorflow.summary with tensorboard's scalar and histogram."""

    def __getattr__(self, name):
        return getattr(tf.summary, name)

    @staticmethod
    def scalar(name, data, step=None, description=None):
        with tf.summary.experimental.summary_scope(name, "scalar_summary", [data, step]) as (tag, _):
            return tf.summary.write(tag=tag, tensor=tf.cast(data, tf.float32), step=step,
                                    metadata=_metadata("scalars"))

    @staticmethod
    def histogram(name, data, step=None, buckets=None, description=None):
        with tf.summary.experimental.summary_scope(name, "histogram_summary", [data, step]) as (tag, _):
            return tf.summary.write(tag=tag, tensor=_buckets(np.asarray(data)), step=step,
                                    metadata=_metadata("histograms"))


# The runs: TensorBoard options, fit epochs, and whether model.evaluate runs after fit.
RUNS = {
    "epoch": dict(options=dict(histogram_freq=1), epochs=2, evaluate=True),
    "batch": dict(options=dict(update_freq="batch"), epochs=2, evaluate=False),
    "every3": dict(options=dict(update_freq=3, histogram_freq=2), epochs=3, evaluate=False),
    "nograph": dict(options=dict(write_graph=False), epochs=1, evaluate=False),
}


def data():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(8, 3)).astype("float32")
    y = (x @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3).astype("float32")
    xv = rng.normal(size=(6, 3)).astype("float32")
    yv = (xv @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3).astype("float32")
    return x, y, xv, yv


def make_model(weights=None):
    inputs = keras.Input((3,), name="x")
    h = keras.layers.Dense(4, activation="relu", name="hidden")(inputs)
    outputs = keras.layers.Dense(1, name="out")(h)
    model = keras.Model(inputs, outputs, name="tb_model")
    if weights is not None:
        model.set_weights(weights)
    model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=["mae"])
    return model


def read_events(folder):
    """The events of the event files under folder/{train,validation}, read by TensorFlow."""
    out = []
    for sub in ("train", "validation"):
        for path in sorted(glob.glob(os.path.join(folder, sub, "events.out.tfevents.*"))):
            for raw in tf.data.TFRecordDataset(path):  # checks both CRCs of every record
                e = event_pb2.Event.FromString(raw.numpy())
                if e.HasField("file_version"):
                    out.append(dict(dir=sub, file_version=e.file_version,
                                    writer=e.source_metadata.writer,
                                    file=os.path.basename(path)))
                    continue
                for v in e.summary.value:
                    t = tf.make_ndarray(v.tensor)
                    rec = dict(dir=sub, tag=v.tag, step=e.step,
                               plugin=v.metadata.plugin_data.plugin_name,
                               content=v.metadata.plugin_data.content.decode(),
                               dtype=int(v.tensor.dtype), shape=list(t.shape))
                    if t.dtype == object:
                        rec["text"] = t.item().decode()
                    else:
                        rec["values"] = [float(a) for a in t.reshape(-1)]
                    out.append(rec)
    return out


def generate():
    x, y, xv, yv = data()
    keras.utils.set_random_seed(3)
    weights = [w.astype("float32") for w in make_model().get_weights()]
    fixture = dict(x=x.tolist(), y=y.tolist(), x_val=xv.tolist(), y_val=yv.tolist(),
                   weights=[dict(shape=list(w.shape), values=w.reshape(-1).tolist())
                            for w in weights],
                   learning_rate=0.05, batch_size=4, runs={})
    tmp = tempfile.mkdtemp()
    try:
        for name, run in RUNS.items():
            log_dir = os.path.join(tmp, name)
            model = make_model(weights)
            cb = keras.callbacks.TensorBoard(log_dir=log_dir, **run["options"])
            cb._summary_module = Summary()
            history = model.fit(x, y, validation_data=(xv, yv), epochs=run["epochs"],
                                batch_size=4, shuffle=False, verbose=0, callbacks=[cb])
            if run["evaluate"]:
                model.evaluate(xv, yv, batch_size=4, verbose=0, callbacks=[cb])
            events = read_events(log_dir)
            fixture["runs"][name] = dict(options=run["options"], epochs=run["epochs"],
                                         evaluate=run["evaluate"], history=history.history,
                                         events=events)
            if name == "epoch":
                # TensorFlow's first train file whole, to compare byte for byte.
                first = sorted(glob.glob(os.path.join(log_dir, "train", "events.*")))[0]
                with open(first, "rb") as f:
                    fixture["train_file_hex"] = f.read().hex()
    finally:
        shutil.rmtree(tmp)
    with open(FIXTURE, "w") as f:
        json.dump(fixture, f, indent=None, separators=(",", ":"))
    print(f"{os.path.relpath(FIXTURE, oracle.ROOT)}: "
          f"{sum(len(r['events']) for r in fixture['runs'].values())} events")


def _by_key(events):
    """{(dir, tag, step, occurrence): event} (the "keras" summary comes once per writer)."""
    out, seen = {}, {}
    for e in events:
        if "tag" in e:
            k = (e["dir"], e["tag"], e["step"])
            seen[k] = seen.get(k, -1) + 1
            out[k + (seen[k],)] = e
    return out


def check(folder):
    """Compares keras-cpp's event files (folder/<run>) with Keras's, as TensorFlow reads them."""
    with open(FIXTURE) as f:
        fixture = json.load(f)
    failures = 0
    for name, run in fixture["runs"].items():
        want = _by_key(run["events"])
        got_all = read_events(os.path.join(folder, name))
        got = _by_key(got_all)
        versions = [e for e in got_all if "file_version" in e]
        bad = [e for e in versions if e["file_version"] != "brain.Event:2"
               or not e["file"].startswith("events.out.tfevents.") or not e["file"].endswith(".v2")]
        diffs = sorted(set(want) ^ set(got))
        worst = 0.0
        for k in set(want) & set(got):
            w, g = want[k], got[k]
            for field in ("plugin", "content", "dtype", "shape"):
                if w[field] != g[field]:
                    diffs.append((k, field, w[field], g[field]))
            if "values" in w:
                for a, b in zip(w["values"], g["values"]):
                    if "steps_per_second" not in k[1]:
                        worst = max(worst, abs(a - b) / max(1.0, abs(a)))
            elif json.loads(w["text"])["class_name"] != json.loads(g["text"])["class_name"]:
                diffs.append((k, "text"))
        status = "OK" if not diffs and not bad and worst < 1e-5 else "DIFFERS"
        failures += status != "OK"
        print(f"{name}: {len(got)} summaries in {len(versions)} files read by TensorFlow "
              f"(CRCs checked), {len(want)} from Keras; max relative difference {worst:.2e}: "
              f"{status}")
        for d in diffs[:10]:
            print("   ", d)
        for b in bad:
            print("    bad file:", b)
    return failures


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(1 if check(sys.argv[2]) else 0)
    generate()
