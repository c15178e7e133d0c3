"""The geometric and mixing augmentation layers RandomCrop, RandomErasing, MixUp, CutMix,
RandomShear, RandomPerspective, RandomElasticTransform and MaxNumBoundingBoxes, and the
composites RandAugment and AugMix (with the augmentations keras-cpp has), against real
Keras 3.15 (JAX backend, x64), for tests/layers_preprocessing/image_layers_geometric_keras_test.cpp.

keras-cpp's random stream differs from JAX's, so the random draw is not compared; the
deterministic part is: Keras's own transform_images (transform_labels for MixUp and CutMix,
transform_bounding_boxes for MaxNumBoundingBoxes) applied to a given transformation, and
get_config. RandomCrop's transformation for images not larger than the target is
deterministic too, so those cases also record Keras's get_random_transformation ("drawn").

Writes tests/oracle/fixtures/image_layers_geometric.npz, op = the layer's class name (plus
"Labels" for the label transforms, "Boxes" for the box transform; "ElasticParams" is
RandomElasticTransform's (alpha, sigma) for a size and distortion factor):
  inputs   images (or labels, or boxes and labels), then the transformation's tensors in the
           order of kwargs "keys" (a composite's sub-transformations flattened as keras-cpp
           holds them: "random_shear/shear_factor", "chain0/1/translations");
  kwargs   "config": the layer's Keras get_config() (constructor arguments as Keras stores
           them), "keys", "training", and "drawn" where the transformation is Keras's own;
  outputs  the transform's result(s).
Run: ./scripts/oracle.sh image_layers_geometric
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (sets up Keras on JAX with x64 first)

import keras  # noqa: E402
import numpy as np  # noqa: E402

F = oracle.Fixture("image_layers_geometric", seed=23)
L = keras.layers


def config_of(layer):
    c = layer.get_config()
    c.pop("dtype", None)
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in c.items()}


_SAME = object()


def add(name, layer, images, transformation, keys, training=True, given=_SAME, **kwargs):
    """A case; `given` is what Keras's transform_images takes when it differs from the dict."""
    given = transformation if given is _SAME else given
    out = np.asarray(layer.transform_images(images, given, training=training))
    F.case(name, layer.__class__.__name__, [images] + [transformation[k] for k in keys], out,
           config=config_of(layer), keys=keys, training=training, **kwargs)


def add_labels(name, layer, labels, transformation, keys):
    out = np.asarray(layer.transform_labels(labels, transformation, training=True))
    F.case(name, layer.__class__.__name__ + "Labels",
           [labels] + [transformation[k] for k in keys], out, config=config_of(layer),
           keys=keys, training=True)


def box_mask(shape, boxes, channels_last=True):
    """Boolean masks of `shape` true inside each image's box (x0, x1, y0, y1), in pixels."""
    n = shape[0]
    h, w = (shape[1], shape[2]) if channels_last else (shape[2], shape[3])
    m = np.zeros((n, h, w), bool)
    for i, (x0, x1, y0, y1) in enumerate(boxes):
        m[i, y0:y1, x0:x1] = True
    m = m[..., None] if channels_last else m[:, None]
    return np.broadcast_to(m, shape).copy()


def random_crop():
    x = F.uniform(0, 255, 2, 7, 8, 3)
    layer = L.RandomCrop(4, 5, seed=7)
    t = {"h_start": np.int32(2), "w_start": np.int32(1)}
    add("crop_window", layer, x, t, ["h_start", "w_start"], given=(2, 1))
    # Corner at the far end: rows 3..6, columns 3..7.
    t = {"h_start": np.int32(3), "w_start": np.int32(3)}
    add("crop_far_corner", layer, x, t, ["h_start", "w_start"], given=(3, 3))
    first = L.RandomCrop(3, 2, seed=8, data_format="channels_first")
    xf = F.uniform(0, 1, 2, 3, 6, 5)
    t = {"h_start": np.int32(1), "w_start": np.int32(2)}
    add("crop_first", first, xf, t, ["h_start", "w_start"], given=(1, 2))
    # Images not larger than the target: Keras's own (deterministic) centred window, resized.
    for name, lyr, imgs in [("crop_small", L.RandomCrop(5, 6, seed=9), F.uniform(0, 255, 2, 3, 4, 3)),
                            ("crop_tall", L.RandomCrop(3, 6, seed=10), F.uniform(0, 255, 1, 8, 4, 3)),
                            ("crop_wide_first",
                             L.RandomCrop(4, 2, seed=11, data_format="channels_first"),
                             F.uniform(0, 1, 2, 2, 3, 9))]:
        h, w = lyr.get_random_transformation(imgs, training=True)
        t = {"h_start": np.int32(h), "w_start": np.int32(w)}
        add(name, lyr, imgs, t, ["h_start", "w_start"], given=(h, w), drawn=True)
    # Inference: Keras 3.15 returns the images unchanged.
    t = {"h_start": np.int32(1), "w_start": np.int32(1)}
    add("crop_inference", layer, x, t, ["h_start", "w_start"], training=False, given=(1, 1))


def random_erasing():
    x = F.uniform(0, 255, 3, 6, 7, 3)
    masks = box_mask(x.shape, [(1, 4, 0, 3), (0, 7, 2, 6), (3, 5, 3, 4)])
    fill = F.uniform(0, 255, *x.shape)
    t = {"apply_erasing": np.array([True, True, False]), "batch_masks": masks, "fill_value": fill}
    keys = ["apply_erasing", "batch_masks", "fill_value"]
    add("erasing_last", L.RandomErasing(seed=1), x, t, keys)
    add("erasing_options",
        L.RandomErasing(factor=(0.2, 0.6), scale=0.25, fill_value=[10.0, 20.0, 30.0],
                        value_range=(0, 1), seed=2), x, t, keys)
    xf = F.uniform(0, 1, 2, 3, 5, 4)
    mf = box_mask(xf.shape, [(0, 2, 1, 5), (1, 4, 0, 2)], channels_last=False)
    t = {"apply_erasing": np.array([True, True]), "batch_masks": mf,
         "fill_value": np.full(xf.shape, 0.5, np.float32)}
    add("erasing_first", L.RandomErasing(0.7, fill_value=0.5, value_range=(0, 1),
                                         data_format="channels_first"), xf, t, keys)
    t = {"apply_erasing": np.array([True, True, True]), "batch_masks": masks, "fill_value": fill}
    add("erasing_inference", L.RandomErasing(), x, t, keys, training=False)


def mix_up():
    x = F.uniform(0, 255, 4, 3, 5, 3)
    t = {"mix_weight": np.array([0.9, 0.25, 0.5, 0.03], np.float32),
         "permutation_order": np.array([2, 0, 3, 1], np.int64)}
    keys = ["mix_weight", "permutation_order"]
    layer = L.MixUp(alpha=0.4, seed=3)
    add("mix_up_last", layer, x, t, keys)
    add("mix_up_first", L.MixUp(data_format="channels_first"), x.transpose(0, 3, 1, 2).copy(), t,
        keys)
    add("mix_up_inference", layer, x, t, keys, training=False)
    labels = np.eye(4, 5, dtype=np.float32)
    add_labels("mix_up_labels", layer, labels, t, keys)


def cut_mix():
    x = F.uniform(0, 255, 3, 6, 5, 3)
    boxes = [(0, 3, 1, 4), (2, 5, 0, 6), (1, 2, 2, 3)]
    masks = box_mask(x.shape, boxes)
    area = np.array([(x1 - x0) * (y1 - y0) for x0, x1, y0, y1 in boxes], np.float32)
    t = {"permutation_order": np.array([1, 2, 0], np.int32), "batch_masks": masks,
         "mix_weight": 1.0 - area / 30.0}
    keys = ["permutation_order", "batch_masks", "mix_weight"]
    layer = L.CutMix(factor=(0.3, 0.8), seed=4)
    add("cut_mix_last", layer, x, t, keys)
    xf = x.transpose(0, 3, 1, 2).copy()
    t_first = dict(t, batch_masks=masks.transpose(0, 3, 1, 2).copy())
    add("cut_mix_first", L.CutMix(data_format="channels_first"), xf, t_first, keys)
    add("cut_mix_inference", layer, x, t, keys, training=False)
    labels = np.eye(3, 4, dtype=np.float32) * 2.0
    add_labels("cut_mix_labels", layer, labels, t, keys)


def random_shear():
    x = F.uniform(0, 255, 3, 7, 6, 3)
    t = {"shear_factor": np.array([[0.3, -0.2], [-0.45, 0.0], [0.1, 0.6]], np.float32)}
    add("shear_reflect", L.RandomShear(0.5, 0.7, seed=5), x, t, ["shear_factor"])
    add("shear_constant_nearest",
        L.RandomShear((0.1, 0.5), 0.6, interpolation="nearest", fill_mode="constant",
                      fill_value=9.0, data_format="channels_first", seed=6),
        x.transpose(0, 3, 1, 2).copy(), t, ["shear_factor"])
    add("shear_wrap", L.RandomShear(0.5, fill_mode="wrap"), x, t, ["shear_factor"])
    add("shear_inference", L.RandomShear(0.5, 0.5), x, t, ["shear_factor"], training=False)


def random_perspective():
    x = F.uniform(0, 255, 3, 8, 9, 3)
    h, w = 8, 9
    start = np.repeat(np.array([[[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1]]], np.float32), 3, 0)
    moves = F.uniform(-0.3, 0.3, 3, 4, 2)
    t = {"apply_perspective": np.array([True, False, True]), "start_points": start,
         "end_points": start + start * moves}
    keys = ["apply_perspective", "start_points", "end_points"]
    add("perspective_bilinear", L.RandomPerspective(factor=0.8, scale=0.6, seed=7), x, t, keys)
    xf = x.transpose(0, 3, 1, 2).copy()
    add("perspective_nearest_first",
        L.RandomPerspective(factor=(0.2, 0.9), interpolation="nearest", fill_value=3.0,
                            data_format="channels_first"), xf, t, keys)
    add("perspective_inference", L.RandomPerspective(), x, t, keys, training=False)


def random_elastic_transform():
    # JAX's noise cannot be replayed: the cases keep every image (apply_transform false), which
    # still runs Keras's selection, clipping to value_range and cast.
    x = F.uniform(-60, 300, 2, 6, 5, 3)
    t = {"apply_transform": np.array([False, False]), "distortion_factor": np.float32(0.5),
         "seed": np.int64(1)}
    keys = ["apply_transform", "distortion_factor", "seed"]
    given = dict(t, seed=1)  # Keras wants a Python int (or a SeedGenerator) here
    add("elastic_kept_clipped", L.RandomElasticTransform(seed=8), x, t, keys, given=given)
    add("elastic_kept_unit",
        L.RandomElasticTransform(factor=(0.1, 0.4), scale=0.3, interpolation="nearest",
                                 fill_mode="constant", fill_value=2.0, value_range=(0, 1)),
        x / 255.0, t, keys, given=given)
    # scale 0: nothing is drawn, and the images pass through unclipped.
    layer = L.RandomElasticTransform(scale=0.0)
    assert layer.get_random_transformation(x, training=True) is None
    add("elastic_scale_zero", layer, x, {}, [], given=None)
    add("elastic_inference", L.RandomElasticTransform(), x, t, keys, training=False,
        given=given)
    # The displacement's size for a drawn distortion factor (Keras's own formula).
    for i, (h, w, d) in enumerate([(6, 5, 0.5), (32, 48, 1.0), (17, 9, 0.13)]):
        alpha, sigma = layer.get_elastic_transform_params(h, w, d)
        F.case(f"elastic_params_{i}", "ElasticParams", [np.array([h, w]), np.float64(d)],
               [np.float64(alpha), np.float64(sigma)])


def max_num_bounding_boxes():
    boxes = F.uniform(0, 50, 2, 5, 4)
    labels = F.randint(0, 9, 2, 5).astype(np.float32)
    for name, layer in [("boxes_truncated", L.MaxNumBoundingBoxes(3)),
                        ("boxes_padded", L.MaxNumBoundingBoxes(7)),
                        ("boxes_padded_zero", L.MaxNumBoundingBoxes(6, fill_value=0)),
                        ("boxes_format", L.MaxNumBoundingBoxes(5, bounding_box_format="xyxy"))]:
        out = layer.transform_bounding_boxes({"boxes": boxes, "labels": labels}, None)
        F.case(name, "MaxNumBoundingBoxesBoxes", [boxes, labels],
               [np.asarray(out["boxes"]), np.asarray(out["labels"])], config=config_of(layer),
               fill_value=layer.fill_value)
    x = F.uniform(0, 255, 2, 4, 4, 3)
    add("boxes_images", L.MaxNumBoundingBoxes(2), x, {}, [], given=None)


def arrays_of(transformation, prefix):
    """A sub-layer's transformation flattened under `prefix/` (arrays only: Keras also keeps
    Python ints and shapes there, which its transforms of images do not read)."""
    out = {}
    for key, value in (transformation or {}).items():
        if hasattr(value, "shape") and hasattr(value, "dtype"):
            out[f"{prefix}/{key}"] = np.asarray(value)
    return out


# The augmentations keras-cpp has on this branch (RandomColorDegeneration, RandomSharpness and
# Equalization are the colour helper's); the composite cases pick only these.
HAVE = {"random_shear", "random_translation", "random_rotation", "random_brightness",
        "random_contrast", "random_posterization", "solarization", "auto_contrast"}


def rand_augment():
    x = F.uniform(0, 255, 2, 8, 7, 3)
    layer = L.RandAugment(num_ops=2, factor=0.6, seed=12)
    names = layer._AUGMENT_LAYERS
    full = layer.get_random_transformation(x, training=True)
    for case, picks in [("rand_augment_shear_rotation", [0, 2]),
                        ("rand_augment_contrast_solarize", [5, 8]),
                        ("rand_augment_posterize_autocontrast", [7, 9]),
                        ("rand_augment_translation_twice", [1, 1]),
                        ("rand_augment_brightness_shear", [3, 0])]:
        assert all(names[k] in HAVE for k in picks)
        t = {"layer_idxes": np.array(picks, np.int32), "transforms": full["transforms"]}
        out = np.asarray(layer.transform_images(x, t, training=True))
        flat = {"layer_idxes": t["layer_idxes"]}
        for k in sorted(set(picks)):
            flat.update(arrays_of(full["transforms"][names[k]], names[k]))
        keys = sorted(flat)
        # float32 chains of augmentations on [0, 255] images: a few ulps apart.
        F.case(case, "RandAugment", [x] + [flat[k] for k in keys], out, config=config_of(layer),
               keys=keys, training=True, rtol=1e-5, atol=1e-4)
    nearest = L.RandAugment(value_range=(0, 1), num_ops=1, factor=(0.2, 0.9),
                            interpolation="nearest", data_format="channels_first")
    xf = F.uniform(0, 1, 2, 3, 6, 6)
    sub = nearest.random_rotation.get_random_transformation(xf, training=True)
    # Keras's transform_images runs every augmentation (and keeps the picked one), indexing them
    # in the dict's order: all of them, in _AUGMENT_LAYERS order.
    t = {"layer_idxes": np.array([2], np.int32),
         "transforms": {n: sub if n == "random_rotation" else
                        getattr(nearest, n).get_random_transformation(xf, training=True)
                        for n in names}}
    out = np.asarray(nearest.transform_images(xf, t, training=True))
    flat = {"layer_idxes": t["layer_idxes"], **arrays_of(sub, "random_rotation")}
    keys = sorted(flat)
    F.case("rand_augment_rotation_first", "RandAugment", [xf] + [flat[k] for k in keys], out,
           config=config_of(nearest), keys=keys, training=True)
    add("rand_augment_inference", layer, x, {"layer_idxes": np.array([0, 1], np.int32)},
        ["layer_idxes"], training=False, given=full)


def aug_mix():
    x = F.uniform(0, 255, 2, 7, 8, 3)
    for case, layer, chains in [
            ("aug_mix_all_ops", L.AugMix(num_chains=2, chain_depth=2, factor=0.4, alpha=0.7,
                                         seed=13),
             [["random_shear", "solarization"], [None, "random_translation"]]),
            ("aug_mix_basic", L.AugMix(num_chains=3, chain_depth=2, all_ops=False, seed=14),
             [["random_posterization", "auto_contrast"], ["random_rotation", None],
              [None, None]]),
            ("aug_mix_colour", L.AugMix(num_chains=2, chain_depth=1, factor=(0.1, 0.5),
                                        value_range=(0, 255), interpolation="nearest"),
             [["random_brightness"], ["random_contrast"]])]:
        names = layer._augment_layers
        gen = keras.random.SeedGenerator(99)
        weights = np.asarray(F.uniform(0.1, 1.0, len(chains)))
        weights = (weights / weights.sum()).astype(np.float32)
        blend = np.float32(F.uniform(0.2, 0.8))
        picks = np.full((len(chains), len(chains[0])), -1, np.int32)
        chain_transforms, flat = [], {}
        for c, chain in enumerate(chains):
            steps = []
            for d, name in enumerate(chain):
                if name is None:
                    continue
                assert name in HAVE
                picks[c, d] = names.index(name)
                sub = getattr(layer, name).get_random_transformation(x, seed=gen)
                steps.append({"layer_name": name, "transformation": sub})
                flat.update(arrays_of(sub, f"chain{c}/{d}"))
            chain_transforms.append(steps)
        t = {"chain_mixing_weights": weights, "weight_sample": blend,
             "chain_transforms": chain_transforms}
        out = np.asarray(layer.transform_images(x, t, training=True))
        flat.update({"chain_mixing_weights": weights, "weight_sample": blend,
                     "chain_layers": picks})
        keys = sorted(flat)
        F.case(case, "AugMix", [x] + [flat[k] for k in keys], out, config=config_of(layer),
               keys=keys, training=True, rtol=1e-5, atol=1e-4)


def saved_model():
    """tests/oracle/fixtures/image_layers_geometric_model.keras: a Sequential of the layers
    (RandomShear aside: Keras 3.15 cannot read back the RandomShear configs it writes), saved
    by Keras, for keras-cpp to load; in inference it passes images through (cast to float32)."""
    model = keras.Sequential([
        keras.Input((12, 12, 3)),
        L.RandomCrop(8, 9, seed=1), L.RandomErasing(seed=2), L.MixUp(seed=3), L.CutMix(seed=4),
        L.RandomPerspective(seed=5), L.RandomElasticTransform(seed=6), L.MaxNumBoundingBoxes(3),
        L.RandAugment(seed=7), L.AugMix(seed=8)])
    x = F.uniform(0, 255, 2, 12, 12, 3)
    np.testing.assert_array_equal(np.asarray(model.predict(x, verbose=0)), x)
    path = os.path.join(oracle.ORACLE_DIR, "image_layers_geometric_model.keras")
    model.save(path)
    assert [type(lyr).__name__ for lyr in keras.saving.load_model(path).layers] == \
        [type(lyr).__name__ for lyr in model.layers]
    print(os.path.relpath(path, oracle.ROOT))


def main():
    random_crop()
    random_erasing()
    mix_up()
    cut_mix()
    random_shear()
    random_perspective()
    random_elastic_transform()
    max_num_bounding_boxes()
    rand_augment()
    aug_mix()
    F.save()
    saved_model()


if __name__ == "__main__":
    main()
