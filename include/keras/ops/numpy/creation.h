#pragma once
// keras.ops (numpy) array creation: filled tensors, ranges, matrices, grids and window
// functions. `dtype` defaults to floatx() for float-valued creators, as in Keras.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "keras/core/scalar.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace numpy {

// ---- filled tensors -------------------------------------------------------------------------

/// A tensor of zeros (dtype defaults to floatx()).
Tensor zeros(const Shape& shape, std::optional<DType> dtype = std::nullopt);
/// A tensor of ones (dtype defaults to floatx()).
Tensor ones(const Shape& shape, std::optional<DType> dtype = std::nullopt);
/// A tensor filled with `fill_value` (dtype defaults to floatx(), as in Keras).
Tensor full(const Shape& shape, const Scalar& fill_value,
            std::optional<DType> dtype = std::nullopt);
/// zeros with x's shape (and dtype, unless given).
Tensor zeros_like(const Tensor& x, std::optional<DType> dtype = std::nullopt);
/// ones with x's shape (and dtype, unless given).
Tensor ones_like(const Tensor& x, std::optional<DType> dtype = std::nullopt);
/// `fill_value` with x's shape (and dtype, unless given).
Tensor full_like(const Tensor& x, const Scalar& fill_value,
                 std::optional<DType> dtype = std::nullopt);
/// An uninitialized tensor (dtype defaults to floatx()).
Tensor empty(const Shape& shape, std::optional<DType> dtype = std::nullopt);
/// An uninitialized tensor with x's shape (and dtype, unless given).
Tensor empty_like(const Tensor& x, std::optional<DType> dtype = std::nullopt);
/// A new tensor holding a copy of x's values, cast to `dtype` when given.
Tensor array(const Tensor& x, std::optional<DType> dtype = std::nullopt);
/// A new tensor holding a copy of x's values.
Tensor copy(const Tensor& x);

// ---- ranges ---------------------------------------------------------------------------------

/// Values start, start + step, ... below stop (int32 for integer arguments, else floatx()).
Tensor arange(const Scalar& start, std::optional<Scalar> stop = std::nullopt,
              const Scalar& step = 1, std::optional<DType> dtype = std::nullopt);

/// The keyword arguments of linspace and geomspace.
struct LinspaceOptions {
  /// Whether `stop` is the last sample; false excludes it, spacing the samples by
  /// (stop - start) / num.
  bool endpoint = true;              // include `stop` as the last sample
  /// The result's dtype; unset means result_type(start, stop, float).
  std::optional<DType> dtype;        // default: result_type(start, stop, float)
  /// The axis of the result that holds the samples when start and stop are not scalars.
  int axis = 0;                      // where the samples go when start/stop are tensors
};
/// `num` evenly spaced samples from start to stop (start and stop broadcast together).
Tensor linspace(const Tensor& start, const Tensor& stop, int64_t num = 50,
                const LinspaceOptions& options = {});
/// The keyword arguments of logspace.
struct LogspaceOptions {
  /// Whether `base ** stop` is the last sample.
  bool endpoint = true;
  /// The base of the log space (Keras's default 10).
  double base = 10.0;
  /// The result's dtype; unset means result_type(start, stop, float).
  std::optional<DType> dtype;
  /// The axis of the result that holds the samples when start and stop are not scalars.
  int axis = 0;
};
/// base ** linspace(start, stop, num).
Tensor logspace(const Tensor& start, const Tensor& stop, int64_t num = 50,
                const LogspaceOptions& options = {});
/// `num` samples from start to stop spaced evenly on a log scale (a geometric progression);
/// start and stop must be nonzero and of one sign.
Tensor geomspace(const Tensor& start, const Tensor& stop, int64_t num = 50,
                 const LinspaceOptions& options = {});

// ---- matrices -------------------------------------------------------------------------------

/// An N x M matrix with ones on the k-th diagonal (M defaults to N).
Tensor eye(int64_t N, std::optional<int64_t> M = std::nullopt, int64_t k = 0,
           std::optional<DType> dtype = std::nullopt);
/// The n x n identity matrix.
Tensor identity(int64_t n, std::optional<DType> dtype = std::nullopt);
/// An N x M matrix with ones at and below the k-th diagonal.
Tensor tri(int64_t N, std::optional<int64_t> M = std::nullopt, int64_t k = 0,
           std::optional<DType> dtype = std::nullopt);
/// `x` with the elements above the k-th diagonal of its last two axes zeroed.
Tensor tril(const Tensor& x, int64_t k = 0);
/// `x` with the elements below the k-th diagonal of its last two axes zeroed.
Tensor triu(const Tensor& x, int64_t k = 0);
/// For 1-d x, a square matrix with x on the k-th diagonal; for 2-d x, its k-th diagonal.
Tensor diag(const Tensor& x, int64_t k = 0);
/// A square matrix with the flattened x on the k-th diagonal.
Tensor diagflat(const Tensor& x, int64_t k = 0);
/// The Vandermonde matrix of 1-d x: columns x^(N-1), ..., x^0 (or increasing powers).
Tensor vander(const Tensor& x, std::optional<int64_t> N = std::nullopt, bool increasing = false);
/// Coordinate tensors over the grid of the 1-d inputs; "xy" (Cartesian) swaps the first two
/// output axes relative to "ij" (matrix) indexing. The results are broadcast views.
TensorList meshgrid(const std::vector<Tensor>& xs, std::string_view indexing = "xy");

// ---- window functions (floatx()) ------------------------------------------------------------

/// The Bartlett (triangular) window of M points.
Tensor bartlett(int64_t M);
/// The Blackman window of M points.
Tensor blackman(int64_t M);
/// The Hamming window of M points.
Tensor hamming(int64_t M);
/// The Hann window of M points.
Tensor hanning(int64_t M);
/// The Kaiser window of M points with shape parameter beta.
Tensor kaiser(int64_t M, double beta);

}  // namespace numpy
}  // namespace keras::ops

#pragma GCC visibility pop
