#include "keras/tensor/tensor.h"

#include "keras/autograd/node.h"
#include "keras/backend/registry.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"

namespace keras {

Tensor::Tensor(Scalar value) {
  backend::Backend& b = backend::current();
  Tensor t = ops::detail::scalar_tensor(value, value.dtype(), b);
  t.impl()->weak = value.is_weak();
  t.impl()->weak_value = value;
  impl_ = Ref<detail::TensorImpl>(t.impl());
}

Tensor Tensor::from_host(const void* data, DType dtype, const Shape& shape, size_t count,
                         std::string_view backend) {
  backend::Backend& b = backend.empty() ? backend::current() : backend::get(backend);
  check(shape.numel() == static_cast<int64_t>(count), "Tensor::from_host: ", count,
        " values cannot fill shape ", shape, " (", shape.numel(), " elements).");
  Tensor t = ops::detail::empty(shape, dtype, b);
  b.copy_from_host(*t.array().storage, 0, data, t.array().nbytes());
  return t;
}

namespace detail {
void throw_undefined_tensor() {
  throw ValueError(
      "This Tensor is undefined (default-constructed, an unset optional argument or a moved-from "
      "handle): give it a value (an op's result, Tensor::from_vector, ops::convert_to_tensor) "
      "before reading its shape, dtype or values; Tensor::defined() tells which it is.");
}
}  // namespace detail

std::string_view Tensor::backend_name() const { return backend().name(); }

Tensor Tensor::contiguous() const {
  if (is_contiguous()) return *this;
  Tensor out = ops::detail::run_copy(*this, dtype());
  if (autograd::should_record(*this))
    autograd::record("contiguous", {*this}, out,
                     [](const autograd::Context&, const Tensor& g) { return TensorList{g}; });
  return out;
}

Tensor Tensor::to(std::string_view name) const {
  backend::Backend& target = backend::get(name);
  if (&target == &backend()) return *this;
  // Strings stay on the host whatever the backend, as Keras keeps string preprocessing on the
  // CPU; the numbers the text layers make from them go to the current backend.
  if (dtype() == DType::String) return *this;
  Tensor src = contiguous();
  Tensor out = ops::detail::empty(shape(), dtype(), target);
  const size_t nbytes = src.array().nbytes();
  if (nbytes) {
    const size_t byte_offset = static_cast<size_t>(src.offset()) * itemsize(dtype());
    if (backend().is_host()) {
      target.copy_from_host(*out.array().storage, 0,
                            static_cast<const char*>(src.array().storage->data()) + byte_offset,
                            nbytes);
    } else {
      std::vector<char> staging(nbytes);
      backend().copy_to_host(staging.data(), *src.array().storage, byte_offset, nbytes);
      target.copy_from_host(*out.array().storage, 0, staging.data(), nbytes);
    }
  }
  if (autograd::should_record(src)) {
    std::string from(backend_name());
    autograd::record("to", {src}, out, [from](const autograd::Context&, const Tensor& g) {
      return TensorList{g.to(from)};
    });
  }
  return out;
}

Tensor Tensor::astype(DType dtype) const { return ops::cast(*this, dtype); }

void Tensor::copy_to_host(void* dst, DType dtype) const {
  check(defined(), "copy_to_host: the tensor is undefined.");
  Tensor src = *this;
  if (src.dtype() != dtype || !src.is_contiguous()) src = ops::detail::run_copy(src, dtype);
  const size_t nbytes = src.array().nbytes();
  if (nbytes == 0) return;
  src.backend().copy_to_host(dst, *src.array().storage,
                             static_cast<size_t>(src.offset()) * itemsize(dtype), nbytes);
}

Tensor Tensor::reshape(const Shape& shape) const { return ops::reshape(*this, shape); }
Tensor Tensor::transpose() const { return ops::transpose(*this); }
Tensor Tensor::transpose(const std::vector<int>& axes) const {
  return ops::transpose(*this, axes);
}
Tensor Tensor::expand_dims(int axis) const { return ops::expand_dims(*this, axis); }
Tensor Tensor::squeeze() const { return ops::squeeze(*this); }
Tensor Tensor::squeeze(int axis) const { return ops::squeeze(*this, axis); }
Tensor Tensor::broadcast_to(const Shape& shape) const { return ops::broadcast_to(*this, shape); }
Tensor Tensor::flatten() const { return ops::ravel(*this); }

Tensor operator+(const Tensor& a, const Tensor& b) { return ops::add(a, b); }
Tensor operator-(const Tensor& a, const Tensor& b) { return ops::subtract(a, b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return ops::multiply(a, b); }
Tensor operator/(const Tensor& a, const Tensor& b) { return ops::divide(a, b); }
Tensor operator-(const Tensor& a) { return ops::negative(a); }
Tensor operator<(const Tensor& a, const Tensor& b) { return ops::less(a, b); }
Tensor operator<=(const Tensor& a, const Tensor& b) { return ops::less_equal(a, b); }
Tensor operator>(const Tensor& a, const Tensor& b) { return ops::greater(a, b); }
Tensor operator>=(const Tensor& a, const Tensor& b) { return ops::greater_equal(a, b); }
Tensor operator!(const Tensor& a) { return ops::logical_not(a); }
Tensor& operator+=(Tensor& a, const Tensor& b) { return a = ops::add(a, b); }
Tensor& operator-=(Tensor& a, const Tensor& b) { return a = ops::subtract(a, b); }
Tensor& operator*=(Tensor& a, const Tensor& b) { return a = ops::multiply(a, b); }
Tensor& operator/=(Tensor& a, const Tensor& b) { return a = ops::divide(a, b); }
Tensor operator%(const Tensor& a, const Tensor& b) { return ops::mod(a, b); }
Tensor operator&(const Tensor& a, const Tensor& b) { return ops::bitwise_and(a, b); }
Tensor operator|(const Tensor& a, const Tensor& b) { return ops::bitwise_or(a, b); }
Tensor operator^(const Tensor& a, const Tensor& b) { return ops::bitwise_xor(a, b); }
Tensor operator~(const Tensor& a) { return ops::bitwise_invert(a); }

}  // namespace keras
