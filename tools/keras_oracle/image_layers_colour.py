"""The colour and filter augmentation layers RandomHue, RandomSaturation,
RandomColorDegeneration, RandomColorJitter, RandomSharpness, RandomGaussianBlur, Equalization,
ContrastLimitedAdaptiveHistogramEqualization and Pipeline against real Keras 3.15 (JAX backend,
x64), for tests/layers_preprocessing/image_layers_colour_keras_test.cpp.

keras-cpp's random stream differs from JAX's, so the random draw is not compared; the
deterministic part is: Keras's own transform_images applied to a given transformation, and
get_config. RandomColorJitter draws inside transform_images, so its cases use factors whose
draws are constants (a pair of equal bounds; hue (1, 1) shifts by +-1/2, the same hue either
way). Pipeline's case is its call on deterministic layers.

Writes tests/oracle/fixtures/image_layers_colour.keras (a model of all nine, saved by Keras;
case "keras_file", op "KerasFile": its predict) and
tests/oracle/fixtures/image_layers_colour.npz, op = the layer's class name:
  inputs   images, then the transformation's tensors in the order of kwargs "keys";
  kwargs   "config": the layer's Keras get_config() (constructor arguments as Keras stores
           them), "keys", "training" (and "rtol"/"atol" where a case needs them);
  outputs  transform_images(images, transformation, training) (Pipeline: its call).
Run: ./scripts/oracle.sh image_layers_colour
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (sets up Keras on JAX with x64 first)

import keras  # noqa: E402
import numpy as np  # noqa: E402

F = oracle.Fixture("image_layers_colour", seed=23)


def config_of(layer):
    c = layer.get_config()
    c.pop("dtype", None)
    # Tuples become lists (as in a .keras file).
    return json.loads(json.dumps(c))


def add(name, layer, images, transformation, keys, training=True, **extra):
    out = np.asarray(layer.transform_images(images, transformation, training=training))
    F.case(name, layer.__class__.__name__, [images] + [transformation[k] for k in keys], out,
           config=config_of(layer), keys=keys, training=training, **extra)


def f32(*values, shape=None):
    a = np.array(values, np.float32)
    return a if shape is None else a.reshape(shape)


def main():
    rgb = F.uniform(0, 255, 4, 5, 6, 3)
    rgb_first = F.uniform(0, 1, 3, 3, 4, 5)
    # Greys and black pixels have no hue; a few of them test that path.
    rgb[0, 0, :3] = 128.0
    rgb[1, 1, 1] = 0.0

    # RandomHue: signed half amounts, both wraps (past 1 and below 0).
    add("hue_last", keras.layers.RandomHue(0.5, seed=1), rgb,
        {"factor": f32(0.1, -0.2, 0.45, -0.05)}, ["factor"], rtol=1e-4, atol=1e-3)
    add("hue_unit_first",
        keras.layers.RandomHue((0.2, 0.8), value_range=(0, 1), data_format="channels_first"),
        rgb_first, {"factor": f32(0.3, -0.4, 0.25)}, ["factor"], rtol=1e-4, atol=1e-5)
    add("hue_inference", keras.layers.RandomHue(0.3), rgb, {"factor": f32(0.1, 0.1, 0.1, 0.1)},
        ["factor"], training=False)

    # RandomSaturation: multipliers 0 (gray), 1, more; value_range (0, 1) clips at 1.
    add("saturation_last", keras.layers.RandomSaturation(0.5, seed=2), rgb,
        {"factor": f32(0.0, 1.0, 1.8, 5.0)}, ["factor"], rtol=1e-4, atol=1e-3)
    add("saturation_unit_first",
        keras.layers.RandomSaturation((0.2, 0.9), value_range=(1, 0),
                                      data_format="channels_first"),
        rgb_first, {"factor": f32(0.3, 1.5, 4.0)}, ["factor"], rtol=1e-4, atol=1e-5)
    add("saturation_inference", keras.layers.RandomSaturation(0.5), rgb,
        {"factor": f32(2.0, 2.0, 2.0, 2.0)}, ["factor"], training=False)

    # RandomColorDegeneration: negative amounts push away from gray (then clipped).
    add("degeneration_last", keras.layers.RandomColorDegeneration(0.7, seed=3), rgb,
        {"factor": f32(-0.5, 0.0, 0.4, 1.0, shape=(4, 1, 1, 1))}, ["factor"])
    add("degeneration_unit_first",
        keras.layers.RandomColorDegeneration((0.1, 0.6), value_range=(0, 1),
                                             data_format="channels_first"),
        rgb_first, {"factor": f32(0.2, -1.0, 0.9, shape=(3, 1, 1, 1))}, ["factor"])
    add("degeneration_inference", keras.layers.RandomColorDegeneration(0.5), rgb,
        {"factor": f32(1, 1, 1, 1, shape=(4, 1, 1, 1))}, ["factor"], training=False)

    # RandomSharpness: 0 smooths, 0.5 keeps, 1 sharpens (and clips). The 3x3 convolution
    # sums in another order than XLA's, hence float32 tolerances.
    add("sharpness_last", keras.layers.RandomSharpness(0.8, seed=4), rgb,
        {"factor": f32(0.0, 0.25, 0.5, 1.0)}, ["factor"], rtol=1e-5, atol=1e-4)
    add("sharpness_unit_first",
        keras.layers.RandomSharpness((0.9, 0.1), value_range=(0, 1),
                                     data_format="channels_first"),
        rgb_first, {"factor": f32(0.9, 0.1, 0.6)}, ["factor"], rtol=1e-5, atol=1e-6)
    add("sharpness_inference", keras.layers.RandomSharpness(0.5), rgb,
        {"factor": f32(1, 1, 1, 1)}, ["factor"], training=False)

    # RandomGaussianBlur: one sigma pair for the batch, a mask of blurred images.
    add("blur_last", keras.layers.RandomGaussianBlur(0.5, seed=5), rgb,
        {"should_apply_blur": np.array([True, False, True, True]),
         "blur_factor": f32(0.8, 0.3)}, ["should_apply_blur", "blur_factor"])
    add("blur_wide_first",
        keras.layers.RandomGaussianBlur((0.3, 0.9), kernel_size=(5, 3), sigma=(0.2, 0.9),
                                        value_range=(0, 1), data_format="channels_first"),
        rgb_first, {"should_apply_blur": np.array([True, True, False]),
                    "blur_factor": f32(0.5, 1.0)}, ["should_apply_blur", "blur_factor"])
    add("blur_inference", keras.layers.RandomGaussianBlur(), rgb,
        {"should_apply_blur": np.array([True] * 4), "blur_factor": f32(1.0, 1.0)},
        ["should_apply_blur", "blur_factor"], training=False)

    # RandomColorJitter with draws that are constants.
    add("jitter_all", keras.layers.RandomColorJitter(
        value_range=(0, 255), brightness_factor=(0.1, 0.1), contrast_factor=(-0.5, 0.5),
        saturation_factor=(0.6, 0.6), hue_factor=(1.0, 1.0), seed=6), rgb, {}, [],
        rtol=1e-4, atol=1e-3)
    add("jitter_unit", keras.layers.RandomColorJitter(
        value_range=(0, 1), brightness_factor=(-0.3, -0.3), saturation_factor=(0.25, 0.25)),
        F.uniform(0, 1, 3, 4, 5, 3), {}, [], rtol=1e-4, atol=1e-5)
    add("jitter_inference", keras.layers.RandomColorJitter(brightness_factor=0.5), rgb, {}, [],
        training=False)

    # Equalization: one histogram per channel over the whole batch.
    add("equalization_last", keras.layers.Equalization(), rgb, {}, [])
    flat = rgb.copy()
    flat[..., 1] = 77.0  # one filled bin: the channel is left as it is
    add("equalization_flat_channel", keras.layers.Equalization(bins=64), flat, {}, [])
    add("equalization_unit_first",
        keras.layers.Equalization(value_range=(1, 0), bins=16, data_format="channels_first"),
        rgb_first, {}, [])
    add("equalization_inference", keras.layers.Equalization(), rgb, {}, [], training=False)

    # CLAHE: padded tiles (20 rows in 8 tiles of 3), clipping on and off, both formats,
    # integer images (cast back to their dtype, so a value on the edge may round either way).
    low = F.uniform(60, 120, 2, 20, 24, 3)
    add("clahe_default", keras.layers.ContrastLimitedAdaptiveHistogramEqualization(), low, {}, [],
        rtol=1e-4, atol=1e-3)
    add("clahe_unit_first", keras.layers.ContrastLimitedAdaptiveHistogramEqualization(
        value_range=(0, 1), clip_limit=2.0, tile_grid_size=(2, 3), data_format="channels_first"),
        F.uniform(0.2, 0.7, 2, 3, 16, 15), {}, [], rtol=1e-4, atol=1e-5)
    add("clahe_no_clip_uint8", keras.layers.ContrastLimitedAdaptiveHistogramEqualization(
        clip_limit=0.0, tile_grid_size=(4, 4)),
        F.randint(0, 256, 2, 12, 13, 3).astype(np.uint8), {}, [], atol=1)
    add("clahe_inference", keras.layers.ContrastLimitedAdaptiveHistogramEqualization(
        tile_grid_size=(3, 2)), low, {}, [], training=False, rtol=1e-4, atol=1e-3)

    # Pipeline: its call on deterministic layers, in training and in inference.
    pipeline = keras.layers.Pipeline([
        keras.layers.AutoContrast(),
        keras.layers.RandomSharpness((0.8, 0.8)),
        keras.layers.Equalization(bins=32),
    ])
    for training in (True, False):
        out = np.asarray(pipeline(low, training=training))
        F.case(f"pipeline_{training}", "Pipeline", [low], out, config=config_of(pipeline),
               keys=[], training=training, rtol=1e-4, atol=1e-3)
    keras_file_case()
    F.save()


def keras_file_case():
    """A Functional model of all nine classes saved by Keras (image_layers_colour.keras) and
    what its predict gives: the random layers pass images through in inference; CLAHE and
    the Pipeline's AutoContrast apply."""
    inputs = keras.Input((10, 12, 3))
    x = keras.layers.RandomHue((0.1, 0.3), seed=1)(inputs)
    x = keras.layers.RandomSaturation(0.4, seed=2)(x)
    x = keras.layers.RandomColorDegeneration(0.5, seed=3)(x)
    x = keras.layers.RandomColorJitter(brightness_factor=0.2, contrast_factor=(0.1, 0.4),
                                       hue_factor=0.1, seed=4)(x)
    x = keras.layers.RandomSharpness(0.6, seed=5)(x)
    x = keras.layers.RandomGaussianBlur(0.5, kernel_size=5, sigma=(0.2, 0.8), seed=6)(x)
    x = keras.layers.ContrastLimitedAdaptiveHistogramEqualization(
        clip_limit=3.0, tile_grid_size=(2, 3))(x)
    # Keras's Equalization cannot be a node of a Functional model (its compute_output_spec
    # returns its input, a cycle); inside a Pipeline it can.
    x = keras.layers.Pipeline([keras.layers.AutoContrast(), keras.layers.Equalization(bins=128),
                               keras.layers.RandomSaturation((0.2, 0.6))])(x)
    model = keras.Model(inputs, x)
    path = os.path.join(oracle.ORACLE_DIR, "image_layers_colour.keras")
    model.save(path)
    data = F.uniform(40, 200, 2, 10, 12, 3)
    out = model.predict(data, verbose=0)
    again = keras.models.load_model(path)
    np.testing.assert_allclose(again.predict(data, verbose=0), out, rtol=1e-6, atol=1e-5)
    F.case("keras_file", "KerasFile", [data], out, file="image_layers_colour.keras", rtol=1e-5,
           atol=1e-3)


if __name__ == "__main__":
    main()
