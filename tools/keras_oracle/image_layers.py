"""The colour augmentation layers RandomGrayscale, Solarization, RandomInvert,
RandomPosterization and AutoContrast against real Keras 3.15 (JAX backend, x64), for tests/layers_preprocessing/image_layers_keras_test.cpp.

keras-cpp's random stream differs from JAX's, so the random draw is not compared; the
deterministic part is: Keras's own transform_images applied to a given transformation (the
dict, or for RandomGrayscale the bare mask Keras uses), and get_config.

Writes tests/oracle/fixtures/image_layers.npz, op = the layer's class name:
  inputs   images, then the transformation's tensors in the order of kwargs "keys";
  kwargs   "config": the layer's Keras get_config() (constructor arguments as Keras stores
           them), "keys", "training";
  outputs  transform_images(images, transformation, training).
Run: ./scripts/oracle.sh image_layers
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (sets up Keras on JAX with x64 first)

import keras  # noqa: E402
import numpy as np  # noqa: E402

F = oracle.Fixture("image_layers", seed=22)


def config_of(layer):
    c = layer.get_config()
    c.pop("dtype", None)
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in c.items()}


def add(name, layer, images, transformation, keys, training=True):
    # RandomGrayscale's transformation is the bare mask; the others' a dict.
    given = transformation["should_apply"] if keys == ["should_apply"] else transformation
    out = np.asarray(layer.transform_images(images, given, training=training))
    F.case(name, layer.__class__.__name__, [images] + [transformation[k] for k in keys], out,
           config=config_of(layer), keys=keys, training=training)


def main():
    rgb = F.uniform(0, 255, 4, 5, 6, 3)
    rgb_first = F.uniform(0, 1, 3, 3, 4, 5)
    # RandomGrayscale: images 0 and 2 become gray (both formats); inference passes through.
    mask = np.array([True, False, True, False]).reshape(4, 1, 1, 1)
    add("grayscale_last", keras.layers.RandomGrayscale(0.3, seed=1), rgb,
        {"should_apply": mask}, ["should_apply"])
    add("grayscale_first",
        keras.layers.RandomGrayscale(0.8, data_format="channels_first"), rgb_first,
        {"should_apply": mask[:3]}, ["should_apply"])
    add("grayscale_inference", keras.layers.RandomGrayscale(), rgb, {"should_apply": mask},
        ["should_apply"], training=False)
    # Solarization on [0, 255] and on [0, 1] images, with thresholds below and above pixels.
    additions = np.array([0.0, 30.0, 100.0, 5.0], np.float32).reshape(4, 1, 1, 1)
    thresholds = np.array([128.0, 0.0, 200.0, 255.0], np.float32).reshape(4, 1, 1, 1)
    add("solarization_255", keras.layers.Solarization(0.5, (0.2, 0.9), seed=3), rgb,
        {"additions": additions, "thresholds": thresholds}, ["additions", "thresholds"])
    add("solarization_unit",
        keras.layers.Solarization(threshold_factor=0.4, value_range=(0, 1)), rgb_first[:, :, :, :3],
        {"additions": additions[:3], "thresholds": thresholds[:3]}, ["additions", "thresholds"])
    add("solarization_inference", keras.layers.Solarization(), rgb,
        {"additions": additions, "thresholds": thresholds}, ["additions", "thresholds"],
        training=False)
    # RandomInvert.
    apply = np.array([True, True, False, True])
    add("invert_255", keras.layers.RandomInvert(0.6, seed=4), rgb, {"apply_inversion": apply},
        ["apply_inversion"])
    add("invert_unit", keras.layers.RandomInvert((0.2, 0.7), value_range=(0, 1),
                                                 data_format="channels_first"),
        rgb_first, {"apply_inversion": apply[:3]}, ["apply_inversion"])
    add("invert_inference", keras.layers.RandomInvert(), rgb, {"apply_inversion": apply},
        ["apply_inversion"], training=False)
    # RandomPosterization: 1, 3, 7 and 8 bits kept (shift 7, 5, 1, 0).
    shift = np.array([7, 5, 1, 0], np.uint8)
    add("posterization_255", keras.layers.RandomPosterization((1, 8), seed=5), rgb,
        {"shift_factor": shift}, ["shift_factor"])
    add("posterization_unit", keras.layers.RandomPosterization(4, value_range=(0, 1)),
        rgb_first, {"shift_factor": shift[:3]}, ["shift_factor"])
    add("posterization_inference", keras.layers.RandomPosterization(3), rgb,
        {"shift_factor": shift}, ["shift_factor"], training=False)
    # AutoContrast (deterministic; applied in inference too). Image 1 is constant (0 / 0).
    low_contrast = F.uniform(60, 120, 3, 5, 4, 3)
    low_contrast[1] = 77.0
    for training in (True, False):
        add(f"auto_contrast_{training}", keras.layers.AutoContrast(), low_contrast, {}, [],
            training=training)
    add("auto_contrast_unit_first",
        keras.layers.AutoContrast(value_range=(0, 1), data_format="channels_first"),
        rgb_first * 0.5 + 0.2, {}, [])
    F.save()


if __name__ == "__main__":
    main()
