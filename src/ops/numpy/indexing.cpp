// take, take_along_axis, select, unravel_index.

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {
inline namespace numpy {

namespace {

// x and the indices on one backend; strings (on their own host backend) are picked by indices
// from any host backend (fit shuffles string inputs with take).
void check_take_backends(std::string_view op, const Tensor& x, const Tensor& indices) {
  if (x.dtype() == DType::String && indices.defined() && indices.backend().is_host()) return;
  detail::common_backend(op, {&x, &indices});
}

// Strings stay on the host; indices from device memory (a model's backend on a GPU, whose fit
// shuffles string inputs too) come to the host to pick them.
Tensor indices_for(const Tensor& x, const Tensor& indices) {
  if (x.dtype() == DType::String && indices.defined() && !indices.backend().is_host() &&
      !indices.backend().is_symbolic())
    return indices.to("cpu");
  return indices;
}

}  // namespace

Tensor take(const Tensor& x, const Tensor& indices_anywhere, std::optional<int> axis) {
  constexpr std::string_view op = "take";
  check(x.defined(), op, ": the input is an undefined tensor.");
  const Tensor indices = indices_for(x, indices_anywhere);
  check_take_backends(op, x, indices);
  const Tensor source = axis ? x : ravel(x);
  const int a = axis ? detail::normalize_axis(op, *axis, x.ndim()) : 0;
  Tensor idx = detail::normalize_indices(op, indices, source.shape()[a], a);
  Tensor picked = detail::index_select(source, ravel(idx), a);
  Shape shape;
  for (int d = 0; d < a; ++d) shape.push_back(source.shape()[d]);
  for (int64_t s : indices.shape()) shape.push_back(s);
  for (int d = a + 1; d < source.ndim(); ++d) shape.push_back(source.shape()[d]);
  return reshape(picked, shape);
}

Tensor take_along_axis(const Tensor& x, const Tensor& indices_anywhere, std::optional<int> axis) {
  constexpr std::string_view op = "take_along_axis";
  check(x.defined() && indices_anywhere.defined(), op, ": an input is an undefined tensor.");
  const Tensor indices = indices_for(x, indices_anywhere);
  check_take_backends(op, x, indices);
  const Tensor source = axis ? x : ravel(x);
  check(indices.ndim() == source.ndim(), op, ": indices must have the rank of ",
        axis ? "x" : "the flattened x", " (", source.ndim(), "); got indices of shape ",
        indices.shape(), " for x of shape ", x.shape(), ".");
  const int a = axis ? detail::normalize_axis(op, *axis, x.ndim()) : 0;
  // The other axes broadcast between x and indices.
  Shape xs = source.shape(), is = indices.shape();
  for (int d = 0; d < source.ndim(); ++d) {
    if (d == a) continue;
    const int64_t n = xs[d], m = is[d];
    check(n == m || n == 1 || m == 1, op, ": x of shape ", x.shape(), " and indices of shape ",
          indices.shape(), " do not broadcast on axis ", d, " (", n, " vs ", m, ").");
    xs[d] = is[d] = n == 1 ? m : n;
  }
  Tensor idx = detail::normalize_indices(op, indices, source.shape()[a], a);
  return detail::gather_along(broadcast_to(source, xs), broadcast_to(idx, is), a);
}

Tensor select(const std::vector<Tensor>& condlist, const std::vector<Tensor>& choicelist,
              const Tensor& default_value) {
  constexpr std::string_view op = "select";
  check(!condlist.empty() && !choicelist.empty(), op,
        ": condlist and choicelist must not be empty.");
  check(condlist.size() == choicelist.size(), op, ": condlist has ", condlist.size(),
        " entries but choicelist has ", choicelist.size(), "; they must match.");
  for (size_t i = 0; i < condlist.size(); ++i) {
    check(condlist[i].defined() && choicelist[i].defined(), op,
          ": an input is an undefined tensor.");
    check<TypeError>(condlist[i].dtype() == DType::Bool, op, ": condition ", i,
                     " must be a bool tensor; got dtype ", condlist[i].dtype(), " (shape ",
                     condlist[i].shape(), ").");
  }
  // Later conditions first, so the first true condition wins.
  Tensor out = default_value;
  for (size_t i = condlist.size(); i-- > 0;) out = where(condlist[i], choicelist[i], out);
  return out;
}

TensorList unravel_index(const Tensor& indices, const Shape& shape) {
  constexpr std::string_view op = "unravel_index";
  check(indices.defined(), op, ": the indices are an undefined tensor.");
  check<TypeError>(is_integer(indices.dtype()), op, ": indices must be integers; got dtype ",
                   indices.dtype(), ".");
  for (int64_t d : shape)
    check(d >= 0, op, ": the shape ", shape, " has a negative dimension.");
  const int64_t total = shape.numel();
  // In int64, so that wrapping negative entries cannot overflow a narrow dtype.
  Tensor flat = detail::normalize_indices(op, detail::cast(indices, DType::Int64), total, 0);
  auto& be = flat.backend();
  TensorList out(shape.size());
  for (int d = shape.rank() - 1; d >= 0; --d) {
    Tensor extent = detail::scalar_tensor(shape[d], DType::Int64, be);
    out[d] = detail::run_copy(detail::run_binary(backend::BinaryOp::Mod, flat, extent),
                              indices.dtype());
    if (d > 0) flat = detail::run_binary(backend::BinaryOp::FloorDiv, flat, extent);
  }
  return out;
}

}  // namespace numpy
}  // namespace keras::ops
