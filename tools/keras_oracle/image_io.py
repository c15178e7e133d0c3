"""Image files and image datasets: what Keras 3.15's load_img / img_to_array / array_to_img /
save_img (through PIL) and image_dataset_from_directory (through tf.data) give for a small
directory tree of PNG, JPEG, BMP and GIF files that this script writes.

Writes tests/oracle/fixtures/images/ (the tree, a few bad files, images save_img wrote) and
tests/oracle/fixtures/image_io.npz + image_io.json (the expected arrays and file lists).
Needs Pillow and TensorFlow (requirements-oracle.txt).
"""

import json
import os
import shutil

import oracle  # noqa: F401  (pins the JAX backend before keras)
import numpy as np
import keras
from keras.src.utils import dataset_utils
from PIL import Image

OUT = os.path.join(oracle.ORACLE_DIR, "images")
TREE = os.path.join(OUT, "tree")
rng = np.random.RandomState(20260312)


def noise(h, w, c):
    # Smooth-ish content (a gradient plus noise) so JPEG keeps it close and resizing is visible.
    yy, xx = np.mgrid[0:h, 0:w]
    base = (yy * 23 + xx * 17)[..., None] + np.arange(c)[None, None, :] * 60
    return ((base + rng.randint(0, 90, size=(h, w, c))) % 256).astype("uint8")


def save(rel, image, **kwargs):
    path = os.path.join(TREE, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    image.save(path, **kwargs)


def write_tree():
    shutil.rmtree(OUT, ignore_errors=True)
    save("cats/rgb.png", Image.fromarray(noise(7, 9, 3), "RGB"))
    save("cats/photo.jpg", Image.fromarray(noise(9, 6, 3), "RGB"), quality=90)
    save("cats/bmp24.bmp", Image.fromarray(noise(5, 8, 3), "RGB"))
    palette = list(rng.randint(0, 256, size=16 * 3).astype(int))
    pal = Image.fromarray(rng.randint(0, 16, size=(6, 5)).astype("uint8"), "P")
    pal.putpalette(palette)
    save("cats/pal.gif", pal)
    save("cats/pal.bmp", pal)
    save("dogs/rgba.png", Image.fromarray(noise(6, 7, 4), "RGBA"))
    save("dogs/gray.png", Image.fromarray(noise(8, 5, 1)[..., 0], "L"))
    save("dogs/gray.jpg", Image.fromarray(noise(6, 6, 1)[..., 0], "L"), quality=85)
    save("dogs/la.png", Image.fromarray(noise(5, 6, 2), "LA"))
    trns = pal.copy()
    save("dogs/trns.gif", trns, transparency=3)
    save("dogs/trns.png", trns, transparency=3)
    save("dogs/nested/deep.png", Image.fromarray(noise(4, 6, 3), "RGB"))
    save("dogs/UPPER.PNG", Image.fromarray(noise(5, 5, 3), "RGB"))
    with open(os.path.join(TREE, "dogs", "notes.txt"), "w") as f:
        f.write("not an image\n")
    save(".hidden/skipped.png", Image.fromarray(noise(3, 3, 3), "RGB"))
    save("root.png", Image.fromarray(noise(4, 4, 3), "RGB"))
    # TensorFlow's decode_image refuses grayscale BMP and GIF and RGBA GIF and JPEG, so the
    # grayscale dataset case reads PNG and JPEG files only, and the rgba case PNG files only.
    for rel in ["cats/rgb.png", "cats/photo.jpg", "dogs/gray.png", "dogs/gray.jpg", "dogs/la.png",
                "dogs/trns.png", "dogs/rgba.png"]:
        for tree in ("png_jpeg_tree", "png_tree"):
            if tree == "png_tree" and rel.endswith(".jpg"):
                continue
            dst = os.path.join(OUT, tree, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(os.path.join(TREE, rel), dst)
    # follow_links: a symlinked folder is entered only with follow_links=True; a symlinked
    # file is always listed.
    links = os.path.join(OUT, "links_tree")
    for rel in ("a/x.png", "b/y.png"):
        dst = os.path.join(links, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(os.path.join(TREE, "dogs/nested/deep.png" if rel[0] == "a" else "cats/rgb.png"),
                    dst)
    os.symlink("../b", os.path.join(links, "a", "sub"))
    os.symlink("y.png", os.path.join(links, "b", "z_link.png"))
    bad = os.path.join(OUT, "bad")
    os.makedirs(os.path.join(bad, "empty", "nothing_here"), exist_ok=True)
    with open(os.path.join(bad, "corrupt.png"), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\x0dIHDR" + b"garbage" * 3)
    with open(os.path.join(bad, "truncated.jpg"), "wb") as f:
        with open(os.path.join(TREE, "cats", "photo.jpg"), "rb") as src:
            f.write(src.read()[:40])
    Image.fromarray(np.arange(12, dtype="uint16").reshape(3, 4) * 5000, "I;16").save(
        os.path.join(bad, "gray16.png"))
    with open(os.path.join(bad, "image.xyz"), "wb") as f:
        f.write(b"unknown format")


IMAGES = ["cats/rgb.png", "cats/photo.jpg", "cats/bmp24.bmp", "cats/pal.gif", "cats/pal.bmp",
          "dogs/rgba.png", "dogs/gray.png", "dogs/gray.jpg", "dogs/la.png", "dogs/trns.gif",
          "dogs/trns.png", "dogs/nested/deep.png", "dogs/UPPER.PNG"]
# (name, target_size, interpolation, keep_aspect_ratio)
RESIZES = [("full", None, "nearest", False),
           ("nearest_4x6", (4, 6), "nearest", False),
           ("bilinear_4x6", (4, 6), "bilinear", False),
           ("bilinear_11x13", (11, 13), "bilinear", False),
           ("bicubic_3x5", (3, 5), "bicubic", False),
           ("lanczos_5x4", (5, 4), "lanczos", False),
           ("box_4x3", (4, 3), "box", False),
           ("hamming_6x5", (6, 5), "hamming", False),
           ("nearest_keep_3x5", (3, 5), "nearest", True),
           ("bilinear_keep_5x3", (5, 3), "bilinear", True)]


def load_cases(arrays, meta):
    # One flat uint8 array per (file, colour mode): the 10 resizings' img_to_array outputs in
    # RESIZES order, each (height, width, channels) with the file's size for "full" (few arrays
    # keep the fixture small).
    meta["load"] = {"files": IMAGES, "sizes": {}, "resizes": [
        {"name": n, "target_size": t, "interpolation": i, "keep_aspect_ratio": k}
        for n, t, i, k in RESIZES]}
    for rel in IMAGES:
        meta["load"]["sizes"][rel] = list(Image.open(os.path.join(TREE, rel)).size[::-1])
        for mode in ("grayscale", "rgb", "rgba"):
            parts = []
            for name, size, interp, keep in RESIZES:
                img = keras.utils.load_img(os.path.join(TREE, rel), color_mode=mode,
                                           target_size=size, interpolation=interp,
                                           keep_aspect_ratio=keep)
                x = keras.utils.img_to_array(img)
                assert x.max() <= 255 and x.min() >= 0
                assert x.shape[:2] == tuple(size or meta["load"]["sizes"][rel])
                parts.append(x.astype("uint8").ravel())
            arrays[f"load:{rel}:{mode}"] = np.concatenate(parts)


def array_cases(arrays):
    # array_to_img's scaling (x - min) / max * 255 in float32, then a truncating cast.
    x = rng.uniform(-3, 5, size=(4, 5, 3)).astype("float32")
    arrays["array_to_img:in"] = x
    arrays["array_to_img:scaled"] = keras.utils.img_to_array(keras.utils.array_to_img(x))
    y = rng.uniform(0, 255, size=(3, 4, 1)).astype("float32")
    arrays["array_to_img:in_gray"] = y
    arrays["array_to_img:unscaled_gray"] = keras.utils.img_to_array(
        keras.utils.array_to_img(y, scale=False))
    z = rng.uniform(0, 1, size=(4, 2, 3)).astype("float32")
    arrays["array_to_img:in_chw"] = z
    arrays["array_to_img:scaled_chw"] = keras.utils.img_to_array(
        keras.utils.array_to_img(z, data_format="channels_first"), data_format="channels_first")


def save_cases(arrays):
    # Files save_img (PIL) writes; keras-cpp's save_img of the same arrays must decode the same.
    saved = os.path.join(OUT, "saved")
    os.makedirs(saved, exist_ok=True)
    inputs = {"rgb": noise(6, 7, 3).astype("float32"), "rgba": noise(5, 4, 4).astype("float32"),
              "gray": noise(4, 6, 1).astype("float32")}
    for name, x in inputs.items():
        arrays[f"save:{name}"] = x
        for ext in ("png", "bmp", "jpg"):
            if name == "rgba" and ext == "bmp":
                continue  # PIL writes 32-bit BMP without alpha masks; not a Keras use case
            path = os.path.join(saved, f"{name}.{ext}")
            keras.utils.save_img(path, x, scale=False)
            back = np.asarray(Image.open(path))
            arrays[f"save:{name}.{ext}"] = back.reshape(back.shape[0], back.shape[1], -1)


def dataset_cases(arrays, meta):
    import tensorflow as tf  # only here: the tf.data pipeline of image_dataset_from_directory

    tf.config.set_visible_devices([], "GPU")
    cases = {
        "int_rgb_bilinear": dict(image_size=(4, 5), batch_size=4, shuffle=False),
        "categorical_gray_nearest_crop": dict(directory="png_jpeg_tree",
                                              label_mode="categorical", color_mode="grayscale",
                                              interpolation="nearest", image_size=(5, 3),
                                              crop_to_aspect_ratio=True, batch_size=5,
                                              shuffle=False),
        "binary_rgba_pad_chw": dict(directory="png_tree", label_mode="binary", color_mode="rgba",
                                    image_size=(6, 4), pad_to_aspect_ratio=True,
                                    data_format="channels_first", batch_size=3, shuffle=False),
        "crop_bilinear": dict(image_size=(3, 7), crop_to_aspect_ratio=True, batch_size=32,
                              shuffle=False),
        "no_labels": dict(labels=None, image_size=(2, 3), batch_size=6, shuffle=False),
        "class_names_reversed": dict(class_names=["dogs", "cats"], image_size=(2, 2),
                                     batch_size=32, shuffle=False),
        "explicit_labels": dict(labels=[3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9],
                                label_mode="categorical", image_size=(2, 2), batch_size=32,
                                shuffle=False),
        "unbatched": dict(image_size=(3, 3), batch_size=None, shuffle=False),
        "bicubic": dict(interpolation="bicubic", image_size=(6, 5), batch_size=16,
                        shuffle=False),
        "bicubic_crop_gray": dict(directory="png_jpeg_tree", interpolation="bicubic",
                                  color_mode="grayscale", image_size=(4, 9),
                                  crop_to_aspect_ratio=True, batch_size=16, shuffle=False),
        "bicubic_pad": dict(interpolation="bicubic", image_size=(7, 4), pad_to_aspect_ratio=True,
                            batch_size=16, shuffle=False),
        "lanczos3": dict(interpolation="lanczos3", image_size=(5, 4), batch_size=16,
                         shuffle=False),
        "lanczos5_gray": dict(directory="png_jpeg_tree", interpolation="lanczos5",
                              color_mode="grayscale", image_size=(3, 6), batch_size=16,
                              shuffle=False),
        "links_not_followed": dict(directory="links_tree", image_size=(2, 2), shuffle=False),
        "links_followed": dict(directory="links_tree", image_size=(2, 2), shuffle=False,
                               follow_links=True),
    }
    meta["datasets"] = {}
    for name, kwargs in cases.items():
        kwargs = dict(kwargs)
        root = os.path.join(OUT, kwargs.pop("directory", "tree"))
        ds = keras.utils.image_dataset_from_directory(root, verbose=False, **kwargs)
        entry = {"directory": os.path.relpath(root, OUT), "kwargs": kwargs,
                 "class_names": ds.class_names,
                 "file_paths": [os.path.relpath(p, root) for p in ds.file_paths], "batches": 0}
        for i, element in enumerate(ds):
            x, y = element if isinstance(element, tuple) else (element, None)
            arrays[f"ds:{name}:{i}:x"] = x.numpy()
            if y is not None:
                arrays[f"ds:{name}:{i}:y"] = y.numpy()
            entry["batches"] += 1
        meta["datasets"][name] = entry
    # Shuffled file orders and the validation split for a seed (index_directory's
    # np.random.RandomState shuffle; tf.data's own per-epoch shuffle is not compared).
    meta["splits"] = {}
    for name, kwargs in {
        "seed_1337_both": dict(seed=1337, validation_split=0.3, subset="both"),
        "seed_7_training": dict(seed=7, validation_split=0.25, subset="training"),
        "seed_7_validation": dict(seed=7, validation_split=0.25, subset="validation"),
        "seed_42_no_labels": dict(seed=42, labels=None),
        "seed_5_explicit": dict(seed=5, labels=[3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9]),
    }.items():
        # Keras shuffles a `labels` list in place: each call gets its own copy.
        copied = {k: list(v) if isinstance(v, list) else v for k, v in kwargs.items()}
        result = keras.utils.image_dataset_from_directory(TREE, verbose=False, image_size=(2, 2),
                                                          **copied)
        parts = result if isinstance(result, list) else [result]
        # The labels in file order, from the function image_dataset_from_directory calls.
        labels = kwargs.get("labels", "inferred")
        labels = list(labels) if isinstance(labels, list) else labels
        _, shuffled_labels, _ = dataset_utils.index_directory(
            TREE, labels, formats=(".bmp", ".gif", ".jpeg", ".jpg", ".png"), shuffle=True,
            seed=kwargs["seed"], verbose=False)
        meta["splits"][name] = {
            "kwargs": kwargs,
            "file_paths": [[os.path.relpath(p, TREE) for p in d.file_paths] for d in parts],
            "labels": None if shuffled_labels is None else [int(v) for v in shuffled_labels],
            "class_names": parts[0].class_names,
        }


def main():
    write_tree()
    arrays, meta = {}, {}
    load_cases(arrays, meta)
    array_cases(arrays)
    save_cases(arrays)
    dataset_cases(arrays, meta)
    np.savez_compressed(os.path.join(oracle.ORACLE_DIR, "image_io.npz"), **arrays)
    with open(os.path.join(oracle.ORACLE_DIR, "image_io.json"), "w") as f:
        json.dump(meta, f, separators=(",", ":"))
    print(f"tests/oracle/fixtures/image_io.npz: {len(arrays)} arrays")


if __name__ == "__main__":
    main()
