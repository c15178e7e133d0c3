// The gather/scatter machinery every indexing op shares: index normalization (checked once on
// the host), gather along an axis and its adjoint, scatter-add along an axis.

#include <sstream>

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops::detail {

std::string list_string(const std::vector<int64_t>& values) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << values[i];
  out << ']';
  return out.str();
}

std::vector<AxisIndex> full_spec(const Shape& shape) {
  std::vector<AxisIndex> spec(shape.size());
  for (int d = 0; d < shape.rank(); ++d) spec[d].length = shape[d];
  return spec;
}

Shape ones_shape(int rank) {
  Shape s;
  s.resize(static_cast<size_t>(rank), 1);
  return s;
}

Tensor index_tensor(const std::vector<int64_t>& values, const Tensor& like) {
  return Tensor::from_vector(values, Shape{static_cast<int64_t>(values.size())},
                             like.backend_name());
}

Tensor normalize_indices(std::string_view op, const Tensor& indices, int64_t n, int axis) {
  check(indices.defined(), op, ": the indices are an undefined tensor.");
  const DType t = indices.dtype();
  check<IndexError>(is_integer(t), op, ": indices must be integers; got dtype ", t,
                    " (shape ", indices.shape(), ").");
  Tensor idx = indices.is_weak() ? scalar_tensor(indices.impl()->weak_value, DType::Int32,
                                                 indices.backend())
               : (t == DType::Int32 || t == DType::Int64) ? indices
                                                           : run_copy(indices, DType::Int32);
  if (idx.size() == 0) return idx;
  const uint64_t all = idx.ndim() == 0 ? 0 : axes_mask(op, {}, idx.ndim());
  const int64_t lo = static_cast<int64_t>(host_scalar(run_reduce(backend::ReduceOp::Min, idx, all)));
  const int64_t hi = static_cast<int64_t>(host_scalar(run_reduce(backend::ReduceOp::Max, idx, all)));
  if (lo < -n || hi >= n)
    throw IndexError(keras::detail::cat(op, ": index ", lo < -n ? lo : hi,
                                        " is out of bounds for axis ", axis, " with size ", n,
                                        " (indices of shape ", indices.shape(), " range over [",
                                        lo, ", ", hi, "]; valid: ", -n, " to ", n - 1, ")."));
  if (lo >= 0) return idx;
  // Negative entries count from the end.
  Tensor neg = run_binary(backend::BinaryOp::Less, idx, scalar_tensor(0, idx.dtype(), idx.backend()));
  Tensor wrapped = run_binary(backend::BinaryOp::Add, idx, scalar_tensor(n, idx.dtype(), idx.backend()));
  Tensor out = empty(idx.shape(), idx.dtype(), idx.backend());
  idx.backend().where(out.array(), neg.array(), wrapped.array(), idx.array());
  return out;
}

namespace {

// `index` broadcast (by strides) to `shape`, as a view.
Tensor broadcast_index(const Tensor& index, const Shape& shape) {
  if (index.shape() == shape) return index;
  Array a = broadcast_array(index.array(), shape);
  return make_view(index, shape, a.strides, index.offset());
}

}  // namespace

Tensor gather_along(const Tensor& x, const Tensor& index, int axis) {
  // Complex elements: their pairs gathered together, the index repeated over the pair axis.
  if (is_complex(x.dtype()))
    return view_as_complex(gather_along(view_as_real(x), expand_dims(index, -1), axis));
  Shape out_shape = x.shape();
  out_shape[axis] = index.shape()[axis];
  Tensor idx = broadcast_index(index, out_shape);
  Tensor out = empty(out_shape, x.dtype(), x.backend());
  if (out.size() > 0) x.backend().gather(out.array(), x.array(), idx.array(), axis);
  if (autograd::should_record(x)) {
    Shape xs = x.shape();
    autograd::record("gather", {x}, out, [idx, axis, xs](const autograd::Context&, const Tensor& g) {
      return TensorList{scatter_add_along(g, idx, axis, xs)};
    });
  }
  return out;
}

Tensor scatter_add_along(const Tensor& src, const Tensor& index, int axis, const Shape& shape) {
  if (is_complex(src.dtype())) {
    Shape pairs_shape = shape;
    pairs_shape.push_back(2);
    return view_as_complex(
        scatter_add_along(view_as_real(src), expand_dims(index, -1), axis, pairs_shape));
  }
  Tensor out = zeros_on(shape, src.dtype(), src.backend());
  Tensor idx = broadcast_index(index, src.shape());
  if (src.size() > 0)
    src.backend().scatter(out.array(), idx.array(), src.array(), axis, backend::ScatterReduce::Add);
  if (autograd::should_record(src)) {
    autograd::record("scatter_add", {src}, out, [idx, axis](const autograd::Context&, const Tensor& g) {
      return TensorList{gather_along(g, idx, axis)};
    });
  }
  return out;
}

Tensor index_select(const Tensor& x, const Tensor& index, int axis) {
  // The index read through a broadcast view with x's layout (the cpu kernel takes a row-copy
  // fast path when the index is constant across every other axis).
  Shape lifted = ones_shape(x.ndim());
  lifted[axis] = index.size();
  Shape out_shape = x.shape();
  out_shape[axis] = index.size();
  Tensor idx = ops::broadcast_to(ops::reshape(index, lifted), out_shape);
  return gather_along(x, idx, axis);
}

}  // namespace keras::ops::detail
