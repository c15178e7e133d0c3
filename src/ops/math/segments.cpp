// segment_sum, segment_max, segment_min, segment_prod: one scatter-reduce along axis 0 into
// num_segments + 1 rows, the last one catching the ids out of range (dropped, as in JAX).

#include <limits>

#include "keras/autograd/node.h"
#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace math {

using backend::ScatterReduce;

namespace {

// The identity of a reduction in `dtype`: 0, 1, or the lowest/highest value.
Scalar identity(ScatterReduce reduce, DType dtype) {
  if (reduce == ScatterReduce::Add) return Scalar(0);
  if (reduce == ScatterReduce::Mul) return Scalar(1);
  const bool lowest = reduce == ScatterReduce::Max;
  if (is_floating(dtype))
    return Scalar(lowest ? -std::numeric_limits<double>::infinity()
                         : std::numeric_limits<double>::infinity());
  Scalar out;
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T>)
      out = Scalar(static_cast<int64_t>(lowest ? std::numeric_limits<T>::lowest()
                                               : std::numeric_limits<T>::max()));
  });
  return out;
}

struct Segments {
  Tensor index;  // int64 (N, 1, ..., 1): the segment of each row, num_segments when dropped
  Tensor valid;  // bool, the same shape: the row's id is in range
  int64_t count = 0;
};

Segments prepare_segments(std::string_view op, const Tensor& data, const Tensor& segment_ids,
                          std::optional<int64_t> num_segments) {
  check(data.defined() && segment_ids.defined(), op, ": an input is an undefined tensor.");
  if (segment_ids.ndim() != 1)
    throw ValueError(keras::detail::cat(
        op, ": segment_ids must be a 1-d vector; got shape ", segment_ids.shape(),
        ". Flatten data and ids first, or map the op over the leading axes."));
  if (data.ndim() == 0 || data.shape()[0] != segment_ids.shape()[0])
    throw ValueError(keras::detail::cat(op,
                                        ": segment_ids and data must share their leading "
                                        "extent; got segment_ids.shape=",
                                        segment_ids.shape(), " and data.shape=", data.shape(),
                                        "."));
  if (!is_integer(segment_ids.dtype()))
    throw TypeError(keras::detail::cat(op, ": segment_ids must hold integers; got dtype ",
                                       segment_ids.dtype(), "."));
  detail::common_backend(op, {&data, &segment_ids});
  Segments s;
  if (num_segments) {
    if (*num_segments < 0)
      throw ValueError(
          keras::detail::cat(op, ": num_segments must be non-negative; got ", *num_segments, "."));
    s.count = *num_segments;
  } else if (segment_ids.size() > 0) {
    // The output shape depends on the ids: one host read.
    s.count = std::max<int64_t>(0, max(segment_ids).item<int64_t>() + 1);
  }
  Shape shape(std::vector<int64_t>(data.ndim(), 1));
  shape[0] = segment_ids.size();
  Tensor ids = reshape(detail::cast(segment_ids, DType::Int64), shape);
  s.valid = logical_and(greater_equal(ids, 0), less(ids, s.count));
  s.index = where(s.valid, ids, s.count);
  return s;
}

// g (num_segments, ...) read back at each row's segment; zero for dropped rows.
Tensor at_rows(const Tensor& g, const Segments& s) {
  Shape pad_shape = g.shape();
  pad_shape[0] = 1;
  Tensor padded = concatenate({g, detail::filled(pad_shape, 0, g.dtype(), g.backend())}, 0);
  return detail::gather_along(padded, s.index, 0);
}

Tensor segment_reduce(std::string_view op, ScatterReduce reduce, const Tensor& data,
                      const Segments& s) {
  Shape shape = data.shape();
  shape[0] = s.count + 1;
  Tensor out = detail::filled(shape, identity(reduce, data.dtype()), data.dtype(), data.backend());
  if (data.size() > 0) {
    backend::Array index = detail::broadcast_array(s.index.array(), data.shape());
    data.backend().scatter(out.array(), index, data.array(), 0, reduce);
  }
  Tensor result = detail::slice_axis(stop_gradient(out), 0, 0, s.count);
  if (!autograd::should_record(data)) return result;
  const int64_t n = s.count;
  if (reduce == ScatterReduce::Add) {
    autograd::record(op, {data}, result, [s](const autograd::Context&, const Tensor& g) {
      return TensorList{at_rows(g, s)};
    });
  } else if (reduce == ScatterReduce::Mul) {
    autograd::record(op, {data}, result, [data, s, n](const autograd::Context&, const Tensor& g) {
      // Each row receives the product of the others in its segment, exact with zeros: with no
      // zero it is out / x; with one zero, only the zero receives the product of the rest.
      Tensor is_zero = equal(data, 0);
      Tensor safe = where(is_zero, 1, data);
      Tensor zeros = at_rows(segment_sum(cast(is_zero, data.dtype()), s.index.reshape({-1}), n), s);
      Tensor others = at_rows(segment_prod(safe, s.index.reshape({-1}), n), s);
      Tensor share = where(is_zero, where(equal(zeros, 1), others, 0),
                           where(equal(zeros, 0), divide(others, safe), 0));
      return TensorList{multiply(at_rows(g, s), share)};
    });
  } else {
    autograd::record(
        op, {data}, result, [data, s, n](const autograd::Context& ctx, const Tensor& g) {
          // As max: the gradient goes to the rows holding the extreme, split
          // evenly among ties.
          Tensor hit =
              cast(logical_and(equal(data, at_rows(ctx.output(), s)), s.valid), g.dtype());
          Tensor ties = segment_sum(hit, s.index.reshape({-1}), n);
          return TensorList{multiply(at_rows(divide(g, maximum(ties, 1)), s), hit)};
        });
  }
  return result;
}

}  // namespace

Tensor segment_sum(const Tensor& data, const Tensor& segment_ids,
                   std::optional<int64_t> num_segments, bool) {
  Segments s = prepare_segments("segment_sum", data, segment_ids, num_segments);
  return segment_reduce("segment_sum", ScatterReduce::Add, data, s);
}
Tensor segment_max(const Tensor& data, const Tensor& segment_ids,
                   std::optional<int64_t> num_segments, bool) {
  Segments s = prepare_segments("segment_max", data, segment_ids, num_segments);
  return segment_reduce("segment_max", ScatterReduce::Max, data, s);
}
Tensor segment_min(const Tensor& data, const Tensor& segment_ids,
                   std::optional<int64_t> num_segments, bool) {
  Segments s = prepare_segments("segment_min", data, segment_ids, num_segments);
  return segment_reduce("segment_min", ScatterReduce::Min, data, s);
}
Tensor segment_prod(const Tensor& data, const Tensor& segment_ids,
                    std::optional<int64_t> num_segments, bool) {
  Segments s = prepare_segments("segment_prod", data, segment_ids, num_segments);
  return segment_reduce("segment_prod", ScatterReduce::Mul, data, s);
}

}  // namespace math
}  // namespace keras::ops
