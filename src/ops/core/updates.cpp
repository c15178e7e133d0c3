// keras.ops core updates: scatter, scatter_update, slice, slice_update. N-d indices address a
// block of leading axes; the op flattens those axes to one and scatters rows along it with the
// backend's scatter primitive.

#include <algorithm>
#include <cctype>
#include <string>

#include "keras/autograd/node.h"
#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {
inline namespace core {

namespace {

// The layout of an N-d scatter into `shape`: indices (..., k) address the first k axes.
struct ScatterLayout {
  Shape updates_shape;  // indices.shape[:-1] + shape[k:]
  int64_t rows = 1;     // number of index tuples
  int64_t slots = 1;    // prod(shape[:k])
  int64_t inner = 1;    // prod(shape[k:])
  Tensor slot;          // (rows,) int64: the flat slot of each index tuple
  Tensor row_index;     // (rows, inner) int64 view: `slot` broadcast along the rows
};

ScatterLayout scatter_layout(std::string_view op, const Tensor& indices, const Shape& shape) {
  check(indices.defined(), op, ": the indices are an undefined tensor.");
  check<TypeError>(is_integer(indices.dtype()), op, ": indices must be integers; got dtype ",
                   indices.dtype(), " (shape ", indices.shape(), ").");
  check(indices.ndim() >= 1, op, ": indices must have at least 1 axis (the last one holds the "
        "coordinates); got shape ", indices.shape(), ".");
  const int k = static_cast<int>(indices.shape().back());
  check(k <= shape.rank(), op, ": indices of shape ", indices.shape(), " hold ", k,
        " coordinates, but the target shape ", shape, " has only ", shape.rank(), " axes.");
  ScatterLayout l;
  for (int d = 0; d + 1 < indices.ndim(); ++d) {
    l.updates_shape.push_back(indices.shape()[d]);
    l.rows *= indices.shape()[d];
  }
  for (int d = 0; d < shape.rank(); ++d) {
    if (d < k) {
      l.slots *= shape[d];
    } else {
      l.updates_shape.push_back(shape[d]);
      l.inner *= shape[d];
    }
  }
  // The flat slot of each index tuple: ((i0 * n1) + i1) * n2 + ..., each coordinate checked
  // (and wrapped when negative) against its axis.
  Tensor flat = detail::zeros_on(Shape{l.rows}, DType::Int64, indices.backend());
  Tensor tuples = reshape(indices, {l.rows, static_cast<int64_t>(k)});
  for (int i = 0; i < k; ++i) {
    std::vector<detail::AxisIndex> spec = detail::full_spec(tuples.shape());
    spec[1] = detail::AxisIndex{i, 1, 1, false};
    Tensor coord = detail::normalize_indices(op, detail::spec_view(tuples, spec), shape[i], i);
    Tensor scaled = detail::run_binary(
        backend::BinaryOp::Mul, flat, detail::scalar_tensor(shape[i], DType::Int64, flat.backend()));
    flat = detail::run_binary(backend::BinaryOp::Add, scaled, detail::cast(coord, DType::Int64));
  }
  l.slot = flat;
  l.row_index = broadcast_to(reshape(flat, {l.rows, 1}), {l.rows, l.inner});
  return l;
}

// The updates broadcast to indices.shape[:-1] + shape[k:]; ValueError naming all three shapes.
Tensor fit_updates(std::string_view op, const Tensor& updates, const ScatterLayout& l,
                   const Tensor& indices, const Shape& shape) {
  const Shape& want = l.updates_shape;
  bool fits = updates.ndim() <= want.rank();
  for (int d = 0; fits && d < updates.ndim(); ++d) {
    const int64_t have = updates.shape()[d], need = want[want.rank() - updates.ndim() + d];
    fits = have == need || have == 1;
  }
  check(fits, op, ": updates of shape ", updates.shape(), " do not match indices of shape ",
        indices.shape(), " into a tensor of shape ", shape, " (expected updates of shape ", want,
        ", or broadcastable to it).");
  return broadcast_to(updates, want);
}

backend::ScatterReduce parse_reduction(std::optional<std::string_view> reduction) {
  if (!reduction) return backend::ScatterReduce::Assign;
  std::string r(*reduction);
  std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return std::tolower(c); });
  if (r == "add") return backend::ScatterReduce::Add;
  if (r == "mul") return backend::ScatterReduce::Mul;
  if (r == "max") return backend::ScatterReduce::Max;
  if (r == "min") return backend::ScatterReduce::Min;
  throw ValueError(keras::detail::cat("scatter_update: invalid reduction '", *reduction,
                                      "'. Supported values: None, 'add', 'mul', 'max', 'min'."));
}

// The block spec of a slice at `start` of extents `lengths`; IndexError when it does not fit.
std::vector<detail::AxisIndex> block_spec(std::string_view op, const Shape& shape,
                                          const std::vector<int64_t>& start,
                                          const Shape& lengths) {
  check(static_cast<int>(start.size()) == shape.rank(), op, ": start_indices ",
        detail::list_string(start), " must have one entry per axis of the input of shape ",
        shape, ".");
  std::vector<detail::AxisIndex> spec(shape.size());
  for (int d = 0; d < shape.rank(); ++d) {
    const int64_t len = lengths[d];
    check<IndexError>(start[d] >= 0 && start[d] + len <= shape[d], op, ": a block of shape ",
                      lengths, " at start_indices ", detail::list_string(start),
                      " does not fit in the input of shape ", shape, " (axis ", d, ").");
    spec[d] = detail::AxisIndex{start[d], 1, len, true};
  }
  return spec;
}

}  // namespace

Tensor scatter(const Tensor& indices, const Tensor& values, const Shape& shape) {
  constexpr std::string_view op = "scatter";
  check(values.defined(), op, ": the values are an undefined tensor.");
  detail::common_backend(op, {&indices, &values});
  ScatterLayout l = scatter_layout(op, indices, shape);
  Tensor v = fit_updates(op, detail::cast(values, values.dtype()), l, indices, shape);
  Tensor rows = reshape(v, {l.rows, l.inner});
  return reshape(detail::scatter_add_along(rows, l.row_index, 0, {l.slots, l.inner}), shape);
}

Tensor scatter_update(const Tensor& inputs, const Tensor& indices, const Tensor& updates,
                      std::optional<std::string_view> reduction) {
  constexpr std::string_view op = "scatter_update";
  check(inputs.defined() && updates.defined(), op, ": an input is an undefined tensor.");
  auto& be = detail::common_backend(op, {&inputs, &indices, &updates});
  const backend::ScatterReduce mode = parse_reduction(reduction);
  ScatterLayout l = scatter_layout(op, indices, inputs.shape());
  Tensor x = detail::cast(inputs, inputs.dtype());
  Tensor u = fit_updates(op, detail::cast(updates, inputs.dtype()), l, indices, inputs.shape());
  const Shape flat{l.slots, l.inner};
  Tensor rows = reshape(u, {l.rows, l.inner});
  Tensor out = detail::run_copy(x, x.dtype());
  if (rows.size() > 0)
    be.scatter(reshape(out, flat).array(), l.row_index.array(), rows.array(), 0, mode);
  if (!autograd::should_record(x, u)) return out;

  Tensor index = l.row_index;
  const Shape xs = x.shape(), us = u.shape(), row_shape{l.rows, l.inner};
  Tensor written, winner;
  if (mode == backend::ScatterReduce::Assign) {
    // Which slots were overwritten, and which update won each of them (the last duplicate,
    // as the primitive applies entries in order): constants of the forward pass.
    Tensor ids = detail::empty(Shape{l.rows}, DType::Int64, be);
    if (l.rows > 0) be.arange(ids.array(), 0, 1);
    Tensor owner = detail::empty(Shape{l.slots}, DType::Int64, be);
    if (l.slots > 0) be.fill(owner.array(), -1);
    if (l.rows > 0) be.scatter(owner.array(), l.slot.array(), ids.array(), 0, mode);
    written = reshape(broadcast_to(reshape(detail::run_binary(backend::BinaryOp::GreaterEqual, owner,
                                                              detail::scalar_tensor(0, DType::Int64, be)),
                                           {l.slots, 1}),
                                   flat),
                      xs);
    Tensor back = detail::empty(Shape{l.rows}, DType::Int64, be);
    if (l.rows > 0) be.gather(back.array(), owner.array(), l.slot.array(), 0);
    winner = reshape(broadcast_to(reshape(detail::run_binary(backend::BinaryOp::Equal, back, ids),
                                          {l.rows, 1}),
                                  {l.rows, l.inner}),
                     us);
  }
  autograd::record(op, {x, u}, out, [mode, index, flat, row_shape, xs, us, written, winner, x, u](
                                        const autograd::Context& ctx, const Tensor& g) {
    TensorList grads(2);
    const bool need_x = ctx.needs_input_grad(0), need_u = ctx.needs_input_grad(1);
    auto& gb = g.backend();
    const Tensor zero = detail::scalar_tensor(0, g.dtype(), gb);
    // The value at each update's slot, and its adjoint: scatter-add of rows back to slots.
    auto at_rows = [&](const Tensor& t) {
      return reshape(detail::gather_along(reshape(t, flat), index, 0), us);
    };
    auto to_slots = [&](const Tensor& t) {
      return reshape(detail::scatter_add_along(reshape(t, row_shape), index, 0, flat), xs);
    };
    switch (mode) {
      case backend::ScatterReduce::Assign:
        if (need_x) grads[0] = where(written, zero, g);
        if (need_u) grads[1] = where(winner, at_rows(g), zero);
        break;
      case backend::ScatterReduce::Add:
        if (need_x) grads[0] = g;
        if (need_u) grads[1] = at_rows(g);
        break;
      case backend::ScatterReduce::Max:
      case backend::ScatterReduce::Min: {
        // Every contributor equal to the result shares its gradient evenly with the others.
        const Tensor y = ctx.output();
        const Tensor hit_x = detail::cast(equal(x, y), g.dtype());
        const Tensor hit_u = detail::cast(equal(u, at_rows(y)), g.dtype());
        const Tensor count = maximum(add(hit_x, to_slots(hit_u)), 1);
        const Tensor share = divide(g, count);
        if (need_x) grads[0] = multiply(share, hit_x);
        if (need_u) grads[1] = multiply(at_rows(share), hit_u);
        break;
      }
      case backend::ScatterReduce::Mul: {
        // d/dx = product of the updates at the slot; d/du_j = g * y / u_j (u_j != 0).
        if (need_x) {
          Tensor product = detail::empty(flat, g.dtype(), gb);
          gb.fill(product.array(), 1);
          Tensor rows = reshape(detail::cast(u, g.dtype()), row_shape);
          if (rows.size() > 0)
            gb.scatter(product.array(), index.array(), rows.array(), 0, backend::ScatterReduce::Mul);
          grads[0] = multiply(g, reshape(product, xs));
        }
        if (need_u) grads[1] = divide(at_rows(multiply(g, ctx.output())), u);
        break;
      }
      default:
        break;
    }
    return grads;
  });
  return out;
}

Tensor slice(const Tensor& inputs, const std::vector<int64_t>& start_indices, const Shape& shape) {
  constexpr std::string_view op = "slice";
  check(inputs.defined(), op, ": the input is an undefined tensor.");
  check(shape.rank() == inputs.ndim(), op, ": shape ", shape, " must have one entry per axis of "
        "the input of shape ", inputs.shape(), ".");
  check(static_cast<int>(start_indices.size()) == inputs.ndim(), op, ": start_indices ",
        detail::list_string(start_indices), " must have one entry per axis of the input of "
        "shape ", inputs.shape(), ".");
  Shape lengths = shape;
  for (int d = 0; d < shape.rank(); ++d) {
    check(shape[d] >= -1, op, ": shape ", shape, " has a negative extent (only -1, meaning "
          "\"to the end\", is allowed).");
    if (shape[d] == -1) lengths[d] = inputs.shape()[d] - start_indices[d];
  }
  return detail::basic_view(inputs, block_spec(op, inputs.shape(), start_indices, lengths));
}

Tensor slice_update(const Tensor& inputs, const std::vector<int64_t>& start_indices,
                    const Tensor& updates) {
  constexpr std::string_view op = "slice_update";
  check(inputs.defined() && updates.defined(), op, ": an input is an undefined tensor.");
  auto& be = detail::common_backend(op, {&inputs, &updates});
  check(updates.ndim() == inputs.ndim(), op, ": updates of shape ", updates.shape(),
        " must have the rank of the input of shape ", inputs.shape(), ".");
  const auto spec = block_spec(op, inputs.shape(), start_indices, updates.shape());
  Tensor x = detail::cast(inputs, inputs.dtype());
  Tensor u = detail::cast(updates, inputs.dtype());
  Tensor out = detail::run_copy(x, x.dtype());
  if (u.size() > 0) detail::copy_into(be, detail::spec_view(out, spec).array(), u.array());
  if (autograd::should_record(x, u)) {
    const std::vector<int64_t> start = start_indices;
    const Shape us = u.shape();
    autograd::record(op, {x, u}, out, [start, spec, us](const autograd::Context& ctx,
                                                        const Tensor& g) {
      TensorList grads(2);
      if (ctx.needs_input_grad(0))
        grads[0] = slice_update(g, start, detail::zeros_on(us, g.dtype(), g.backend()));
      if (ctx.needs_input_grad(1)) grads[1] = detail::basic_view(g, spec);
      return grads;
    });
  }
  return out;
}

}  // namespace core
}  // namespace keras::ops
