"""Reports how much of Keras's public API keras-cpp implements, read from the installed Keras.

keras.ops: for each module of keras.ops (numpy, nn, math, linalg, core, image, einops, as each
function's __module__ says), the Keras names, which of them keras-cpp declares in
include/keras/ops, which appear as an op in a fixture (tests/golden/*.npz, the Keras oracle's
tests/oracle/fixtures/*.npz), and which appear in a gradient check (a string literal naming
the op in a test that calls gradcheck).

The other namespaces (layers, losses, metrics, optimizers, callbacks, activations,
initializers, regularizers, constraints, quantizers): every public name of keras.<namespace>,
done when keras-cpp's sources name it as a string (the registries and class names Keras's
files carry) or its headers in include/keras/<namespace>/ declare it (a class or function of
that name), or listed in OUT_OF_SCOPE with the reason.

Run with the Python that has Keras (the oracle's environment):
  .cache/interop-venv/bin/python tools/op_coverage.py [--missing]
"""

import glob
import importlib
import json
import os
import re
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# C++ spellings of names that are keywords there.
CPP_NAME = {"switch": "switch_"}

# Keras names keras-cpp leaves out on purpose, and why.
OUT_OF_SCOPE = {
    "layers": {
        "FlaxLayer": "wraps a Flax module: needs Python and JAX",
        "JaxLayer": "wraps a JAX function: needs Python and JAX",
        "TFSMLayer": "loads a TensorFlow SavedModel: needs TensorFlow",
        "Wrapper": "abstract base class (keras-cpp's wrappers derive from their own base)",
        "TorchModuleWrapper": "keras::torch::TorchModuleWrapper (backends/torch/include/keras/"
                              "torch/interop.h), not a "
                              "registered layer: a torch.nn.Module cannot live in a .keras file",
        "InputSpec": "keras-cpp checks input shapes in build/call",
    },
    "callbacks": {
        "OrbaxCheckpoint": "Orbax is a Python/JAX checkpointing library",
    },
}

OPS_MODULES = ("numpy", "nn", "math", "linalg", "core", "image", "einops")
API_NAMESPACES = ("layers", "losses", "metrics", "optimizers", "callbacks", "activations",
                  "initializers", "regularizers", "constraints", "quantizers")


def import_keras():
    os.environ.setdefault("KERAS_BACKEND", "jax")
    try:
        return importlib.import_module("keras")
    except ImportError:
        sys.exit("op_coverage.py reads Keras's own name lists: run it with the Python that has "
                 "Keras 3.15, e.g. .cache/interop-venv/bin/python tools/op_coverage.py "
                 "(./scripts/oracle.sh creates that environment).")


def keras_ops(keras):
    """{module: sorted names} of the functions keras.ops exports."""
    by_module = {m: set() for m in OPS_MODULES}
    for name in dir(keras.ops):
        obj = getattr(keras.ops, name)
        module = getattr(obj, "__module__", "") or ""
        if name.startswith("_") or not callable(obj) or not module.startswith("keras.src.ops."):
            continue
        by_module.setdefault(module.rsplit(".", 1)[1], set()).add(name)
    for name in dir(keras.ops.image):  # keras.ops.image is a namespace of its own
        if not name.startswith("_"):
            by_module["image"].add(name)
    return {m: sorted(n) for m, n in by_module.items() if n}


def keras_api(keras, namespace):
    module = getattr(keras, namespace)
    return sorted(n for n in dir(module)
                  if not n.startswith("_") and not isinstance(getattr(module, n), type(sys)))


def declared():
    """Every identifier called like a function outside comments in include/keras/ops."""
    names = set()
    for path in glob.glob(os.path.join(ROOT, "include/keras/ops/**/*.h"), recursive=True):
        for line in open(path):
            if line.lstrip().startswith("//"):
                continue
            names.update(re.findall(r"\b(\w+)\s*\(", line))
    return names


def source_strings():
    """Every string literal in keras-cpp's library sources and headers (registered names)."""
    words = set()
    for pattern in ("src/**/*.cpp", "src/**/*.h", "include/**/*.h"):
        for path in glob.glob(os.path.join(ROOT, pattern), recursive=True):
            text = open(path, errors="replace").read()
            words.update(re.findall(r'"([A-Za-z_0-9]+)"', text))
    return words


# The public headers where keras-cpp declares each namespace's classes and functions.
HEADER_DIRS = {"layers": ("layers", "models")}


def declared_in(namespace):
    """Classes, structs and functions declared in include/keras/<namespace>/."""
    names = set()
    for folder in HEADER_DIRS.get(namespace, (namespace,)):
        for path in glob.glob(os.path.join(ROOT, "include/keras", folder, "**/*.h"),
                              recursive=True):
            for line in open(path, errors="replace"):
                if line.lstrip().startswith("//"):
                    continue
                names.update(re.findall(r"\b(?:class|struct)\s+(\w+)", line))
                names.update(re.findall(r"\b(\w+)\s*\(", line))
    return names


def npy_text(data):
    header_len = int.from_bytes(data[8:10], "little")
    return data[10 + header_len:].decode("utf-8", "replace")


def fixture_ops():
    """Op names of every fixture case; "battery" cases list several ops in their kwargs."""
    ops = set()
    paths = glob.glob(os.path.join(ROOT, "tests/golden/*.npz")) + glob.glob(
        os.path.join(ROOT, "tests/oracle/fixtures/*.npz"))
    for path in paths:
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                if name.endswith(".op.npy"):
                    ops.add(npy_text(z.read(name)))
                elif name.endswith(".kwargs.npy"):
                    try:
                        kwargs = json.loads(npy_text(z.read(name)))
                    except ValueError:
                        continue
                    listed = kwargs.get("ops", []) if isinstance(kwargs, dict) else []
                    ops.update(o for o in listed if isinstance(o, str))
    return ops


def gradchecked():
    names = set()
    for path in glob.glob(os.path.join(ROOT, "tests/**/*.cpp"), recursive=True):
        text = open(path).read()
        if "gradcheck" not in text:
            continue
        names.update(re.findall(r'"([a-z_0-9]+)"', text))
    return names


def report_ops(ops, show_missing):
    have, fixtures, grads = declared(), fixture_ops(), gradchecked()
    total = [0, 0, 0, 0]
    print(f"{'keras.ops':12} {'keras':>6} {'done':>6} {'fixture':>8} {'gradchk':>8}")
    for module, names in ops.items():
        done = [n for n in names if CPP_NAME.get(n, n) in have]
        fx = [n for n in done
              if any(f == n or f.startswith(n + "_") for f in fixtures)]
        gc = [n for n in done if any(g == n or g.startswith(n + "_") for g in grads)]
        print(f"{module:12} {len(names):6} {len(done):6} {len(fx):8} {len(gc):8}")
        if show_missing:
            missing = [n for n in names if n not in done]
            if missing:
                print("   missing:", " ".join(missing))
            nofx = [n for n in done if n not in fx]
            if nofx:
                print("   no fixture:", " ".join(nofx))
        for i, v in enumerate([len(names), len(done), len(fx), len(gc)]):
            total[i] += v
    print(f"{'total':12} {total[0]:6} {total[1]:6} {total[2]:8} {total[3]:8}")


# Names keras-cpp's sources mention without implementing them (so the string rule above would
# count them done), and why they are mentioned.
NAMED_NOT_DONE = {}


def report_api(keras, show_missing):
    strings = source_strings()
    print(f"\n{'keras.<ns>':14} {'keras':>6} {'done':>6} {'out':>5} {'missing':>8}")
    for namespace in API_NAMESPACES:
        names = keras_api(keras, namespace)
        out = OUT_OF_SCOPE.get(namespace, {})
        have = (strings | declared_in(namespace)) - set(NAMED_NOT_DONE.get(namespace, {}))
        done = [n for n in names if n in have and n not in out]
        missing = [n for n in names if n not in done and n not in out]
        skipped = [n for n in names if n in out]
        print(f"{namespace:14} {len(names):6} {len(done):6} {len(skipped):5} {len(missing):8}")
        if show_missing:
            if missing:
                print("   missing:", " ".join(missing))
            for n in skipped:
                print(f"   out of scope: {n}: {out[n]}")


def main():
    show_missing = "--missing" in sys.argv
    keras = import_keras()
    print(f"Keras {keras.__version__}")
    report_ops(keras_ops(keras), show_missing)
    report_api(keras, show_missing)


if __name__ == "__main__":
    main()
