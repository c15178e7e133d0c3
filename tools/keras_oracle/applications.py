"""keras.applications in Keras 3.15, for scripts/applications_check.sh: applications.py OUT_DIR
[--all] [--only NAME,...].

For each case: the model Keras builds with weights=None (after clear_session, so automatic
layer names start afresh, as keras-cpp's do after clear_session), its weights made distinct
(biases, BatchNormalization statistics and scales drawn at random: the initializers leave them
0 or 1, which would not show a mix-up), and written to OUT_DIR as

  NAME.json         model.to_json()
  NAME.keras        model.save
  NAME.weights.h5   model.save_weights
  NAME.h5           the legacy weights-only layout Keras's own ImageNet files use
  NAME.npz          images (pixels in [0, 255]), preprocessed (the family's preprocess_input),
                    predictions (model.predict on them)
  manifest.json     per case: function, kwargs, preprocess module, parameter count, and the
                    weights' paths and shapes in model.weights order

The default set keeps every family at a small input size, so CI can run it; --all adds every
architecture at its default size (minutes each for the largest: not for CI).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402,F401  (Keras on JAX)

import h5py  # noqa: E402
import keras  # noqa: E402
import numpy as np  # noqa: E402
from keras.src.legacy.saving import legacy_h5_format  # noqa: E402

A = keras.applications

# (case name, function, keyword arguments, module of its preprocess_input, image size[, oracle
# settings]). variance_scale multiplies the drawn BatchNormalization variances: the deep
# EfficientNetV2 variants and the deepest EfficientNets (B6, B7) with random weights otherwise
# amplify float32 rounding until a 1e-6 change of the input moves Keras's own outputs by tens of
# percent, which would hide any comparison (B7 untamed: 100% apart, B6 2.2e-6).
TAME = dict(variance_scale=2.0)
SMALL = [
    ("resnet50_notop", "ResNet50", dict(include_top=False, input_shape=(64, 64, 3),
                                        pooling="avg"), "resnet", 64),
    ("resnet50v2_top", "ResNet50V2", dict(input_shape=(64, 64, 3), classes=7,
                                          classifier_activation=None), "resnet_v2", 64),
    ("vgg16_notop", "VGG16", dict(include_top=False, input_shape=(48, 48, 3), pooling="max"),
     "vgg16", 48),
    ("vgg19_top", "VGG19", dict(input_shape=(32, 32, 3), classes=5), "vgg19", 32),
    ("mobilenet_a050", "MobileNet", dict(input_shape=(64, 64, 3), alpha=0.5, depth_multiplier=2,
                                         classes=10), "mobilenet", 64),
    ("mobilenet_notop", "MobileNet", dict(include_top=False, pooling="avg"), "mobilenet", 40),
    ("mobilenetv2_a035", "MobileNetV2", dict(input_shape=(96, 96, 3), alpha=0.35,
                                             classifier_activation=None), "mobilenet_v2", 96),
    ("mobilenetv2_a130_notop", "MobileNetV2", dict(include_top=False, alpha=1.3,
                                                   input_shape=(75, 75, 3)), "mobilenet_v2", 75),
    ("efficientnetb0_top", "EfficientNetB0", dict(input_shape=(64, 64, 3), classes=7,
                                                  classifier_activation=None), "efficientnet", 64),
    ("efficientnetb2_notop", "EfficientNetB2", dict(include_top=False, pooling="max",
                                                    name="effnet"), "efficientnet", 49),
    ("efficientnetv2b0_top", "EfficientNetV2B0", dict(input_shape=(64, 64, 3), classes=6),
     "efficientnet_v2", 64),
    # the S/M/L block table and their [-1, 1] input scaling
    ("efficientnetv2s_notop", "EfficientNetV2S", dict(include_top=False, pooling="avg",
                                                      input_shape=(40, 40, 3)),
     "efficientnet_v2", 40, TAME),
    ("efficientnetv2b2_noprep", "EfficientNetV2B2", dict(include_top=False, pooling="max",
                                                         include_preprocessing=False),
     "efficientnet_v2", 48, TAME),
    ("convnext_tiny_top", "ConvNeXtTiny", dict(input_shape=(32, 32, 3), classes=5,
                                               classifier_activation=None), "convnext", 32),
    ("convnext_tiny_notop", "ConvNeXtTiny", dict(include_top=False, pooling="avg",
                                                 include_preprocessing=False, name="cnx"),
     "convnext", 40),
    ("densenet121_top", "DenseNet121", dict(input_shape=(32, 32, 3), classes=6),
     "densenet", 32),
    ("densenet169_notop", "DenseNet169", dict(include_top=False, input_shape=(48, 48, 3),
                                              pooling="max"), "densenet", 48),
    ("mobilenetv3small_a075", "MobileNetV3Small", dict(alpha=0.75, classes=10),
     "mobilenet_v3", 64),
    ("mobilenetv3large_notop", "MobileNetV3Large",
     dict(include_top=False, input_shape=(64, 64, 3), pooling="max",
          include_preprocessing=False), "mobilenet_v3", 64),
    ("mobilenetv3small_min_a125", "MobileNetV3Small",
     dict(input_shape=(48, 48, 3), alpha=1.25, minimalistic=True, dropout_rate=0.0,
          classifier_activation=None), "mobilenet_v3", 48),
    ("xception_top", "Xception", dict(input_shape=(71, 71, 3), classes=4,
                                      classifier_activation="sigmoid"), "xception", 71),
    ("xception_notop", "Xception", dict(include_top=False, pooling="avg"), "xception", 80),
    ("inceptionv3_top", "InceptionV3", dict(input_shape=(75, 75, 3), classes=6,
                                            classifier_activation=None), "inception_v3", 75),
    ("inceptionv3_notop", "InceptionV3", dict(include_top=False, pooling="max"), "inception_v3",
     91),
    ("inceptionresnetv2_top", "InceptionResNetV2", dict(input_shape=(75, 75, 3), classes=4),
     "inception_resnet_v2", 75),
    ("inceptionresnetv2_notop", "InceptionResNetV2", dict(include_top=False, pooling="avg",
                                                          input_shape=(83, 83, 3)),
     "inception_resnet_v2", 83),
    ("nasnetmobile_top", "NASNetMobile", dict(input_shape=(32, 32, 3), classes=3,
                                              classifier_activation=None), "nasnet", 32),
    # Without top and input_shape NASNetMobile's input is 224x224, not free.
    ("nasnetmobile_notop", "NASNetMobile", dict(include_top=False, pooling="max"), "nasnet", 224),
]

FULL = [
    ("resnet50", "ResNet50", {}, "resnet", 224),
    ("resnet101", "ResNet101", {}, "resnet", 224),
    ("resnet152", "ResNet152", {}, "resnet", 224),
    ("resnet50v2", "ResNet50V2", {}, "resnet_v2", 224),
    ("resnet101v2", "ResNet101V2", {}, "resnet_v2", 224),
    ("resnet152v2", "ResNet152V2", {}, "resnet_v2", 224),
    ("vgg16", "VGG16", {}, "vgg16", 224),
    ("vgg19", "VGG19", {}, "vgg19", 224),
    ("mobilenet", "MobileNet", {}, "mobilenet", 224),
    ("mobilenetv2", "MobileNetV2", {}, "mobilenet_v2", 224),
    ("mobilenetv3small", "MobileNetV3Small", {}, "mobilenet_v3", 224),
    ("mobilenetv3large", "MobileNetV3Large", {}, "mobilenet_v3", 224),
    ("densenet121", "DenseNet121", {}, "densenet", 224),
    ("densenet169", "DenseNet169", {}, "densenet", 224),
    ("densenet201", "DenseNet201", {}, "densenet", 224),
    ("xception", "Xception", {}, "xception", 299),
    ("inceptionv3", "InceptionV3", {}, "inception_v3", 299),
    ("inceptionresnetv2", "InceptionResNetV2", {}, "inception_resnet_v2", 299),
    ("nasnetmobile", "NASNetMobile", {}, "nasnet", 224),
    ("nasnetlarge", "NASNetLarge", {}, "nasnet", 331),
] + [("efficientnetb%d" % i, "EfficientNetB%d" % i, {}, "efficientnet", size)
     + ((TAME,) if i >= 6 else ())
     for i, size in enumerate([224, 240, 260, 300, 380, 456, 528, 600])] + [
    ("efficientnetv2" + v.lower(), "EfficientNetV2" + v, {}, "efficientnet_v2", size, TAME)
    for v, size in [("B0", 224), ("B1", 240), ("B2", 260), ("B3", 300), ("S", 384), ("M", 480),
                    ("L", 480)]] + [
    ("convnext_" + v.lower(), "ConvNeXt" + v, {}, "convnext", 224)
    for v in ["Tiny", "Small", "Base", "Large", "XLarge"]]


def distinct_weights(model, rng, variance_scale=1.0):
    """Random values where the initializers leave constants, so a weight loaded into the wrong
    place changes the predictions."""
    for w in model.weights:
        name = w.path.split("/")[-1]
        shape = tuple(w.shape)
        if name == "moving_variance" or name == "variance":
            continue_value = rng.uniform(0.5, 1.5, shape)
            if name == "moving_variance":
                continue_value = continue_value * variance_scale
        elif name in ("moving_mean", "beta", "bias", "mean"):
            continue_value = rng.normal(0.0, 0.1, shape)
        elif name == "gamma":
            continue_value = 1.0 + rng.normal(0.0, 0.1, shape)
        elif name == "variable" and "layer_scale" in w.path:
            continue_value = rng.uniform(0.5, 1.5, shape)  # ConvNeXt's LayerScale: 1e-6 each
        else:
            continue
        if name in ("mean", "variance") and not w.trainable and w.path.startswith("normalization"):
            continue  # Normalization's constants (EfficientNet) stay as the architecture sets them
        w.assign(continue_value.astype(w.dtype))


def run_case(out, name, function, kwargs, module, size, rng, settings=None):
    keras.backend.clear_session()
    keras.utils.set_random_seed(1)
    model = getattr(A, function)(weights=None, **kwargs)
    distinct_weights(model, rng, **(settings or {}))
    with open(os.path.join(out, name + ".json"), "w") as f:
        f.write(model.to_json())
    model.save(os.path.join(out, name + ".keras"))
    model.save_weights(os.path.join(out, name + ".weights.h5"))
    with h5py.File(os.path.join(out, name + ".h5"), "w") as f:
        legacy_h5_format.save_weights_to_hdf5_group(f, model)
    images = rng.uniform(0, 255, (2, size, size, 3)).astype("float32")
    pre = np.asarray(getattr(A, module).preprocess_input(images.copy()))
    preds = np.asarray(model.predict(pre, verbose=0))
    np.savez(os.path.join(out, name + ".npz"), images=images, preprocessed=pre,
             predictions=preds)
    return {
        "name": name, "function": function, "kwargs": kwargs, "preprocess": module,
        "count_params": int(model.count_params()),
        "weights": [[w.path, list(w.shape)] for w in model.weights],
    }


def main():
    args = sys.argv[1:]
    out = args[0]
    os.makedirs(out, exist_ok=True)
    cases = SMALL + (FULL if "--all" in args else [])
    if "--only" in args:
        only = set(args[args.index("--only") + 1].split(","))
        cases = [c for c in cases if c[0] in only]
    rng = np.random.default_rng(0)
    manifest = []
    for case in cases:
        print("keras:", case[0], flush=True)
        manifest.append(run_case(out, *case[:5], rng, *case[5:]))
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)


if __name__ == "__main__":
    main()
