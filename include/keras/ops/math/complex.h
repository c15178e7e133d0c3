#pragma once
// Complex tensors from and to their real parts: keras.ops.math.view_as_complex and
// view_as_real, and keras.ops.polar. A complex element is a (real, imaginary) pair stored side
// by side, so view_as_real and view_as_complex are views that copy nothing when the layout
// allows. docs/complex.md lists the ops that take complex tensors.

#include "keras/tensor/tensor.h"

#pragma GCC visibility push(default)
namespace keras::ops {
inline namespace math {

/// The complex tensor of shape x.shape[:-1] whose elements are x[..., 0] + i x[..., 1]; x is
/// real with a last axis of extent 2 (ValueError otherwise). float64 gives complex128 and every
/// other real dtype complex64 (Keras gives complex64 always: its JAX backend runs in 32 bits;
/// keras-cpp keeps 64 bits, as promotion.h explains). A view of x when x's pairs are adjacent
/// in memory. Differentiable (JAX's convention, docs/complex.md).
Tensor view_as_complex(const Tensor& x);
/// The real tensor of shape x.shape + (2,) holding the real and imaginary parts of complex x
/// in its last axis, of x's part dtype (float32 for complex64); a view of x's memory. A real x
/// gives its values with zero imaginary parts (as Keras's real/imag/stack). Differentiable.
Tensor view_as_real(const Tensor& x);

}  // namespace math

inline namespace nn {

/// The complex numbers abs_ * (cos(angle) + i sin(angle)), broadcast; complex128 when the
/// promoted real dtype is float64, complex64 otherwise. Differentiable in both inputs.
Tensor polar(const Tensor& abs_, const Tensor& angle);

}  // namespace nn
}  // namespace keras::ops

#pragma GCC visibility pop
