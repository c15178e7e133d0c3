#pragma once
// keras.ops (numpy) products: matmul and friends, and slogdet.

#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace numpy {

/// Matrix product with NumPy's rules: 1-d operands are promoted to matrices and the added
/// axis removed afterwards; leading axes broadcast. int8 x int8 gives int32, as in Keras.
Tensor matmul(const Tensor& x1, const Tensor& x2);

/// Dot product: x1 * x2 for a 0-d operand, the sum product over the last axis of x1 and the
/// only axis (1-d) or second-to-last axis of x2 otherwise, as numpy.dot.
Tensor dot(const Tensor& x1, const Tensor& x2);

/// The `axes` argument of tensordot: an integer N (the last N axes of x1 against the first N
/// of x2) or two lists of axes of equal length.
class TensordotAxes {
 public:
  /// The last `n` axes of x1 against the first `n` of x2.
  TensordotAxes(int n) : n_(n) {}  // NOLINT: tensordot(a, b, 1)
  /// x1's axes `x1_axes` against x2's `x2_axes`, pairwise (equal lengths).
  TensordotAxes(std::vector<int> x1_axes, std::vector<int> x2_axes)
      : x1_(std::move(x1_axes)), x2_(std::move(x2_axes)), lists_(true) {}
  /// Whether this is the integer form.
  bool is_int() const { return !lists_; }
  /// The integer form's number of axes (0 for the list form).
  int n() const { return n_; }
  /// x1's contracted axes in the list form (empty for the integer form).
  const std::vector<int>& x1_axes() const { return x1_; }
  /// x2's contracted axes in the list form (empty for the integer form).
  const std::vector<int>& x2_axes() const { return x2_; }

 private:
  int n_ = 0;
  std::vector<int> x1_, x2_;
  bool lists_ = false;
};

/// Sum product over the given axes: tensordot(a, b, 2), tensordot(a, b, {{1, 0}, {0, 1}}).
Tensor tensordot(const Tensor& x1, const Tensor& x2, const TensordotAxes& axes = 2);

/// Einstein summation: explicit ("ij,jk->ik") or implicit ("ij,jk") output, "..." for
/// broadcast axes, repeated labels for diagonals and traces. All-int8 operands give int32.
Tensor einsum(std::string_view subscripts, const std::vector<Tensor>& operands);
/// einsum with the operands as arguments: einsum("ij,jk->ik", a, b).
template <typename... Ts>
  requires(std::is_convertible_v<Ts, Tensor> && ...)
Tensor einsum(std::string_view subscripts, const Tensor& x, const Ts&... rest) {
  return einsum(subscripts, std::vector<Tensor>{x, Tensor(rest)...});
}

/// Outer product of the flattened inputs: out[i, j] = x1[i] * x2[j].
Tensor outer(const Tensor& x1, const Tensor& x2);

/// Sum product over the last axes (x1 * x2 when one is 0-d); shape x1[:-1] + x2[:-1].
Tensor inner(const Tensor& x1, const Tensor& x2);

/// Kronecker product; the input of lower rank gets leading axes of extent 1.
Tensor kron(const Tensor& x1, const Tensor& x2);

/// Dot product of the flattened inputs.
Tensor vdot(const Tensor& x1, const Tensor& x2);

/// Cross product of 2- or 3-vectors along axisa of x1 and axisb of x2, written along axisc
/// (`axis`, when given, sets all three). Two 2-vectors give the z component only.
Tensor cross(const Tensor& x1, const Tensor& x2, int axisa = -1, int axisb = -1, int axisc = -1,
             std::optional<int> axis = std::nullopt);

/// Cross-correlation of two 1-d tensors, as numpy.correlate; mode "valid", "same" or "full".
/// Integers compute in float32 (int64 in float64), as Keras.
Tensor correlate(const Tensor& x1, const Tensor& x2, std::string_view mode = "valid");

/// (sign, log|det|) of square matrices (..., M, M); sign and log|det| have shape (...).
std::pair<Tensor, Tensor> slogdet(const Tensor& x);

}  // namespace numpy
}  // namespace keras::ops

#pragma GCC visibility pop
