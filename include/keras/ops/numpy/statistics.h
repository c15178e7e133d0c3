#pragma once
// keras.ops (numpy) statistics: average, var, std, median, quantile, percentile (and their
// NaN-skipping forms), corrcoef, histogram, bincount.

#include <optional>
#include <string>
#include <utility>

#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace numpy {

// ---- moments -------------------------------------------------------------------------------
/// Weighted mean: sum(x * weights) / sum(weights). `weights` has x's shape, or is 1-d with
/// x's extent along a single `axis`; undefined means equal weights.
Tensor average(const Tensor& x, const Axes& axis = {}, const Tensor& weights = Tensor());
/// Population variance (ddof 0); float16 computes in float32.
Tensor var(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Population standard deviation, sqrt(var).
Tensor std(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Variance of the non-NaN elements.
Tensor nanvar(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Standard deviation of the non-NaN elements.
Tensor nanstd(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Pearson correlation coefficients of the rows of a 1-d or 2-d x (variables in rows).
Tensor corrcoef(const Tensor& x);

// ---- order statistics ----------------------------------------------------------------------
// `q` is a scalar or a 1-d tensor; a 1-d q adds a leading axis of its length to the result.
// `method` is one of "linear", "lower", "higher", "midpoint", "nearest" (NumPy's names).
// A NaN in a reduced slice gives NaN; the nan* forms skip NaN instead.

/// Median along the axes.
Tensor median(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// Median of the non-NaN elements.
Tensor nanmedian(const Tensor& x, const Axes& axis = {}, bool keepdims = false);
/// The q-th quantiles, q in [0, 1].
Tensor quantile(const Tensor& x, const Tensor& q, const Axes& axis = {},
                const std::string& method = "linear", bool keepdims = false);
/// The q-th quantiles of the non-NaN elements.
Tensor nanquantile(const Tensor& x, const Tensor& q, const Axes& axis = {},
                   const std::string& method = "linear", bool keepdims = false);
/// The q-th percentiles, q in [0, 100].
Tensor percentile(const Tensor& x, const Tensor& q, const Axes& axis = {},
                  const std::string& method = "linear", bool keepdims = false);
/// The q-th percentiles of the non-NaN elements.
Tensor nanpercentile(const Tensor& x, const Tensor& q, const Axes& axis = {},
                     const std::string& method = "linear", bool keepdims = false);

// ---- counting ------------------------------------------------------------------------------
/// Counts of each value 0..max(x) of a 1-d tensor of non-negative integers (or each row of a
/// 2-d one), at least `minlength` long; sums `weights` (x's shape) instead of ones when given.
Tensor bincount(const Tensor& x, const Tensor& weights = Tensor(), int64_t minlength = 0);
/// Histogram of a 1-d tensor over `bins` equal bins spanning `range` (default: [min, max]).
/// Returns (counts, bin_edges), both of x's dtype (bin_edges float for integer x).
std::pair<Tensor, Tensor> histogram(const Tensor& x, int64_t bins = 10,
                                    std::optional<std::pair<double, double>> range = std::nullopt);

}  // namespace numpy
}  // namespace keras::ops

#pragma GCC visibility pop
