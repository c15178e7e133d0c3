#include "ops/detail/op_utils.h"

#include <new>
#include <string>

#include "core/out_of_memory.h"
#include "keras/autograd/gradient_tape.h"
#include "keras/autograd/node.h"
#include "keras/backend/registry.h"
#include "keras/backend/trace_hook.h"
#include "keras/core/runtime_errors.h"
#include "keras/ops/ops.h"
#include "ops/complex/complex_parts.h"
#include "tensor/string_backend.h"

namespace keras::ops::detail {

Tensor empty(const Shape& shape, DType dtype, Backend& requested) {
  // Strings live on their own host backend whatever the current one (a data-free symbolic
  // tensor stays symbolic): tensor/string_backend.h.
  Backend& backend = dtype == DType::String && !requested.is_symbolic()
                         ? keras::detail::string_backend()
                         : requested;
  for (int64_t d : shape)
    check(d >= 0, "Negative dimension in shape ", shape, ". Every dimension must be >= 0.");
  // The byte count in 64 bits, checked: Shape::numel would wrap silently.
  uint64_t bytes = itemsize(dtype);
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes))
      throw ResourceExhaustedError(
          keras::detail::cat("Cannot create a ", dtype, " tensor of shape ", shape,
                             ": it would hold more bytes than a 64-bit address space."));
  }
  Array a;
  a.dtype = dtype;
  a.shape = shape;
  a.strides = contiguous_strides(shape);
  try {
    a.storage = backend.allocate(static_cast<size_t>(bytes));
  } catch (const ResourceExhaustedError& e) {
    throw ResourceExhaustedError(keras::detail::cat("Cannot create a ", dtype, " tensor of shape ",
                                                    shape, " on backend '", backend.name(),
                                                    "': ", e.what()));
  } catch (const std::bad_alloc&) {  // a backend whose allocator reports it the C++ way
    throw ResourceExhaustedError(keras::detail::cat(
        "Cannot create a ", dtype, " tensor of shape ", shape, " on backend '", backend.name(),
        "': out of memory allocating ", keras::detail::byte_count(bytes), "."));
  }
  return Tensor(make_ref<keras::detail::TensorImpl>(std::move(a)));
}

Tensor make_view(const Tensor& base, const Shape& shape, const Strides& strides, int64_t offset) {
  Array a;
  a.storage = base.array().storage;
  a.dtype = base.dtype();
  a.shape = shape;
  a.strides = strides;
  a.offset = offset;
  return Tensor(make_ref<keras::detail::TensorImpl>(std::move(a)));
}

Array broadcast_array(const Array& a, const Shape& shape) {
  Array out;
  out.storage = a.storage;
  out.offset = a.offset;
  out.dtype = a.dtype;
  out.shape = shape;
  out.strides = Strides(shape.size(), 0);
  const int lead = shape.rank() - a.rank();
  for (int d = 0; d < a.rank(); ++d)
    out.strides[lead + d] = a.shape[d] == 1 && shape[lead + d] != 1 ? 0 : a.strides[d];
  return out;
}

namespace {

[[noreturn]] void backend_mismatch(std::string_view op, const Backend& a, const Backend& b) {
  if (keras::detail::is_string_backend(a) || keras::detail::is_string_backend(b))
    throw TypeError(keras::detail::cat(op, " does not take string tensors together with "
                                       "numbers: strings go to the text layers "
                                       "(TextVectorization, StringLookup, Hashing), which turn "
                                       "them into numbers (docs/strings.md)."));
  throw ValueError(keras::detail::cat(
      op, ": the inputs live on different backends ('", a.name(), "' on ", a.device(), " and '",
      b.name(), "' on ", b.device(), "). Move one explicitly with .to(\"", a.name(), "\") first."));
}

}  // namespace

Backend& common_backend(std::string_view op, std::initializer_list<const Tensor*> inputs) {
  Backend* found = nullptr;
  for (const Tensor* t : inputs) {
    if (!t->defined() || t->is_weak()) continue;
    Backend& b = t->backend();
    if (b.is_symbolic()) return b;  // shape inference: symbolic absorbs the rest
    if (!found) found = &b;
    else if (found != &b) backend_mismatch(op, *found, b);
  }
  if (found) return *found;
  for (const Tensor* t : inputs)
    if (t->defined()) return t->backend();
  return backend::current();
}

Backend& common_backend(std::string_view op, std::span<const Tensor> inputs) {
  Backend* found = nullptr;
  for (const Tensor& t : inputs) {
    if (!t.defined() || t.is_weak()) continue;
    Backend& b = t.backend();
    if (b.is_symbolic()) return b;
    if (!found) found = &b;
    else if (found != &b) backend_mismatch(op, *found, b);
  }
  if (found) return *found;
  for (const Tensor& t : inputs)
    if (t.defined()) return t.backend();
  return backend::current();
}

Tensor prepare(const Tensor& t, DType dtype, Backend& b) {
  if (t.is_weak()) return scalar_tensor(t.impl()->weak_value, dtype, b);
  // Shape inference: a real tensor (a layer's weight) joins the symbolic computation as a
  // data-free stand-in of its shape and dtype.
  if (b.is_symbolic() && &t.backend() != &b) return empty(t.shape(), dtype, b);
  return cast(t, dtype);
}

Shape broadcast_shapes(std::string_view op, const Shape& a, const Shape& b) {
  if (a == b) return a;
  const int r = std::max(a.rank(), b.rank());
  Shape out;
  out.resize(r);
  for (int i = 0; i < r; ++i) {
    int ia = a.rank() - r + i, ib = b.rank() - r + i;
    int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
    if (da != db && da != 1 && db != 1)
      throw ValueError(keras::detail::cat(op, ": shapes ", a, " and ", b,
                                   " cannot be broadcast together (axis ", i - r, ": ", da,
                                   " vs ", db, ")."));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

int normalize_axis(std::string_view op, int axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw ValueError(keras::detail::cat(op, ": axis ", axis, " is out of bounds for a tensor of rank ",
                                 ndim, " (valid axes: ", -ndim, " to ", ndim - 1, ")."));
  return axis < 0 ? axis + ndim : axis;
}

void check_rank(std::string_view op, int ndim) {
  check(ndim <= 64, op, ": tensors of rank ", ndim, " are not supported (at most 64 axes).");
}

uint64_t axes_mask(std::string_view op, const Axes& axes, int ndim) {
  check_rank(op, ndim);
  if (axes.is_none()) return ndim == 64 ? ~uint64_t{0} : ((uint64_t{1} << ndim) - 1);
  uint64_t mask = 0;
  for (int a : axes.list()) {
    int d = normalize_axis(op, a, ndim);
    check(!(mask >> d & 1), op, ": axis ", a, " is repeated in the axis list.");
    mask |= uint64_t{1} << d;
  }
  return mask;
}

Shape reduced_shape(const Shape& shape, uint64_t mask, bool keepdims) {
  Shape out;
  for (int d = 0; d < shape.rank(); ++d) {
    if (mask >> d & 1) {
      if (keepdims) out.push_back(1);
    } else {
      out.push_back(shape[d]);
    }
  }
  return out;
}

DType promote(std::initializer_list<const Tensor*> inputs) {
  SmallVector<DTypeLike, 8> items;
  for (const Tensor* t : inputs) {
    if (!t->defined()) continue;
    if (t->is_weak()) {
      const Scalar& v = t->impl()->weak_value;
      items.push_back(v.is_bool() ? DTypeLike(DType::Bool)
                                  : DTypeLike(v.is_floating() ? DType::Float32 : DType::Int32, true));
    } else {
      items.push_back(DTypeLike(t->dtype()));
    }
  }
  return result_type(std::span<const DTypeLike>(items.data(), items.size()));
}

Tensor filled(const Shape& shape, const Scalar& value, DType dtype, Backend& b) {
  if (is_complex(dtype)) return complex_detail::filled(shape, value, dtype, b);
  Tensor out = empty(shape, dtype, b);
  if (out.size() > 0) b.fill(out.array(), value);
  return out;
}

Tensor zeros_on(const Shape& shape, DType dtype, Backend& b) { return filled(shape, 0, dtype, b); }

Tensor scalar_tensor(const Scalar& value, DType dtype, Backend& b) {
  if (is_complex(dtype)) return complex_detail::filled({}, value, dtype, b);
  // Through copy_from_host rather than fill: memory is the one thing every backend has.
  Tensor t = empty(Shape{}, dtype, b);
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T v = value.to<T>();
    b.copy_from_host(*t.array().storage, 0, &v, sizeof(T));
  });
  return t;
}

Tensor cast(const Tensor& x, DType dtype) {
  if (x.is_weak()) return scalar_tensor(x.impl()->weak_value, dtype, x.backend());
  if (x.dtype() == dtype) return x;
  if (is_string(dtype) || is_string(x.dtype()))
    throw TypeError(keras::detail::cat(
        "cast: cannot convert a ", x.dtype(), " tensor to ", dtype, ": strings and numbers do "
        "not convert into each other (as in Keras); the text layers map strings to numbers "
        "(StringLookup, Hashing, TextVectorization; docs/strings.md)."));
  if (is_complex(dtype) || is_complex(x.dtype())) return complex_detail::cast(x, dtype);
  Tensor out = run_copy(x, dtype);
  if (is_floating(dtype) && is_floating(x.dtype()) && autograd::should_record(x)) {
    DType from = x.dtype();
    autograd::record("cast", {x}, out, [from](const autograd::Context&, const Tensor& g) {
      return std::vector<Tensor>{cast(g, from)};
    });
  }
  return out;
}

void require_float(std::string_view op, const Tensor& x) {
  if (!is_floating(x.dtype()))
    throw TypeError(keras::detail::cat(op, ": expected a floating tensor, got dtype ", x.dtype(),
                                ". Cast it with ops::cast(x, keras::float32)."));
}

Tensor run_unary(backend::UnaryOp op, const Tensor& x, double p0, double p1) {
  DType out_dtype = backend::is_predicate(op) ? DType::Bool : x.dtype();
  Tensor out = empty(x.shape(), out_dtype, x.backend());
  x.backend().unary(op, out.array(), x.array(), p0, p1);
  return out;
}

Tensor run_binary(backend::BinaryOp op, const Tensor& a, const Tensor& b) {
  Shape shape = broadcast_shapes(backend::name_of(op), a.shape(), b.shape());
  DType out_dtype = backend::is_predicate(op) ? DType::Bool : a.dtype();
  Backend& be = a.backend();
  Tensor out = empty(shape, out_dtype, be);
  be.binary(op, out.array(), broadcast_array(a.array(), shape), broadcast_array(b.array(), shape));
  return out;
}

Tensor run_reduce(backend::ReduceOp op, const Tensor& x, uint64_t mask) {
  bool boolean = op == backend::ReduceOp::Any || op == backend::ReduceOp::All;
  Tensor out = empty(reduced_shape(x.shape(), mask, true), boolean ? DType::Bool : x.dtype(),
                     x.backend());
  x.backend().reduce(op, out.array(), x.array(), mask);
  return out;
}

Tensor run_copy(const Tensor& x, DType dtype) {
  if (is_complex(x.dtype())) return complex_detail::copy(x, dtype);
  if (is_complex(dtype)) {
    NoGradScope no_grad;  // run_copy records nothing
    return complex_detail::to_complex(run_copy(x, complex_part_dtype(dtype)), dtype).contiguous();
  }
  Tensor out = empty(x.shape(), dtype, x.backend());
  x.backend().copy(out.array(), x.array(), backend::CopyMode::Assign);
  return out;
}

void copy_into(Backend& be, const Array& dst, const Array& src, backend::CopyMode mode) {
  if (is_complex(dst.dtype) && is_complex(src.dtype)) {
    be.copy(complex_detail::real_array(dst), complex_detail::real_array(src), mode);
  } else {
    be.copy(dst, src, mode);
  }
}

Tensor as_matrix_rows(const Tensor& x) {
  const int64_t k = x.ndim() == 0 ? 1 : x.shape().back();
  const int64_t rows = k == 0 ? 0 : x.size() / k;
  return reshape(x.is_contiguous() ? x : run_copy(x, x.dtype()), {rows, k});
}

double host_scalar(const Tensor& t) { return t.item<double>(); }

void check_range_on_host(const Tensor& ids, std::function<void(int64_t lo, int64_t hi)> check) {
  Tensor bounds = run_copy(ops::stack({ops::min(ids), ops::max(ids)}), DType::Int64);
  backend::run_host_check(bounds.array(), [check = std::move(check)](const void* host) {
    const auto* v = static_cast<const int64_t*>(host);
    check(v[0], v[1]);
  });
}

}  // namespace keras::ops::detail
