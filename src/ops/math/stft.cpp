// stft and istft, composed from extract_sequences, rfft/irfft and an overlap-add of pads, with
// the window handling of Keras's JAX backend (which calls jax.scipy.signal.stft/istft).

#include <cmath>
#include <numbers>
#include <vector>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/linalg/common.h"
#include "ops/math/fourier_common.h"

namespace keras::ops::fourier_detail {

Tensor named_window(std::string_view op, const std::string& name, int64_t length, bool periodic,
                    DType dtype, std::string_view backend) {
  check(name == "hann" || name == "hamming", op,
        ": window must be \"hann\", \"hamming\", a tensor or none; got \"", name, "\".");
  // The generalized Hamming window a - (1 - a) cos(2 pi k / (M - 1)); the periodic one is the
  // symmetric window of M + 1 points without its last point. One point: [1], as SciPy.
  const double a = name == "hann" ? 0.5 : 0.54;
  std::vector<double> values(static_cast<size_t>(length), 1.0);
  const double span = static_cast<double>(periodic ? length : length - 1);
  if (length > 1)
    for (size_t k = 0; k < values.size(); ++k)
      values[k] = a - (1 - a) * std::cos(2 * std::numbers::pi * static_cast<double>(k) / span);
  Tensor w = Tensor::from_vector(values, Shape{length}, backend);
  return dtype == DType::Float64 ? w : detail::cast(w, dtype);
}

}  // namespace keras::ops::fourier_detail

namespace keras::ops {
inline namespace math {

using namespace fourier_detail;

namespace {

// The window over a whole frame of fft_length samples: the sequence_length window centred
// with zeros, or Keras's None, ones over all fft_length samples.
Tensor frame_window(std::string_view op, const StftWindow& window, int64_t sequence_length,
                    int64_t fft_length, DType dtype, std::string_view backend) {
  if (window.is_none()) return detail::cast(ones({fft_length}), dtype).to(backend);
  Tensor w = window.values().defined()
                 ? cast(window.values(), dtype).to(backend)
                 : named_window(op, window.name(), sequence_length, true, dtype, backend);
  check(w.ndim() == 1 && w.shape()[0] == sequence_length, op,
        ": the window must have shape (sequence_length,) = (", sequence_length, ",); got ",
        w.shape(), ".");
  const int64_t left = (fft_length - sequence_length) / 2;
  return pad(w, {{left, fft_length - sequence_length - left}});
}

void check_lengths(std::string_view op, int64_t sequence_length, int64_t sequence_stride,
                   int64_t fft_length) {
  check(sequence_length >= 1 && sequence_stride >= 1, op,
        ": sequence_length and sequence_stride must be >= 1; got ", sequence_length, " and ",
        sequence_stride, ".");
  check(fft_length >= sequence_length, op,
        ": fft_length must be equal to or larger than sequence_length; got sequence_length=",
        sequence_length, ", fft_length=", fft_length, ".");
}

// Frames (..., F, n) summed into a signal (..., (F - 1) * step + n), frame f starting at sample
// f * step. Each frame is cut into k blocks of `step` samples; block j of frame f lands on block
// f + j of the signal, so the sum is k shifted (padded) copies. Differentiable.
Tensor overlap_add(const Tensor& frames, int64_t step) {
  const int r = frames.ndim();
  const int64_t count = frames.shape()[r - 2], n = frames.shape()[r - 1];
  const int64_t k = (n + step - 1) / step;
  Shape blocks_shape(frames.shape().begin(), frames.shape().end() - 1);
  blocks_shape.push_back(k);
  blocks_shape.push_back(step);
  Tensor blocks = reshape(resize_last_axis(frames, k * step), blocks_shape);
  Tensor sum;
  for (int64_t j = 0; j < k; ++j) {
    Tensor block = linalg_detail::slice_axis(blocks, r - 1, j, 1, 1, /*keep=*/false);
    std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(r), {0, 0});
    widths[static_cast<size_t>(r - 2)] = {j, k - 1 - j};
    Tensor shifted = pad(block, widths);
    sum = sum.defined() ? add(sum, shifted) : shifted;
  }
  Shape signal_shape(frames.shape().begin(), frames.shape().end() - 2);
  signal_shape.push_back((count + k - 1) * step);
  return resize_last_axis(reshape(sum, signal_shape), (count - 1) * step + n);
}

}  // namespace

ComplexPair stft(const Tensor& x, int64_t sequence_length, int64_t sequence_stride,
                 int64_t fft_length, const StftWindow& window, bool center) {
  constexpr std::string_view op = "stft";
  check(x.defined(), op, ": x is an undefined tensor.");
  check<TypeError>(x.dtype() == DType::Float32 || x.dtype() == DType::Float64, op,
                   ": x must be float32 or float64; got ", dtype_name(x.dtype()), ".");
  check(x.ndim() >= 1, op, ": x must have rank >= 1; got shape ", x.shape(), ".");
  check_lengths(op, sequence_length, sequence_stride, fft_length);
  Tensor signal = x;
  if (center) {
    std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(x.ndim()), {0, 0});
    widths.back() = {fft_length / 2, fft_length / 2};
    signal = pad(x, widths, "reflect");
  }
  check(signal.shape().back() >= fft_length, op, ": the signal has ", x.shape().back(), " samples",
        center ? " (after centre padding: " : "",
        center ? std::to_string(signal.shape().back()) + ")" : std::string(),
        "; it needs at least fft_length = ", fft_length, ".");
  Tensor win = frame_window(op, window, sequence_length, fft_length, x.dtype(), x.backend_name());
  Tensor frames = multiply(extract_sequences(signal, fft_length, sequence_stride), win);
  auto [re, im] = rfft(frames, fft_length);
  // JAX scales by 1 / sum(window) and Keras by 1 / |1 / sum(window)|: a window summing to a
  // negative value flips the sign.
  if (window.values().defined() && !win.backend().is_symbolic() &&
      detail::host_scalar(sum(win)) < 0)
    return {negative(re), negative(im)};
  return {re, im};
}

Tensor istft(const ComplexPair& x, int64_t sequence_length, int64_t sequence_stride,
             int64_t fft_length, std::optional<int64_t> length, const StftWindow& window,
             bool center) {
  constexpr std::string_view op = "istft";
  auto [re, im] = checked_complex(op, x, 2);
  check_lengths(op, sequence_length, sequence_stride, fft_length);
  check(!length || *length >= 0, op, ": length must be >= 0; got ", length.value_or(0), ".");
  Tensor win = frame_window(op, window, sequence_length, fft_length, re.dtype(), re.backend_name());
  const int64_t count = re.shape()[re.ndim() - 2];
  Tensor y = overlap_add(multiply(irfft(ComplexPair{re, im}, fft_length), win), sequence_stride);
  // Divided by the overlap-added squared window where it is not ~0, as scipy's istft; JAX's
  // factor sum(window) and Keras's division by it cancel, except for no window, where Keras
  // divides by sequence_stride instead.
  Tensor norm = overlap_add(broadcast_to(square(win), {count, fft_length}), sequence_stride);
  y = divide(y, where(greater(norm, Tensor(1e-10)), norm, Tensor(1.0)));
  if (window.is_none())
    y = multiply(y, Tensor(static_cast<double>(fft_length) / static_cast<double>(sequence_stride)));
  const int64_t total = y.shape().back();
  const int64_t start = center ? fft_length / 2 : 0;
  int64_t end = total;
  if (length)
    end = start + *length;
  else if (center)
    end = total - fft_length / 2;
  end = std::min(end, total);
  return linalg_detail::slice_axis(y, y.ndim() - 1, std::min(start, total),
                                   std::max<int64_t>(end - start, 0));
}

}  // namespace math
}  // namespace keras::ops
