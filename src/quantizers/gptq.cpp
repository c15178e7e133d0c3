#include "quantizers/gptq.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "keras/core/errors.h"
#include "keras/ops/ops.h"

namespace keras::quantizers::detail {
namespace {

// Keras's _stable_permutation: argsort of -(metric + 1e-12 * i / n), stable.
std::vector<int64_t> stable_permutation(const std::vector<float>& metric) {
  const int64_t n = static_cast<int64_t>(metric.size());
  std::vector<float> key(metric.size());
  for (int64_t i = 0; i < n; ++i)
    key[static_cast<size_t>(i)] =
        -(metric[static_cast<size_t>(i)] +
          (static_cast<float>(i) / static_cast<float>(n)) * 1e-12f);
  std::vector<int64_t> perm(metric.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    return key[static_cast<size_t>(a)] < key[static_cast<size_t>(b)];
  });
  return perm;
}

Tensor uint8_tensor(const HostMatrix& m) {
  std::vector<uint8_t> v(m.data.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(m.data[i]);
  return Tensor::from_vector(v, Shape{m.rows, m.cols});
}

}  // namespace

HostMatrix inverse(const HostMatrix& m) {
  // Keras's linalg.inv: an LU factorization in float32 (LAPACK here).
  HostMatrix out = HostMatrix::of(ops::linalg::inv(m.to_tensor()));
  for (float v : out.data)
    check(std::isfinite(v), "GPTQ: the damped Hessian is singular; raise hessian_damping or use "
          "more calibration samples.");
  return out;
}

CalibratedMatrix gptq_quantize_matrix(const HostMatrix& weights_transpose,
                                      const HostMatrix& inv_hessian, const GptqSettings& s,
                                      std::vector<float> order_metric) {
  const int64_t out = weights_transpose.rows, in = weights_transpose.cols;
  HostMatrix w = weights_transpose, hinv = inv_hessian;
  std::vector<int64_t> perm;
  if (s.activation_order) {
    if (order_metric.empty())
      for (int64_t i = 0; i < in; ++i) order_metric.push_back(1.0f / (hinv(i, i) + 1e-12f));
    for (float& m : order_metric)
      if (!std::isfinite(m)) m = 0;
    perm = stable_permutation(order_metric);
    HostMatrix wp(out, in), hp(in, in);
    for (int64_t r = 0; r < out; ++r)
      for (int64_t c = 0; c < in; ++c) wp(r, c) = w(r, perm[static_cast<size_t>(c)]);
    for (int64_t r = 0; r < in; ++r)
      for (int64_t c = 0; c < in; ++c)
        hp(r, c) = hinv(perm[static_cast<size_t>(r)], perm[static_cast<size_t>(c)]);
    w = std::move(wp);
    hinv = std::move(hp);
  }
  const int64_t group = s.group_size == -1 ? in : s.group_size;
  auto params_of = [&](const HostMatrix& x) {
    return compute_quantization_parameters(x, s.weight_bits, s.symmetric, s.per_channel,
                                           s.group_size);
  };
  HostMatrix q(out, in);
  std::vector<ZeroPointParams> chunks;
  ZeroPointParams current;
  int64_t cached_group_start = -1;
  // `w` is Keras's weights_buffer: updated only at the end of each block; the columns inside a
  // block are corrected in `block` (so a group that starts mid-block takes its parameters from
  // weights not yet corrected by that block, as in Keras).
  for (int64_t b0 = 0; b0 < in; b0 += s.blocksize) {
    const int64_t b1 = std::min(b0 + s.blocksize, in), bs = b1 - b0;
    HostMatrix block = w.columns(b0, b1), error(out, bs);
    for (int64_t j = 0; j < bs; ++j) {
      const int64_t col = b0 + j;
      const int64_t group_start = group == in ? 0 : (col / group) * group;
      if (group_start != cached_group_start) {
        current = params_of(group == in ? w : w.columns(group_start, std::min(group_start + group, in)));
        chunks.push_back(current);
        cached_group_start = group_start;
      }
      const float d = hinv(col, col);
      for (int64_t r = 0; r < out; ++r) {
        const float scale = current.scale(r, 0), zero = current.zero(r, 0);
        const float level = quantize_with_zero_point(block(r, j), scale, zero, current.maxq);
        q(r, col) = level;
        // Keras divides the column's errors by the (scalar) inverse-Hessian diagonal.
        const float err = xla_divide(block(r, j) - dequantize_with_zero_point(level, scale, zero),
                                     d, out > 1);
        error(r, j) = err;
        for (int64_t k = j + 1; k < bs; ++k) block(r, k) -= err * hinv(col, b0 + k);
      }
    }
    // The rest of the matrix takes the block's errors through the inverse Hessian (Keras's
    // matmul; the backend's here too, so that large layers take BLAS time).
    if (b1 < in) {
      HostMatrix coupling(bs, in - b1);
      for (int64_t k = 0; k < bs; ++k)
        for (int64_t c = b1; c < in; ++c) coupling(k, c - b1) = hinv(b0 + k, c);
      const HostMatrix update =
          HostMatrix::of(ops::matmul(error.to_tensor(), coupling.to_tensor()));
      for (int64_t r = 0; r < out; ++r)
        for (int64_t c = b1; c < in; ++c) w(r, c) -= update(r, c - b1);
    }
  }
  std::vector<float> g_idx(static_cast<size_t>(in));
  for (int64_t i = 0; i < in; ++i)
    g_idx[static_cast<size_t>(i)] =
        xla_divide(static_cast<float>(i), static_cast<float>(group), in > 1);
  if (s.activation_order) {
    // Back to the kernel's own column order: column perm[p] was quantized at position p.
    HostMatrix qo(out, in);
    std::vector<float> go(g_idx.size());
    for (int64_t p = 0; p < in; ++p) {
      const int64_t c = perm[static_cast<size_t>(p)];
      go[static_cast<size_t>(c)] = g_idx[static_cast<size_t>(p)];
      for (int64_t r = 0; r < out; ++r) qo(r, c) = q(r, p);
    }
    q = std::move(qo);
    g_idx = std::move(go);
  }
  HostMatrix scale(out, static_cast<int64_t>(chunks.size())), zero = scale;
  for (size_t g = 0; g < chunks.size(); ++g)
    for (int64_t r = 0; r < out; ++r) {
      scale(r, static_cast<int64_t>(g)) = chunks[g].scale(r, 0);
      zero(r, static_cast<int64_t>(g)) = chunks[g].zero(r, 0);
    }
  return {uint8_tensor(q), scale.to_tensor(), uint8_tensor(zero),
          Tensor::from_vector(g_idx, Shape{in}), Tensor()};
}

void GptqLayerState::update(const Tensor& inputs) {
  // Keras's hook reshapes the layer's input to (-1, rows): an attention output's
  // (batch, seq, heads, head_dim) becomes rows of heads * head_dim.
  check(inputs.ndim() >= 2 && inputs.size() > 0 && inputs.size() % rows_ == 0,
        "GPTQ: expected a non-empty input of rank >= 2 whose size is a multiple of the Hessian "
        "dimension ", rows_, "; got shape ", inputs.shape(), ".");
  const Tensor x = ops::reshape(ops::cast(inputs, DType::Float32), {-1, rows_});
  const int64_t total = num_samples_ + x.shape()[0];
  // Keras: gram = X^T X (the backend's matmul) made symmetric, H = H * n_prev / n + (2 / n) gram.
  const HostMatrix gram = HostMatrix::of(ops::matmul(ops::transpose(x), x));
  const float keep = static_cast<float>(num_samples_) / static_cast<float>(total);
  const float weight = 2.0f / static_cast<float>(total);
  for (int64_t i = 0; i < rows_; ++i)
    for (int64_t j = 0; j < rows_; ++j) {
      const float g = (gram(i, j) + gram(j, i)) / 2.0f;
      float& h = hessian_(i, j);
      if (num_samples_ > 0) h *= keep;
      h += weight * g;
    }
  num_samples_ = total;
}

CalibratedMatrix GptqLayerState::quantize(const Tensor& kernel, const GptqSettings& s) const {
  // Keras's quantize_and_correct_layer: a dead input (zero diagonal) gets 1 there; the diagonal
  // is damped by hessian_damping times its mean.
  HostMatrix h = hessian_;
  std::vector<float> diag(static_cast<size_t>(rows_));
  double sum = 0;
  for (int64_t i = 0; i < rows_; ++i) {
    diag[static_cast<size_t>(i)] = h(i, i) == 0.0f ? 1.0f : h(i, i);
    sum += diag[static_cast<size_t>(i)];
  }
  const float damping =
      static_cast<float>(s.hessian_damping) * static_cast<float>(sum / static_cast<double>(rows_));
  for (int64_t i = 0; i < rows_; ++i) h(i, i) = diag[static_cast<size_t>(i)] + damping;
  std::vector<float> metric(static_cast<size_t>(rows_));
  for (int64_t i = 0; i < rows_; ++i) metric[static_cast<size_t>(i)] = h(i, i);
  return gptq_quantize_matrix(HostMatrix::of(kernel).transposed(), inverse(h), s, metric);
}

}  // namespace keras::quantizers::detail
