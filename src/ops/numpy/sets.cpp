// unique: a host op (its output length depends on the values). x is copied to the host once,
// as rows (one element each, or one slice along `axis`), sorted stably and grouped.

#include <algorithm>
#include <cmath>
#include <numeric>

#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

namespace {

// Host values exactly: every float dtype fits in double, every integer and bool in int64.
template <typename T>
struct Rows {
  std::vector<T> data;
  int64_t count = 0, width = 1;
  const T* row(int64_t i) const { return data.data() + i * width; }
};

template <typename T>
bool less_nan_last(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

struct Groups {
  std::vector<int64_t> first;    // the first occurrence of each unique row
  std::vector<int32_t> inverse;  // the group of each row
  std::vector<int32_t> counts;
};

template <typename T>
Groups group_rows(const Rows<T>& rows) {
  std::vector<int64_t> order(static_cast<size_t>(rows.count));
  std::iota(order.begin(), order.end(), int64_t{0});
  auto lexicographic_less = [&](int64_t a, int64_t b) {
    const T *ra = rows.row(a), *rb = rows.row(b);
    for (int64_t k = 0; k < rows.width; ++k) {
      if (less_nan_last(ra[k], rb[k])) return true;
      if (less_nan_last(rb[k], ra[k])) return false;
    }
    return false;
  };
  // NaN never equals NaN, so every row holding one is unique (Keras passes equal_nan=False).
  auto same = [&](int64_t a, int64_t b) {
    const T *ra = rows.row(a), *rb = rows.row(b);
    for (int64_t k = 0; k < rows.width; ++k)
      if (!(ra[k] == rb[k])) return false;
    return true;
  };
  std::stable_sort(order.begin(), order.end(), lexicographic_less);
  Groups g;
  g.inverse.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || !same(order[i - 1], order[i])) {
      g.first.push_back(order[i]);  // stable: the smallest index of its group
      g.counts.push_back(0);
    }
    g.inverse[order[i]] = static_cast<int32_t>(g.first.size() - 1);
    ++g.counts.back();
  }
  return g;
}

template <typename T>
UniqueResult unique_typed(const Tensor& rows_tensor, const Tensor& x, std::optional<int> axis,
                          const UniqueOptions& o) {
  Rows<T> rows;
  rows.count = rows_tensor.shape()[0];
  rows.width = rows_tensor.shape()[1];
  rows.data = rows_tensor.to_vector<T>();
  Groups g = group_rows(rows);
  const int64_t found = static_cast<int64_t>(g.first.size());
  const int64_t k = o.size.value_or(found);
  const std::string backend(x.backend_name());

  std::vector<T> values(static_cast<size_t>(k * rows.width), o.fill_value.to<T>());
  std::vector<int32_t> index(static_cast<size_t>(k), 0), counts(static_cast<size_t>(k), 0);
  for (int64_t u = 0; u < std::min(k, found); ++u) {
    std::copy_n(rows.row(g.first[u]), rows.width, values.begin() + u * rows.width);
    index[u] = static_cast<int32_t>(g.first[u]);
    counts[u] = g.counts[u];
  }
  UniqueResult r;
  // Rows were taken with `axis` first; put it back where it was.
  Shape moved = x.shape();
  if (axis) {
    moved.erase(static_cast<size_t>(*axis));
    moved.insert(0, k);
  } else {
    moved = Shape{k};
  }
  r.values = cast(Tensor::from_vector(values, moved, backend), x.dtype());
  if (axis && *axis != 0) {
    std::vector<int> perm;
    for (int d = 1; d <= *axis; ++d) perm.push_back(d);
    perm.push_back(0);
    for (int d = *axis + 1; d < x.ndim(); ++d) perm.push_back(d);
    r.values = transpose(r.values, perm);
  }
  if (o.return_index) r.index = Tensor::from_vector(index, Shape{k}, backend);
  if (o.return_inverse)
    r.inverse = Tensor::from_vector(g.inverse, axis ? Shape{rows.count} : x.shape(), backend);
  if (o.return_counts) r.counts = Tensor::from_vector(counts, Shape{k}, backend);
  return r;
}

// unique of complex x: the unique rows of its real view, whose order (real part, then
// imaginary part, slice by slice) is NumPy's lexicographic order of complex numbers.
UniqueResult complex_unique(const Tensor& x, const UniqueOptions& options) {
  UniqueOptions pairs = options;
  const int axis = options.axis ? detail::normalize_axis("unique", *options.axis, x.ndim()) : 0;
  pairs.axis = axis;
  const Tensor rows = view_as_real(options.axis ? x : reshape(x, {-1}));
  UniqueResult r = unique(rows, pairs);
  r.values = view_as_complex(r.values);
  if (r.inverse.defined() && !options.axis) r.inverse = reshape(r.inverse, x.shape());
  if (options.size) {
    // Padding rows hold fill_value + 0j: the real path filled both parts.
    UniqueOptions unpadded = pairs;
    unpadded.size.reset();
    const int64_t k = unique(rows, unpadded).values.shape()[axis];
    Shape at = detail::ones_shape(r.values.ndim());
    at[axis] = r.values.shape()[axis];
    Tensor padding = reshape(greater_equal(arange(at[axis]), k), at);
    r.values = where(padding, cast(real(r.values), r.values.dtype()), r.values);
  }
  return r;
}

}  // namespace

UniqueResult unique(const Tensor& x, const UniqueOptions& options) {
  constexpr std::string_view op = "unique";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (is_complex(x.dtype())) return complex_unique(x, options);
  if (options.size && *options.size < 0)
    throw ValueError(
        keras::detail::cat(op, ": size must be non-negative; got ", *options.size, "."));
  std::optional<int> axis = detail::resolve_axis(op, options.axis, x.ndim());
  Tensor rows;
  if (axis) {
    // Row i is x's slice i along axis, in row-major order of the other axes.
    std::vector<int> perm{*axis};
    int64_t width = 1;
    for (int d = 0; d < x.ndim(); ++d)
      if (d != *axis) {
        perm.push_back(d);
        width *= x.shape()[d];
      }
    rows = reshape(transpose(x, perm), Shape{x.shape()[*axis], width});
  } else {
    rows = reshape(x, Shape{x.size(), 1});
  }
  return is_floating(x.dtype()) ? unique_typed<double>(rows, x, axis, options)
                                : unique_typed<int64_t>(rows, x, axis, options);
}

}  // namespace numpy
}  // namespace keras::ops
