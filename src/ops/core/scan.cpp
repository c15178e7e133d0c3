// scan, associative_scan, map and vectorized_map: loops over slices along an axis whose
// results are stacked.

#include "keras/autograd/gradient_tape.h"
#include "keras/ops/ops.h"
#include "ops/core/loop_state.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {
inline namespace core {

namespace {

// The common leading extent of xs (each defined and at least 1-d).
int64_t leading_extent(std::string_view op, std::string_view what, const TensorList& xs) {
  for (size_t i = 0; i < xs.size(); ++i) {
    check(xs[i].defined(), op, ": ", what, " ", i, " is an undefined tensor.");
    check(xs[i].ndim() >= 1, op, ": ", what, " ", i,
          " must have a leading axis to iterate over; got a 0-d tensor.");
    check(xs[i].shape()[0] == xs[0].shape()[0], op, ": every ", what,
          " must have the same leading extent; ", what, " 0 has shape ", xs[0].shape(), " and ",
          what, " ", i, " has shape ", xs[i].shape(), ".");
  }
  return xs.empty() ? 0 : xs[0].shape()[0];
}

// Zeros shaped as one slice of x along its leading axis, on x's backend.
Tensor zero_slice(const Tensor& x) {
  Tensor out = detail::empty(Shape(x.shape().begin() + 1, x.shape().end()), x.dtype(),
                             x.backend());
  if (out.size() > 0) x.backend().fill(out.array(), Scalar(0));
  return out;
}

// Zero steps of y stacked: shape (0, *y.shape).
Tensor empty_stack(const Tensor& y) {
  if (!y.defined()) return y;
  Shape shape{0};
  for (int64_t d : y.shape()) shape.push_back(d);
  return detail::empty(shape, y.dtype(), y.backend());
}

// For every entry of xs, its slices along the leading axis.
std::vector<TensorList> slices_of(const TensorList& xs) {
  std::vector<TensorList> out;
  for (const Tensor& x : xs) out.push_back(unstack(x));
  return out;
}

TensorList slice_at(const std::vector<TensorList>& slices, int64_t i) {
  TensorList x;
  for (const TensorList& s : slices) x.push_back(s[static_cast<size_t>(i)]);
  return x;
}

TensorList map_impl(std::string_view op, const ListFn& f, const TensorList& xs) {
  detail::require_callable(op, "f", f);
  check(!xs.empty(), op, ": needs at least one tensor to map over.");
  const int64_t n = leading_extent(op, "input", xs);
  if (n == 0) {
    // Learn the shape of the results from one call on zeros.
    NoGradScope no_grad;
    TensorList x;
    for (const Tensor& t : xs) x.push_back(zero_slice(t));
    TensorList out;
    for (const Tensor& y : f(x)) out.push_back(empty_stack(y));
    return out;
  }
  auto slices = slices_of(xs);
  std::vector<TensorList> steps;
  steps.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) steps.push_back(f(slice_at(slices, i)));
  return detail::stack_steps(op, steps);
}

// x[start], x[start + step], ... (count of them) along `axis`, as a differentiable view.
Tensor slice_axis(const Tensor& x, int axis, int64_t start, int64_t count, int64_t step) {
  std::vector<detail::AxisIndex> spec(static_cast<size_t>(x.ndim()));
  for (int d = 0; d < x.ndim(); ++d) spec[static_cast<size_t>(d)].length = x.shape()[d];
  spec[static_cast<size_t>(axis)] = detail::AxisIndex{start, step, count, true};
  return detail::basic_view(x, spec);
}

// Blelloch's odd-even associative scan over tensors sharing the scanned axis' extent.
class AssociativeScan {
 public:
  using Fn = std::function<TensorList(const TensorList&, const TensorList&)>;
  AssociativeScan(const Fn& f, std::vector<int> axes) : f_(f), axes_(std::move(axes)) {}

  TensorList run(const TensorList& elems) const {
    const int64_t n = extent(elems);
    if (n < 2) return elems;
    // Combine neighbours (0, 1), (2, 3), ...: the scan of those pairs gives the results at the
    // odd positions.
    const int64_t half = n / 2;
    TensorList odd = run(combine(slice_all(elems, 0, half, 2), slice_all(elems, 1, half, 2)));
    // The even positions 2, 4, ...: the odd result before each, combined with its element.
    const int64_t rest = (n - 1) / 2;
    TensorList even = slice_all(elems, 0, 1, 1);
    if (rest > 0) {
      TensorList tail = combine(slice_all(odd, 0, rest, 1), slice_all(elems, 2, rest, 2));
      for (size_t i = 0; i < even.size(); ++i) even[i] = concatenate({even[i], tail[i]}, axes_[i]);
    }
    return interleave(even, odd);
  }

  // Each tensor reversed along its axis (a view).
  TensorList flip(const TensorList& elems) const {
    const int64_t n = extent(elems);
    return n == 0 ? elems : slice_all(elems, n - 1, n, -1);
  }

 private:
  int64_t extent(const TensorList& elems) const { return elems[0].shape()[axes_[0]]; }

  TensorList slice_all(const TensorList& elems, int64_t start, int64_t count,
                       int64_t step) const {
    TensorList out;
    for (size_t i = 0; i < elems.size(); ++i)
      out.push_back(slice_axis(elems[i], axes_[i], start, count, step));
    return out;
  }

  TensorList combine(const TensorList& a, const TensorList& b) const {
    TensorList r = f_(a, b);
    check(r.size() == a.size(), "associative_scan: f returned ", r.size(), " tensors for ",
          a.size(), " elems; it must return one per elem.");
    for (size_t i = 0; i < r.size(); ++i) {
      check(r[i].defined(), "associative_scan: f returned an undefined tensor for elem ", i, ".");
      check(r[i].shape() == a[i].shape(),
            "associative_scan: f must return tensors shaped as its inputs; for elem ", i,
            " it got inputs of shape ", a[i].shape(), " and returned shape ", r[i].shape(), ".");
    }
    return r;
  }

  // even[0], odd[0], even[1], odd[1], ... along each axis.
  TensorList interleave(const TensorList& even, const TensorList& odd) const {
    const int64_t m = extent(odd);
    TensorList out;
    for (size_t i = 0; i < even.size(); ++i) {
      const int a = axes_[i];
      Tensor pairs = stack({slice_axis(even[i], a, 0, m, 1), odd[i]}, a + 1);
      Shape merged;
      for (int d = 0; d < pairs.ndim(); ++d)
        if (d != a + 1) merged.push_back(d == a ? 2 * m : pairs.shape()[d]);
      Tensor joined = reshape(pairs, merged);
      if (even[i].shape()[a] > m) joined = concatenate({joined, slice_axis(even[i], a, m, 1, 1)}, a);
      out.push_back(joined);
    }
    return out;
  }

  const Fn& f_;
  std::vector<int> axes_;
};

}  // namespace

std::pair<TensorList, TensorList> scan(
    const std::function<ScanStepList(const TensorList&, const TensorList&)>& f,
    const TensorList& init, const TensorList& xs, std::optional<int64_t> length, bool reverse,
    int unroll) {
  constexpr std::string_view op = "scan";
  detail::require_callable(op, "f", f);
  check(unroll >= 0, op, ": unroll must be a positive integer or a bool; got ", unroll, ".");
  int64_t n = leading_extent(op, "xs entry", xs);
  if (xs.empty()) {
    check(length.has_value(), op, ": needs xs or a length.");
    n = *length;
  } else {
    check(!length || *length == n, op, ": length ", length.value_or(0),
          " disagrees with the leading extent ", n, " of xs.");
  }
  check(n >= 0, op, ": length must be >= 0; got ", n, ".");
  TensorList carry = detail::loop_state(op, "carry", init);
  if (n == 0) {
    // Learn the shapes of the outputs from one call on zeros.
    NoGradScope no_grad;
    TensorList x;
    for (const Tensor& t : xs) x.push_back(zero_slice(t));
    TensorList ys;
    for (const Tensor& y : f(carry, x).second) ys.push_back(empty_stack(y));
    return {carry, ys};
  }
  auto slices = slices_of(xs);
  std::vector<TensorList> ys(static_cast<size_t>(n));
  for (int64_t step = 0; step < n; ++step) {
    const int64_t i = reverse ? n - 1 - step : step;
    auto [next, y] = f(carry, slice_at(slices, i));
    detail::check_same_state(op, "carry", carry, next, step);
    carry = std::move(next);
    ys[static_cast<size_t>(i)] = std::move(y);
  }
  return {carry, detail::stack_steps(op, ys)};
}

std::pair<Tensor, Tensor> scan(const std::function<ScanStep(const Tensor&, const Tensor&)>& f,
                               const Tensor& init, const Tensor& xs,
                               std::optional<int64_t> length, bool reverse, int unroll) {
  detail::require_callable("scan", "f", f);
  auto [carry, ys] = scan(
      [&](const TensorList& c, const TensorList& x) {
        auto [next, y] = f(c[0], x.empty() ? Tensor() : x[0]);
        return ScanStepList{TensorList{next}, TensorList{y}};
      },
      TensorList{init}, xs.defined() ? TensorList{xs} : TensorList{}, length, reverse, unroll);
  return {carry[0], ys[0]};
}

TensorList associative_scan(
    const std::function<TensorList(const TensorList&, const TensorList&)>& f,
    const TensorList& elems, bool reverse, int axis) {
  constexpr std::string_view op = "associative_scan";
  detail::require_callable(op, "f", f);
  check(!elems.empty(), op, ": needs at least one tensor to scan.");
  std::vector<int> axes;
  for (size_t i = 0; i < elems.size(); ++i) {
    check(elems[i].defined(), op, ": elem ", i, " is an undefined tensor.");
    check(elems[i].ndim() >= 1, op, ": elem ", i, " is 0-d; it needs an axis to scan along.");
    axes.push_back(detail::normalize_axis(op, axis, elems[i].ndim()));
    check(elems[i].shape()[axes[i]] == elems[0].shape()[axes[0]], op,
          ": every elem must have the same extent along the scanned axis ", axis, "; elem 0 has "
          "shape ", elems[0].shape(), " and elem ", i, " has shape ", elems[i].shape(), ".");
  }
  AssociativeScan scanner(f, axes);
  if (!reverse) return scanner.run(elems);
  return scanner.flip(scanner.run(scanner.flip(elems)));
}

Tensor associative_scan(const std::function<Tensor(const Tensor&, const Tensor&)>& f,
                        const Tensor& elems, bool reverse, int axis) {
  detail::require_callable("associative_scan", "f", f);
  return associative_scan(
      [&](const TensorList& a, const TensorList& b) { return TensorList{f(a[0], b[0])}; },
      TensorList{elems}, reverse, axis)[0];
}

TensorList map(const ListFn& f, const TensorList& xs) { return map_impl("map", f, xs); }

Tensor map(const std::function<Tensor(const Tensor&)>& f, const Tensor& xs) {
  detail::require_callable("map", "f", f);
  return map_impl("map", [&](const TensorList& x) { return TensorList{f(x[0])}; },
                  TensorList{xs})[0];
}

TensorList vectorized_map(const ListFn& function, const TensorList& elements) {
  return map_impl("vectorized_map", function, elements);
}

Tensor vectorized_map(const std::function<Tensor(const Tensor&)>& function,
                      const Tensor& elements) {
  detail::require_callable("vectorized_map", "function", function);
  return map_impl("vectorized_map",
                  [&](const TensorList& x) { return TensorList{function(x[0])}; },
                  TensorList{elements})[0];
}

}  // namespace core
}  // namespace keras::ops
