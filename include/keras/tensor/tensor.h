#pragma once
// keras::Tensor: a cheap value-type handle to an immutable strided array on one backend.
// Copying a Tensor shares its data; every op returns a new Tensor, and views (reshape,
// transpose, slices, broadcast_to) share storage without copying. Tensors never change
// backend silently: Tensor::to("torch") moves one explicitly.

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "keras/backend/storage.h"
#include "keras/core/dtype.h"
#include "keras/core/errors.h"
#include "keras/core/scalar.h"
#include "keras/core/shape.h"
#include "keras/tensor/indexing.h"
#include "keras/tensor/string_tensor.h"
#include "keras/tensor/tensor_impl.h"

#pragma GCC visibility push(default)
namespace keras {

namespace backend {
class Backend;
}
namespace detail {
[[noreturn]] void throw_undefined_tensor();
}

/// An n-dimensional array on a compute backend.
class Tensor {
 public:
  /// An undefined tensor (defined() is false); what an unset optional argument looks like.
  Tensor() = default;
  /// A weakly typed 0-d tensor from a C++ literal: `x * 2.0`, `ops::maximum(x, 0)`.
  Tensor(Scalar value);  // NOLINT: implicit so that literals mix with tensors
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  /// A 0-d tensor from any arithmetic C++ value, via Scalar: weak for numbers, strong for bool.
  Tensor(T value) : Tensor(Scalar(value)) {}  // NOLINT
  /// A "string" tensor holding a copy of `strings`, on the host whatever the current backend
  /// (Keras runs string preprocessing on the CPU). Implicit, so text goes where tensors go:
  /// `model->predict(keras::StringTensor({"a b", "c"}, {2, 1}))`. See docs/strings.md.
  Tensor(const StringTensor& strings);  // NOLINT(google-explicit-constructor)
  /// A handle to an existing TensorImpl (for keras internals and backends).
  explicit Tensor(Ref<detail::TensorImpl> impl) : impl_(std::move(impl)) {}

  /// A new tensor on `backend` (default: the current backend) holding a copy of `values`.
  template <typename T>
  static Tensor from_vector(const std::vector<T>& values, const Shape& shape,
                            std::string_view backend = {}) {
    if constexpr (std::is_same_v<T, bool>) {  // vector<bool> has no data()
      std::vector<uint8_t> bytes(values.begin(), values.end());
      return from_host(bytes.data(), DType::Bool, shape, bytes.size(), backend);
    } else {
      return from_host(values.data(), dtype_v<T>, shape, values.size(), backend);
    }
  }
  /// A new tensor holding a copy of `count` elements of `dtype` at `data`, shaped `shape`.
  static Tensor from_host(const void* data, DType dtype, const Shape& shape, size_t count,
                          std::string_view backend = {});

  /// Whether the handle holds a tensor; the accessors below throw ValueError when it does not.
  bool defined() const { return static_cast<bool>(impl_); }
  /// The extent of each axis (ops::shape).
  const Shape& shape() const { return checked().array.shape; }
  /// Number of axes (ops::ndim).
  int ndim() const { return checked().array.shape.rank(); }
  /// Number of axes, the same as ndim().
  int rank() const { return ndim(); }
  /// Number of elements (ops::size).
  int64_t size() const { return checked().array.shape.numel(); }
  /// Number of elements, the same as size().
  int64_t numel() const { return size(); }
  /// The element type (Keras's `dtype`, e.g. DType::Float32 for "float32").
  DType dtype() const { return checked().array.dtype; }
  /// The step between neighbours along each axis, in elements (0 for a broadcast axis).
  const Strides& strides() const { return checked().array.strides; }
  /// Where element 0 lies in the storage, in elements.
  int64_t offset() const { return checked().array.offset; }
  /// True when the elements are laid out densely in row-major order.
  bool is_contiguous() const { return checked().array.is_contiguous(); }
  /// The backend that owns this tensor's memory.
  backend::Backend& backend() const { return checked().array.backend(); }
  /// The registered name of backend(): "cpu", "torch", ...
  std::string_view backend_name() const;
  /// True for 0-d tensors made from C++ literals (see Scalar).
  bool is_weak() const { return checked().weak; }

  /// The same values in row-major contiguous memory (this tensor itself when already so).
  Tensor contiguous() const;
  /// The same values on another backend (this tensor itself when already there).
  Tensor to(std::string_view backend) const;
  /// ops::cast.
  Tensor astype(DType dtype) const;

  /// The values in row-major order, converted to T.
  template <typename T>
  std::vector<T> to_vector() const {
    if constexpr (std::is_same_v<T, bool>) {  // vector<bool> has no data()
      std::vector<uint8_t> bytes(static_cast<size_t>(size()));
      copy_to_host(bytes.data(), DType::Bool);
      return std::vector<bool>(bytes.begin(), bytes.end());
    } else {
      std::vector<T> out(static_cast<size_t>(size()));
      copy_to_host(out.data(), dtype_v<T>);
      return out;
    }
  }
  /// The single value of a one-element tensor, converted to T.
  template <typename T>
  T item() const {
    check(size() == 1, "item() needs a tensor with exactly one element; got shape ", shape());
    return to_vector<T>()[0];
  }
  /// Writes the values, converted to `dtype`, in row-major order to `dst`.
  void copy_to_host(void* dst, DType dtype) const;
  /// The strings of a "string" tensor, in row-major order; TypeError for other dtypes.
  StringTensor to_strings() const;

  // ---- views (no copy) and indexing ---------------------------------------------------------
  /// ops::reshape: the same elements in `shape` (-1 once for the inferred extent).
  /// A view when the strides allow one, a copy otherwise.
  Tensor reshape(const Shape& shape) const;
  /// ops::transpose with the axes reversed (a view).
  Tensor transpose() const;
  /// ops::transpose: the axes permuted by `axes` (a view).
  Tensor transpose(const std::vector<int>& axes) const;
  /// ops::expand_dims: a new axis of extent 1 at `axis` (a view).
  Tensor expand_dims(int axis) const;
  /// ops::squeeze: every axis of extent 1 removed (a view).
  Tensor squeeze() const;
  /// ops::squeeze: axis `axis` removed; ValueError unless its extent is 1.
  Tensor squeeze(int axis) const;
  /// ops::broadcast_to: a view with `shape`, repeating broadcast axes with stride 0.
  Tensor broadcast_to(const Shape& shape) const;
  /// ops::ravel: the elements as a 1-d tensor in row-major order.
  Tensor flatten() const;
  /// t[i]: the i-th entry along axis 0 (negative counts from the end).
  Tensor operator[](int64_t i) const;
  /// Basic slicing, one Slice per leading axis: t.slice({{0, 10}, {}, {1, -1, 2}}).
  Tensor slice(std::initializer_list<Slice> slices) const;
  /// Full NumPy indexing (ops::get_item): integers, Slices, Ellipsis, NewAxis, integer and
  /// boolean index tensors.
  Tensor index(std::initializer_list<std::variant<int64_t, Slice, EllipsisType, NewAxisType,
                                                  Tensor>>
                   indices) const;

  // ---- autograd -----------------------------------------------------------------------------
  /// True when gradients flow through this tensor (it was produced under a GradientTape from a
  /// watched tensor or a trainable variable).
  bool requires_grad() const { return impl_ && impl_->grad_fn; }

  /// The shared state (for keras internals and backends).
  detail::TensorImpl* impl() const { return impl_.get(); }
  /// The backend view of the data: storage, offset, dtype, shape and strides.
  const backend::Array& array() const { return checked().array; }
  /// True when both handles share one TensorImpl.
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }

 private:
  // An undefined tensor (an unset argument, a moved-from handle) read by mistake is a clear
  // ValueError rather than a null dereference; the branch is never taken on a defined one.
  const detail::TensorImpl& checked() const {
    if (!impl_) [[unlikely]] detail::throw_undefined_tensor();
    return *impl_;
  }
  Ref<detail::TensorImpl> impl_;
};

/// A list of tensors, as ops such as split and unstack return.
using TensorList = std::vector<Tensor>;

/// NumPy-style printing: values (abbreviated beyond 1000 elements), shape and dtype.
std::ostream& operator<<(std::ostream& out, const Tensor& t);
/// The same text as operator<<.
std::string to_string(const Tensor& t);

// Arithmetic operators, the same as the ops of the same meaning (with broadcasting and
// promotion). Comparisons return bool tensors; == and != are not overloaded (ops::equal),
// so that a Tensor comparison never hides in an `if`.
/// ops::add.
Tensor operator+(const Tensor& a, const Tensor& b);
/// ops::subtract.
Tensor operator-(const Tensor& a, const Tensor& b);
/// ops::multiply.
Tensor operator*(const Tensor& a, const Tensor& b);
/// ops::divide: true division (integer inputs give floatx()).
Tensor operator/(const Tensor& a, const Tensor& b);
/// ops::mod: the remainder takes the divisor's sign, as in Python.
Tensor operator%(const Tensor& a, const Tensor& b);
/// ops::negative.
Tensor operator-(const Tensor& a);
/// ops::less, a bool tensor.
Tensor operator<(const Tensor& a, const Tensor& b);
/// ops::less_equal, a bool tensor.
Tensor operator<=(const Tensor& a, const Tensor& b);
/// ops::greater, a bool tensor.
Tensor operator>(const Tensor& a, const Tensor& b);
/// ops::greater_equal, a bool tensor.
Tensor operator>=(const Tensor& a, const Tensor& b);
/// ops::bitwise_and (logical and for bool).
Tensor operator&(const Tensor& a, const Tensor& b);
/// ops::bitwise_or (logical or for bool).
Tensor operator|(const Tensor& a, const Tensor& b);
/// ops::bitwise_xor (logical xor for bool).
Tensor operator^(const Tensor& a, const Tensor& b);
/// ops::bitwise_invert (logical not for bool).
Tensor operator~(const Tensor& a);
/// ops::logical_not: true where `a` is zero or false.
Tensor operator!(const Tensor& a);
/// Rebinds the handle to a + b (tensors are immutable; other handles keep the old value).
Tensor& operator+=(Tensor& a, const Tensor& b);
/// Rebinds the handle to a - b (other handles keep the old value).
Tensor& operator-=(Tensor& a, const Tensor& b);
/// Rebinds the handle to a * b (other handles keep the old value).
Tensor& operator*=(Tensor& a, const Tensor& b);
/// Rebinds the handle to a / b (other handles keep the old value).
Tensor& operator/=(Tensor& a, const Tensor& b);

}  // namespace keras

#pragma GCC visibility pop
