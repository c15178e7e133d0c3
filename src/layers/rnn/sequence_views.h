#pragma once
// Views and products over the arrays of a recurrent sequence's host loop (lstm_sequence.cpp):
// tensors the loop makes of its own arrays, never recorded by a trace.

#include <cstring>
#include <utility>

#include "keras/backend/backend.h"
#include "keras/tensor/tensor.h"
#include "keras/tensor/tensor_impl.h"

namespace keras::layers::detail::sequence {

inline Tensor view(const backend::Array& a, int64_t offset, Shape shape, Strides strides) {
  backend::Array v = a;
  v.offset = a.offset + offset;
  v.shape = std::move(shape);
  v.strides = std::move(strides);
  return Tensor(make_ref<keras::detail::TensorImpl>(v));
}

/// Whether `b` is defined, on a's backend, of a's dtype and not weakly typed: a tensor the
/// sequence's loop can read beside `a`.
inline bool same_kind(const Tensor& a, const Tensor& b) {
  return b.defined() && &a.backend() == &b.backend() && a.dtype() == b.dtype() && !b.is_weak();
}

/// Step t of a (timesteps, batch, n) tensor: a (batch, n) view.
inline Tensor step_of(const Tensor& x, int64_t t) {
  const backend::Array& a = x.array();
  return view(a, t * a.strides[0], Shape{a.shape[1], a.shape[2]},
              Strides{a.strides[1], a.strides[2]});
}

/// The transpose of a matrix (a view).
inline Tensor transposed(const Tensor& x) {
  const backend::Array& a = x.array();
  return view(a, 0, Shape{a.shape[1], a.shape[0]}, Strides{a.strides[1], a.strides[0]});
}

/// A (timesteps, batch, n) tensor whose rows follow each other (as the loops allocate them) as
/// the (timesteps * batch, n) matrix of those rows.
inline Tensor rows_of(const Tensor& x) {
  const backend::Array& a = x.array();
  return view(a, 0, Shape{a.shape[0] * a.shape[1], a.shape[2]},
              Strides{a.strides[1], a.strides[2]});
}

/// out = a @ b by the arrays' own backend: inside a recorded host loop a backend call is not
/// recorded again (the loop is one call of the program).
inline void matmul(const Tensor& out, const Tensor& a, const Tensor& b) {
  out.array().storage->owner().matmul(out.array(), a.array(), b.array());
}

/// Copies the rows of `from` into `to` (same shape, unit inner strides).
inline void copy_rows(const Tensor& from, const Tensor& to) {
  const backend::Array &f = from.array(), &t = to.array();
  const int64_t size = static_cast<int64_t>(itemsize(f.dtype));
  const auto* src = static_cast<const char*>(f.data());
  auto* dst = static_cast<char*>(t.data());
  for (int64_t b = 0; b < f.shape[0]; ++b)
    std::memcpy(dst + b * t.strides[0] * size, src + b * f.strides[0] * size,
                static_cast<size_t>(f.shape[1] * size));
}

}  // namespace keras::layers::detail::sequence
