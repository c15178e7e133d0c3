// one_hot and multi_hot: one broadcast comparison of the labels with 0..num_classes-1, so
// labels out of range give all-zero vectors (as jax.nn.one_hot) and nothing is indexed.

#include "keras/core/config.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace nn {

using backend::ReduceOp;

namespace {

void check_encoding_args(std::string_view op, const Tensor& x, int64_t num_classes, bool sparse) {
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(num_classes >= 0, op, ": num_classes must be >= 0; got ", num_classes, ".");
  check<NotImplementedError>(!sparse, op,
                             ": sparse=true is not supported (keras-cpp has no sparse tensors); "
                             "use the dense result.");
}

// x[..., None, ...] == arange(num_classes) with the new axis at `axis` of the output: bool.
Tensor one_hot_mask(std::string_view op, const Tensor& x, int64_t num_classes, int axis) {
  auto& be = x.backend();
  const int out_rank = x.ndim() + 1;
  const int a = detail::normalize_axis(op, axis, out_rank);
  Tensor classes = detail::empty(Shape{num_classes}, DType::Int32, be);
  if (num_classes > 0) be.arange(classes.array(), 0, 1);
  Shape classes_shape;
  for (int d = 0; d < out_rank; ++d) classes_shape.push_back(d == a ? num_classes : 1);
  return equal(expand_dims(x, a), reshape(classes, classes_shape));
}

}  // namespace

Tensor one_hot(const Tensor& x, int64_t num_classes, int axis, std::optional<DType> dtype,
               bool sparse) {
  constexpr std::string_view op = "one_hot";
  check_encoding_args(op, x, num_classes, sparse);
  return detail::cast(one_hot_mask(op, x, num_classes, axis), dtype.value_or(config::floatx()));
}

Tensor multi_hot(const Tensor& x, int64_t num_classes, int axis, std::optional<DType> dtype,
                 bool sparse) {
  constexpr std::string_view op = "multi_hot";
  check_encoding_args(op, x, num_classes, sparse);
  Tensor hot = one_hot_mask(op, detail::cast(x, DType::Int32), num_classes, axis);
  // Keras reduces axis 1 of the one-hot tensor (axis 0 for inputs of rank <= 1), whatever
  // `axis` is.
  const int reduce_axis = x.ndim() > 1 ? 1 : 0;
  check(hot.shape()[reduce_axis] > 0, op,
        ": cannot take the maximum over an empty axis: "
        "x.shape=",
        x.shape(), " gives a one-hot tensor of shape ", hot.shape(), " reduced over axis ",
        reduce_axis, ".");
  const uint64_t mask = uint64_t{1} << reduce_axis;
  Tensor any = detail::run_reduce(ReduceOp::Any, hot, mask);
  any = reshape(any, detail::reduced_shape(hot.shape(), mask, false));
  return detail::cast(any, dtype.value_or(config::floatx()));
}

}  // namespace nn
}  // namespace keras::ops
