"""The records real Keras 3.15 writes for every object keras-cpp rebuilds from a config, for
tests/oracle/configs_test.cpp: tests/oracle/fixtures/configs.json.

Each entry is {"class_name", "args", "record"}: `args` are the Python keyword arguments the
object was made with (a nested object such as an RNN cell is written as its own record) and
`record` is keras.saving.serialize_keras_object(obj) as a .keras file stores it (module,
class_name, config, registered_name; built layers also build_config). The C++ test builds each
object from `record` and compares keras-cpp's get_config with Keras's config key for key.

Families: layers (every class keras-cpp registers, default construction, unbuilt; plus the
built, non-default configurations of the layer fixtures, with "case": "<file>:<case>" and args
null: run tools/keras_oracle/layers.py first), optimizers, losses, metrics, schedules,
initializers, regularizers, constraints (defaults and non-default arguments each).
An entry with "keras_cpp_missing": true names a Keras class keras-cpp does not have;
"dropped_args" lists arguments Keras's own config leaves out (so its round trip loses them).

Run: ./scripts/oracle.sh layers configs (in that order: the layer records come from the
layers_*.npz fixtures, and the script's default order is alphabetical).
"""

import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend, x64)

import keras  # noqa: E402

L = keras.layers
O = keras.optimizers
S = keras.optimizers.schedules
I = keras.initializers


def _plain(value):
    """Arguments as JSON: Keras objects become their records."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return keras.saving.serialize_keras_object(value)


def entry(cls, args, **extra):
    obj = cls(**args)
    record = json.loads(json.dumps(keras.saving.serialize_keras_object(obj)))
    # The record is complete: Keras rebuilds an object with the same config from it.
    again = keras.saving.deserialize_keras_object(json.loads(json.dumps(record)))
    assert json.dumps(again.get_config(), sort_keys=True, default=str) == \
        json.dumps(obj.get_config(), sort_keys=True, default=str), cls.__name__
    # Arguments Keras's config does not record (Keras 3.15 drops Huber's delta, Identity's
    # gain, CosineSimilarity's axis): keras-cpp may write them, Keras cannot read them back.
    dropped = sorted(k for k in args if k not in record["config"])
    if dropped:
        extra["dropped_args"] = dropped
    return dict(class_name=record["class_name"], args=json.loads(json.dumps(_plain(args))),
                record=record, **extra)


# ---- layers: default construction (only the required arguments, and a fixed name) ----------

def _snake(name):
    """The name Keras would give the first layer of the class."""
    from keras.src.utils.naming import to_snake_case
    return to_snake_case(name)


LAYER_DEFAULTS = [
    ("Activation", dict(activation="relu")), ("ActivityRegularization", {}),
    ("AdaptiveAveragePooling1D", dict(output_size=2)),
    ("AdaptiveAveragePooling2D", dict(output_size=2)),
    ("AdaptiveAveragePooling3D", dict(output_size=2)),
    ("AdaptiveMaxPooling1D", dict(output_size=2)), ("AdaptiveMaxPooling2D", dict(output_size=2)),
    ("AdaptiveMaxPooling3D", dict(output_size=2)), ("Add", {}), ("AdditiveAttention", {}),
    ("AlphaDropout", dict(rate=0.1)), ("Attention", {}), ("Average", {}),
    ("AveragePooling1D", dict(pool_size=2)), ("AveragePooling2D", dict(pool_size=2)),
    ("AveragePooling3D", dict(pool_size=2)), ("BatchNormalization", {}),
    ("Bidirectional", dict(layer=lambda: L.LSTM(3, name="lstm"))),
    ("CategoryEncoding", dict(num_tokens=5)), ("CenterCrop", dict(height=4, width=3)),
    ("Concatenate", {}), ("Conv1D", dict(filters=2, kernel_size=3)),
    ("Conv1DTranspose", dict(filters=2, kernel_size=3)),
    ("Conv2D", dict(filters=2, kernel_size=3)),
    ("Conv2DTranspose", dict(filters=2, kernel_size=3)),
    ("Conv3D", dict(filters=2, kernel_size=3)),
    ("Conv3DTranspose", dict(filters=2, kernel_size=3)), ("Cropping1D", {}),
    ("Cropping2D", {}), ("Cropping3D", {}), ("Dense", dict(units=4)),
    ("DepthwiseConv1D", dict(kernel_size=3)), ("DepthwiseConv2D", dict(kernel_size=3)),
    ("Discretization", dict(bin_boundaries=[0.0, 1.0])), ("Dot", dict(axes=1)),
    ("Dropout", dict(rate=0.5)), ("ELU", {}),
    ("EinsumDense", dict(equation="ab,bc->ac", output_shape=4)),
    ("Embedding", dict(input_dim=10, output_dim=4)), ("Flatten", {}), ("GRU", dict(units=3)),
    ("GRUCell", dict(units=3)), ("GaussianDropout", dict(rate=0.1)),
    ("GaussianNoise", dict(stddev=0.1)), ("GlobalAveragePooling1D", {}),
    ("GlobalAveragePooling2D", {}), ("GlobalAveragePooling3D", {}),
    ("GlobalMaxPooling1D", {}), ("GlobalMaxPooling2D", {}), ("GlobalMaxPooling3D", {}),
    ("GroupNormalization", {}),
    ("GroupQueryAttention", dict(head_dim=4, num_query_heads=4, num_key_value_heads=2)),
    ("Identity", {}), ("LSTM", dict(units=3)), ("LSTMCell", dict(units=3)),
    ("Lambda", dict(function=keras.activations.relu)), ("LayerNormalization", {}),
    ("LeakyReLU", {}), ("Masking", {}), ("MaxPooling1D", {}), ("MaxPooling2D", {}),
    ("MaxPooling3D", {}), ("Maximum", {}), ("Minimum", {}),
    ("MultiHeadAttention", dict(num_heads=2, key_dim=3)), ("Multiply", {}),
    ("Normalization", {}), ("PReLU", {}), ("Permute", dict(dims=(2, 1))),
    ("RMSNormalization", {}), ("RNN", dict(cell=lambda: L.LSTMCell(3, name="lstm_cell"))),
    ("RandomBrightness", dict(factor=0.1)), ("RandomContrast", dict(factor=0.1)),
    ("RandomFlip", {}), ("RandomRotation", dict(factor=0.1)),
    ("RandomTranslation", dict(height_factor=0.1, width_factor=0.1)),
    ("RandomZoom", dict(height_factor=0.1)), ("ReLU", {}), ("RepeatVector", dict(n=2)),
    ("Rescaling", dict(scale=1 / 255)), ("Reshape", dict(target_shape=(2, 3))),
    ("Resizing", dict(height=4, width=5)),
    ("SeparableConv1D", dict(filters=2, kernel_size=3)),
    ("SeparableConv2D", dict(filters=2, kernel_size=3)), ("SimpleRNN", dict(units=3)),
    ("SimpleRNNCell", dict(units=3)), ("Softmax", {}), ("SpatialDropout1D", dict(rate=0.5)),
    ("SpatialDropout2D", dict(rate=0.5)), ("SpatialDropout3D", dict(rate=0.5)),
    ("StackedRNNCells", dict(cells=lambda: [L.LSTMCell(2, name="lstm_cell"),
                                            L.GRUCell(3, name="gru_cell")])),
    ("Subtract", {}), ("TimeDistributed", dict(layer=lambda: L.Dense(2, name="dense"))),
    ("UnitNormalization", {}), ("UpSampling1D", {}), ("UpSampling2D", {}),
    ("UpSampling3D", {}), ("ZeroPadding1D", {}), ("ZeroPadding2D", {}), ("ZeroPadding3D", {}),
]


def layers():
    out = []
    for class_name, args in LAYER_DEFAULTS:
        # Nested layers are made fresh (lambdas), so each entry owns its sublayers.
        args = {k: (v() if callable(v) and k != "function" else v) for k, v in args.items()}
        args["name"] = _snake(class_name)
        out.append(entry(getattr(L, class_name), args))
    # The non-default, built configurations the layer fixtures use.
    for path in sorted(glob.glob(os.path.join(oracle.ORACLE_DIR, "layers_*.npz"))):
        file = os.path.basename(path)[:-4]
        for case, (_, kwargs, _, _) in sorted(oracle.load_cases(path).items()):
            record = kwargs["record"]
            extra = {k: kwargs[k] for k in ("keras_cpp_differs",) if k in kwargs}
            out.append(dict(class_name=record["class_name"], args=None, record=record,
                            case=f"{file}:{case}", **extra))
    return out


# ---- optimizers and schedules ----------------------------------------------------------------

def schedules():
    return [
        entry(S.ExponentialDecay, dict(initial_learning_rate=0.1, decay_steps=10,
                                       decay_rate=0.9)),
        entry(S.ExponentialDecay, dict(initial_learning_rate=0.1, decay_steps=5, decay_rate=0.5,
                                       staircase=True, name="exp")),
        entry(S.PiecewiseConstantDecay, dict(boundaries=[10, 20], values=[0.1, 0.05, 0.01])),
        entry(S.PolynomialDecay, dict(initial_learning_rate=0.1, decay_steps=10)),
        entry(S.PolynomialDecay, dict(initial_learning_rate=0.1, decay_steps=10,
                                      end_learning_rate=0.01, power=2.0, cycle=True,
                                      name="poly")),
        entry(S.InverseTimeDecay, dict(initial_learning_rate=0.1, decay_steps=10,
                                       decay_rate=0.5)),
        entry(S.InverseTimeDecay, dict(initial_learning_rate=0.1, decay_steps=10,
                                       decay_rate=0.5, staircase=True)),
        entry(S.CosineDecay, dict(initial_learning_rate=0.1, decay_steps=100)),
        entry(S.CosineDecay, dict(initial_learning_rate=0.0, decay_steps=100, alpha=0.1,
                                  warmup_target=0.2, warmup_steps=10, name="warm")),
        entry(S.CosineDecayRestarts, dict(initial_learning_rate=0.1, first_decay_steps=10)),
        entry(S.CosineDecayRestarts, dict(initial_learning_rate=0.1, first_decay_steps=10,
                                          t_mul=1.5, m_mul=0.8, alpha=0.05)),
    ]


OPTIMIZERS = [
    (O.SGD, dict(learning_rate=0.05, momentum=0.9, nesterov=True, clipnorm=1.0)),
    (O.Adam, dict(learning_rate=0.01, beta_1=0.8, amsgrad=True, weight_decay=0.01,
                  use_ema=True, ema_momentum=0.9, ema_overwrite_frequency=5)),
    (O.AdamW, dict(learning_rate=0.002, weight_decay=0.05, global_clipnorm=2.0)),
    (O.Adamax, dict(beta_2=0.99, epsilon=1e-6, clipvalue=0.5)),
    (O.Nadam, dict(beta_1=0.85, loss_scale_factor=128.0, gradient_accumulation_steps=2)),
    (O.RMSprop, dict(rho=0.8, momentum=0.5, centered=True, clipnorm=2.0)),
    (O.Adagrad, dict(initial_accumulator_value=0.2, epsilon=1e-5, weight_decay=0.001)),
    (O.Adadelta, dict(learning_rate=1.0, rho=0.9, global_clipnorm=1.0)),
    (O.Adafactor, dict(beta_2_decay=-0.7, clip_threshold=2.0, relative_step=False,
                       use_ema=True)),
    (O.Ftrl, dict(learning_rate_power=-0.4, l1_regularization_strength=0.01,
                  l2_regularization_strength=0.02, l2_shrinkage_regularization_strength=0.01,
                  beta=0.1, clipnorm=1.0)),
    (O.Lamb, dict(beta_1=0.85, epsilon=1e-6, weight_decay=0.01, global_clipnorm=1.0)),
    (O.Lion, dict(learning_rate=0.0003, beta_1=0.95, beta_2=0.98, weight_decay=0.1,
                  use_ema=True)),
]


def optimizers():
    out = []
    for cls, args in OPTIMIZERS:
        out.append(entry(cls, {}))
        out.append(entry(cls, dict(args, name=cls.__name__.lower() + "_custom")))
    # A schedule as the learning rate: the optimizer's record nests the schedule's.
    out.append(entry(O.SGD, dict(learning_rate=S.ExponentialDecay(0.1, 10, 0.9), momentum=0.5,
                                   name="sgd_schedule")))
    return out


# ---- losses and metrics ----------------------------------------------------------------------

LOSSES = [
    ("MeanSquaredError", dict(reduction="sum")),
    ("MeanAbsoluteError", dict(reduction="none", name="mae_none")),
    ("MeanAbsolutePercentageError", dict(reduction="mean")),
    ("MeanSquaredLogarithmicError", dict(reduction="mean_with_sample_weight")),
    ("CosineSimilarity", dict(axis=0)), ("Huber", dict(delta=0.5)), ("LogCosh", dict(name="lc")),
    ("Hinge", dict(reduction="sum")), ("SquaredHinge", dict(reduction="sum")),
    ("CategoricalHinge", dict(reduction="none")), ("KLDivergence", dict(reduction="sum")),
    ("Poisson", dict(reduction="mean")),
    ("BinaryCrossentropy", dict(from_logits=True, label_smoothing=0.1, axis=0)),
    ("BinaryFocalCrossentropy", dict(apply_class_balancing=True, alpha=0.3, gamma=1.5,
                                     from_logits=True, label_smoothing=0.05)),
    ("CategoricalCrossentropy", dict(from_logits=True, label_smoothing=0.2, axis=1)),
    ("CategoricalFocalCrossentropy", dict(alpha=0.5, gamma=3.0, from_logits=True)),
    ("SparseCategoricalCrossentropy", dict(from_logits=True, ignore_class=0)),
    ("Dice", dict(axis=(1, 2))), ("Tversky", dict(alpha=0.3, beta=0.7, axis=(1,))),
    ("Circle", dict(gamma=64.0, margin=0.25, remove_diagonal=False)),
    ("CategoricalGeneralizedCrossEntropy", dict(q=0.7)),
]


def losses():
    out = []
    for class_name, args in LOSSES:
        cls = getattr(keras.losses, class_name)
        out.append(entry(cls, {}))
        out.append(entry(cls, args))
    out.append(entry(keras.losses.CTC, {}))
    return out


METRICS = [
    ("Mean", dict(name="m")), ("Sum", dict(name="s", dtype="float64")),
    ("Accuracy", dict(name="acc")), ("BinaryAccuracy", dict(threshold=0.3)),
    ("CategoricalAccuracy", dict(name="cat")), ("SparseCategoricalAccuracy", dict(name="sca")),
    ("TopKCategoricalAccuracy", dict(k=3)), ("SparseTopKCategoricalAccuracy", dict(k=2)),
    ("MeanSquaredError", dict(name="mse")), ("RootMeanSquaredError", dict(name="rmse")),
    ("MeanAbsoluteError", dict(name="mae")), ("MeanAbsolutePercentageError", dict(name="mape")),
    ("MeanSquaredLogarithmicError", dict(name="msle")), ("CosineSimilarity", dict(axis=0)),
    ("LogCoshError", dict(name="lce")), ("KLDivergence", dict(name="kld")),
    ("Poisson", dict(name="poi")), ("BinaryCrossentropy", dict(from_logits=True,
                                                               label_smoothing=0.1)),
    ("CategoricalCrossentropy", dict(from_logits=True, label_smoothing=0.1, axis=0)),
    ("SparseCategoricalCrossentropy", dict(from_logits=True, axis=0)),
    ("Hinge", dict(name="h")), ("SquaredHinge", dict(name="sh")),
    ("CategoricalHinge", dict(name="ch")),
    ("TruePositives", dict(thresholds=[0.3, 0.6])), ("TrueNegatives", dict(thresholds=0.4)),
    ("FalsePositives", dict(thresholds=[0.2])), ("FalseNegatives", dict(thresholds=0.7)),
    ("Precision", dict(thresholds=[0.3, 0.6], top_k=None, class_id=1)),
    ("Recall", dict(top_k=2)),
    ("PrecisionAtRecall", dict(recall=0.6, num_thresholds=50, class_id=0)),
    ("RecallAtPrecision", dict(precision=0.7, num_thresholds=20)),
    ("SensitivityAtSpecificity", dict(specificity=0.6, num_thresholds=30)),
    ("SpecificityAtSensitivity", dict(sensitivity=0.4, num_thresholds=40)),
    ("AUC", dict(num_thresholds=50, curve="PR", summation_method="minoring",
                 multi_label=True, num_labels=3, from_logits=True)),
    ("IoU", dict(num_classes=3, target_class_ids=[0, 2], ignore_class=1, sparse_y_pred=False)),
    ("MeanIoU", dict(num_classes=4, ignore_class=0, axis=1)),
    ("BinaryIoU", dict(target_class_ids=[1], threshold=0.3)),
    ("OneHotIoU", dict(num_classes=3, target_class_ids=[1, 2])),
    ("OneHotMeanIoU", dict(num_classes=3, ignore_class=2)),
    ("F1Score", dict(average="macro", threshold=0.4)),
    ("FBetaScore", dict(average="weighted", beta=2.0)),
    ("R2Score", dict(class_aggregation="variance_weighted_average", num_regressors=1)),
    ("PearsonCorrelation", dict(axis=0)), ("ConcordanceCorrelation", dict(axis=0)),
]

# Metrics with required arguments: their default entry uses these.
METRIC_REQUIRED = {
    "PrecisionAtRecall": dict(recall=0.5), "RecallAtPrecision": dict(precision=0.5),
    "SensitivityAtSpecificity": dict(specificity=0.5),
    "SpecificityAtSensitivity": dict(sensitivity=0.5), "IoU": dict(num_classes=3,
                                                                    target_class_ids=[0]),
    "MeanIoU": dict(num_classes=3), "OneHotIoU": dict(num_classes=3, target_class_ids=[0]),
    "OneHotMeanIoU": dict(num_classes=3),
}


def metrics():
    out = []
    for class_name, args in METRICS:
        cls = getattr(keras.metrics, class_name)
        out.append(entry(cls, METRIC_REQUIRED.get(class_name, {})))
        out.append(entry(cls, args))
    out.append(entry(keras.metrics.MeanMetricWrapper,
                     dict(fn=keras.losses.mean_squared_error, name="wrapped_mse")))
    return out


# ---- initializers, regularizers, constraints -------------------------------------------------

INITIALIZERS = [
    ("Constant", dict(value=0.3)), ("Zeros", None), ("Ones", None),
    ("Identity", dict(gain=2.0)), ("Orthogonal", dict(gain=0.5, seed=7)),
    ("RandomNormal", dict(mean=0.1, stddev=0.2, seed=1)),
    ("RandomUniform", dict(minval=-0.1, maxval=0.2, seed=2)),
    ("TruncatedNormal", dict(mean=0.0, stddev=0.5, seed=3)),
    ("VarianceScaling", dict(scale=2.0, mode="fan_out", distribution="uniform", seed=4)),
    ("GlorotUniform", dict(seed=5)), ("GlorotNormal", dict(seed=6)),
    ("HeUniform", dict(seed=8)), ("HeNormal", dict(seed=9)),
    ("LecunUniform", dict(seed=10)), ("LecunNormal", dict(seed=11)),
    ("STFT", dict(side="imag", window="hamming", scaling="spectrum", periodic=True)),
]


def initializers():
    out = []
    for class_name, args in INITIALIZERS:
        cls = getattr(I, class_name)
        extra = dict(keras_cpp_missing=True) if class_name == "STFT" else {}
        out.append(entry(cls, {}, **extra))
        if args is not None:
            out.append(entry(cls, args, **extra))
    return out


def regularizers():
    R = keras.regularizers
    return [entry(R.L1, {}), entry(R.L1, dict(l1=0.05)), entry(R.L2, {}),
            entry(R.L2, dict(l2=0.002)), entry(R.L1L2, {}), entry(R.L1L2, dict(l1=0.1, l2=0.2)),
            entry(R.OrthogonalRegularizer, {}),
            entry(R.OrthogonalRegularizer, dict(factor=0.05, mode="columns"))]


def constraints():
    C = keras.constraints
    return [entry(C.MaxNorm, {}), entry(C.MaxNorm, dict(max_value=1.5, axis=[0, 1])),
            entry(C.MinMaxNorm, {}),
            entry(C.MinMaxNorm, dict(min_value=0.2, max_value=1.5, rate=0.5, axis=1)),
            entry(C.NonNeg, {}), entry(C.UnitNorm, {}), entry(C.UnitNorm, dict(axis=[0, 1]))]


def main():
    out = dict(layers=layers(), optimizers=optimizers(), losses=losses(), metrics=metrics(),
               schedules=schedules(), initializers=initializers(),
               regularizers=regularizers(), constraints=constraints())
    oracle.write_json("configs", out)
    print({k: len(v) for k, v in out.items()})


if __name__ == "__main__":
    main()
