"""Every layer class keras-cpp registers (src/layers/builtin_layers.cpp), run by real Keras 3.15
(JAX backend, CPU) with seeded non-default configurations, for tests/oracle/layers_test.cpp:
tests/oracle/fixtures/layers_<family>.npz (core, activations, conv, pooling, merging,
normalization, regularization, reshaping, rnn, attention, preprocessing).

How a case is computed: the layer is built by one call, every weight (layer.weights order) is set
to seeded random values (variances positive), and the layer is called through Keras's own
__call__ inside a keras.StatelessScope traced by jax.vjp (so training flags, masks and
autocasting are Keras's, and nothing is mutated). One seeded upstream per output gives the
gradients of sum(output * upstream) with respect to the floating call inputs and the trainable
weights, all in float32 (the layers' dtype). The layer is then rebuilt from its record with
keras.saving.deserialize_keras_object, given the same weights, and must give the same outputs:
the record is complete. Weights are set as loading a file sets them (Normalization's
finalize_state after set_weights, see set_weights below).

Tolerances: rtol = atol = 1e-5 for every case. Each case is also run in float64 (with Keras's
64-to-32-bit demotion lifted) and the float32 results' distance from it, as a fraction of that
tolerance, is printed: at most 0.12 (conv2d_transpose_cf), so 1e-5 covers float32 rounding with
room for a different summation order.

Fixture layout (op "layer", tests/support/layer_harness.cpp):
  inputs:  the n_inputs call inputs, the n_weights weights (layer.weights order), one upstream
           per output (float32; an integer output's upstream is unused);
  outputs: the outputs (Keras's order, nested lists flattened: RNN states after the sequence,
           StackedRNNCells' states cell by cell; MultiHeadAttention scores after the output),
           the gradients of the floating call inputs (in input order; integer and boolean inputs
           have none), the gradients of the trainable weights (layer.trainable_weights order),
           then, with "updated_weights", every weight after the call (BatchNormalization's
           moving statistics in training).
kwargs:
  record          keras.saving.serialize_keras_object(layer) as a .keras file stores it
  n_inputs, n_weights, training, rtol, atol (1e-5 everywhere)
  keras_cpp_differs  the reason a case is not compared (dense_lora: LoRA is issue 20)
  list_call       keras-cpp calls the layer with the list of inputs (merging, attention; also
                  MultiHeadAttention/GroupQueryAttention, which Keras calls as
                  layer(query, value, key, attention_mask=...): the list is [query, value(,
                  key)(, attention_mask)] as keras-cpp's list call takes it)
  mask            true: the LAST call input is a boolean mask (n_inputs counts it). mask_arg
                  says which: absent = Keras's `mask=` (Softmax, RNNs, GlobalAveragePooling1D);
                  "value_mask" = Attention/AdditiveAttention's mask=[None, value_mask];
                  "attention_mask" = MultiHeadAttention's attention_mask (batch, T, S)
  call_args       non-tensor call arguments (use_causal_mask, return_attention_scores)
  n_outputs       present when the call returns more than one tensor
  updated_weights see outputs
  weight_names, trainable_names  the weights' paths below the layer (for diagnostics)
  covers          the classes a case exercises (cells are run inside RNN(cell))

Random layers (Dropout family, GaussianNoise, the Random* augmentations) are run with
training=False only: their training outputs depend on Keras's JAX random streams, which
keras-cpp does not reproduce. BatchNormalization is also run with training=True.

Aliases (the same class objects, so no separate cases): AvgPool1D/2D/3D, MaxPool1D/2D/3D,
GlobalAvgPool1D/2D/3D, GlobalMaxPool1D/2D/3D, Convolution1D/2D/3D,
Convolution1DTranspose/2DTranspose/3DTranspose, SeparableConvolution1D/2D; Keras exports
GroupedQueryAttention as GroupQueryAttention, the class_name its records carry.

Run: ./scripts/oracle.sh layers configs (configs.py copies these records, so it runs after);
one family: .cache/oracle-venv/bin/python tools/keras_oracle/layers.py conv
"""

import copy
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (before keras: JAX backend, x64)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import keras  # noqa: E402
from keras.src.backend.common import dtypes as _dtypes  # noqa: E402
from keras.src.utils.naming import to_snake_case  # noqa: E402

L = keras.layers


def _is_float(a):
    return jnp.issubdtype(jnp.asarray(a).dtype, jnp.floating)


def _flat(out):
    """The outputs in Keras's order, nested lists flattened (StackedRNNCells' states)."""
    return jax.tree_util.tree_leaves(out)


def default_weight(rng, v):
    """Seeded values for a weight: N(0, 0.5^2), and positive for variances."""
    shape = tuple(v.shape)
    name = v.path.split("/")[-1]
    if "variance" in name:
        return rng.uniform(0.5, 1.5, shape).astype(v.dtype)
    if name == "count":
        return np.asarray(7, dtype=v.dtype).reshape(shape)
    return (rng.standard_normal(shape) * 0.5).astype(v.dtype)


def set_weights(layer, weights):
    """set_weights as loading a .keras file does it: Normalization computes the mean and
    variance it uses from its weights only in finalize_state (which load_own_variables calls
    and set_weights does not)."""
    if weights:
        layer.set_weights(weights)
        if hasattr(layer, "finalize_state"):
            layer.finalize_state()


def run_layer(layer, inputs, call, training):
    """One call traced by jax.vjp: (outputs, floating outputs, the vjp function giving the
    (input, trainable weight) gradients for upstreams of the floating outputs, the
    non-trainable variables after the call)."""
    trainable = list(layer.trainable_variables)
    non_trainable = list(layer.non_trainable_variables)
    float_idx = [i for i, x in enumerate(inputs) if _is_float(x)]

    def f(float_inputs, tvals):
        args = list(inputs)
        for i, x in zip(float_idx, float_inputs):
            args[i] = x
        mapping = list(zip(trainable, tvals)) + [(v, v.value) for v in non_trainable]
        with keras.StatelessScope(state_mapping=mapping) as scope:
            outs = _flat(call(layer, args, training))
        new_nt = [scope.get_current_value(v) for v in non_trainable]
        fouts = [o for o in outs if _is_float(o)]
        return fouts, (outs, new_nt)

    primals = ([jnp.asarray(inputs[i]) for i in float_idx], [v.value for v in trainable])
    fouts, vjp, (outs, new_nt) = jax.vjp(f, *primals, has_aux=True)
    return outs, fouts, vjp, new_nt


NOISE = {}


def float64_noise(make, inputs, call, training, weights, fups, expected, rtol, atol):
    """How far Keras's float32 results (outputs and gradients) are from the same case run in
    float64, as a fraction of the tolerance: the float32 rounding that any implementation
    shares. Tolerances stay at 1e-5 while this stays well below 1."""
    keras.config.set_floatx("float64")
    keras.config.set_dtype_policy("float64")
    # Keras 3.15 demotes 64-bit results of its type promotion to 32 bits on JAX even with x64
    # (dtypes.BIT64_TO_BIT32_DTYPE: ops.tanh(float64) is float32); lifted for this estimate.
    demote = _dtypes.BIT64_TO_BIT32_DTYPE["float64"]
    _dtypes.BIT64_TO_BIT32_DTYPE["float64"] = "float64"
    try:
        layer = make()
        x64 = [x.astype(np.float64) if _is_float(x) else x for x in map(np.asarray, inputs)]
        call(layer, x64, False)
        set_weights(layer, [w.astype(np.float64) for w in weights])
        outs64, _, vjp, _ = run_layer(layer, x64, call, training)
        gin, gw = vjp([jnp.asarray(u, jnp.float64) for u in fups])
    finally:
        _dtypes.BIT64_TO_BIT32_DTYPE["float64"] = demote
        keras.config.set_floatx("float32")
        keras.config.set_dtype_policy("float32")
    worst = 0.0
    for a, b in zip(expected, list(outs64) + list(gin) + list(gw)):
        a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
        if a.size:
            worst = max(worst, float(np.max(np.abs(a - b) / (atol + rtol * np.abs(b)))))
    return worst


def layer_case(fx, name, make, inputs, *, call=None, training=False, list_call=False,
               n_outputs=None, updated_weights=False, weights_fn=None, rtol=1e-5, atol=1e-5,
               covers=None, **extra):
    """Writes case `name`: `make()` builds a fresh layer, `inputs` are the call inputs (numpy),
    `call(layer, inputs, training)` calls it (default: one input, or the list when list_call)."""
    if call is None:
        call = ((lambda l, xs, t: l(xs, training=t)) if list_call
                else (lambda l, xs, t: l(xs[0], training=t)))
    rng = fx.rng
    layer = make()
    call(layer, [np.asarray(x) for x in inputs], False)  # builds the layer
    weights = [(weights_fn or default_weight)(rng, v) for v in layer.weights]
    set_weights(layer, weights)
    # As a .keras file stores it (tuples become lists).
    record = json.loads(json.dumps(keras.saving.serialize_keras_object(layer)))

    outs, fouts, vjp, new_nt = run_layer(layer, inputs, call, training)
    ups = [rng.standard_normal(np.shape(o)).astype(np.asarray(o).dtype) if _is_float(o)
           else rng.standard_normal(np.shape(o)).astype(np.float32) for o in outs]
    fups = [jnp.asarray(u) for u, o in zip(ups, outs) if _is_float(o)]
    gin, gw = vjp(fups)
    nt_pos = {id(v): i for i, v in enumerate(layer.non_trainable_variables)}
    after = [np.asarray(new_nt[nt_pos[id(v)]]) if id(v) in nt_pos else np.asarray(v.value)
             for v in layer.weights]

    # The record is complete: Keras rebuilds the same layer from it.
    again = keras.saving.deserialize_keras_object(copy.deepcopy(record))
    call(again, [np.asarray(x) for x in inputs], False)
    set_weights(again, weights)
    outs2, _, _, _ = run_layer(again, inputs, call, training)
    for a, b in zip(outs, outs2):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6, atol=1e-6,
                                   err_msg=name + ": the record does not rebuild the layer")

    noise = float64_noise(make, inputs, call, training, weights, fups,
                          list(outs) + list(gin) + list(gw), rtol, atol)
    print(f"  {name}: float32 vs float64 error / tolerance = {noise:.3g}")
    NOISE[name] = noise

    results = [np.asarray(o) for o in outs] + [np.asarray(g) for g in gin] + \
              [np.asarray(g) for g in gw]
    if updated_weights:
        results += after
    kwargs = dict(record=record, n_inputs=len(inputs), n_weights=len(weights),
                  training=training, rtol=rtol, atol=atol,
                  weight_names=[v.path.split("/", 1)[-1] for v in layer.weights],
                  trainable_names=[v.path.split("/", 1)[-1] for v in layer.trainable_weights],
                  covers=covers or [record["class_name"]])
    if list_call:
        kwargs["list_call"] = True
    if len(outs) > 1 or n_outputs:
        kwargs["n_outputs"] = len(outs)
    if updated_weights:
        kwargs["updated_weights"] = True
    kwargs.update(extra)
    fx.case(name, "layer", list(inputs) + weights + ups, results, **kwargs)
    return layer


# ---- the cases ---------------------------------------------------------------------------------
# Each family writes tests/oracle/fixtures/layers_<family>.npz. Layer names are given explicitly
# so that records do not depend on Keras's global name counters.


def call_mask(l, xs, t):
    """Keras's `mask=` argument: the last call input is the boolean mask."""
    return l(xs[0], mask=xs[-1], training=t)


def mask_of(rng, batch, steps):
    """A boolean (batch, steps) mask with a masked tail per row, never all masked."""
    lengths = rng.integers(1, steps + 1, batch)
    lengths[0] = steps - 1
    return np.arange(steps)[None, :] < lengths[:, None]


def core(fx):
    r = fx.randn
    layer_case(fx, "dense_tanh", lambda: L.Dense(
        4, activation="tanh", use_bias=True, kernel_initializer="he_uniform",
        bias_initializer="ones", name="dense_tanh"), [r(3, 5)])
    layer_case(fx, "dense_nobias_3d", lambda: L.Dense(
        3, use_bias=False, activation="relu", name="dense_nobias_3d"), [r(2, 3, 4)])
    layer_case(fx, "einsum_dense", lambda: L.EinsumDense(
        "abc,cde->abde", output_shape=(None, 2, 3), bias_axes="de", activation="gelu",
        name="einsum_dense"), [r(2, 3, 4)])
    layer_case(fx, "einsum_dense_nobias", lambda: L.EinsumDense(
        "ab,bc->ac", output_shape=4, name="einsum_dense_nobias"), [r(3, 5)])
    layer_case(fx, "embedding", lambda: L.Embedding(
        6, 3, embeddings_initializer="uniform", name="embedding"),
        [fx.randint(0, 6, 2, 4)])
    layer_case(fx, "identity", lambda: L.Identity(name="identity"), [r(2, 3)])
    layer_case(fx, "lambda_softplus", lambda: L.Lambda(
        keras.activations.softplus, name="lambda_softplus"), [r(2, 3)])
    x = r(2, 4, 3)
    x[0, 1] = 1.5
    x[1, 3] = 1.5
    layer_case(fx, "masking", lambda: L.Masking(mask_value=1.5, name="masking"), [x])
    layer_case(fx, "dense_lora", lambda: L.Dense(3, lora_rank=2, lora_alpha=4.0,
                                                 name="dense_lora"), [r(2, 4)],
               keras_cpp_differs="not yet (issue 20, LoRA): keras-cpp reads lora_rank/lora_alpha "
               "and drops them (Keras saves the kernel with LoRA merged, so files load), but it "
               "cannot build the 4 weights of a LoRA layer (kernel frozen, bias, lora_kernel_a, "
               "lora_kernel_b)")


def activations(fx):
    r = fx.randn
    layer_case(fx, "activation_selu", lambda: L.Activation("selu", name="activation_selu"),
               [r(2, 5)])
    layer_case(fx, "elu", lambda: L.ELU(alpha=0.7, name="elu"), [r(2, 5)])
    layer_case(fx, "leaky_relu", lambda: L.LeakyReLU(negative_slope=0.2, name="leaky_relu"),
               [r(2, 5)])
    layer_case(fx, "prelu_shared", lambda: L.PReLU(
        alpha_initializer=keras.initializers.Constant(0.3), shared_axes=[1],
        name="prelu_shared"), [r(2, 3, 4)])
    layer_case(fx, "relu_capped", lambda: L.ReLU(
        max_value=0.8, negative_slope=0.1, threshold=0.2, name="relu_capped"), [r(2, 6)])
    layer_case(fx, "softmax_axis1", lambda: L.Softmax(axis=1, name="softmax_axis1"),
               [r(2, 3, 4)])
    layer_case(fx, "softmax_mask", lambda: L.Softmax(name="softmax_mask"),
               [r(2, 5), mask_of(fx.rng, 2, 5)], call=call_mask, mask=True)


def conv(fx):
    r = fx.randn
    layer_case(fx, "conv1d_strided", lambda: L.Conv1D(
        4, 3, strides=2, activation="relu", kernel_initializer="lecun_normal",
        name="conv1d_strided"), [r(2, 9, 3)])
    layer_case(fx, "conv1d_causal_groups", lambda: L.Conv1D(
        4, 2, padding="causal", dilation_rate=2, groups=2, name="conv1d_causal_groups"),
        [r(2, 7, 4)])
    layer_case(fx, "conv1d_cf", lambda: L.Conv1D(
        3, 3, padding="same", data_format="channels_first", name="conv1d_cf"), [r(2, 2, 6)])
    layer_case(fx, "conv2d_same_strided", lambda: L.Conv2D(
        5, (3, 2), strides=(2, 1), padding="same", kernel_initializer="he_uniform",
        name="conv2d_same_strided"), [r(2, 7, 6, 4)])
    layer_case(fx, "conv2d_dilated_groups", lambda: L.Conv2D(
        4, 3, dilation_rate=2, groups=2, use_bias=False, activation="sigmoid",
        name="conv2d_dilated_groups"), [r(2, 7, 7, 4)])
    layer_case(fx, "conv2d_cf", lambda: L.Conv2D(
        3, 2, strides=2, padding="same", data_format="channels_first", name="conv2d_cf"),
        [r(2, 3, 5, 5)])
    layer_case(fx, "conv3d_same", lambda: L.Conv3D(
        3, 2, strides=(1, 2, 1), padding="same", name="conv3d_same"), [r(2, 4, 5, 4, 2)])
    layer_case(fx, "conv3d_cf", lambda: L.Conv3D(
        2, (2, 3, 2), dilation_rate=(1, 1, 2), data_format="channels_first", name="conv3d_cf"),
        [r(2, 2, 3, 4, 5)])
    layer_case(fx, "conv1d_transpose", lambda: L.Conv1DTranspose(
        3, 3, strides=2, padding="same", name="conv1d_transpose"), [r(2, 5, 4)])
    layer_case(fx, "conv1d_transpose_outpad_cf", lambda: L.Conv1DTranspose(
        2, 3, strides=3, output_padding=1, data_format="channels_first",
        name="conv1d_transpose_outpad_cf"), [r(2, 3, 4)])
    layer_case(fx, "conv2d_transpose", lambda: L.Conv2DTranspose(
        3, (3, 2), strides=2, padding="valid", output_padding=1, activation="tanh",
        name="conv2d_transpose"), [r(2, 3, 4, 2)])
    layer_case(fx, "conv2d_transpose_dilated", lambda: L.Conv2DTranspose(
        2, 2, dilation_rate=2, padding="same", name="conv2d_transpose_dilated"),
        [r(2, 4, 4, 3)])
    layer_case(fx, "conv2d_transpose_cf", lambda: L.Conv2DTranspose(
        2, 3, strides=2, padding="same", data_format="channels_first",
        name="conv2d_transpose_cf"), [r(2, 3, 3, 4)])
    layer_case(fx, "conv3d_transpose", lambda: L.Conv3DTranspose(
        2, 2, strides=2, name="conv3d_transpose"), [r(2, 2, 3, 2, 3)])
    layer_case(fx, "conv3d_transpose_cf", lambda: L.Conv3DTranspose(
        2, (2, 2, 3), strides=(1, 2, 1), padding="same", data_format="channels_first",
        name="conv3d_transpose_cf"), [r(2, 3, 2, 3, 2)])
    layer_case(fx, "depthwise_conv1d", lambda: L.DepthwiseConv1D(
        3, depth_multiplier=2, padding="same", activation="relu", name="depthwise_conv1d"),
        [r(2, 7, 3)])
    layer_case(fx, "depthwise_conv1d_cf", lambda: L.DepthwiseConv1D(
        2, strides=2, data_format="channels_first", name="depthwise_conv1d_cf"),
        [r(2, 3, 7)])
    layer_case(fx, "depthwise_conv2d", lambda: L.DepthwiseConv2D(
        3, strides=2, depth_multiplier=2, padding="same", name="depthwise_conv2d"),
        [r(2, 6, 5, 3)])
    layer_case(fx, "depthwise_conv2d_dilated_cf", lambda: L.DepthwiseConv2D(
        2, dilation_rate=2, data_format="channels_first", use_bias=False,
        name="depthwise_conv2d_dilated_cf"), [r(2, 2, 5, 5)])
    layer_case(fx, "separable_conv1d", lambda: L.SeparableConv1D(
        4, 3, depth_multiplier=2, padding="same", activation="elu",
        name="separable_conv1d"), [r(2, 6, 3)])
    layer_case(fx, "separable_conv1d_cf", lambda: L.SeparableConv1D(
        2, 2, strides=2, data_format="channels_first", name="separable_conv1d_cf"),
        [r(2, 3, 7)])
    layer_case(fx, "separable_conv2d", lambda: L.SeparableConv2D(
        4, 3, strides=2, padding="same", depth_multiplier=1, name="separable_conv2d"),
        [r(2, 6, 6, 3)])
    layer_case(fx, "separable_conv2d_dilated_cf", lambda: L.SeparableConv2D(
        3, 2, dilation_rate=2, depth_multiplier=2, data_format="channels_first",
        name="separable_conv2d_dilated_cf"), [r(2, 2, 5, 5)])


def pooling(fx):
    r = fx.randn
    for dims, shape, cf_shape in [(1, (2, 7, 3), (2, 3, 7)), (2, (2, 7, 5, 3), (2, 3, 5, 6)),
                                  (3, (2, 5, 4, 5, 2), (2, 2, 4, 5, 3))]:
        for kind in ["Max", "Average"]:
            cls = getattr(L, f"{kind}Pooling{dims}D")
            base = f"{kind.lower()}_pooling{dims}d"
            pool = (3, 2, 2)[:dims] if dims > 1 else 3
            layer_case(fx, base + "_same", lambda: cls(
                pool_size=pool, strides=2, padding="same", name=base + "_same"), [r(*shape)])
            layer_case(fx, base + "_cf", lambda: cls(
                pool_size=2, data_format="channels_first", name=base + "_cf"),
                [r(*cf_shape)])
            g = getattr(L, f"Global{kind}Pooling{dims}D")
            gbase = f"global_{kind.lower()}_pooling{dims}d"
            layer_case(fx, gbase + "_keepdims", lambda: g(keepdims=True, name=gbase + "_keepdims"),
                       [r(*shape)])
            layer_case(fx, gbase + "_cf", lambda: g(data_format="channels_first",
                                                   name=gbase + "_cf"), [r(*cf_shape)])
            a = getattr(L, f"Adaptive{kind}Pooling{dims}D")
            abase = f"adaptive_{kind.lower()}_pooling{dims}d"
            out = (3, 2, 2)[:dims] if dims > 1 else 3
            layer_case(fx, abase, lambda: a(out, name=abase), [r(*shape)])
            layer_case(fx, abase + "_cf", lambda: a(2, data_format="channels_first",
                                                   name=abase + "_cf"), [r(*cf_shape)])
    layer_case(fx, "global_average_pooling1d_mask", lambda: L.GlobalAveragePooling1D(
        name="global_average_pooling1d_mask"), [r(3, 5, 2), mask_of(fx.rng, 3, 5)],
        call=call_mask, mask=True)
    layer_case(fx, "max_pooling2d_valid_strides", lambda: L.MaxPooling2D(
        (2, 3), strides=(2, 1), name="max_pooling2d_valid_strides"), [r(2, 6, 6, 2)])


def merging(fx):
    r = fx.randn
    s = (2, 3, 4)
    for cls, n in [(L.Add, 3), (L.Subtract, 2), (L.Multiply, 3), (L.Average, 2),
                   (L.Maximum, 3), (L.Minimum, 2)]:
        name = cls.__name__.lower()
        layer_case(fx, name, lambda: cls(name=name), [r(*s) for _ in range(n)], list_call=True)
    layer_case(fx, "concatenate_axis1", lambda: L.Concatenate(axis=1, name="concatenate_axis1"),
               [r(2, 3, 4), r(2, 2, 4)], list_call=True)
    layer_case(fx, "dot_normalize", lambda: L.Dot(axes=-1, normalize=True, name="dot_normalize"),
               [r(3, 4), r(3, 4)], list_call=True)
    layer_case(fx, "dot_axes", lambda: L.Dot(axes=(1, 2), name="dot_axes"),
               [r(2, 3, 4), r(2, 5, 3)], list_call=True)


def normalization(fx):
    r = fx.randn
    for training in [False, True]:
        name = f"batch_normalization_{'train' if training else 'infer'}"
        layer_case(fx, name, lambda: L.BatchNormalization(
            momentum=0.9, epsilon=1e-2, name=name), [r(4, 3)], training=training,
            updated_weights=training)
        name = f"batch_normalization_cf_{'train' if training else 'infer'}"
        layer_case(fx, name, lambda: L.BatchNormalization(
            axis=1, center=False, momentum=0.8, name=name), [r(3, 2, 3, 3)],
            training=training, updated_weights=training)
    # Batch renormalization (Keras 3.15): deterministic in training too.
    layer_case(fx, "batch_normalization_renorm_train", lambda: L.BatchNormalization(
        renorm=True, renorm_clipping={"rmax": 1.5, "rmin": 0.7, "dmax": 0.5},
        renorm_momentum=0.9, name="batch_normalization_renorm_train"), [r(5, 3)],
        training=True, updated_weights=True)
    layer_case(fx, "group_normalization", lambda: L.GroupNormalization(
        groups=2, epsilon=1e-4, name="group_normalization"), [r(2, 3, 4)])
    layer_case(fx, "group_normalization_cf", lambda: L.GroupNormalization(
        groups=3, axis=1, scale=False, name="group_normalization_cf"), [r(2, 6, 2, 2)])
    layer_case(fx, "layer_normalization", lambda: L.LayerNormalization(
        axis=[1, 2], epsilon=1e-4, name="layer_normalization"), [r(2, 3, 4)])
    layer_case(fx, "layer_normalization_rms", lambda: L.LayerNormalization(
        rms_scaling=True, name="layer_normalization_rms"), [r(2, 3, 4)])
    layer_case(fx, "rms_normalization", lambda: L.RMSNormalization(
        epsilon=1e-3, name="rms_normalization"), [r(2, 3, 4)])
    layer_case(fx, "unit_normalization", lambda: L.UnitNormalization(
        axis=[1, 2], name="unit_normalization"), [r(2, 3, 4)])


def regularization(fx):
    """Random layers run with training=False only: Keras's random streams (JAX's threefry
    keyed by the layer's SeedGenerator) are not keras-cpp's, so only the inference call, the
    identity, is comparable."""
    r = fx.randn
    layer_case(fx, "activity_regularization", lambda: L.ActivityRegularization(
        l1=0.01, l2=0.02, name="activity_regularization"), [r(2, 3)])
    for cls, args in [(L.AlphaDropout, dict(rate=0.3, seed=3)),
                      (L.Dropout, dict(rate=0.4, noise_shape=(None, 1, 4), seed=4)),
                      (L.GaussianDropout, dict(rate=0.2, seed=5)),
                      (L.GaussianNoise, dict(stddev=0.3, seed=6))]:
        name = to_snake_case(cls.__name__)
        layer_case(fx, name, lambda: cls(name=name, **args), [r(2, 3, 4)])
    layer_case(fx, "spatial_dropout1d", lambda: L.SpatialDropout1D(
        0.3, seed=7, name="spatial_dropout1d"), [r(2, 3, 4)])
    layer_case(fx, "spatial_dropout2d_cf", lambda: L.SpatialDropout2D(
        0.3, data_format="channels_first", seed=8, name="spatial_dropout2d_cf"),
        [r(2, 3, 2, 2)])
    layer_case(fx, "spatial_dropout3d", lambda: L.SpatialDropout3D(
        0.3, seed=9, name="spatial_dropout3d"), [r(2, 2, 2, 2, 3)])


def reshaping(fx):
    r = fx.randn
    layer_case(fx, "cropping1d", lambda: L.Cropping1D((1, 2), name="cropping1d"), [r(2, 6, 3)])
    layer_case(fx, "cropping2d", lambda: L.Cropping2D(((1, 0), (0, 2)), name="cropping2d"),
               [r(2, 4, 5, 2)])
    layer_case(fx, "cropping2d_cf", lambda: L.Cropping2D(
        1, data_format="channels_first", name="cropping2d_cf"), [r(2, 2, 4, 5)])
    layer_case(fx, "cropping3d", lambda: L.Cropping3D(
        ((1, 0), (0, 1), (1, 1)), name="cropping3d"), [r(2, 3, 3, 4, 2)])
    layer_case(fx, "cropping3d_cf", lambda: L.Cropping3D(
        1, data_format="channels_first", name="cropping3d_cf"), [r(2, 2, 3, 4, 3)])
    layer_case(fx, "flatten", lambda: L.Flatten(name="flatten"), [r(2, 3, 2, 2)])
    layer_case(fx, "flatten_cf", lambda: L.Flatten(data_format="channels_first",
                                                   name="flatten_cf"), [r(2, 3, 2, 2)])
    layer_case(fx, "permute", lambda: L.Permute((3, 1, 2), name="permute"), [r(2, 3, 4, 2)])
    layer_case(fx, "repeat_vector", lambda: L.RepeatVector(3, name="repeat_vector"), [r(2, 4)])
    layer_case(fx, "reshape", lambda: L.Reshape((-1, 2), name="reshape"), [r(2, 3, 4)])
    layer_case(fx, "up_sampling1d", lambda: L.UpSampling1D(3, name="up_sampling1d"),
               [r(2, 3, 2)])
    layer_case(fx, "up_sampling2d_bilinear", lambda: L.UpSampling2D(
        (2, 3), interpolation="bilinear", name="up_sampling2d_bilinear"), [r(2, 3, 2, 2)])
    layer_case(fx, "up_sampling2d_cf", lambda: L.UpSampling2D(
        2, data_format="channels_first", name="up_sampling2d_cf"), [r(2, 2, 2, 3)])
    layer_case(fx, "up_sampling3d", lambda: L.UpSampling3D((1, 2, 2), name="up_sampling3d"),
               [r(2, 2, 2, 2, 2)])
    layer_case(fx, "up_sampling3d_cf", lambda: L.UpSampling3D(
        2, data_format="channels_first", name="up_sampling3d_cf"), [r(2, 2, 2, 2, 1)])
    layer_case(fx, "zero_padding1d", lambda: L.ZeroPadding1D((1, 2), name="zero_padding1d"),
               [r(2, 3, 2)])
    layer_case(fx, "zero_padding2d", lambda: L.ZeroPadding2D(
        ((1, 2), (0, 1)), name="zero_padding2d"), [r(2, 2, 3, 2)])
    layer_case(fx, "zero_padding2d_cf", lambda: L.ZeroPadding2D(
        1, data_format="channels_first", name="zero_padding2d_cf"), [r(2, 2, 2, 3)])
    layer_case(fx, "zero_padding3d", lambda: L.ZeroPadding3D(
        ((1, 0), (0, 1), (1, 1)), name="zero_padding3d"), [r(2, 2, 2, 2, 2)])
    layer_case(fx, "zero_padding3d_cf", lambda: L.ZeroPadding3D(
        1, data_format="channels_first", name="zero_padding3d_cf"), [r(2, 2, 2, 2, 1)])


def rnn(fx):
    r = fx.randn
    layer_case(fx, "lstm_seq_backwards", lambda: L.LSTM(
        4, return_sequences=True, go_backwards=True, unit_forget_bias=False,
        name="lstm_seq_backwards"), [r(2, 5, 3)])
    layer_case(fx, "lstm_state", lambda: L.LSTM(
        3, return_state=True, activation="relu", recurrent_activation="hard_sigmoid",
        dropout=0.2, recurrent_dropout=0.1, name="lstm_state"), [r(2, 4, 3)])
    layer_case(fx, "lstm_mask", lambda: L.LSTM(3, return_sequences=True, name="lstm_mask"),
               [r(3, 5, 2), mask_of(fx.rng, 3, 5)], call=call_mask, mask=True)
    layer_case(fx, "gru_reset_before", lambda: L.GRU(
        4, reset_after=False, return_sequences=True, name="gru_reset_before"), [r(2, 5, 3)])
    layer_case(fx, "gru_state_backwards", lambda: L.GRU(
        3, return_state=True, go_backwards=True, use_bias=True, name="gru_state_backwards"),
        [r(2, 4, 3)])
    layer_case(fx, "gru_mask", lambda: L.GRU(3, name="gru_mask"),
               [r(3, 5, 2), mask_of(fx.rng, 3, 5)], call=call_mask, mask=True)
    layer_case(fx, "simple_rnn", lambda: L.SimpleRNN(
        4, activation="relu", return_sequences=True, go_backwards=True, name="simple_rnn"),
        [r(2, 5, 3)])
    layer_case(fx, "simple_rnn_mask_state", lambda: L.SimpleRNN(
        3, return_state=True, use_bias=False, name="simple_rnn_mask_state"),
        [r(3, 5, 2), mask_of(fx.rng, 3, 5)], call=call_mask, mask=True)
    layer_case(fx, "rnn_lstm_cell", lambda: L.RNN(
        L.LSTMCell(3, name="cell"), return_sequences=True, return_state=True,
        name="rnn_lstm_cell"), [r(2, 4, 3)], covers=["RNN", "LSTMCell"])
    layer_case(fx, "rnn_gru_cell", lambda: L.RNN(
        L.GRUCell(3, reset_after=True, name="cell"), go_backwards=True, name="rnn_gru_cell"),
        [r(2, 4, 3)], covers=["RNN", "GRUCell"])
    layer_case(fx, "rnn_simple_rnn_cell", lambda: L.RNN(
        L.SimpleRNNCell(3, activation="sigmoid", name="cell"), return_sequences=True,
        name="rnn_simple_rnn_cell"), [r(2, 4, 3)], covers=["RNN", "SimpleRNNCell"])
    layer_case(fx, "rnn_stacked_cells", lambda: L.RNN(
        L.StackedRNNCells([L.LSTMCell(3, name="c0"), L.GRUCell(2, name="c1")], name="cells"),
        return_state=True, name="rnn_stacked_cells"), [r(2, 4, 3)],
        covers=["RNN", "StackedRNNCells", "LSTMCell", "GRUCell"])
    layer_case(fx, "bidirectional_sum", lambda: L.Bidirectional(
        L.LSTM(3, return_sequences=True, name="fwd"), merge_mode="sum",
        name="bidirectional_sum"), [r(2, 4, 3)], covers=["Bidirectional", "LSTM"])
    layer_case(fx, "bidirectional_concat_gru", lambda: L.Bidirectional(
        L.GRU(2, name="fwd"), name="bidirectional_concat_gru"), [r(2, 4, 3)],
        covers=["Bidirectional", "GRU"])
    layer_case(fx, "time_distributed_dense", lambda: L.TimeDistributed(
        L.Dense(3, activation="tanh", name="inner"), name="time_distributed_dense"),
        [r(2, 4, 5)], covers=["TimeDistributed", "Dense"])


def attention(fx):
    r = fx.randn
    layer_case(fx, "attention_concat_scale", lambda: L.Attention(
        use_scale=True, score_mode="concat", name="attention_concat_scale"),
        [r(2, 3, 4), r(2, 5, 4), r(2, 5, 4)], list_call=True)
    layer_case(fx, "attention_value_mask", lambda: L.Attention(name="attention_value_mask"),
               [r(2, 3, 4), r(2, 5, 4), mask_of(fx.rng, 2, 5)], list_call=True,
               call=lambda l, xs, t: l(xs[:2], mask=[None, xs[2]], training=t),
               mask=True, mask_arg="value_mask")
    layer_case(fx, "attention_causal_scores", lambda: L.Attention(
        name="attention_causal_scores"), [r(2, 4, 3), r(2, 4, 3)], list_call=True,
        call=lambda l, xs, t: l(xs, use_causal_mask=True, return_attention_scores=True,
                                training=t),
        call_args={"use_causal_mask": True, "return_attention_scores": True})
    layer_case(fx, "additive_attention", lambda: L.AdditiveAttention(
        use_scale=False, name="additive_attention"), [r(2, 3, 4), r(2, 5, 4)], list_call=True)
    layer_case(fx, "additive_attention_mask", lambda: L.AdditiveAttention(
        name="additive_attention_mask"),
        [r(2, 3, 4), r(2, 5, 4), r(2, 5, 4), mask_of(fx.rng, 2, 5)], list_call=True,
        call=lambda l, xs, t: l(xs[:3], mask=[None, xs[3]], training=t),
        mask=True, mask_arg="value_mask")
    layer_case(fx, "multi_head_attention_scores", lambda: L.MultiHeadAttention(
        num_heads=2, key_dim=3, value_dim=2, output_shape=5, name="multi_head_attention_scores"),
        [r(2, 3, 4), r(2, 5, 6)], list_call=True,
        call=lambda l, xs, t: l(xs[0], xs[1], return_attention_scores=True, training=t),
        call_args={"return_attention_scores": True})
    layer_case(fx, "multi_head_attention_mask", lambda: L.MultiHeadAttention(
        num_heads=2, key_dim=2, use_bias=False, name="multi_head_attention_mask"),
        [r(2, 3, 4), r(2, 5, 4), r(2, 5, 3), fx.rng.random((2, 3, 5)) > 0.3], list_call=True,
        call=lambda l, xs, t: l(xs[0], xs[1], xs[2], attention_mask=xs[3], training=t),
        mask=True, mask_arg="attention_mask")
    layer_case(fx, "multi_head_attention_causal", lambda: L.MultiHeadAttention(
        num_heads=3, key_dim=2, dropout=0.1, name="multi_head_attention_causal"),
        [r(2, 4, 5), r(2, 4, 5)], list_call=True,
        call=lambda l, xs, t: l(xs[0], xs[1], use_causal_mask=True, training=t),
        call_args={"use_causal_mask": True})
    layer_case(fx, "multi_head_attention_axes", lambda: L.MultiHeadAttention(
        num_heads=2, key_dim=2, attention_axes=(1, 2), name="multi_head_attention_axes"),
        [r(2, 3, 2, 4), r(2, 3, 2, 4)], list_call=True,
        call=lambda l, xs, t: l(xs[0], xs[1], training=t))
    layer_case(fx, "multi_head_attention_gate_window", lambda: L.MultiHeadAttention(
        num_heads=2, key_dim=2, use_gate=True, sliding_window=2,
        name="multi_head_attention_gate_window"), [r(2, 5, 3), r(2, 5, 3)], list_call=True,
        call=lambda l, xs, t: l(xs[0], xs[1], training=t))
    layer_case(fx, "grouped_query_attention_gate_window", lambda: L.GroupQueryAttention(
        head_dim=2, num_query_heads=2, num_key_value_heads=1, use_gate=True, sliding_window=2,
        name="grouped_query_attention_gate_window"), [r(2, 5, 3), r(2, 5, 3)], list_call=True,
        call=lambda l, xs, t: l(xs[0], xs[1], training=t))
    layer_case(fx, "grouped_query_attention", lambda: L.GroupQueryAttention(
        head_dim=3, num_query_heads=4, num_key_value_heads=2, name="grouped_query_attention"),
        [r(2, 3, 5), r(2, 4, 6)], list_call=True,
        call=lambda l, xs, t: l(xs[0], xs[1], return_attention_scores=True, training=t),
        call_args={"return_attention_scores": True})
    layer_case(fx, "grouped_query_attention_causal", lambda: L.GroupQueryAttention(
        head_dim=2, num_query_heads=2, num_key_value_heads=1, use_bias=False,
        name="grouped_query_attention_causal"), [r(2, 4, 3), r(2, 4, 3), r(2, 4, 2)],
        list_call=True,
        call=lambda l, xs, t: l(xs[0], xs[1], xs[2], use_causal_mask=True, training=t),
        call_args={"use_causal_mask": True})


def preprocessing(fx):
    """Random augmentation layers run with training=False only (see regularization)."""
    r = fx.randn
    img = fx.uniform(0, 1, 2, 6, 6, 3)
    layer_case(fx, "category_encoding_count", lambda: L.CategoryEncoding(
        num_tokens=5, output_mode="count", name="category_encoding_count"),
        [fx.randint(0, 5, 2, 4)])
    layer_case(fx, "category_encoding_one_hot", lambda: L.CategoryEncoding(
        num_tokens=4, output_mode="one_hot", name="category_encoding_one_hot"),
        [fx.randint(0, 4, 3)])
    layer_case(fx, "center_crop", lambda: L.CenterCrop(4, 3, name="center_crop"), [img])
    layer_case(fx, "discretization", lambda: L.Discretization(
        bin_boundaries=[-1.0, 0.0, 1.5], name="discretization"), [r(2, 5)])
    layer_case(fx, "discretization_one_hot", lambda: L.Discretization(
        bin_boundaries=[-0.5, 0.5], output_mode="one_hot", name="discretization_one_hot"),
        [r(4)])
    layer_case(fx, "normalization_given", lambda: L.Normalization(
        mean=[0.5, -1.0, 2.0], variance=[2.0, 0.5, 1.0], name="normalization_given"),
        [r(2, 3)])
    layer_case(fx, "normalization_weights_invert", lambda: L.Normalization(
        axis=-1, invert=True, name="normalization_weights_invert"), [r(2, 4, 3)])
    layer_case(fx, "rescaling", lambda: L.Rescaling(
        scale=1 / 127.5, offset=-1.0, name="rescaling"), [fx.uniform(0, 255, 2, 3, 3, 1)])
    layer_case(fx, "resizing_bilinear", lambda: L.Resizing(
        4, 5, name="resizing_bilinear"), [img])
    layer_case(fx, "resizing_nearest_crop", lambda: L.Resizing(
        3, 4, interpolation="nearest", crop_to_aspect_ratio=True,
        name="resizing_nearest_crop"), [img])
    for cls, args in [(L.RandomBrightness, dict(factor=0.2, value_range=(0, 1), seed=1)),
                      (L.RandomContrast, dict(factor=0.3, seed=2)),
                      (L.RandomFlip, dict(mode="horizontal", seed=3)),
                      (L.RandomRotation, dict(factor=0.1, fill_mode="constant", seed=4)),
                      (L.RandomTranslation, dict(height_factor=0.1, width_factor=0.2,
                                                 seed=5)),
                      (L.RandomZoom, dict(height_factor=0.2, interpolation="nearest",
                                          seed=6))]:
        name = to_snake_case(cls.__name__)
        layer_case(fx, name, lambda: cls(name=name, **args), [img])


FAMILIES = [core, activations, conv, pooling, merging, normalization, regularization,
            reshaping, rnn, attention, preprocessing]


def main(only=None):
    for i, family in enumerate(FAMILIES):
        if only and family.__name__ not in only:
            continue
        fx = oracle.Fixture("layers_" + family.__name__, seed=100 + i)
        family(fx)
        fx.save()
    worst = sorted(NOISE.items(), key=lambda kv: -kv[1])[:8]
    print("largest float32-vs-float64 error / tolerance:", worst)


if __name__ == "__main__":
    main(sys.argv[1:])
