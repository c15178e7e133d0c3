// view_as_real and view_as_complex, the two ops through which every complex op reaches real
// memory, and the conversions built on them. Their gradient rules are the whole of JAX's
// complex convention (complex_parts.h).

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "ops/detail/elementwise.h"
#include "ops/detail/op_utils.h"

namespace keras::ops {
namespace complex_detail {

using backend::Array;

bool any_complex(std::initializer_list<const Tensor*> inputs) {
  for (const Tensor* t : inputs)
    if (t->defined() && is_complex(t->dtype())) return true;
  return false;
}

void unsupported(std::string_view op, DType dtype) {
  throw TypeError(keras::detail::cat(
      op, " does not take ", dtype,
      " tensors. keras-cpp's complex support covers the ops listed in docs/complex.md; take "
      "ops::real and ops::imag (or ops::view_as_real) to compute on the parts."));
}

Array real_array(const Array& a) {
  Array r;
  r.storage = a.storage;
  r.dtype = complex_part_dtype(a.dtype);
  r.offset = a.offset * 2;
  r.shape = a.shape;
  r.shape.push_back(2);
  for (int64_t s : a.strides) r.strides.push_back(s * 2);
  r.strides.push_back(1);
  return r;
}

namespace {

// Whether real pairs r (last axis 2) lie as whole complex elements: each pair adjacent, every
// element on an even offset.
bool pairs_adjacent(const Array& r) {
  if (r.offset % 2 != 0 || r.strides.back() != 1) return false;
  for (int i = 0; i + 1 < r.rank(); ++i)
    if (r.shape[i] != 1 && r.strides[i] % 2 != 0) return false;
  return true;
}

// The real view of z, without a gradient: no copy.
Tensor pairs_raw(const Tensor& z) {
  return Tensor(make_ref<keras::detail::TensorImpl>(real_array(z.array())));
}

// (re, -im) in the last axis of real pairs g: the conjugation both view rules apply.
Tensor conjugate_pairs(const Tensor& g) {
  Tensor sign = Tensor::from_vector(std::vector<double>{1.0, -1.0}, Shape{2}, g.backend_name());
  return multiply(g, sign.astype(g.dtype()));
}

}  // namespace

Tensor complex_from_pairs_raw(const Tensor& r) {
  Tensor src = pairs_adjacent(r.array()) ? r : detail::run_copy(r, r.dtype());
  const Array& a = src.array();
  Array z;
  z.storage = a.storage;
  z.dtype = complex_dtype_for(a.dtype);
  z.offset = a.offset / 2;
  z.shape = a.shape;
  z.shape.pop_back();
  for (int i = 0; i + 1 < a.rank(); ++i) z.strides.push_back(a.strides[i] / 2);
  return Tensor(make_ref<keras::detail::TensorImpl>(std::move(z)));
}

Tensor pairs(const Tensor& z) {
  Tensor out = pairs_raw(z);
  if (autograd::should_record(z)) {
    autograd::record("view_as_real", {z}, out, [](const autograd::Context&, const Tensor& g) {
      return TensorList{from_pairs(conjugate_pairs(g))};
    });
  }
  return out;
}

Tensor from_pairs(const Tensor& r) {
  check(r.ndim() >= 1 && r.shape().back() == 2,
        "view_as_complex: the last dimension of the input must be of size 2 (real and "
        "imaginary); received shape ", r.shape(), ".");
  Tensor real = r;
  if (r.dtype() != DType::Float32 && r.dtype() != DType::Float64)
    real = detail::cast(r, DType::Float32);
  Tensor out = complex_from_pairs_raw(real);
  if (autograd::should_record(real)) {
    autograd::record("view_as_complex", {real}, out,
                     [](const autograd::Context&, const Tensor& c) {
                       return TensorList{conjugate_pairs(pairs(c))};
                     });
  }
  return out;
}

Tensor make_complex(const Tensor& re, const Tensor& im) {
  Shape shape = detail::broadcast_shapes("complex", re.shape(), im.shape());
  const DType part = complex_part_dtype(complex_dtype_for(detail::promote({&re, &im})));
  backend::Backend& be = detail::common_backend("complex", {&re, &im});
  Tensor a = broadcast_to(detail::prepare(re, part, be), shape);
  Tensor b = broadcast_to(detail::prepare(im, part, be), shape);
  return from_pairs(stack({a, b}, -1));
}

Tensor real_part(const Tensor& z) { return pairs(z).index({Ellipsis, int64_t{0}}); }
Tensor imag_part(const Tensor& z) { return pairs(z).index({Ellipsis, int64_t{1}}); }

Tensor to_complex(const Tensor& x, DType to) {
  if (is_complex(x.dtype())) {
    if (x.dtype() == to) return x;
    return from_pairs(detail::cast(pairs(x), complex_part_dtype(to)));
  }
  Tensor re = detail::cast(x, complex_part_dtype(to));
  return make_complex(re, detail::zeros_on({}, re.dtype(), re.backend()));
}

Tensor filled(const Shape& shape, const Scalar& value, DType dtype, backend::Backend& b) {
  DType part = complex_part_dtype(dtype);
  Tensor re = detail::filled(shape, value, part, b);
  Tensor im = detail::filled(shape, 0, part, b);
  return complex_from_pairs_raw(stack({re, im}, -1));
}

Tensor copy(const Tensor& x, DType dtype) {
  Tensor r = pairs_raw(x);
  if (!is_complex(dtype)) return detail::run_copy(r.index({Ellipsis, int64_t{0}}), dtype);
  return complex_from_pairs_raw(detail::run_copy(r, complex_part_dtype(dtype)));
}

Tensor cast(const Tensor& x, DType dtype) {
  if (is_complex(dtype)) return to_complex(x, dtype);
  // complex -> real keeps the real part, as NumPy's astype (and JAX's) do.
  return detail::cast(real_part(x), dtype);
}

}  // namespace complex_detail

inline namespace math {

Tensor view_as_real(const Tensor& x) {
  check(x.defined(), "view_as_real: the input is an undefined tensor.");
  if (is_complex(x.dtype())) return complex_detail::pairs(x);
  Tensor re = detail::unchanged(x);
  return stack({re, zeros_like(re)}, -1);
}

Tensor view_as_complex(const Tensor& x) {
  check(x.defined(), "view_as_complex: the input is an undefined tensor.");
  if (is_complex(x.dtype()))
    throw TypeError(keras::detail::cat("view_as_complex: the input must be real with a last "
                                       "axis of extent 2; received a ", x.dtype(),
                                       " tensor of shape ", x.shape(), "."));
  return complex_detail::from_pairs(detail::unchanged(x));
}

}  // namespace math
}  // namespace keras::ops
