#pragma once
// Complex tensors in the front end. A complex64 (complex128) element is a pair of float32
// (float64) values side by side, so every complex tensor has a real view with one more axis of
// extent 2 that shares its memory. Complex ops are compositions of real ops on those views:
// backends never see a complex array, every backend computes complex numbers on day one, and
// autograd follows JAX's convention through the two view rules alone (docs/complex.md):
//   view_as_real:    cotangent g (..., 2) -> g[..., 0] - i g[..., 1]
//   view_as_complex: cotangent c         -> (real(c), -imag(c))
// which make the gradient of a real loss L with respect to z = x + iy equal dL/dx - i dL/dy.

#include <initializer_list>
#include <string_view>

#include "keras/backend/primitives.h"
#include "keras/backend/storage.h"
#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::complex_detail {

/// True when a defined input holds a complex dtype.
bool any_complex(std::initializer_list<const Tensor*> inputs);
/// TypeError: `op` does not take `dtype` tensors, with the way out (docs/complex.md).
[[noreturn]] void unsupported(std::string_view op, DType dtype);

// ---- views without gradients (for kernels' plumbing) -------------------------------------------
/// The real Array of complex `a`: part dtype, shape + (2,), no copy.
backend::Array real_array(const backend::Array& a);
/// The complex view of real pairs `r` (last axis 2); copies r first when its pairs are not
/// adjacent in memory.
Tensor complex_from_pairs_raw(const Tensor& r);

// ---- differentiable building blocks ----------------------------------------------------------
/// view_as_real for a complex tensor (part dtype, shape + (2,)).
Tensor pairs(const Tensor& z);
/// The complex tensor of real pairs `r` (last axis 2), keeping r's precision: float64 gives
/// complex128, every other float dtype complex64 (computed in float32).
Tensor from_pairs(const Tensor& r);
/// re + i im, broadcast; both real.
Tensor make_complex(const Tensor& re, const Tensor& im);
/// The real and imaginary parts of complex z.
Tensor real_part(const Tensor& z);
Tensor imag_part(const Tensor& z);
/// x converted to the complex dtype `to` (x real or complex, not a weak literal: callers
/// prepare those first; a real x gets zero imaginary parts).
Tensor to_complex(const Tensor& x, DType to);

// ---- ops on complex tensors (the ops' front ends call these when an input is complex) ------
/// y = op(x) for complex x; the ops of docs/complex.md, a TypeError naming `name` otherwise.
Tensor unary(std::string_view name, backend::UnaryOp op, const Tensor& x);
/// y = op(a, b) with broadcasting, promoted together (one of them complex).
Tensor binary(std::string_view name, backend::BinaryOp op, const Tensor& a, const Tensor& b);
/// The comparisons (equal, not_equal, and the ordering ones in the lexicographic order) and
/// the logical ops (a complex number is true when it is not 0), as a bool tensor.
Tensor predicate(std::string_view name, backend::BinaryOp op, const Tensor& a, const Tensor& b);
/// a OP b for complex a and b of one dtype, OP one of Greater, GreaterEqual, Less, LessEqual,
/// in NumPy's and JAX's lexicographic order (real parts first).
Tensor lexicographic_compare(const Tensor& a, const Tensor& b, backend::BinaryOp op);
/// z != 0 (bool): a complex number's truth value.
Tensor is_nonzero(const Tensor& z);
/// The matrix product of complex (or mixed) operands, as ops::matmul.
Tensor matmul(const Tensor& a, const Tensor& b);
/// sum or mean of complex x over `axis`.
Tensor reduce(std::string_view name, const Tensor& x, const Axes& axis, bool keepdims);
/// prod of complex x over the axes of `mask` (reduced axes removed unless keepdims).
Tensor product(const Tensor& x, uint64_t mask, bool keepdims);
/// cumprod of complex x along `axis`.
Tensor running_product(const Tensor& x, int axis);
/// max (`largest`) or min of complex x over the axes of `mask` in NumPy's lexicographic
/// order (real parts first, then imaginary parts).
Tensor extreme(const Tensor& x, uint64_t mask, bool keepdims, bool largest);
/// The stable lexicographic ascending order of complex x along its last axis (int64).
Tensor lexicographic_order(const Tensor& x);
/// A complex tensor with every element `value` (real) on `b`.
Tensor filled(const Shape& shape, const Scalar& value, DType dtype, backend::Backend& b);
/// x (complex) in a new contiguous tensor of complex `dtype`, or of a real dtype (the real
/// part, as NumPy's astype). No gradient: detail::run_copy's complex branch.
Tensor copy(const Tensor& x, DType dtype);
/// ops::cast where x or dtype is complex (differentiable).
Tensor cast(const Tensor& x, DType dtype);

}  // namespace keras::ops::complex_detail
