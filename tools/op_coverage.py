"""Reports how much of keras.ops keras-cpp implements, and how much of it is tested.

For each Keras sub-namespace (numpy, nn, math, linalg, core) it lists the Keras names, which of
them keras-cpp declares in include/keras/ops, which appear as an op in a golden fixture
(tests/golden/*.npz), and which appear in a gradient check (a string literal naming the op in a
test that calls gradcheck). Run: python3 tools/op_coverage.py [--missing]
"""

import glob
import json
import os
import re
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# keras.ops names per sub-namespace (KERAS_REFERENCE.md section 3.1, Keras 3.16).
KERAS = {
    "core": "associative_scan cast cond convert_to_numpy convert_to_tensor custom_gradient dtype "
            "fori_loop is_tensor map saturate_cast scan scatter scatter_update shape slice "
            "slice_update stop_gradient switch unstack vectorized_map while_loop",
    "math": "cdist erf erfc erfinv extract_sequences fft fft2 gammainc ifft2 in_top_k irfft istft "
            "logdet logsumexp rfft rsqrt segment_max segment_min segment_prod segment_sum stft "
            "top_k view_as_complex view_as_real",
    "nn": "adaptive_average_pool adaptive_max_pool average_pool batch_normalization "
          "binary_crossentropy categorical_crossentropy celu conv conv_transpose ctc_decode "
          "ctc_loss depth_to_space depthwise_conv dot_product_attention elu fold gelu glu "
          "hard_shrink hard_sigmoid hard_silu hard_swish hard_tanh layer_normalization leaky_relu "
          "log_sigmoid log_softmax max_pool moments multi_hot normalize one_hot polar psnr relu "
          "relu6 rms_normalization selu separable_conv sigmoid silu swish soft_shrink softmax "
          "softplus softsign space_to_depth sparse_categorical_crossentropy sparse_plus "
          "sparse_sigmoid sparsemax squareplus tanh_shrink threshold unfold",
    "linalg": "cholesky cholesky_inverse det eig eigh inv jvp lstsq lu_factor matrix_power "
              "matrix_rank norm pinv qr solve solve_triangular svd",
    "numpy": "abs absolute add all allclose amax amin angle any append arange arccos arccosh "
             "arcsin arcsinh arctan arctan2 arctanh argmax argmin argpartition argsort array "
             "array_split average bartlett bincount bitwise_and bitwise_invert bitwise_left_shift "
             "bitwise_not bitwise_or bitwise_right_shift bitwise_xor blackman broadcast_to cbrt "
             "ceil clip column_stack concatenate conj conjugate copy corrcoef correlate cos cosh "
             "count_nonzero cross cumprod cumsum deg2rad diag diagflat diagonal diff digitize "
             "divide divide_no_nan dot dsplit dstack einsum empty empty_like equal exp exp2 "
             "expand_dims expm1 eye fabs flip fliplr flipud floor floor_divide fmax fmin fmod full "
             "full_like gcd geomspace get_item greater greater_equal hamming hanning heaviside "
             "histogram hsplit hstack hypot i0 identity imag inner isclose isfinite isin isinf "
             "isnan isneginf isposinf isreal kaiser kron lcm ldexp left_shift less less_equal "
             "linspace log log1p log2 log10 logaddexp logaddexp2 logical_and logical_not "
             "logical_or logical_xor logspace matmul max maximum mean median meshgrid min minimum "
             "mod moveaxis multiply nan_to_num nanargmax nanargmin nancumprod nancumsum nanmax "
             "nanmean nanmedian nanmin nanpercentile nanprod nanquantile nanstd nansum nanvar ndim "
             "negative nextafter nonzero not_equal ones ones_like outer pad percentile power prod "
             "ptp quantile rad2deg ravel real reciprocal repeat reshape right_shift roll rot90 "
             "round searchsorted select sign signbit sin sinc sinh size slogdet sort split sqrt "
             "square squeeze stack std subtract sum swapaxes take take_along_axis tan tanh "
             "tensordot tile trace transpose trapezoid tri tril triu true_divide trunc unique "
             "unravel_index vander var vdot vectorize view vsplit vstack where zeros zeros_like",
}
# C++ spellings of names that are keywords there.
CPP_NAME = {"switch": "switch_"}


def declared():
    """Every identifier called like a function outside comments in include/keras/ops."""
    names = set()
    for path in glob.glob(os.path.join(ROOT, "include/keras/ops/**/*.h"), recursive=True):
        for line in open(path):
            if line.lstrip().startswith("//"):
                continue
            names.update(re.findall(r"\b(\w+)\s*\(", line))
    return names


def npy_text(data):
    header_len = int.from_bytes(data[8:10], "little")
    return data[10 + header_len:].decode("utf-8", "replace")


def fixture_ops():
    """Op names of every fixture case; "battery" cases list several ops in their kwargs."""
    ops = set()
    for path in glob.glob(os.path.join(ROOT, "tests/golden/*.npz")):
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                if name.endswith(".op.npy"):
                    ops.add(npy_text(z.read(name)))
                elif name.endswith(".kwargs.npy"):
                    kwargs = json.loads(npy_text(z.read(name)))
                    listed = kwargs.get("ops", [])
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


def main():
    show_missing = "--missing" in sys.argv
    have, fixtures, grads = declared(), fixture_ops(), gradchecked()
    total = [0, 0, 0, 0]
    print(f"{'namespace':10} {'keras':>6} {'done':>6} {'fixture':>8} {'gradchk':>8}")
    for ns, names in KERAS.items():
        names = names.split()
        done = [n for n in names if CPP_NAME.get(n, n) in have]
        fx = [n for n in done if n in fixtures or any(f.startswith(n + "_") or f == n for f in fixtures)]
        gc = [n for n in done if n in grads or any(g.startswith(n + "_") for g in grads)]
        print(f"{ns:10} {len(names):6} {len(done):6} {len(fx):8} {len(gc):8}")
        if show_missing:
            missing = [n for n in names if n not in done]
            if missing:
                print("   missing:", " ".join(missing))
            nofx = [n for n in done if n not in fx]
            if nofx:
                print("   no fixture:", " ".join(nofx))
        for i, v in enumerate([len(names), len(done), len(fx), len(gc)]):
            total[i] += v
    print(f"{'total':10} {total[0]:6} {total[1]:6} {total[2]:8} {total[3]:8}")


if __name__ == "__main__":
    main()
