"""The op_nodes.py cases of keras.src.ops.nn, .math, .core, .linalg and .image: one or more per
op class keras-cpp implements (src/ops/operations/{nn,math,core,linalg,image}_operations.cpp),
covering the argument forms Keras records differently: constructor arguments left at their
defaults or set, optional tensor arguments of the call given positionally, by keyword or as
None (BatchNorm's offset/scale, DotProductAttention's bias/mask/scale, RMSNorm's scale),
constants among the call's arguments (Slice's start indices), and ops returning several
tensors (Moments, TopK, Unstack, Eigh, LuFactor, Qr, SVD).

Factorizations whose factors are unique only up to signs (Eigh, Qr, SVD) return the absolute
values of those factors (a numpy Absolute node after the op), as tools/golden/numpy_linalg.py
compares invariants.

Not covered, and why (no class in the C++ tables):
  nn      CTCLoss, CTCDecode (keras-cpp has no CTC ops), Polar (complex dtypes)
  math    FFT, FFT2, IFFT2, RFFT, IRFFT, STFT, ISTFT (no Fourier transforms), ViewAsComplex,
          ViewAsReal (complex dtypes)
  core    Cond, Switch, WhileLoop, ForiLoop, Scan, AssociativeScan, Map, VectorizedMap: they
          take Python functions, which Keras cannot serialize either
  linalg  Eig (complex results), JVP (takes a function)
"""

import numpy as np
from keras import ops

_rng = np.random.default_rng(7)


def _fix_conv_transpose():
    """Keras 3.15.1's ConvTranspose.call passes its output_padding where the backend takes
    padding and the reverse, so every ConvTranspose node fails when called (the record and the
    symbolic shapes are right). Patched here, in this process only, to call the backend as the
    eager keras.ops.conv_transpose does; op_nodes.py then checks that the graph equals that
    unpatched eager call, so the fixture holds what Keras means."""
    from keras.src import backend
    from keras.src.ops import nn as knn

    def call(self, inputs, kernel):
        return backend.nn.conv_transpose(inputs, kernel, self.strides, self.padding,
                                         self.output_padding, self.data_format,
                                         self.dilation_rate)

    knn.ConvTranspose.call = call


_fix_conv_transpose()


def f32(v):
    return np.array(v, "float32")


def i32(v):
    return np.array(v, "int32")


def rand(*shape, lo=-2.0, hi=2.0):
    return f32(_rng.uniform(lo, hi, shape))


def wave(*shape_and_phase):
    """sin(0.9 k + 1.3 phase) over a shape (deterministic, no draw from the shared generator)."""
    *shape, phase = shape_and_phase if isinstance(shape_and_phase[-1], float) else (
        *shape_and_phase, 0.0)
    n = int(np.prod(shape))
    return f32(np.sin(0.9 * np.arange(n) + 1.3 * phase).reshape(shape))


X = f32([[-2.5, -1.0, -0.25, 0.0], [0.3, 0.75, 1.5, 4.0]])      # crosses every kink
XI = i32([[-3, 0, 2], [5, -1, 7]])
IMG = rand(1, 4, 4, 2)                                            # channels_last image
LIN = rand(1, 5, 2)                                               # 1-d "image"
PROBS = f32([[0.2, 0.5, 0.3], [0.7, 0.1, 0.2]])
TARGET = f32([[0.0, 1.0, 0.0], [0.5, 0.25, 0.25]])
LOGITS = f32([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]])
SQ = f32([[2.0, 1.0, 0.5], [1.0, 3.0, -1.0], [0.5, -1.0, 4.0]])  # symmetric positive definite
L = f32(np.linalg.cholesky(SQ.astype(np.float64)))
A43 = f32([[1.0, 2.0, 0.5], [-1.0, 0.5, 3.0], [2.0, -1.5, 1.0], [0.0, 1.0, -2.0]])
TOL = {"rtol": 1e-4, "atol": 1e-5}                                # factorizations in float32

def _absolute(*xs):
    return tuple(ops.absolute(x) for x in xs)


def _activations():
    no_args = ["relu", "relu6", "sigmoid", "sparse_sigmoid", "softplus", "softsign",
               "sparse_plus", "silu", "log_sigmoid", "hard_sigmoid", "hard_silu", "selu",
               "tanh_shrink", "hard_tanh", "soft_shrink", "squareplus", "leaky_relu", "elu",
               "gelu", "celu", "glu", "hard_shrink", "softmax", "log_softmax", "sparsemax"]
    cases = [{"name": f"nn_{n}", "build": getattr(ops, n), "inputs": [X]} for n in no_args]
    cases += [
        {"name": "nn_relu_int", "build": ops.relu, "inputs": [XI]},
        {"name": "nn_hard_tanh_int", "build": ops.hard_tanh, "inputs": [XI]},
        {"name": "nn_soft_shrink_threshold",
         "build": lambda x: ops.soft_shrink(x, threshold=0.3), "inputs": [X]},
        {"name": "nn_squareplus_b", "build": lambda x: ops.squareplus(x, b=2), "inputs": [X]},
        {"name": "nn_leaky_relu_slope", "build": lambda x: ops.leaky_relu(x, 0.05),
         "inputs": [X]},
        {"name": "nn_elu_alpha", "build": lambda x: ops.elu(x, alpha=0.5), "inputs": [X]},
        {"name": "nn_gelu_exact", "build": lambda x: ops.gelu(x, approximate=False),
         "inputs": [X]},
        {"name": "nn_celu_alpha", "build": lambda x: ops.celu(x, alpha=2.0), "inputs": [X]},
        {"name": "nn_glu_axis0", "build": lambda x: ops.glu(x, axis=0), "inputs": [X]},
        {"name": "nn_hard_shrink_threshold",
         "build": lambda x: ops.hard_shrink(x, threshold=0.3), "inputs": [X]},
        {"name": "nn_threshold", "build": lambda x: ops.threshold(x, 0.2, -1.0), "inputs": [X]},
        {"name": "nn_threshold_int", "build": lambda x: ops.threshold(x, 1, 0), "inputs": [XI]},
        {"name": "nn_softmax_axis0", "build": lambda x: ops.softmax(x, axis=0), "inputs": [X]},
        {"name": "nn_softmax_axes", "build": lambda x: ops.softmax(x, axis=(0, 1)),
         "inputs": [X]},
        {"name": "nn_log_softmax_axis0", "build": lambda x: ops.log_softmax(x, axis=0),
         "inputs": [X]},
        {"name": "nn_sparsemax_axis0", "build": lambda x: ops.sparsemax(x, axis=0),
         "inputs": [X]},
    ]
    return cases


def _pooling_conv():
    return [
        {"name": "nn_max_pool_same",
         "build": lambda x: ops.max_pool(x, 2, strides=1, padding="same"), "inputs": [IMG]},
        # No case leaves strides None: Keras 3.15.1's JAX max_pool and average_pool then fail
        # (eagerly too: the pool size is expanded to the input's rank twice).
        {"name": "nn_max_pool_tuple",
         "build": lambda x: ops.max_pool(x, (2, 1), strides=(1, 2)), "inputs": [IMG]},
        {"name": "nn_average_pool_same",
         "build": lambda x: ops.average_pool(x, 2, strides=2, padding="same"),
         "inputs": [LIN]},
        {"name": "nn_average_pool_channels_first",
         "build": lambda x: ops.average_pool(x, (2, 1), (1, 1), data_format="channels_first"),
         "inputs": [IMG]},
        {"name": "nn_adaptive_max_pool",
         "build": lambda x: ops.adaptive_max_pool(x, (2, 3)), "inputs": [IMG]},
        {"name": "nn_adaptive_average_pool",
         "build": lambda x: ops.adaptive_average_pool(x, (3,)), "inputs": [LIN]},
        {"name": "nn_conv_same",
         "build": lambda x, k: ops.conv(x, k, strides=1, padding="same"),
         "inputs": [IMG, rand(3, 3, 2, 3)]},
        {"name": "nn_conv_1d_dilated",
         "build": lambda x, k: ops.conv(x, k, dilation_rate=2), "inputs": [LIN, rand(2, 2, 3)]},
        {"name": "nn_conv_strided",
         "build": lambda x, k: ops.conv(x, k, strides=(2, 1), padding="valid"),
         "inputs": [IMG, rand(2, 2, 2, 2)]},
        {"name": "nn_depthwise_conv",
         "build": lambda x, k: ops.depthwise_conv(x, k, padding="same"),
         "inputs": [IMG, rand(3, 3, 2, 2)]},
        {"name": "nn_separable_conv",
         "build": lambda x, d, p: ops.separable_conv(x, d, p, strides=2),
         "inputs": [IMG, rand(2, 2, 2, 2), rand(1, 1, 4, 3)]},
        {"name": "nn_conv_transpose",
         "build": lambda x, k: ops.conv_transpose(x, k, strides=2, padding="same"),
         "inputs": [rand(1, 3, 3, 2), rand(3, 3, 4, 2)]},
        {"name": "nn_conv_transpose_output_padding",
         "build": lambda x, k: ops.conv_transpose(x, k, strides=2, output_padding=1),
         "inputs": [rand(1, 3, 2), rand(2, 3, 2)]},
        {"name": "nn_unfold", "build": lambda x: ops.unfold(x, 2, padding=1, stride=2),
         "inputs": [rand(1, 2, 4, 4)]},
        {"name": "nn_fold", "build": lambda x: ops.fold(x, (4, 4), 2),
         "inputs": [rand(1, 8, 9)]},
        {"name": "nn_depth_to_space", "build": lambda x: ops.depth_to_space(x, 2),
         "inputs": [rand(1, 2, 2, 8)]},
        {"name": "nn_space_to_depth_channels_first",
         "build": lambda x: ops.space_to_depth(x, 2, data_format="channels_first"),
         "inputs": [rand(1, 2, 4, 4)]},
    ]


def _encoding_losses():
    labels = i32([[0, 2, 1], [3, 3, 0]])
    return [
        {"name": "nn_one_hot", "build": lambda x: ops.one_hot(x, 4), "inputs": [labels]},
        {"name": "nn_one_hot_axis_dtype",
         "build": lambda x: ops.one_hot(x, 5, axis=0, dtype="int32"), "inputs": [labels]},
        # Keras's MultiHot gives its symbolic output the labels' dtype (int32) though the
        # value is floatx: the Cast makes both float32.
        {"name": "nn_multi_hot", "build": lambda x: ops.cast(ops.multi_hot(x, 5), "float32"),
         "inputs": [labels],
         "keras_config_differs": "Keras's symbolic dtype of multi_hot is the labels' int32 "
                                 "while its value is float32; keras-cpp records the value's"},
        {"name": "nn_binary_crossentropy",
         "build": ops.binary_crossentropy, "inputs": [TARGET, PROBS]},
        {"name": "nn_binary_crossentropy_logits",
         "build": lambda t, o: ops.binary_crossentropy(t, o, from_logits=True),
         "inputs": [TARGET, LOGITS]},
        {"name": "nn_categorical_crossentropy",
         "build": ops.categorical_crossentropy, "inputs": [TARGET, PROBS]},
        {"name": "nn_categorical_crossentropy_logits_axis0",
         "build": lambda t, o: ops.categorical_crossentropy(t, o, from_logits=True, axis=0),
         "inputs": [TARGET.T.copy(), LOGITS.T.copy()]},
        {"name": "nn_sparse_categorical_crossentropy",
         "build": ops.sparse_categorical_crossentropy, "inputs": [i32([1, 0]), PROBS]},
        {"name": "nn_ctc_loss", "build": ops.ctc_loss,
         "inputs": [i32([[1, 2, 2], [3, 1, 0]]), rand(2, 6, 4), i32([3, 2]), i32([6, 5])],
         **TOL},
        {"name": "nn_ctc_loss_blank_last",
         "build": lambda t, o, tl, ol: ops.ctc_loss(t, o, tl, ol, mask_index=3),
         "inputs": [i32([[0, 1], [2, 2]]), rand(2, 5, 4), i32([2, 2]), i32([5, 5])], **TOL},
        {"name": "nn_ctc_decode",
         "build": lambda x, n: ops.ctc_decode(x, n, strategy="greedy"),
         "inputs": [rand(2, 6, 4), i32([6, 4])]},
        {"name": "nn_ctc_decode_no_merge",
         "build": lambda x, n: ops.ctc_decode(x, n, merge_repeated=False, mask_index=3),
         "inputs": [rand(2, 6, 4), i32([6, 4])]},
        {"name": "nn_sparse_categorical_crossentropy_logits",
         "build": lambda t, o: ops.sparse_categorical_crossentropy(t, o, from_logits=True),
         "inputs": [i32([2, 1]), LOGITS]},
        {"name": "nn_psnr", "build": lambda a, b: ops.psnr(a, b, 1.0),
         "inputs": [PROBS, TARGET]},
    ]


def _normalization_attention():
    x = rand(2, 3, 4)
    c4 = f32([0.5, 1.5, -1.0, 2.0])
    d4 = f32([0.1, -0.2, 0.3, 0.0])
    var4 = f32([0.5, 1.0, 2.0, 0.25])
    q, k, v = rand(1, 3, 2, 4), rand(1, 5, 2, 4), rand(1, 5, 2, 4)
    mask = np.array(_rng.uniform(size=(1, 2, 3, 5)) > 0.3)
    mask[..., 0] = True
    return [
        {"name": "nn_moments", "build": lambda x: ops.moments(x, [0, 1]), "inputs": [x]},
        {"name": "nn_moments_keepdims",
         "build": lambda x: ops.moments(x, axes=-1, keepdims=True), "inputs": [x]},
        {"name": "nn_batch_normalization",
         "build": lambda x, m, v, o, s: ops.batch_normalization(x, m, v, -1, o, s,
                                                                epsilon=0.01),
         "inputs": [x, d4, var4, d4, c4]},
        {"name": "nn_batch_normalization_plain",
         "build": lambda x, m, v: ops.batch_normalization(x, m, v, axis=2),
         "inputs": [x, d4, var4]},
        {"name": "nn_layer_normalization",
         "build": lambda x, g, b: ops.layer_normalization(x, g, b), "inputs": [x, c4, d4]},
        {"name": "nn_layer_normalization_axes",
         "build": lambda x: ops.layer_normalization(x, axis=(1, 2), epsilon=0.1),
         "inputs": [x]},
        {"name": "nn_layer_normalization_rms_scaling",
         "build": lambda x, g: ops.layer_normalization(x, g, rms_scaling=True),
         "inputs": [x, c4]},
        {"name": "nn_rms_normalization",
         "build": lambda x, s: ops.rms_normalization(x, s), "inputs": [x, c4]},
        {"name": "nn_rms_normalization_plain",
         "build": lambda x: ops.rms_normalization(x, axis=(1, 2), epsilon=0.5), "inputs": [x]},
        {"name": "nn_normalize", "build": ops.normalize, "inputs": [x]},
        {"name": "nn_normalize_order1",
         "build": lambda x: ops.normalize(x, axis=1, order=1, epsilon=1e-3), "inputs": [x]},
        {"name": "nn_dot_product_attention",
         "build": ops.dot_product_attention, "inputs": [q, k, v]},
        {"name": "nn_dot_product_attention_mask_scale",
         "build": lambda q, k, v, m: ops.dot_product_attention(q, k, v, mask=m, scale=0.3),
         "inputs": [q, k, v, mask]},
        {"name": "nn_dot_product_attention_bias_causal",
         "build": lambda q, k, v, b: ops.dot_product_attention(q, k, v, bias=b,
                                                               is_causal=True),
         "inputs": [q, k, v, rand(1, 2, 3, 5)]},
    ]


def _math():
    data = rand(6, 2)
    ids = i32([0, 0, 1, 2, 2, 2])
    segments = [
        {"name": f"math_{n}", "build": lambda d, s, n=n: getattr(ops, n)(d, s, num_segments=4),
         "inputs": [data, ids]}
        for n in ["segment_sum", "segment_max", "segment_min", "segment_prod"]]
    return segments + [
        {"name": "math_segment_sum_sorted",
         "build": lambda d, s: ops.segment_sum(d, s, num_segments=3, sorted=True),
         "inputs": [data, ids]},
        {"name": "math_top_k", "build": lambda x: ops.top_k(x, 2), "inputs": [X]},
        {"name": "math_top_k_unsorted", "build": lambda x: ops.top_k(x, 3, sorted=False),
         "inputs": [X]},
        {"name": "math_in_top_k", "build": lambda t, p: ops.in_top_k(t, p, 2),
         "inputs": [i32([1, 3]), X]},
        {"name": "math_logsumexp", "build": ops.logsumexp, "inputs": [X]},
        {"name": "math_logsumexp_axis",
         "build": lambda x: ops.logsumexp(x, axis=1, keepdims=True), "inputs": [X]},
        {"name": "math_cdist", "build": ops.cdist, "inputs": [rand(3, 4), rand(2, 4)]},
        {"name": "math_extract_sequences",
         "build": lambda x: ops.extract_sequences(x, 3, 2), "inputs": [rand(2, 8)]},
        {"name": "math_rsqrt", "build": ops.rsqrt, "inputs": [f32([0.25, 1.0, 4.0, 9.0])]},
        {"name": "math_erf", "build": ops.erf, "inputs": [X]},
        {"name": "math_erfc", "build": ops.erfc, "inputs": [X]},
        {"name": "math_erfinv", "build": ops.erfinv, "inputs": [f32([-0.9, -0.3, 0.0, 0.5])]},
        {"name": "math_logdet", "build": ops.logdet, "inputs": [SQ], **TOL},
        # Complex values as (real, imag) lists. Fixed sin/cos inputs, so the cases above keep
        # their random draws.
        {"name": "math_fft", "build": lambda r, i: ops.fft((r, i)),
         "inputs": [wave(2, 5), wave(2, 5, 1.0)], **TOL},
        {"name": "math_fft2", "build": lambda r, i: ops.fft2((r, i)),
         "inputs": [wave(2, 3, 4), wave(2, 3, 4, 2.0)], **TOL},
        {"name": "math_ifft2", "build": lambda r, i: ops.ifft2((r, i)),
         "inputs": [wave(2, 3, 4), wave(2, 3, 4, 0.5)], **TOL},
        {"name": "math_rfft", "build": lambda x: ops.rfft(x, 6), "inputs": [wave(2, 8)], **TOL},
        {"name": "math_irfft", "build": lambda r, i: ops.irfft((r, i), 7),
         "inputs": [wave(2, 4), wave(2, 4, 1.5)], **TOL},
        {"name": "math_stft", "build": lambda x: ops.stft(x, 8, 4, 8, window="hamming"),
         "inputs": [wave(2, 24)], **TOL},
        {"name": "math_istft", "build": lambda r, i: ops.istft((r, i), 8, 4, 8, length=14),
         "inputs": [wave(2, 5, 5), wave(2, 5, 5, 0.7)], **TOL},
        # Complex tensors inside the graph, real at its ends (the fixture's JSON holds reals).
        {"name": "math_view_as_complex_real",
         "build": lambda x: ops.view_as_real(ops.multiply(ops.view_as_complex(x),
                                                          ops.view_as_complex(x))),
         "inputs": [wave(2, 3, 2)], **TOL},
        {"name": "nn_polar", "build": lambda r, t: ops.view_as_real(ops.polar(r, t)),
         "inputs": [wave(2, 4, 0.3), wave(2, 4, 2.0)], **TOL,
         "keras_config_differs": "Keras's Polar declares a float32 symbolic output (a KerasTensor "
                                 "without a dtype) while its value is complex64; keras-cpp "
                                 "records the value's"},
    ]


def _core():
    x = rand(3, 4)
    return [
        {"name": "core_scatter",
         "build": lambda i, v: ops.scatter(i, v, (3, 4)),
         "inputs": [i32([[0, 1], [2, 3], [0, 1]]), f32([1.0, 2.0, 3.0])]},
        {"name": "core_scatter_update",
         "build": ops.scatter_update, "inputs": [x, i32([[1], [2]]), rand(2, 4)]},
        {"name": "core_scatter_update_add",
         "build": lambda x, i, u: ops.scatter_update(x, i, u, reduction="add"),
         "inputs": [x, i32([[0, 0], [2, 1]]), f32([5.0, -5.0])]},
        {"name": "core_slice", "build": lambda x: ops.slice(x, [1, 1], [2, 3]), "inputs": [x]},
        {"name": "core_slice_tensor_start",
         "build": lambda x, s: ops.slice(x, s, (1, 2)), "inputs": [x, i32([2, 1])]},
        {"name": "core_slice_update",
         "build": lambda x, u: ops.slice_update(x, [1, 2], u), "inputs": [x, rand(2, 2)]},
        {"name": "core_stop_gradient", "build": ops.stop_gradient, "inputs": [x]},
        {"name": "core_unstack", "build": ops.unstack, "inputs": [x]},
        {"name": "core_unstack_axis", "build": lambda x: ops.unstack(x, num=4, axis=1),
         "inputs": [x]},
        {"name": "core_cast", "build": lambda x: ops.cast(x, "int32"), "inputs": [X]},
        {"name": "core_saturate_cast", "build": lambda x: ops.saturate_cast(x, "uint8"),
         "inputs": [X * 100]},
        {"name": "core_convert_to_tensor",
         "build": lambda x: ops.convert_to_tensor(x, dtype="float64"), "inputs": [X]},
        {"name": "core_convert_to_tensor_plain", "build": ops.convert_to_tensor,
         "inputs": [XI]},
    ]


def _linalg():
    b = rand(3, 2)
    return [
        {"name": "linalg_cholesky", "build": ops.cholesky, "inputs": [SQ], **TOL},
        {"name": "linalg_cholesky_upper", "build": lambda x: ops.cholesky(x, upper=True),
         "inputs": [SQ], **TOL},
        {"name": "linalg_cholesky_inverse", "build": ops.cholesky_inverse, "inputs": [L], **TOL},
        {"name": "linalg_cholesky_inverse_upper",
         "build": lambda x: ops.cholesky_inverse(x, upper=True),
         "inputs": [L.T.copy()], **TOL},
        {"name": "linalg_det", "build": ops.det, "inputs": [A43[:3].copy()], **TOL},
        {"name": "linalg_eigh", "build": lambda x: _absolute(*ops.eigh(x)), "inputs": [SQ],
         **TOL},
        # A43[:3] has a complex pair of eigenvalues; LAPACK's geev fixes the vectors' phases.
        {"name": "linalg_eig", "build": lambda x: tuple(ops.view_as_real(t) for t in ops.eig(x)),
         "inputs": [A43[:3].copy()], **TOL,
         "keras_config_differs": "Keras's Eig declares its symbolic outputs with the input's "
                                 "float32 while their values are complex64; keras-cpp records "
                                 "the values'"},
        {"name": "linalg_inv", "build": ops.inv, "inputs": [SQ], **TOL},
        # Keras's LuFactor gives the pivots a float symbolic dtype though they are int32.
        {"name": "linalg_lu_factor",
         "build": lambda x: (lambda lu, p: (lu, ops.cast(p, "int32")))(*ops.lu_factor(x)),
         "inputs": [A43], **TOL,
         "keras_config_differs": "Keras's symbolic dtype of lu_factor's pivots is float32 "
                                 "while their value is int32; keras-cpp records the value's"},
        {"name": "linalg_norm", "build": ops.norm, "inputs": [A43], **TOL},
        {"name": "linalg_norm_fro", "build": lambda x: ops.norm(x, ord="fro", axis=(0, 1)),
         "inputs": [A43], **TOL},
        {"name": "linalg_norm_vector",
         # Keras's Norm turns an int axis into a list, which JAX cannot take in the graph.
         "build": lambda x: ops.norm(x, ord=1, axis=(-1,), keepdims=True), "inputs": [A43],
         **TOL},
        {"name": "linalg_norm_nuc", "build": lambda x: ops.norm(x, ord="nuc"),
         "inputs": [A43], **TOL},
        {"name": "linalg_qr", "build": lambda x: _absolute(*ops.qr(x)), "inputs": [A43], **TOL},
        {"name": "linalg_qr_complete",
         "build": lambda x: ops.absolute(ops.qr(x, mode="complete")[1]), "inputs": [A43],
         **TOL},
        {"name": "linalg_solve", "build": ops.solve, "inputs": [SQ, b], **TOL},
        {"name": "linalg_solve_triangular",
         "build": lambda a, b: ops.solve_triangular(a, b, lower=True), "inputs": [L, b], **TOL},
        {"name": "linalg_solve_triangular_upper",
         "build": ops.solve_triangular, "inputs": [L.T.copy(), b], **TOL},
        {"name": "linalg_svd",
         "build": lambda x: _absolute(*ops.svd(x, full_matrices=False)), "inputs": [A43],
         **TOL},
        {"name": "linalg_svd_full", "build": lambda x: _absolute(*ops.svd(x)), "inputs": [SQ],
         **TOL},
        {"name": "linalg_svd_values", "build": lambda x: ops.svd(x, compute_uv=False),
         "inputs": [A43], **TOL},
        {"name": "linalg_lstsq", "build": ops.lstsq, "inputs": [A43, rand(4, 2)], **TOL},
        {"name": "linalg_lstsq_rcond", "build": lambda a, b: ops.lstsq(a, b, rcond=0.1),
         "inputs": [A43, rand(4)], **TOL},
        {"name": "linalg_matrix_rank", "build": ops.matrix_rank,
         "inputs": [f32([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]])]},
        {"name": "linalg_matrix_rank_tol", "build": lambda x: ops.matrix_rank(x, tol=1.5),
         "inputs": [SQ]},
        {"name": "linalg_pinv", "build": ops.pinv, "inputs": [A43], **TOL},
        {"name": "linalg_pinv_rcond", "build": lambda x: ops.pinv(x, rcond=0.3),
         "inputs": [A43], **TOL},
    ]


def _image():
    from keras.src.ops import image
    transform = f32([[0.9, 0.1, 0.3, -0.2, 1.1, 0.5, 0.0, 0.0]])
    coordinates = f32(_rng.uniform(-1.0, 4.5, (2, 3, 3)))
    return [
        {"name": "image_resize", "build": lambda x: image.resize(x, (3, 5)), "inputs": [IMG]},
        {"name": "image_resize_bicubic_antialias",
         "build": lambda x: image.resize(x, (2, 3), interpolation="bicubic", antialias=True),
         "inputs": [IMG]},
        {"name": "image_resize_nearest_pad",
         "build": lambda x: image.resize(x, (2, 4), interpolation="nearest",
                                         pad_to_aspect_ratio=True, fill_value=0.5),
         "inputs": [IMG]},
        {"name": "image_resize_crop_channels_first",
         "build": lambda x: image.resize(x, (2, 3), crop_to_aspect_ratio=True,
                                         data_format="channels_first"),
         "inputs": [IMG]},
        {"name": "image_affine_transform",
         "build": image.affine_transform, "inputs": [IMG, transform]},
        {"name": "image_affine_transform_nearest_reflect",
         "build": lambda x, t: image.affine_transform(x, t, interpolation="nearest",
                                                      fill_mode="reflect"),
         "inputs": [IMG, transform]},
        {"name": "image_map_coordinates",
         "build": lambda x, c: image.map_coordinates(x, c, 1), "inputs": [rand(4, 4), coordinates]},
        {"name": "image_map_coordinates_nearest",
         "build": lambda x, c: image.map_coordinates(x, c, 0, fill_mode="wrap"),
         "inputs": [rand(4, 4), coordinates]},
        {"name": "image_pad_images",
         "build": lambda x: image.pad_images(x, 1, 2, target_height=6, target_width=7),
         "inputs": [IMG]},
        {"name": "image_pad_images_sides",
         "build": lambda x: image.pad_images(x, bottom_padding=2, right_padding=1,
                                             top_padding=0, left_padding=3),
         "inputs": [IMG]},
        {"name": "image_crop_images",
         "build": lambda x: image.crop_images(x, 1, 1, target_height=2, target_width=3),
         "inputs": [IMG]},
        {"name": "image_crop_images_sides",
         "build": lambda x: image.crop_images(x, bottom_cropping=1, right_cropping=2,
                                              top_cropping=1, left_cropping=0),
         "inputs": [IMG]},
    ] + _image_more(image)


def _image_more(image):
    """The keras.ops.image classes added with tools/keras_oracle/image_ops.py (drawn after the
    cases above, so their inputs keep their values)."""
    rgb = rand(1, 4, 4, 3, lo=0.0, hi=1.0)
    rgb2 = rand(1, 4, 4, 3, lo=0.0, hi=1.0)
    square = f32([[[0, 0], [0, 3], [3, 0], [3, 3]]])
    moved = f32([[[0.2, 0.1], [0.1, 2.7], [3.2, -0.3], [2.9, 3.1]]])
    return [
        {"name": "image_rgb_to_grayscale", "build": image.rgb_to_grayscale, "inputs": [rgb]},
        {"name": "image_rgb_to_hsv", "build": image.rgb_to_hsv, "inputs": [rgb]},
        {"name": "image_hsv_to_rgb", "build": image.hsv_to_rgb, "inputs": [rgb]},
        {"name": "image_extract_patches",
         "build": lambda x: image.extract_patches(x, 2, strides=1, padding="same"),
         "inputs": [IMG], "keras_config_differs": "Keras's ExtractPatches.get_config leaves out `name`, so a loaded "
                                 "node gets a fresh name; keras-cpp's op layers always write one"},
        {"name": "image_extract_patches_3d",
         "build": lambda x: image.extract_patches_3d(x, (2, 2, 2)),
         "inputs": [rand(1, 4, 4, 4, 1)], "keras_config_differs": "Keras's ExtractPatches.get_config leaves out `name`, so a loaded "
                                 "node gets a fresh name; keras-cpp's op layers always write one"},
        {"name": "image_perspective_transform",
         "build": lambda x, s, e: image.perspective_transform(x, s, e, fill_value=0.5),
         "inputs": [IMG, square, moved], "rtol": 1e-5, "atol": 1e-5},
        {"name": "image_gaussian_blur",
         "build": lambda x: image.gaussian_blur(x, (3, 5), (1.0, 0.5),
                                                data_format="channels_last"),
         "inputs": [IMG], "rtol": 1e-5, "atol": 1e-6},
        {"name": "image_elastic_transform_identity",  # alpha 0: no random displacement
         "build": lambda x: image.elastic_transform(x, alpha=0.0, sigma=1.0, seed=3),
         "inputs": [IMG]},
        {"name": "image_scale_and_translate",
         "build": lambda x, s, t: image.scale_and_translate(x, (1, 6, 3, 2), s, t, (1, 2),
                                                            "linear"),
         "inputs": [IMG, f32([1.5, 0.7]), f32([0.3, -0.2])], "rtol": 1e-5, "atol": 1e-6},
        {"name": "image_sobel_edges", "build": image.sobel_edges, "inputs": [IMG],
         "rtol": 1e-5, "atol": 1e-6},
        {"name": "image_ssim",
         "build": lambda a, b: image.ssim(a, b, filter_size=3, filter_sigma=1.0),
         "inputs": [rgb, rgb2], "rtol": 1e-5, "atol": 1e-6},
    ]


CASES = (_activations() + _pooling_conv() + _encoding_losses() + _normalization_attention()
         + _math() + _core() + _linalg() + _image())
