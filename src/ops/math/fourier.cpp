// fft, fft2, ifft2, rfft and irfft on (real, imag) pairs. One differentiable primitive, the
// unnormalized complex DFT along the last axis (KISS FFT in double precision on the host), and
// the rest composed from ops so that their gradients come from the ops they are made of.

#include <kissfft.hh>

#include <complex>
#include <vector>

#include "keras/autograd/node.h"
#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/linalg/common.h"
#include "ops/math/fourier_common.h"

namespace keras::ops::fourier_detail {

namespace {

// The transform itself, no gradient: every row of the last axis through one KISS FFT plan.
// Backends have no FFT primitive, so the values visit the host (in double precision) and the
// results return to the inputs' backend in their dtype.
ComplexPair raw_dft(const Tensor& re, const Tensor& im, bool inverse) {
  const DType dtype = re.dtype();
  const Shape& shape = re.shape();
  // Shape inference (a Functional graph's op node): no values to transform.
  if (re.backend().is_symbolic())
    return {detail::empty(shape, dtype, re.backend()), detail::empty(shape, dtype, re.backend())};
  const int64_t n = shape.rank() == 0 ? 1 : shape.back();
  const size_t count = static_cast<size_t>(re.size());
  std::vector<double> real(count), imag(count);
  re.copy_to_host(real.data(), DType::Float64);
  im.copy_to_host(imag.data(), DType::Float64);
  if (n > 1) {
    kissfft<double> plan(static_cast<size_t>(n), inverse);
    std::vector<std::complex<double>> in(static_cast<size_t>(n)), out(in.size());
    for (size_t row = 0; row < count; row += static_cast<size_t>(n)) {
      for (size_t j = 0; j < in.size(); ++j) in[j] = {real[row + j], imag[row + j]};
      plan.transform(in.data(), out.data());
      for (size_t j = 0; j < in.size(); ++j) {
        real[row + j] = out[j].real();
        imag[row + j] = out[j].imag();
      }
    }
  }
  const std::string backend(re.backend_name());
  Tensor out_re = Tensor::from_host(real.data(), DType::Float64, shape, count, backend);
  Tensor out_im = Tensor::from_host(imag.data(), DType::Float64, shape, count, backend);
  return {detail::cast(out_re, dtype), detail::cast(out_im, dtype)};
}

}  // namespace

ComplexPair dft(const Tensor& re, const Tensor& im, bool inverse) {
  auto [out_re, out_im] = raw_dft(re, im, inverse);
  if (autograd::should_record(re, im)) {
    Tensor inputs[2] = {re, im};
    Tensor outputs[2] = {out_re, out_im};
    // y = F x is linear, so x's gradient is F^H applied to y's: the conjugate transpose of the
    // (unnormalized) forward DFT is the unnormalized inverse, and the reverse.
    autograd::record_multi(inverse ? "ifft" : "fft", inputs, outputs,
                           [inverse](const autograd::Context&, std::span<const Tensor> grads) {
                             auto [g_re, g_im] = dft(grads[0], grads[1], !inverse);
                             return TensorList{g_re, g_im};
                           });
    return {outputs[0], outputs[1]};
  }
  return {out_re, out_im};
}

ComplexPair checked_complex(std::string_view op, const ComplexPair& x, int min_rank) {
  const auto& [re, im] = x;
  check(re.defined() && im.defined(), op,
        ": x must be a (real, imaginary) pair of tensors; a part is an undefined tensor.");
  check(re.shape() == im.shape(), op,
        ": the real and imaginary parts of x must have the same shape; got ", re.shape(), " and ",
        im.shape(), ".");
  check(is_floating(re.dtype()) && is_floating(im.dtype()), op,
        ": the real and imaginary parts of x must be float tensors; got ", dtype_name(re.dtype()),
        " and ", dtype_name(im.dtype()), ".");
  check(re.ndim() >= min_rank, op, ": x must have rank >= ", min_rank, "; got shape ", re.shape(),
        ".");
  auto& be = detail::common_backend(op, {&re, &im});
  const DType dtype = detail::promote({&re, &im});
  return {detail::prepare(re, dtype, be), detail::prepare(im, dtype, be)};
}

Tensor resize_last_axis(const Tensor& x, int64_t length) {
  const int axis = x.ndim() - 1;
  const int64_t n = x.shape().back();
  if (length == n) return x;
  if (length < n) return linalg_detail::slice_axis(x, axis, 0, length);
  std::vector<std::pair<int64_t, int64_t>> widths(static_cast<size_t>(x.ndim()), {0, 0});
  widths.back().second = length - n;
  return pad(x, widths);
}

}  // namespace keras::ops::fourier_detail

namespace keras::ops {
inline namespace math {

using namespace fourier_detail;

ComplexPair fft(const ComplexPair& x) {
  auto [re, im] = checked_complex("fft", x, 1);
  return dft(re, im, false);
}

namespace {

// The 2-d transform: the last axis, then the one before it (through a swap of the two).
ComplexPair dft2(const ComplexPair& x, bool inverse) {
  auto [re, im] = dft(x.first, x.second, inverse);
  auto [re2, im2] = dft(swapaxes(re, -1, -2), swapaxes(im, -1, -2), inverse);
  return {swapaxes(re2, -1, -2), swapaxes(im2, -1, -2)};
}

}  // namespace

ComplexPair fft2(const ComplexPair& x) {
  return dft2(checked_complex("fft2", x, 2), false);
}

ComplexPair ifft2(const ComplexPair& x) {
  ComplexPair c = checked_complex("ifft2", x, 2);
  const int r = c.first.ndim();
  const double scale = 1.0 / static_cast<double>(c.first.shape()[r - 1] * c.first.shape()[r - 2]);
  auto [re, im] = dft2(c, true);
  return {multiply(re, Tensor(scale)), multiply(im, Tensor(scale))};
}

ComplexPair rfft(const Tensor& x, std::optional<int64_t> fft_length) {
  constexpr std::string_view op = "rfft";
  check(x.defined(), op, ": x is an undefined tensor.");
  check(x.ndim() >= 1, op, ": x must have rank >= 1; got shape ", x.shape(), ".");
  const int64_t n = fft_length.value_or(x.shape().back());
  check(n >= 1, op, ": fft_length must be >= 1; got ", n, ".");
  // Integer and bool signals are transformed as floatx(), as jnp.fft promotes them to floats.
  Tensor signal = is_floating(x.dtype()) ? x : cast(x, config::floatx());
  signal = resize_last_axis(signal, n);
  auto [re, im] = dft(signal, zeros_like(signal), false);
  const int axis = signal.ndim() - 1;
  return {linalg_detail::slice_axis(re, axis, 0, n / 2 + 1),
          linalg_detail::slice_axis(im, axis, 0, n / 2 + 1)};
}

Tensor irfft(const ComplexPair& x, std::optional<int64_t> fft_length) {
  constexpr std::string_view op = "irfft";
  auto [re, im] = checked_complex(op, x, 1);
  const int64_t n = fft_length.value_or(2 * (re.shape().back() - 1));
  check(n >= 1, op, ": fft_length must be >= 1; got ", n,
        " (without fft_length, x needs at least 2 frequency bins).");
  re = resize_last_axis(re, n / 2 + 1);
  im = resize_last_axis(im, n / 2 + 1);
  // The full Hermitian spectrum: bins n/2+1 .. n-1 are the conjugates of bins n-1-n/2 .. 1.
  const int axis = re.ndim() - 1;
  const int64_t mirrored = n - (n / 2 + 1);
  Tensor full_re = re, full_im = im;
  if (mirrored > 0) {
    Tensor tail_re = flip(linalg_detail::slice_axis(re, axis, 1, mirrored), axis);
    Tensor tail_im = flip(linalg_detail::slice_axis(im, axis, 1, mirrored), axis);
    full_re = concatenate({re, tail_re}, axis);
    full_im = concatenate({im, negative(tail_im)}, axis);
  }
  // The real part of the inverse transform: the imaginary parts of the zero and Nyquist bins
  // drop out of it, as numpy.fft.irfft ignores them.
  Tensor signal = dft(full_re, full_im, true).first;
  return multiply(signal, Tensor(1.0 / static_cast<double>(n)));
}

}  // namespace math
}  // namespace keras::ops
