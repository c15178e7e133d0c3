"""keras.utils.audio_dataset_from_directory (and tf.audio.decode_wav) against real Keras 3.15
with TensorFlow, for tests/utils/audio_dataset_test.cpp.

Writes a small corpus of 16-bit PCM WAV files, tests/oracle/fixtures/audio_dataset/
{bird,cat,dog}/*.wav (mono and stereo, 0 to 41 frames, the int16 extremes, a LIST chunk before
the data, an 18-byte fmt chunk, an upper-case .WAV name, a non-.wav file that must be skipped),
and WAV files that tf.audio.decode_wav refuses, tests/oracle/fixtures/audio_dataset_bad/*.wav
(8/24/32-bit PCM, float, WAVE_FORMAT_EXTENSIBLE, RIFX, a truncated data chunk, bad header
fields, two data chunks). Then:
- audio_dataset.json: per case its options, the files in dataset order, labels, class names and
  the shape of every batch Keras's dataset yields with shuffle=False (or, with shuffle=True, the
  file order index_directory gives for the seed: the tf.data shuffle is not reproduced); the
  batch at which iteration fails, if it does; TensorFlow's error for each refused file; Keras's
  error (type and message) for each bad argument.
- audio_dataset.npz: "<case>/<batch>" the audio of every batch (float32, exact), and
  "decode/<file>" tf.audio.decode_wav of each corpus file.

Run: ./scripts/oracle.sh audio_dataset
"""

import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend)

import keras  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from keras.src.utils import dataset_utils  # noqa: E402

ROOT = os.path.join(oracle.ORACLE_DIR, "audio_dataset")
BAD = os.path.join(oracle.ORACLE_DIR, "audio_dataset_bad")
shutil.rmtree(ROOT, ignore_errors=True)
shutil.rmtree(BAD, ignore_errors=True)


def wav_bytes(samples, rate=8000, bits=16, fmt_tag=1, fmt_extra=b"", before_data=b"",
              magic=b"RIFF", data=None, channels=None, byte_rate=None, block_align=None):
    """A RIFF/WAVE file written field by field (Python's wave module only writes plain PCM)."""
    samples = np.asarray(samples)
    channels = samples.shape[1] if channels is None else channels
    align = channels * bits // 8
    fmt = struct.pack("<HHIIHH", fmt_tag, channels, rate,
                      byte_rate if byte_rate is not None else rate * align,
                      block_align if block_align is not None else align, bits) + fmt_extra
    if data is None:
        data = samples.astype("<i2").tobytes()
    body = (b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + before_data + b"data" +
            struct.pack("<I", len(data)) + data)
    return magic + struct.pack("<I", len(body)) + body


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(content)


rng = np.random.RandomState(5)


def noise(frames, channels):
    x = rng.randint(-32768, 32768, size=(frames, channels))
    if frames >= 2:  # the extremes map to -1.0 and 32767/32768
        x[0, 0], x[1, -1] = -32768, 32767
    return x


# (class, name, frames, channels, how the file is written)
CORPUS = [
    ("bird", "a.wav", 12, 1, {}),
    ("bird", "b.wav", 30, 1, {"before_data": b"LIST" + struct.pack("<I", 6) + b"INFOab"}),
    ("bird", "c.WAV", 7, 1, {}),
    ("cat", "01.wav", 25, 1, {"fmt_extra": b"\x00\x00"}),
    ("cat", "02.wav", 0, 1, {}),
    ("cat", "03.wav", 41, 1, {"rate": 16000}),
    ("cat", "04.wav", 3, 1, {}),
    ("dog", "x1.wav", 18, 2, {}),
    ("dog", "x2.wav", 9, 1, {}),
    ("dog", "x3.wav", 33, 2, {"rate": 44100}),
    ("dog", "x4.wav", 5, 1, {}),
    ("dog", "x5.wav", 21, 1, {}),
]
for label, name, frames, channels, how in CORPUS:
    write(os.path.join(ROOT, label, name), wav_bytes(noise(frames, channels), **how))
write(os.path.join(ROOT, "dog", "notes.txt"), b"not a .wav file")

mono = noise(4, 1)
stereo = noise(4, 2)
BAD_FILES = {
    "pcm8": wav_bytes(mono, bits=8, data=bytes([0, 128, 255, 1])),
    "pcm24": wav_bytes(mono, bits=24, data=b"\x00\x00\x80" * 4),
    "pcm32": wav_bytes(mono, bits=32, data=np.arange(4, dtype="<i4").tobytes()),
    "float32": wav_bytes(mono, bits=32, fmt_tag=3, data=np.zeros(4, "<f4").tobytes()),
    "extensible": wav_bytes(mono, fmt_tag=0xFFFE, fmt_extra=struct.pack(
        "<HHI16s", 22, 16, 4, b"\x01\x00\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71")),
    "rifx": wav_bytes(mono, magic=b"RIFX"),
    "truncated": wav_bytes(stereo)[:-3],
    "half_frame": wav_bytes(stereo, data=stereo.astype("<i2").tobytes()[:6]),
    "byte_rate": wav_bytes(mono, byte_rate=1),
    "block_align": wav_bytes(mono, block_align=4),
    "fmt_size_20": wav_bytes(mono, fmt_extra=b"\x00" * 4),
    "no_channels": wav_bytes(mono, channels=0),
    "not_riff": b"FORM" + b"\x00" * 40,
    "two_data_chunks": wav_bytes(mono, before_data=b"data" + struct.pack("<I", 2) + b"\x00\x00"),
}
bad_errors = {}
for name, content in BAD_FILES.items():
    write(os.path.join(BAD, name + ".wav"), content)
    try:
        tf.audio.decode_wav(content)
        raise AssertionError(name + ": TensorFlow decoded it")
    except tf.errors.InvalidArgumentError as e:
        bad_errors[name] = e.message.split("}}")[-1].strip()


def relative(paths):
    return [os.path.relpath(p, ROOT) for p in paths]


arrays = {}
for label, name, _, _, _ in CORPUS:
    path = os.path.join(label, name)
    with open(os.path.join(ROOT, path), "rb") as f:
        audio, rate = tf.audio.decode_wav(f.read())
    arrays["decode/" + path] = audio.numpy()
    arrays["decode_rate/" + path] = np.asarray(int(rate), "int32")

cases = []


def read_all(name, ds):
    """Every batch's audio into `arrays`; labels and shapes; the batch where iteration fails."""
    labels, shapes, error_at = [], [], None
    it = iter(ds)
    while True:
        try:
            batch = next(it)
        except StopIteration:
            break
        except tf.errors.InvalidArgumentError as e:
            error_at = len(shapes)
            print(f"  {name}: batch {error_at} fails: {e.message.splitlines()[0][:120]}")
            break
        x, y = batch if isinstance(batch, tuple) else (batch, None)
        arrays[f"{name}/{len(shapes)}"] = x.numpy()
        shapes.append(list(x.shape))
        if y is not None:
            labels.append(np.asarray(y).tolist())
    return labels, shapes, error_at


def index(kwargs, shuffle, seed=None):
    files, labels, _ = dataset_utils.index_directory(
        ROOT, kwargs.get("labels", "inferred"), formats=(".wav",),
        class_names=kwargs.get("class_names"), shuffle=shuffle, seed=seed, verbose=False)
    return dataset_utils.get_training_or_validation_split(
        files, labels, kwargs.get("validation_split"), kwargs.get("subset"))


def unshuffled(name, **kwargs):
    ds = keras.utils.audio_dataset_from_directory(ROOT, shuffle=False, **kwargs)
    labels, shapes, error_at = read_all(name, ds)
    files, _ = index(kwargs, False)
    cases.append({"name": name, "options": dict(kwargs, shuffle=False), "files": relative(files),
                  "labels": labels, "shapes": shapes, "error_at": error_at,
                  "class_names": ds.class_names})


def shuffled(name, seed, **kwargs):
    files, labels = index(kwargs, True, seed)
    ds = keras.utils.audio_dataset_from_directory(ROOT, shuffle=True, seed=seed, **kwargs)
    _, shapes, _ = read_all(name, ds)
    for k in [k for k in arrays if k.startswith(name + "/")]:
        del arrays[k]  # the tf.data shuffle is keras-cpp's own: only the files are compared
    assert sum(s[0] for s in shapes) == len(files)
    cases.append({"name": name, "options": dict(kwargs, shuffle=True, seed=seed),
                  "files": relative(files), "labels": np.asarray(labels).tolist(),
                  "class_names": ds.class_names})


unshuffled("int")  # one padded batch of 12: (12, 41, 2)
unshuffled("categorical_batches", label_mode="categorical", batch_size=5)
unshuffled("binary_class_names", label_mode="binary", class_names=["dog", "cat"], batch_size=4)
unshuffled("no_labels", labels=None, batch_size=3)
unshuffled("given_labels", labels=[3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8], batch_size=6)
unshuffled("unbatched", batch_size=None)
unshuffled("length_unbatched", batch_size=None, output_sequence_length=20)
# bird and cat are mono: the first batch of 7 stacks; dog mixes mono and stereo, and
# batch() (not padded_batch) cannot stack them.
unshuffled("length_batched", batch_size=7, output_sequence_length=30)
unshuffled("validation_unshuffled", validation_split=0.25, subset="validation")
shuffled("seed_1337", 1337)
shuffled("training", 42, validation_split=0.25, subset="training", batch_size=4)
shuffled("validation", 42, validation_split=0.25, subset="validation")

# subset="both": the training half shuffles, the validation half keeps index order.
train, val = keras.utils.audio_dataset_from_directory(
    ROOT, seed=7, validation_split=0.4, subset="both", batch_size=2)
both = {"seed": 7, "validation_split": 0.4, "subset": "both", "batch_size": 2, "shuffle": True}
files, labels = index({"validation_split": 0.4, "subset": "training"}, True, 7)
_, train_shapes, _ = read_all("both_training", train)
for k in [k for k in arrays if k.startswith("both_training/")]:
    del arrays[k]
assert sum(s[0] for s in train_shapes) == len(files)
cases.append({"name": "both_training", "options": both, "files": relative(files),
              "labels": np.asarray(labels).tolist(), "class_names": train.class_names})
files, labels = index({"validation_split": 0.4, "subset": "validation"}, True, 7)
val_labels, val_shapes, _ = read_all("both_validation", val)
cases.append({"name": "both_validation",
              "options": both,
              "files": relative(files), "labels": val_labels, "shapes": val_shapes,
              "error_at": None, "class_names": val.class_names})

argument_errors = []


def expect_error(name, needle, **kwargs):
    """Keras's exception for bad arguments; `needle` is a word the message must name."""
    try:
        keras.utils.audio_dataset_from_directory(ROOT, verbose=False, **kwargs)
    except (ValueError, ImportError) as e:
        argument_errors.append({"name": name, "options": kwargs, "type": type(e).__name__,
                                "message": str(e), "needle": needle})
        return
    raise AssertionError(name + ": Keras accepted it")


expect_error("label_mode", "label_mode", label_mode="sparse")
expect_error("ragged_and_length", "ragged", ragged=True, output_sequence_length=10)
expect_error("sampling_rate_zero", "sampling_rate", sampling_rate=0)
expect_error("sampling_rate_needs_tfio", "sampling_rate", sampling_rate=16000)
expect_error("split_without_subset", "subset", validation_split=0.2)
expect_error("split_without_seed", "seed", validation_split=0.2, subset="training")
expect_error("subset_name", "subset", validation_split=0.2, subset="train", seed=1)
expect_error("split_range", "validation_split", validation_split=1.5, subset="training", seed=1)
expect_error("binary_three_classes", "binary", label_mode="binary")
expect_error("class_names_without_inferred", "class_names", labels=None, class_names=["cat"])
expect_error("class_names_unknown", "class_names", class_names=["cat", "cow"])
expect_error("labels_count", "labels", labels=[0, 1])
expect_error("labels_string", "labels", labels="folders")

oracle.write_json("audio_dataset", {"cases": cases, "bad_files": bad_errors,
                                    "argument_errors": argument_errors,
                                    "corpus": [os.path.join(c[0], c[1]) for c in CORPUS]})
np.savez_compressed(os.path.join(oracle.ORACLE_DIR, "audio_dataset.npz"), **arrays)
print("wrote audio_dataset.json/.npz:", len(cases), "cases,", len(arrays), "arrays,",
      len(bad_errors), "refused files,", len(argument_errors), "argument errors")
