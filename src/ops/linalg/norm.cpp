// norm: numpy.linalg.norm's vector and matrix norms, written with differentiable ops (the
// spectral and nuclear norms through the singular values).

#include <algorithm>
#include <cmath>
#include <sstream>

#include "keras/ops/ops.h"
#include "ops/linalg/common.h"

namespace keras::ops {
inline namespace linalg {

using namespace linalg_detail;

NormOrd::NormOrd(std::string_view name) {
  if (name == "fro") {
    kind_ = Kind::Fro;
  } else if (name == "nuc") {
    kind_ = Kind::Nuc;
  } else {
    throw ValueError(keras::detail::cat("norm: invalid ord '", name,
                                        "'; expected 'fro', 'nuc' or a number."));
  }
}

std::string NormOrd::to_string() const {
  switch (kind_) {
    case Kind::None: return "None";
    case Kind::Fro: return "'fro'";
    case Kind::Nuc: return "'nuc'";
    case Kind::Number: break;
  }
  if (std::isinf(p_)) return p_ > 0 ? "inf" : "-inf";
  std::ostringstream out;
  out << p_;
  return out.str();
}

namespace {

constexpr std::string_view kOp = "norm";

Tensor vector_norm(const Tensor& x, const NormOrd& ord, int axis, bool keepdims) {
  const Axes ax(axis);
  check(ord.kind() == NormOrd::Kind::None || ord.kind() == NormOrd::Kind::Number, kOp,
        ": ord=", ord.to_string(), " is not a vector norm (input shape ", x.shape(),
        ", axis ", axis, ").");
  const double p = ord.kind() == NormOrd::Kind::None ? 2.0 : ord.p();
  if (p == 2) return sqrt(sum(square(x), ax, keepdims));
  if (std::isinf(p)) return p > 0 ? max(absolute(x), ax, keepdims) : min(absolute(x), ax, keepdims);
  if (p == 0) return sum(cast(not_equal(x, Tensor(0)), x.dtype()), ax, keepdims);
  if (p == 1) return sum(absolute(x), ax, keepdims);
  return power(sum(power(absolute(x), Tensor(p)), ax, keepdims), Tensor(1.0 / p));
}

// The singular values of the matrices in axes (row, col), with the other axes in order.
Tensor singular_values(const Tensor& x, int row, int col) {
  std::vector<int> perm;
  for (int d = 0; d < x.ndim(); ++d)
    if (d != row && d != col) perm.push_back(d);
  perm.push_back(row);
  perm.push_back(col);
  return std::get<1>(svd(transpose(x, perm), false, false));
}

Tensor matrix_norm(const Tensor& x, const NormOrd& ord, int row, int col, bool keepdims) {
  const Axes both({row, col});
  switch (ord.kind()) {
    case NormOrd::Kind::None:
    case NormOrd::Kind::Fro:
      return sqrt(sum(square(x), both, keepdims));
    case NormOrd::Kind::Nuc:
    case NormOrd::Kind::Number:
      break;
  }
  const double p = ord.p();
  const bool spectral = ord.kind() == NormOrd::Kind::Nuc || p == 2 || p == -2;
  if (spectral) {
    Tensor s = singular_values(x, row, col);
    Tensor out = ord.kind() == NormOrd::Kind::Nuc ? sum(s, -1)
                 : p > 0                          ? max(s, -1)
                                                  : min(s, -1);
    if (keepdims) out = expand_dims(expand_dims(out, std::min(row, col)), std::max(row, col));
    return out;
  }
  check(p == 1 || p == -1 || std::isinf(p), kOp, ": ord=", ord.to_string(),
        " is not a matrix norm (input shape ", x.shape(), ", axis (", row, ", ", col,
        ")); expected None, 'fro', 'nuc', inf, -inf, 1, -1, 2 or -2.");
  // 1 / -1: the largest / smallest column sum; inf / -inf: the same over rows.
  const int summed = std::isinf(p) ? col : row, extreme = std::isinf(p) ? row : col;
  Tensor sums = sum(absolute(x), Axes(summed), true);
  Tensor out = p > 0 ? max(sums, Axes(extreme), true) : min(sums, Axes(extreme), true);
  return keepdims ? out : squeeze(out, both);
}

}  // namespace

Tensor norm(const Tensor& x, const NormOrd& ord, const Axes& axis, bool keepdims) {
  check(x.defined(), kOp, ": the input is an undefined tensor.");
  if (is_complex(x.dtype())) {
    // Every norm but the singular-value ones (matrix 2, -2, nuc) is a norm of the moduli.
    const bool matrix = axis.is_none() ? ord.kind() != NormOrd::Kind::None && x.ndim() == 2
                                       : axis.list().size() == 2;
    const bool singular = ord.kind() == NormOrd::Kind::Nuc ||
                          (ord.kind() == NormOrd::Kind::Number && std::abs(ord.p()) == 2);
    // The singular-value norms go on below with x itself (svd takes complex matrices).
    if (!(matrix && singular)) return norm(abs(x), ord, axis, keepdims);
  }
  Tensor xf = detail::cast(x, float_dtype(x));
  std::vector<int> axes;
  if (axis.is_none()) {
    if (ord.kind() == NormOrd::Kind::None) {
      // The 2-norm of all the elements, whatever the rank.
      Tensor out = sqrt(sum(square(xf)));
      return keepdims ? reshape(out, Shape(std::vector<int64_t>(static_cast<size_t>(x.ndim()), 1)))
                      : out;
    }
    check(x.ndim() == 1 || x.ndim() == 2, kOp, ": ord=", ord.to_string(),
          " with axis=None needs a 1-d or 2-d input; got shape ", x.shape(), ".");
    for (int d = 0; d < x.ndim(); ++d) axes.push_back(d);
  } else {
    for (int a : axis.list()) axes.push_back(detail::normalize_axis(kOp, a, x.ndim()));
  }
  check(axes.size() == 1 || axes.size() == 2, kOp,
        ": axis must name one axis (a vector norm) or two (a matrix norm); got ", axes.size(),
        " for input shape ", x.shape(), ".");
  if (axes.size() == 1) return vector_norm(xf, ord, axes[0], keepdims);
  check(axes[0] != axes[1], kOp, ": the two axes of a matrix norm must differ; got (", axes[0],
        ", ", axes[1], ") for input shape ", x.shape(), ".");
  return matrix_norm(xf, ord, axes[0], axes[1], keepdims);
}

}  // namespace linalg
}  // namespace keras::ops
