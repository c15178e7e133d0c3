// adaptive_average_pool and adaptive_max_pool. Output position j of an axis of extent L pools
// [floor(j L / n), ceil((j + 1) L / n)), as PyTorch and Keras's JAX backend do. Those windows
// have two sizes, `small` = ceil(L / n) and small + 1, so each axis is two stride-1 pools and a
// gather (the JAX backend's method); an axis that n divides is a plain pool.

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/nn/pool_ops.h"
#include "ops/nn/spatial_args.h"
#include "ops/nn/windows.h"

namespace keras::ops {
inline namespace nn {

namespace {

backend::PoolSpec axis_pool(backend::PoolKind kind, int d, bool channels_last, int axis,
                            int64_t window, int64_t stride) {
  backend::PoolSpec s;
  s.kind = kind;
  s.spatial_dims = d;
  s.channels_last = channels_last;
  for (int i = 0; i < d; ++i) {
    s.window.push_back(i == axis ? window : 1);
    s.strides.push_back(i == axis ? stride : 1);
    s.pad_before.push_back(0);
    s.pad_after.push_back(0);
  }
  return s;
}

Tensor adaptive(std::string_view op, backend::PoolKind kind, const Tensor& inputs,
                const IntOrTuple& output_size, const std::optional<std::string>& data_format) {
  check(inputs.defined(), op, ": the input is an undefined tensor.");
  check(inputs.ndim() >= 3 && inputs.ndim() <= 5, op,
        ": inputs must have rank 3, 4 or 5 (batch, 1 to 3 spatial dimensions, channels); got "
        "shape ",
        inputs.shape(), ".");
  const int d = inputs.ndim() - 2;
  const bool cl = detail::parse_data_format(op, data_format);
  detail::Spatial sizes = detail::spatial_values(op, "output_size", output_size, d, 1);
  detail::Spatial in = detail::spatial_of(inputs.shape(), cl);
  for (int i = 0; i < d; ++i)
    check(in[i] > 0, op, ": the spatial dimensions of the inputs must be non-empty; got shape ",
          inputs.shape(), ".");
  DType t = inputs.dtype();
  check<TypeError>(t != DType::Bool, op, ": expects a numeric tensor; got dtype bool.");
  if (kind == backend::PoolKind::Average) t = float_result_type(t);
  Tensor x = detail::cast(inputs, t);

  // Every axis divisible: one pooling with window = stride = L / n.
  bool divisible = true;
  for (int i = 0; i < d; ++i) divisible = divisible && in[i] % sizes[i] == 0;
  if (divisible) {
    backend::PoolSpec s = axis_pool(kind, d, cl, 0, 1, 1);
    for (int i = 0; i < d; ++i) s.window[i] = s.strides[i] = in[i] / sizes[i];
    return detail::pool_nd(x, s);
  }
  for (int i = 0; i < d; ++i) {
    const int64_t length = in[i], n = sizes[i];
    const int axis = cl ? 1 + i : 2 + i;
    if (length % n == 0) {
      x = detail::pool_nd(x, axis_pool(kind, d, cl, i, length / n, length / n));
      continue;
    }
    const int64_t small = (length + n - 1) / n, big = small + 1;
    const int64_t small_count = length - small + 1;
    std::vector<Tensor> parts{detail::pool_nd(x, axis_pool(kind, d, cl, i, small, 1))};
    if (big <= length) parts.push_back(detail::pool_nd(x, axis_pool(kind, d, cl, i, big, 1)));
    std::vector<int64_t> index;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t start = j * length / n, stop = ((j + 1) * length + n - 1) / n;
      index.push_back(stop - start == big ? small_count + start : start);
    }
    x = detail::take_axis(parts.size() == 1 ? parts[0] : concatenate(parts, axis), index, axis);
  }
  return x;
}

}  // namespace

Tensor adaptive_average_pool(const Tensor& inputs, const IntOrTuple& output_size,
                             const std::optional<std::string>& data_format) {
  return adaptive("adaptive_average_pool", backend::PoolKind::Average, inputs, output_size,
                  data_format);
}

Tensor adaptive_max_pool(const Tensor& inputs, const IntOrTuple& output_size,
                         const std::optional<std::string>& data_format) {
  return adaptive("adaptive_max_pool", backend::PoolKind::Max, inputs, output_size, data_format);
}

}  // namespace nn
}  // namespace keras::ops
