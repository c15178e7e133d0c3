"""keras.utils.text_dataset_from_directory against real Keras 3.15, for
tests/utils/text_dataset_test.cpp.

Writes a small corpus, tests/oracle/fixtures/text_dataset/{neg,pos,zzz}/*.txt (UTF-8, CRLF
and empty files, a non-.txt file that must be skipped), and text_dataset.json: for each case
its options, the files in dataset order (relative paths), the documents and labels Keras's
dataset yields with shuffle=False, or, with shuffle=True, the file order and labels Keras's
index_directory gives for the seed (the dataset's own tf.data shuffle is not reproduced).

Run: ./scripts/oracle.sh text_dataset
"""

import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras.src.utils import dataset_utils  # noqa: E402

ROOT = os.path.join(oracle.ORACLE_DIR, "text_dataset")
shutil.rmtree(ROOT, ignore_errors=True)
rng = np.random.RandomState(3)
WORDS = ["good", "bad", "film", "plot", "actor", "naïve", "très", "bien", "boring", "fun"]
for label, count in [("neg", 9), ("pos", 11), ("zzz", 3)]:
    os.makedirs(os.path.join(ROOT, label))
    for i in range(count):
        words = rng.choice(WORDS, size=rng.randint(0, 12))
        text = " ".join(words) + ("\r\n" if i % 4 == 0 else "")
        with open(os.path.join(ROOT, label, f"{i:02d}.txt"), "wb") as f:
            f.write(text.encode("utf-8"))
with open(os.path.join(ROOT, "pos", "notes.md"), "w") as f:
    f.write("not a .txt file")


def relative(paths):
    return [os.path.relpath(p, ROOT) for p in paths]


def read_all(ds):
    texts, labels = [], []
    for batch in ds:
        x, y = batch if isinstance(batch, tuple) else (batch, None)
        texts += [t.decode("utf-8", "surrogateescape") for t in x.numpy().tolist()]
        if y is not None:
            labels += np.asarray(y).tolist()
    return texts, labels


cases = []


def unshuffled(name, **kwargs):
    ds = keras.utils.text_dataset_from_directory(ROOT, shuffle=False, **kwargs)
    texts, labels = read_all(ds)
    files, _, _ = dataset_utils.index_directory(
        ROOT, kwargs.get("labels", "inferred"), formats=(".txt",),
        class_names=kwargs.get("class_names"), shuffle=False)
    files, _ = dataset_utils.get_training_or_validation_split(
        files, None, kwargs.get("validation_split"), kwargs.get("subset"))
    cases.append({"name": name, "options": dict(kwargs, shuffle=False), "files": relative(files),
                  "texts": texts, "labels": labels, "class_names": ds.class_names})


def shuffled(name, seed, **kwargs):
    labels_arg = kwargs.get("labels", "inferred")
    files, labels, class_names = dataset_utils.index_directory(
        ROOT, labels_arg, formats=(".txt",), class_names=kwargs.get("class_names"),
        shuffle=True, seed=seed)
    files, labels = dataset_utils.get_training_or_validation_split(
        files, labels, kwargs.get("validation_split"), kwargs.get("subset"))
    # The real function agrees on the set of files and the class names.
    ds = keras.utils.text_dataset_from_directory(ROOT, shuffle=True, seed=seed, **kwargs)
    texts, _ = read_all(ds)
    assert len(texts) == len(files)
    cases.append({"name": name, "options": dict(kwargs, shuffle=True, seed=seed),
                  "files": relative(files), "labels": np.asarray(labels).tolist(),
                  "class_names": ds.class_names})


unshuffled("int")
unshuffled("categorical_max_length", label_mode="categorical", max_length=9, batch_size=4)
unshuffled("binary_class_names", label_mode="binary", class_names=["pos", "neg"])
unshuffled("no_labels", labels=None, batch_size=5)
unshuffled("given_labels", labels=list(range(23)), label_mode="int")
shuffled("seed_1337", 1337)
shuffled("training", 42, validation_split=0.25, subset="training")
shuffled("validation", 42, validation_split=0.25, subset="validation")
oracle.write_json("text_dataset", {"cases": cases})
print("wrote text_dataset.json:", len(cases), "cases")
