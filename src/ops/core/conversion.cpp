// cast, convert_to_tensor, shape, dtype, is_tensor, stop_gradient.

#include "keras/backend/registry.h"
#include "keras/core/config.h"
#include "keras/ops/core.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
inline namespace core {

Tensor cast(const Tensor& x, DType dtype) {
  check(x.defined(), "cast: the input is an undefined tensor.");
  return detail::cast(x, dtype);
}

Tensor convert_to_tensor(const Scalar& value, std::optional<DType> dtype) {
  DType t = dtype.value_or(value.dtype());
  return detail::scalar_tensor(value, t, backend::current());
}

Tensor convert_to_tensor(const Tensor& x, std::optional<DType> dtype) {
  check(x.defined(), "convert_to_tensor: the input is an undefined tensor.");
  if (x.is_weak()) return convert_to_tensor(x.impl()->weak_value, dtype);
  return dtype ? cast(x, *dtype) : x;
}

Shape shape(const Tensor& x) { return x.shape(); }
DType dtype(const Tensor& x) { return x.dtype(); }
bool is_tensor(const Tensor& x) { return x.defined(); }

Tensor stop_gradient(const Tensor& x) {
  check(x.defined(), "stop_gradient: the input is an undefined tensor.");
  return detail::make_view(x, x.shape(), x.strides(), x.offset());
}

}  // namespace core
}  // namespace keras::ops
