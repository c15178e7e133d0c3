// max_pool and average_pool: argument checks and Keras's padding, then the pool_nd op.

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/pool_ops.h"
#include "ops/nn/spatial_args.h"

namespace keras::ops {
inline namespace nn {

namespace {

Tensor pool(std::string_view op, backend::PoolKind kind, const Tensor& inputs,
            const IntOrTuple& pool_size, const PoolOptions& options) {
  check(inputs.defined(), op, ": the input is an undefined tensor.");
  check(inputs.ndim() >= 3 && inputs.ndim() <= 5, op,
        ": inputs must have rank 3, 4 or 5 (batch, 1 to 3 spatial dimensions, channels); got "
        "shape ",
        inputs.shape(), ".");
  const int d = inputs.ndim() - 2;
  const bool cl = detail::parse_data_format(op, options.data_format);
  const bool same = detail::parse_padding(op, options.padding);
  backend::PoolSpec spec;
  spec.kind = kind;
  spec.spatial_dims = d;
  spec.channels_last = cl;
  detail::Spatial window = detail::spatial_values(op, "pool_size", pool_size, d, 1);
  detail::Spatial strides =
      options.strides ? detail::spatial_values(op, "strides", *options.strides, d, 1) : window;
  detail::Spatial in = detail::spatial_of(inputs.shape(), cl);
  for (int i = 0; i < d; ++i) {
    check(same || in[i] >= window[i], op,
          ": computed output size would be zero or negative: "
          "inputs of shape ",
          inputs.shape(), ", pool_size ", detail::tuple_string(window), ", strides ",
          detail::tuple_string(strides), ", padding 'valid'.");
    auto [before, after] = same ? detail::same_padding(in[i], window[i], strides[i])
                                : std::pair<int64_t, int64_t>{0, 0};
    spec.window.push_back(window[i]);
    spec.strides.push_back(strides[i]);
    spec.pad_before.push_back(before);
    spec.pad_after.push_back(after);
  }
  DType t = inputs.dtype();
  check<TypeError>(t != DType::Bool, op, ": expects a numeric tensor; got dtype bool.");
  // The average of integers is a float (floatx), as ops::mean gives.
  if (kind == backend::PoolKind::Average) t = float_result_type(t);
  return detail::pool_nd(detail::cast(inputs, t), spec);
}

}  // namespace

Tensor max_pool(const Tensor& inputs, const IntOrTuple& pool_size, const PoolOptions& options) {
  return pool("max_pool", backend::PoolKind::Max, inputs, pool_size, options);
}

Tensor average_pool(const Tensor& inputs, const IntOrTuple& pool_size, const PoolOptions& options) {
  return pool("average_pool", backend::PoolKind::Average, inputs, pool_size, options);
}

}  // namespace nn
}  // namespace keras::ops
