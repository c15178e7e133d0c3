// tile, repeat and diff. Uniform repetition is a broadcast view materialized by one reshape
// copy, so its gradient is broadcast_to's sum; per-element repeats gather with an index built
// on the host from the counts (gradient: scatter-add).

#include "keras/ops/ops.h"
#include "ops/detail/op_utils.h"
#include "ops/detail/views.h"

namespace keras::ops {
inline namespace numpy {

Tensor tile(const Tensor& x, const std::vector<int64_t>& repeats) {
  constexpr std::string_view op = "tile";
  check(x.defined(), op, ": the input is an undefined tensor.");
  for (int64_t r : repeats)
    check(r >= 0, op, ": repeats must be non-negative; got ", detail::list_string(repeats), ".");
  const int rank = std::max(x.ndim(), static_cast<int>(repeats.size()));
  // Both sides padded with leading ones to one rank, then (r0, s0, r1, s1, ...) broadcast.
  Shape source = detail::ones_shape(rank - x.ndim()), interleaved, wide, result;
  for (int64_t s : x.shape()) source.push_back(s);
  for (int d = 0; d < rank; ++d) {
    const int k = d - (rank - static_cast<int>(repeats.size()));
    const int64_t r = k >= 0 ? repeats[k] : 1;
    interleaved.push_back(1);
    interleaved.push_back(source[d]);
    wide.push_back(r);
    wide.push_back(source[d]);
    result.push_back(r * source[d]);
  }
  return reshape(broadcast_to(reshape(x, interleaved), wide), result);
}

Tensor tile(const Tensor& x, int64_t repeats) {
  return tile(x, std::vector<int64_t>{repeats});
}

Tensor repeat(const Tensor& x, int64_t repeats, std::optional<int> axis) {
  constexpr std::string_view op = "repeat";
  check(x.defined(), op, ": the input is an undefined tensor.");
  check(repeats >= 0, op, ": repeats must be non-negative; got ", repeats, ".");
  if (!axis) return repeat(ravel(x), repeats, 0);
  const int a = detail::normalize_axis(op, *axis, x.ndim());
  Shape wide = x.shape(), result = x.shape();
  wide.insert(static_cast<size_t>(a) + 1, repeats);
  result[a] *= repeats;
  return reshape(broadcast_to(expand_dims(x, a + 1), wide), result);
}

Tensor repeat(const Tensor& x, const std::vector<int64_t>& repeats, std::optional<int> axis) {
  constexpr std::string_view op = "repeat";
  check(x.defined(), op, ": the input is an undefined tensor.");
  if (repeats.size() == 1) return repeat(x, repeats[0], axis);
  if (!axis) return repeat(ravel(x), repeats, 0);
  const int a = detail::normalize_axis(op, *axis, x.ndim());
  const int64_t n = x.shape()[a];
  check(static_cast<int64_t>(repeats.size()) == n, op, ": ", repeats.size(),
        " repeat counts given for axis ", *axis, " of extent ", n, " (input shape ", x.shape(),
        "); give one count per element or a single count.");
  std::vector<int64_t> index;
  for (int64_t i = 0; i < n; ++i) {
    check(repeats[i] >= 0, op, ": repeats must be non-negative; got ",
          detail::list_string(repeats), ".");
    index.insert(index.end(), static_cast<size_t>(repeats[i]), i);
  }
  return detail::index_select(x, detail::index_tensor(index, x), a);
}

Tensor diff(const Tensor& a, int n, int axis) {
  constexpr std::string_view op = "diff";
  check(a.defined(), op, ": the input is an undefined tensor.");
  check(n >= 0, op, ": the order n must be non-negative; got ", n, ".");
  check(a.ndim() > 0, op, ": the input must have at least 1 axis; got a 0-d tensor.");
  const int d = detail::normalize_axis(op, axis, a.ndim());
  Tensor out = a;
  for (int i = 0; i < n; ++i) {
    const int64_t len = std::max<int64_t>(out.shape()[d] - 1, 0);
    std::vector<detail::AxisIndex> hi = detail::full_spec(out.shape()), lo = hi;
    hi[d] = detail::AxisIndex{len > 0 ? 1 : 0, 1, len, true};
    lo[d] = detail::AxisIndex{0, 1, len, true};
    Tensor upper = detail::basic_view(out, hi), lower = detail::basic_view(out, lo);
    // bool differences are "changed or not", as NumPy.
    out = out.dtype() == DType::Bool ? not_equal(upper, lower) : subtract(upper, lower);
  }
  return out;
}

}  // namespace numpy
}  // namespace keras::ops
