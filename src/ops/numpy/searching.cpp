// searchsorted, digitize, isin, nonzero.
//
// The backend has no binary search primitive, so searchsorted runs one on whole tensors: each
// value holds the count of sequence elements known to precede it and tries to extend it by
// each power of two in turn (a gather and a comparison per step, bit_length(n) steps: O(m log n)
// work, no sort of the values).

#include <bit>

#include "keras/backend/backend.h"
#include "keras/ops/ops.h"
#include "ops/numpy/reduce_common.h"

namespace keras::ops {
inline namespace numpy {

namespace {

using backend::BinaryOp;

Tensor select(const Tensor& cond, const Tensor& a, const Tensor& b) {
  Tensor out = detail::empty(cond.shape(), a.dtype(), a.backend());
  a.backend().where(out.array(), cond.array(), detail::broadcast_array(a.array(), cond.shape()),
                    detail::broadcast_array(b.array(), cond.shape()));
  return out;
}

// Insertion points (int64, length m) of the 1-d `values` into the ascending 1-d `seq` (NaN
// last); both share one dtype and backend.
Tensor search_sorted_flat(const Tensor& seq, const Tensor& values, bool right) {
  auto& be = seq.backend();
  const int64_t m = values.size(), n = seq.size();
  Tensor pos = detail::filled(Shape{m}, 0, DType::Int64, be);
  if (m == 0 || n == 0) return pos;
  auto scalar = [&](int64_t v) { return detail::scalar_tensor(v, DType::Int64, be); };
  const Tensor one = scalar(1), count = scalar(n);
  Tensor probe = detail::empty(Shape{m}, seq.dtype(), be);
  // A NaN never compares less, so numbers never move past the NaNs at the end of seq.
  const BinaryOp precedes = right ? BinaryOp::LessEqual : BinaryOp::Less;
  for (int64_t step = static_cast<int64_t>(std::bit_floor(static_cast<uint64_t>(n))); step > 0;
       step >>= 1) {
    // If seq[min(pos + step, n) - 1] precedes v, so do all elements up to there (sorted).
    Tensor candidate = detail::run_binary(
        BinaryOp::Minimum, detail::run_binary(BinaryOp::Add, pos, scalar(step)), count);
    be.gather(probe.array(), seq.array(), detail::run_binary(BinaryOp::Sub, candidate, one).array(),
              0);
    pos = select(detail::run_binary(precedes, probe, values), candidate, pos);
  }
  if (!is_floating(seq.dtype())) return pos;
  // A NaN value goes after the numbers (left) or after everything (right).
  Tensor nan_at =
      right ? count : detail::cast(sum(logical_not(detail::isnan_mask(seq))), DType::Int64);
  return select(detail::isnan_mask(values), nan_at, pos);
}

std::pair<Tensor, Tensor> common(std::string_view op, const Tensor& a, const Tensor& b) {
  auto& be = detail::common_backend(op, {&a, &b});
  DType t = detail::promote({&a, &b});
  return {detail::prepare(a, t, be), detail::prepare(b, t, be)};
}

}  // namespace

Tensor searchsorted(const Tensor& sorted_sequence, const Tensor& values, const std::string& side) {
  constexpr std::string_view op = "searchsorted";
  check(sorted_sequence.defined() && values.defined(), op, ": an input is an undefined tensor.");
  if (sorted_sequence.ndim() != 1)
    throw ValueError(keras::detail::cat(
        op, ": only 1-d sorted sequences are supported; got sorted_sequence.shape=",
        sorted_sequence.shape(), ". Use keras::ops::vectorized_map for N-d sequences."));
  if (side != "left" && side != "right")
    throw ValueError(keras::detail::cat(op, ": side must be 'left' or 'right'; got '", side, "'."));
  auto [seq, v] = common(op, sorted_sequence, values);
  Tensor idx = search_sorted_flat(seq, reshape(v, Shape{v.size()}), side == "right");
  return reshape(detail::cast(idx, DType::Int32), v.shape());
}

Tensor digitize(const Tensor& x, const Tensor& bins) {
  constexpr std::string_view op = "digitize";
  check(x.defined() && bins.defined(), op, ": an input is an undefined tensor.");
  if (bins.ndim() != 1)
    throw ValueError(
        keras::detail::cat(op, ": bins must be 1-d; got bins.shape=", bins.shape(), "."));
  auto [xc, b] = common(op, x, bins);
  const int64_t n = b.size();
  if (n == 0) return detail::filled(x.shape(), 0, DType::Int32, b.backend());
  bool increasing = true;
  // One host read decides the direction (and rejects unordered bins, as NumPy does); shape
  // inference (the symbolic backend) has no values to read.
  if (n > 1 && !b.backend().is_symbolic()) {
    Tensor next = detail::slice_axis(b, 0, 1, n), prev = detail::slice_axis(b, 0, 0, n - 1);
    auto order =
        stack({all(greater_equal(next, prev)), all(less_equal(next, prev))}).to_vector<bool>();
    if (!order[0] && !order[1])
      throw ValueError(keras::detail::cat(op,
                                          ": bins must be monotonically increasing or "
                                          "decreasing (bins.shape=",
                                          bins.shape(), ")."));
    increasing = order[0];
  }
  Tensor flat = reshape(xc, Shape{xc.size()});
  // Increasing: bins[i-1] <= x < bins[i], the right insertion point. Decreasing:
  // bins[i-1] > x >= bins[i], the number of bins above x: n minus the right insertion point
  // into the reversed bins.
  Tensor idx = increasing ? search_sorted_flat(b, flat, true)
                          : subtract(n, search_sorted_flat(detail::flip_axis(b, 0), flat, true));
  return reshape(detail::cast(idx, DType::Int32), x.shape());
}

Tensor isin(const Tensor& x1, const Tensor& x2, bool, bool invert) {
  constexpr std::string_view op = "isin";
  check(x1.defined() && x2.defined(), op, ": an input is an undefined tensor.");
  auto [a, b] = common(op, x1, x2);
  if (b.size() == 0) return detail::filled(a.shape(), invert, DType::Bool, a.backend());
  if (is_complex(a.dtype())) {
    // No order to search in: every element against every test value.
    Tensor found = any(equal(expand_dims(a, -1), reshape(b, Shape{b.size()})), -1);
    return invert ? logical_not(found) : found;
  }
  Tensor table = detail::sort_last(reshape(b, Shape{b.size()}), false, true, false).first;
  Tensor flat = reshape(a, Shape{a.size()});
  Tensor idx = detail::run_unary(backend::UnaryOp::Clip, search_sorted_flat(table, flat, false),
                                 0.0, static_cast<double>(b.size() - 1));
  Tensor found = equal(detail::gather_along(table, idx, 0), flat);
  if (invert) found = logical_not(found);
  return reshape(found, a.shape());
}

TensorList nonzero(const Tensor& x) {
  constexpr std::string_view op = "nonzero";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (x.ndim() == 0)
    throw ValueError(keras::detail::cat(op,
                                        ": a 0-d tensor has no axes to index; reshape it to "
                                        "1-d first."));
  // The output length depends on the values: one copy to the host.
  std::vector<bool> flags = x.to_vector<bool>();
  const int r = x.ndim();
  std::vector<std::vector<int32_t>> coords(static_cast<size_t>(r));
  std::vector<int64_t> index(static_cast<size_t>(r), 0);
  for (bool f : flags) {
    if (f)
      for (int d = 0; d < r; ++d) coords[d].push_back(static_cast<int32_t>(index[d]));
    for (int d = r - 1; d >= 0; --d) {
      if (++index[d] < x.shape()[d]) break;
      index[d] = 0;
    }
  }
  TensorList out;
  for (auto& c : coords)
    out.push_back(Tensor::from_vector(c, Shape{static_cast<int64_t>(c.size())}, x.backend_name()));
  return out;
}

}  // namespace numpy
}  // namespace keras::ops
