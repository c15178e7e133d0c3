// extract_sequences (a strided view), cdist, logdet.

#include <cmath>

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace math {

Tensor extract_sequences(const Tensor& x, int64_t sequence_length, int64_t sequence_stride) {
  constexpr std::string_view op = "extract_sequences";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(x.ndim() >= 1, op, ": the input must have rank >= 1; got shape ", x.shape(), ".");
  check(sequence_length >= 1 && sequence_stride >= 1, op,
        ": sequence_length and sequence_stride must be >= 1; got ", sequence_length, " and ",
        sequence_stride, ".");
  const int r = x.ndim();
  const int64_t n = x.shape()[r - 1];
  const int64_t count = n >= sequence_length ? 1 + (n - sequence_length) / sequence_stride : 0;
  Shape shape(x.shape().begin(), x.shape().end() - 1);
  shape.push_back(count);
  shape.push_back(sequence_length);
  // Window i, element j reads x[..., i * stride + j]: overlapping windows share memory.
  linalg_detail::StrideMap coef(static_cast<size_t>(r + 1),
                                SmallVector<int64_t, 8>(static_cast<size_t>(r), 0));
  for (int d = 0; d < r - 1; ++d) coef[d][d] = 1;
  coef[r - 1][r - 1] = sequence_stride;
  coef[r][r - 1] = 1;
  return linalg_detail::restride(x, shape, coef);
}

namespace {

// Above this many elements of the (..., M, N, D) difference tensor, Euclidean distances come
// from |x|^2 + |y|^2 - 2 x.y (one matmul, no large temporary), as torch.cdist does.
constexpr int64_t kMatmulDistanceElements = int64_t{1} << 22;

}  // namespace

Tensor cdist(const Tensor& x, const Tensor& y, double p) {
  constexpr std::string_view op = "cdist";
  check(x.defined() && y.defined(), op, ": an input is an undefined tensor.");
  check(x.ndim() >= 2 && y.ndim() >= 2, op, ": inputs must have rank >= 2; got shapes ",
        x.shape(), " and ", y.shape(), ".");
  check(x.shape().back() == y.shape().back(), op,
        ": the last dimensions of the inputs must match; got shapes ", x.shape(), " and ",
        y.shape(), ".");
  check(p >= 0, op, ": p must be >= 0; got ", p, ".");
  auto& be = detail::common_backend(op, {&x, &y});
  Shape batch = detail::broadcast_shapes(op, Shape(x.shape().begin(), x.shape().end() - 2),
                                         Shape(y.shape().begin(), y.shape().end() - 2));
  const DType dtype = float_result_type(detail::promote({&x, &y}));
  Tensor a = detail::prepare(x, dtype, be), b = detail::prepare(y, dtype, be);
  const int64_t m = a.shape()[a.ndim() - 2], n = b.shape()[b.ndim() - 2], d = a.shape().back();
  if (p == 2 && batch.numel() * m * n * d > kMatmulDistanceElements) {
    Tensor a2 = expand_dims(sum(square(a), -1), -1), b2 = expand_dims(sum(square(b), -1), -2);
    Tensor ab = linalg_detail::product(a, linalg_detail::mT(b));
    return sqrt(maximum(subtract(add(a2, b2), multiply(ab, Tensor(2))), Tensor(0)));
  }
  Tensor diff = subtract(expand_dims(a, -2), expand_dims(b, -3));
  if (p == 2) return sqrt(sum(square(diff), -1));
  if (p == 1) return sum(absolute(diff), -1);
  if (p == 0) return sum(cast(not_equal(diff, Tensor(0)), dtype), -1);
  if (std::isinf(p)) {
    if (d == 0)
      return detail::zeros_on(Shape(diff.shape().begin(), diff.shape().end() - 1), dtype,
                                     be);
    return max(absolute(diff), -1);
  }
  return power(sum(power(absolute(diff), Tensor(p)), -1), Tensor(1.0 / p));
}

Tensor logdet(const Tensor& x) { return slogdet(x).second; }

}  // namespace math
}  // namespace keras::ops
