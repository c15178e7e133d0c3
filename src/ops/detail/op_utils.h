#pragma once
// The front end's toolkit: what every op does before and after it calls a primitive
// (agreeing on a backend, broadcasting, promotion, axis checks, allocation, views). Ops call
// these and then record their gradient rule; nothing here records gradients.

#include <functional>
#include <initializer_list>
#include <span>
#include <string_view>

#include "keras/backend/backend.h"
#include "keras/core/errors.h"
#include "keras/core/promotion.h"
#include "keras/ops/axes.h"
#include "keras/tensor/tensor.h"

namespace keras::ops::detail {

using backend::Array;
using backend::Backend;

// ---- allocation and views ------------------------------------------------------------------

/// A new contiguous tensor (uninitialized) on `backend`.
Tensor empty(const Shape& shape, DType dtype, Backend& backend);
/// A tensor sharing `base`'s storage with another shape, strides and offset.
Tensor make_view(const Tensor& base, const Shape& shape, const Strides& strides, int64_t offset);
/// An Array that reads `a` broadcast to `shape` (stride 0 on new or extent-1 axes); the shapes
/// must be broadcast-compatible.
Array broadcast_array(const Array& a, const Shape& shape);

// ---- backends ------------------------------------------------------------------------------

/// The one backend the inputs live on. Weak scalars (C++ literals) follow the others; two
/// strong tensors on different backends are a ValueError naming `op` and both backends.
Backend& common_backend(std::string_view op, std::initializer_list<const Tensor*> inputs);
Backend& common_backend(std::string_view op, std::span<const Tensor> inputs);
/// `t` ready for an op that computes in `dtype` on `b`: a weak scalar becomes a tensor of that
/// dtype on b holding its exact value; any other tensor (on b already, as common_backend
/// checked) is cast. Differentiable.
Tensor prepare(const Tensor& t, DType dtype, Backend& b);

// ---- shapes and axes -----------------------------------------------------------------------

/// NumPy broadcasting of two shapes; ValueError naming `op` and both shapes otherwise.
Shape broadcast_shapes(std::string_view op, const Shape& a, const Shape& b);
/// `axis` in [-ndim, ndim) made non-negative; ValueError naming `op` otherwise.
int normalize_axis(std::string_view op, int axis, int ndim);
/// Bit i set for each axis listed (all axes for None); duplicates are a ValueError.
uint64_t axes_mask(std::string_view op, const Axes& axes, int ndim);
/// The shape after reducing the axes in `mask` (dropped, or kept as 1 with keepdims).
Shape reduced_shape(const Shape& shape, uint64_t mask, bool keepdims);
/// Checks that the axes fit in the 64-bit mask the reduction primitives take.
void check_rank(std::string_view op, int ndim);

// ---- dtypes --------------------------------------------------------------------------------

/// Keras's result_type over the inputs, honouring weak scalars.
DType promote(std::initializer_list<const Tensor*> inputs);
/// `x` converted to `dtype` (itself when it already is). Differentiable.
Tensor cast(const Tensor& x, DType dtype);
/// TypeError naming `op` when `x` is not of a floating dtype.
void require_float(std::string_view op, const Tensor& x);

// ---- primitive runners (no gradient recording) --------------------------------------------

/// op(x) into a new tensor of `out_dtype` (x's dtype when it is not a predicate).
Tensor run_unary(backend::UnaryOp op, const Tensor& x, double p0 = 0, double p1 = 0);
/// op(a, b) broadcast; a and b must already share a dtype and backend.
Tensor run_binary(backend::BinaryOp op, const Tensor& a, const Tensor& b);
/// Reduces `x` over `mask`; the result has keepdims shape.
Tensor run_reduce(backend::ReduceOp op, const Tensor& x, uint64_t mask);
/// The same values, contiguous, in a new tensor of `dtype`.
Tensor run_copy(const Tensor& x, DType dtype);
/// be.copy(dst, src, mode) for arrays of one dtype, complex ones through their real views
/// (backends see no complex arrays).
void copy_into(Backend& be, const Array& dst, const Array& src,
               backend::CopyMode mode = backend::CopyMode::Assign);
/// x as a contiguous (rows, last extent) matrix (a view when x is contiguous): what the
/// backend's row-wise kernels (a Dense's product, per-row quantizers) take.
Tensor as_matrix_rows(const Tensor& x);

/// A new tensor of `shape` and `dtype` on `b`, every element `value` (ops::full and friends use
/// the current backend; internal code makes tensors where its inputs live).
Tensor filled(const Shape& shape, const Scalar& value, DType dtype, Backend& b);
/// zeros of `shape` and `dtype` on `b`.
Tensor zeros_on(const Shape& shape, DType dtype, Backend& b);

/// A weak scalar made strong: a 0-d tensor of `dtype` on `b` holding `value`.
Tensor scalar_tensor(const Scalar& value, DType dtype, Backend& b);

/// The value of a 0-d or one-element tensor on the host.
double host_scalar(const Tensor& t);

/// Calls `check(lo, hi)` with the smallest and largest value of the integer tensor `ids` (not
/// empty), read on the host: a guard that throws on out-of-range ids. Under a compiler trace
/// the guard is recorded, so every replay checks its new ids too.
void check_range_on_host(const Tensor& ids, std::function<void(int64_t lo, int64_t hi)> check);

}  // namespace keras::ops::detail
